package svm

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/scenes"
	"github.com/margin-edu/margin/internal/textfmt"
)

// svmPanel writes the step out with its numbers: which pair SMO chose,
// how their α moved, and where the objective and the KKT violation stand.
func svmPanel(pr *svm.Problem, s svm.State, st demo.State, cmp *scenes.SceneLine) demo.Panel {
	p := demo.Panel{
		Status: s.Status.String(),
		Done:   s.Status.Done(),
		Bad:    s.Status.Done() && s.Status != algos.Converged,
		Start:  "Start: every αᵢ = 0, so w = 0. Press → or Step to let SMO optimise its first pair.",
	}
	if s.Status == algos.Infeasible {
		p.Examined = "SMO has nothing to solve: the hard-margin problem has no solution on these points."
		p.Notes = append(p.Notes, demo.Note{TestID: "infeasible", Alert: true,
			Text: "No line separates these points: the convex hulls of the two classes meet. The marked points, weighted, " +
				"average to the same place from both classes, so every line puts some point on its wrong side, and the " +
				"dual objective falls without bound. The soft-margin SVM allows such violations at a price C.",
			Href: softLink(st), LinkText: "Solve these points with a soft margin →"})
		return p
	}
	if svmAtLimit(s) {
		p.Status, p.Done, p.Bad = demo.StepLimitStatus, true, true
	}
	sv := pr.Support(s)
	w := pr.Weights(s)
	band := "—"
	if w != nil && floats.Norm(w, 2) > 0 {
		band = textfmt.Sig(2 / floats.Norm(w, 2))
	}
	u := scoresWithoutBias(pr, s)
	p.Counters = []demo.Counter{
		{"SMO step t", strconv.Itoa(s.T), "step"},
		{"support vectors", strconv.Itoa(len(sv)), "support"},
		{"band width 2/‖w‖", band, "band"},
		{"training error", textfmt.Pct(errorAt(pr.Y, u, s.B), 1), "error"},
		{"D(α)", textfmt.Sig(s.Dual), "dual"},
		{"KKT violation m − M", textfmt.Sig(s.Gap), "gap"},
	}
	if pr.P.Kernel.Kind != svm.Linear {
		p.Counters = slices.Delete(p.Counters, 2, 3) // the band 2/‖w‖ lives in feature space
	}
	if s.I >= 0 {
		svmStep(&p, pr, s)
	}
	p.Model = []demo.ModelLine{{Facts: modelFacts(w, s.B)}}
	// The prediction rule first, under the training error it defines.
	p.Notes = append([]demo.Note{errorRuleNote()}, svmNotes(pr, s, sv, u, cmp)...)
	if r, ok := biasInterval(pr, s, u); ok {
		p.Model[0].Extra = fmt.Sprintf("(any b from %s to %s is optimal; SMO reports the midpoint)", textfmt.Sig(r.lo), textfmt.Sig(r.hi))
		p.Notes = append(p.Notes, r.note())
	}
	if pr.P.Hard {
		p.Tables = append(p.Tables, supportTable(pr, s, sv))
	} else {
		p.Tables = append(p.Tables, slackTable(pr, s))
	}
	return p
}

// svmAtLimit reports whether the demo stopped SMO at its last step,
// MaxStep, before the run converged: the run has stopped, but not by
// succeeding.
func svmAtLimit(s svm.State) bool { return s.Status == algos.Running && s.T >= demo.MaxStep }

func modelFacts(w []float64, b float64) []demo.Fact {
	if w == nil {
		return []demo.Fact{{"b", textfmt.Num(b), "b"}}
	}
	return []demo.Fact{{"w", textfmt.Vec(w), "w"}, {"b", textfmt.Num(b), "b"}}
}

// svmStep writes out the pair SMO optimised and what it did.
func svmStep(p *demo.Panel, pr *svm.Problem, s svm.State) {
	i, j := s.I, s.J
	p.Changed = true
	p.Examined = fmt.Sprintf("Step %d optimises the pair i = %s (y = %s) and j = %s (y = %s): i has the largest vₜ in I_up, "+
		"and the second-order rule (WSS 2) chose j as the partner whose step lowers D(α) the most, "+
		"which need not be the most violating one (the smallest vⱼ).", s.T, render.PointName(i), textfmt.Signed(pr.Y[i]), render.PointName(j), textfmt.Signed(pr.Y[j]))
	p.Lines = []string{
		fmt.Sprintf("αᵢ: %s → %s and αⱼ: %s → %s; yᵢαᵢ + yⱼαⱼ is unchanged, so Σ αₖyₖ = 0 still holds.",
			textfmt.Sig(s.OldI), textfmt.Sig(s.Alpha[i]), textfmt.Sig(s.OldJ), textfmt.Sig(s.Alpha[j])),
		fmt.Sprintf("D(α) = %s; the KKT violation m(α) − M(α) = %s (SMO stops at ε = %s).", textfmt.Sig(s.Dual), textfmt.Sig(s.Gap), textfmt.Sig(pr.P.Tol)),
	}
}

// scoresWithoutBias is f(xᵢ) − b at every training point of state s.
func scoresWithoutBias(pr *svm.Problem, s svm.State) []float64 {
	s.B = 0
	u := make([]float64, len(pr.X))
	for i, x := range pr.X {
		u[i] = pr.Decision(s, x)
	}
	return u
}

// errorAt is the training error with offset b, given u = f − b at the
// points: the fraction of points whose prediction differs from their label.
func errorAt(y, u []float64, b float64) float64 {
	wrong := 0
	for i, v := range u {
		if float64(demo.Predict(v+b)) != y[i] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(u))
}

// errorRuleNote states the prediction rule beside the training error.
func errorRuleNote() demo.Note { return demo.RuleNote(demo.SignRule) }

func svmNotes(pr *svm.Problem, s svm.State, sv []int, u []float64, cmp *scenes.SceneLine) []demo.Note {
	var notes []demo.Note
	if !pr.P.Hard && s.Status != algos.Converged {
		notes = append(notes, midRunKinds(pr, s, sv, u))
	} else if !pr.P.Hard {
		counts := map[svm.SVKind]int{}
		onH, onHPos := 0, 0
		for _, i := range sv {
			k := pr.Kind(s, i)
			counts[k]++
			if k == svm.Inside && u[i]+s.B == 0 {
				onH++
				if pr.Y[i] > 0 {
					onHPos++
				}
			}
		}
		text := fmt.Sprintf("Support vectors: %d on the margin (0 < αᵢ < C), "+
			"%d inside it and %d misclassified (both αᵢ = C).", counts[svm.OnMargin], counts[svm.Inside], counts[svm.Misclassified])
		if onH > 0 {
			verb := "lie"
			if onH == 1 {
				verb = "lies"
			}
			text += fmt.Sprintf(" %d of the points inside %s on H itself, f(xᵢ) = 0, which predicts −1: ", onH, verb)
			switch onHPos {
			case 0:
				text += "none of them has y = +1, so none is a training error."
			case 1:
				text += "the one with y = +1 is a training error, though not misclassified in the sense yᵢf(xᵢ) < 0."
			default:
				text += fmt.Sprintf("the %d with y = +1 are training errors, though not misclassified in the sense yᵢf(xᵢ) < 0.", onHPos)
			}
		}
		notes = append(notes, demo.Note{TestID: "kinds", Text: text})
	}
	if s.Status == algos.Converged {
		rest := "every point is one"
		if k := len(pr.X) - len(sv); k > 0 {
			rest = fmt.Sprintf("the other %s αᵢ = 0 and could move or go without moving the line", textfmt.Plural(k, "points have"))
			if k == 1 {
				rest = "the other point has αᵢ = 0 and could move or go without moving the line"
			}
		}
		sum := "w = Σ αᵢyᵢxᵢ"
		if pr.P.Kernel.Kind != svm.Linear {
			sum = "f(x) = Σ αᵢyᵢK(xᵢ, x) + b"
			rest = strings.Replace(rest, "the line", "the boundary", 1)
		}
		text := fmt.Sprintf("Solved: every KKT condition holds to within ε. "+
			"%s sums over the %s only; %s.", sum, textfmt.Plural(len(sv), "support vectors"), rest)
		if w := pr.Weights(s); pr.P.Hard && w != nil {
			nw := floats.Norm(w, 2)
			text += fmt.Sprintf(" The margin, the distance from H to the closest points, is 1/‖w‖ = %s; the band between H₋ and H₊ is 2/‖w‖ = %s wide.",
				textfmt.Sig(1/nw), textfmt.Sig(2/nw))
		}
		notes = append(notes, demo.Note{TestID: "solved", Text: text})
	}
	if svmAtLimit(s) {
		notes = append(notes, demo.Note{TestID: "not-converged", Alert: true, Text: fmt.Sprintf("The demo stops at step %d, its last: "+
			"SMO has not converged, since the KKT violation m(α) − M(α) = %s is still above ε = %s. "+
			"The line drawn is SMO's iterate at that step, not the solution.", s.T, textfmt.Sig(s.Gap), textfmt.Sig(pr.P.Tol))})
	}
	if cmp != nil {
		notes = append(notes, demo.Note{TestID: "compare", Text: fmt.Sprintf("Dashed grey: the %s line, w = %s, b = %s. %s",
			cmp.Label, textfmt.Vec(cmp.W), textfmt.Num(cmp.B), compareMargins(pr, s, cmp))})
	}
	return notes
}

// compareMargins sets the perceptron's margin beside the SVM's: the
// smallest distance of a point to each line.
func compareMargins(pr *svm.Problem, s svm.State, cmp *scenes.SceneLine) string {
	pm := lineMargin(pr, cmp.W, cmp.B)
	w := pr.Weights(s)
	if pm <= 0 {
		return "It does not separate the points."
	}
	if w == nil || floats.Norm(w, 2) == 0 {
		return fmt.Sprintf("Its closest point is %s away; the SVM has no line while w = 0.", textfmt.Sig(pm))
	}
	return fmt.Sprintf("Its closest point is %s away; the SVM's closest points are %s away.", textfmt.Sig(pm), textfmt.Sig(lineMargin(pr, w, s.B)))
}

// lineMargin is minᵢ yᵢ(w·xᵢ + b)/‖w‖: the distance of the closest point
// when the line separates the points, ≤ 0 when it does not.
func lineMargin(pr *svm.Problem, w []float64, b float64) float64 {
	nw := floats.Norm(w, 2)
	if nw == 0 {
		return 0
	}
	m := math.Inf(1)
	for i, x := range pr.X {
		m = math.Min(m, pr.Y[i]*(floats.Dot(w, x)+b)/nw)
	}
	return m
}

// maxTableRows keeps a panel table short enough to read beside the plot.
const maxTableRows = 12

// supportTable lists the support vectors with their αᵢ and yᵢf(xᵢ), which
// is 1 for each at the solution.
func supportTable(pr *svm.Problem, s svm.State, sv []int) demo.Table {
	t := demo.Table{TestID: "support-table", Caption: "Support vectors: αᵢ > 0, and yᵢf(xᵢ) = 1 at the solution",
		Head: []string{"point", "y", "αᵢ", "yᵢf(xᵢ)"}}
	for _, i := range sv[:min(len(sv), maxTableRows)] {
		t.Rows = append(t.Rows, []string{render.PointName(i), textfmt.Signed(pr.Y[i]), textfmt.Sig(s.Alpha[i]), textfmt.Sig(pr.Y[i] * pr.Decision(s, pr.X[i]))})
	}
	if len(sv) > maxTableRows {
		t.More = "and " + textfmt.Plural(len(sv)-maxTableRows, "more support vectors")
	}
	if len(sv) == 0 {
		t.More = "none: every αᵢ = 0"
	}
	return t
}

// slackTable lists the points with slack ξᵢ = max(0, 1 − yᵢf(xᵢ)) > 0,
// largest first: the violations the segments on the plot show.
func slackTable(pr *svm.Problem, s svm.State) demo.Table {
	type row struct {
		i        int
		f, slack float64
	}
	var rows []row
	for i, x := range pr.X {
		f := pr.Decision(s, x)
		if xi := 1 - pr.Y[i]*f; xi > 1e-9 {
			rows = append(rows, row{i, f, xi})
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int { return cmp.Compare(b.slack, a.slack) })
	t := demo.Table{TestID: "slack-table", Caption: "Slack ξᵢ = max(0, 1 − yᵢf(xᵢ)) of the points that violate the margin",
		Head: []string{"point", "y", "f(xᵢ)", "ξᵢ", "αᵢ", "kind"}}
	solved := s.Status == algos.Converged
	if !solved {
		// Mid-run α and the geometry are two things: name each.
		t.Head = []string{"point", "y", "f(xᵢ)", "ξᵢ", "αᵢ", "αᵢ is", "by yᵢf(xᵢ)"}
	}
	for _, r := range rows[:min(len(rows), maxTableRows)] {
		row := []string{render.PointName(r.i), textfmt.Signed(pr.Y[r.i]), textfmt.Sig(r.f), textfmt.Sig(r.slack), textfmt.Sig(s.Alpha[r.i])}
		if !solved {
			t.Rows = append(t.Rows, append(row, alphaWord(pr, s, r.i), placeWord(pr.Y[r.i]*r.f)))
			continue
		}
		kind := pr.Kind(s, r.i).String()
		if kind == "" {
			kind = "not a support vector"
		}
		t.Rows = append(t.Rows, append(row, kind))
	}
	switch {
	case len(rows) > maxTableRows:
		t.More = "and " + textfmt.Plural(len(rows)-maxTableRows, "more points") + " with slack"
	case len(rows) == 0:
		t.More = "no point violates the margin"
	}
	return t
}

// softLink is the soft-margin lesson on the same points.
func softLink(st demo.State) string {
	q := st.Encode(demo.ForData)
	if q == "" {
		return "/lessons/soft-margin-svm"
	}
	return "/lessons/soft-margin-svm?" + q
}

// alphaWord names where αᵢ of state s sits in its box, by the solver's
// bound tests: "0", "free (0 < αᵢ < C)" or "at C".
func alphaWord(pr *svm.Problem, s svm.State, i int) string {
	switch a := s.Alpha[i]; {
	case a <= 0:
		return "0"
	case pr.P.Hard || a < pr.P.C:
		return "free"
	}
	return "at C"
}

// placeWord names where yᵢf(xᵢ) = m puts a point relative to the current
// band, with the plot's tolerance 10⁻³ for "on the margin".
func placeWord(m float64) string {
	switch {
	case m < 0:
		return "misclassified"
	case m == 0:
		return "on H"
	case m < 1-kindTol:
		return "inside the band"
	case m <= 1+kindTol:
		return "on the margin"
	}
	return "outside the band"
}

// kindTol is how near 1 a yᵢf(xᵢ) counts as on the margin, as the plot
// draws it.
const kindTol = 1e-3

// midRunKinds describes the support vectors of a state SMO has not
// solved: by α and, separately, by where the current line puts them,
// since the three kinds of support vector belong to the optimum.
func midRunKinds(pr *svm.Problem, s svm.State, sv []int, u []float64) demo.Note {
	byAlpha, byPlace := map[string]int{}, map[string]int{}
	for _, i := range sv {
		byAlpha[alphaWord(pr, s, i)]++
		byPlace[placeWord(pr.Y[i]*(u[i]+s.B))]++
	}
	onH := ""
	if n := byPlace["on H"]; n > 0 {
		onH = fmt.Sprintf(", and %d on H itself", n)
	}
	return demo.Note{TestID: "kinds", Text: fmt.Sprintf("Support vectors (αᵢ > 0) so far: %d free (0 < αᵢ < C) and %d at C. "+
		"The current line puts %d of them on the margin (yᵢf(xᵢ) = 1 to within 10⁻³), %d outside the band, %d inside it and %d misclassified%s. "+
		"The kinds of support vector belong to the solution, where a free αᵢ puts its point on the margin and αᵢ = C inside the band or beyond H; "+
		"this α is not the solution.", byAlpha["free"], byAlpha["at C"],
		byPlace["on the margin"], byPlace["outside the band"], byPlace["inside the band"], byPlace["misclassified"], onH)}
}
