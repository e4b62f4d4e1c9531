package svm

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// smoPredictor asks the SMO demos' question about step t+1, by the
// parity of the step shown t: at an even t, which pair (i, j) will SMO
// optimise; at an odd t, with the pair named, how many of αᵢ and αⱼ will
// end at a bound of the box. "Will the dual objective improve?" is not
// asked: an SMO step never raises D and lowers it whenever the pair
// violates the KKT conditions, which every step's pair does, so the
// answer would always be yes. params are the demo's SMO parameters.
func smoPredictor(params func(demo.State) svm.Params) demo.Predictor {
	return func(ctx context.Context, in demo.Input) (*demo.Question, error) {
		x, yf := demo.Columns(in.Points)
		y := pointset.SignLabels(yf)
		if !pointset.BothClasses(y) || in.Step >= demo.MaxStep {
			return nil, nil
		}
		p := params(in.State)
		pr, s0, err := svm.New(x, y, p)
		if err != nil {
			return nil, demo.UncomputableIf(err, svm.ErrNotFinite)
		}
		s, k, _, err := keptSMO(ctx, in, x, y, p, pr, s0, false)
		if err != nil || k < in.Step || s.Status.Done() {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next := pr.Step(s)
		if next.T == s.T { // LIBSVM's "already optimal": no step is taken
			return nil, nil
		}
		if s.T%2 == 0 {
			if q := pairQuestion(pr, s, next); q != nil {
				return q, nil
			}
		}
		return clipQuestion(pr, s, next), nil
	}
}

// pairQuestion asks which pair step t+1 optimises, returns NoQuestion
// when rounding rather than the rule could decide it, or nil when the
// rule leaves a single candidate.
func pairQuestion(pr *svm.Problem, s, next svm.State) *demo.Question {
	ch := smoCandidates(pr, s)
	cs := ch.pairs
	if len(cs) < 2 {
		return nil
	}
	if ch.undone != "" {
		return demo.NoQuestion(ch.undone)
	}
	right := smoPair{i: next.I, j: next.J}.value()
	found := false
	q := &demo.Question{
		Prompt: fmt.Sprintf("After step %d the KKT violation is m(α) − M(α) = %s > ε = %s. Which pair (i, j) will step %d optimise?",
			s.T, textfmt.Sig(s.Gap), textfmt.Sig(pr.P.Tol), s.T+1),
		Right: right,
	}
	for _, c := range cs {
		q.Choices = append(q.Choices, demo.Option{Value: c.value(),
			Label: "i = " + render.PointName(c.i) + ", j = " + render.PointName(c.j)})
		found = found || c.value() == right
	}
	if !found { // cannot happen: the rule above is the solver's
		return nil
	}
	// Mark each candidate point once, by its name, as the choices call it.
	var marked []int
	for _, c := range cs {
		for _, t := range []int{c.i, c.j} {
			if !slices.Contains(marked, t) {
				marked = append(marked, t)
				q.Marks = append(q.Marks, markOf(render.PointName(t), pr.X[t]))
			}
		}
	}
	best := cs[0]
	dist := "aᵢⱼ = ‖xᵢ − xⱼ‖²"
	if pr.P.Kernel.Kind != svm.Linear {
		dist = "aᵢⱼ = K(xᵢ, xᵢ) + K(xⱼ, xⱼ) − 2K(xᵢ, xⱼ)"
	}
	q.Why = fmt.Sprintf("i = %s: the point of I_up with the largest vₜ = yₜ − Σₖ αₖyₖK(xₖ, xₜ), v = m(α) = %s%s. "+
		"Among the j ∈ I_low with vⱼ < vᵢ, the second-order rule takes the one whose full step lowers D the most, "+
		"(vᵢ − vⱼ)²/(2aᵢⱼ) with %s: for j = %s that is (%s − %s)²/(2·%s) = %s",
		render.PointName(best.i), textfmt.Sig(best.vi), tieNote(ch.tiedI, "v", pr.P.Ties), dist, render.PointName(best.j),
		textfmt.Sig(best.vi), textfmt.Paren(textfmt.Sig(best.vj)), textfmt.Sig(best.a), textfmt.Sig(best.gain/2))
	for _, c := range cs[1:] {
		if c.i == best.i {
			q.Why += fmt.Sprintf(", against %s for %s", textfmt.Sig(c.gain/2), render.PointName(c.j))
		}
	}
	q.Why += tieNote(ch.tiedJ, "gain", pr.P.Ties) + "."
	for k, c := range cs[1:] {
		if c.i != best.i && cs[k].i == best.i { // the runner-up's first pair
			if slices.Contains(ch.tiedI, c.i) {
				q.Why += fmt.Sprintf(" %s ties with %s for i but comes before it.", render.PointName(c.i), render.PointName(best.i))
			} else {
				q.Why += fmt.Sprintf(" %s, with the smaller v = %s, comes second for i.", render.PointName(c.i), textfmt.Sig(c.vi))
			}
		}
	}
	return q
}

// tieNote says, for an explanation, which points tied for the choice
// (the winner last) and that the last index won: "; x₅ and x₂₅ tie (their
// v agree to within 8·2⁻⁵²·max|v|), and the last index wins".
func tieNote(tied []int, what string, ties bool) string {
	if len(tied) < 2 {
		return ""
	}
	names := make([]string, len(tied))
	for k, t := range tied {
		names[k] = render.PointName(t)
	}
	list := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	if !ties {
		return fmt.Sprintf(" (%s have the same %s, and the last index wins)", list, what)
	}
	scale := "max|v|"
	if what != "v" {
		scale = "the largest gain"
	}
	return fmt.Sprintf(" (%s tie: their %s agree to within 8·2⁻⁵²·%s, and the last index wins)", list, what, scale)
}

// clipQuestion names the pair step t+1 optimises and asks how many of
// its two multipliers end at a bound of the box [0, C] ([0, ∞) for the
// hard margin).
func clipQuestion(pr *svm.Problem, s, next svm.State) *demo.Question {
	i, j := next.I, next.J
	bound, box, where := "0 or C", fmt.Sprintf("[0, C] with C = %s", textfmt.Sig(pr.P.C)), "a bound of the box [0, C]"
	if pr.P.Hard {
		bound, box, where = "0", "α ≥ 0", "0"
	}
	atBound := func(a float64) bool { return a <= 0 || !pr.P.Hard && a >= pr.P.C }
	n := 0
	for _, a := range []float64{next.Alpha[i], next.Alpha[j]} {
		if atBound(a) {
			n++
		}
	}
	v := smoV(pr, s)
	a := pr.Curvature(i, j, pr.Column(i))
	tauStar := (v[i] - v[j]) / a
	// The full step's end points, and how near a bound they land: within
	// twice the tie tolerance of the numbers involved (but not on it),
	// rounding could decide whether the solver clips. A full step that
	// lands on the bound exactly ends there clipped or not.
	ui, uj := s.Alpha[i]+pr.Y[i]*tauStar, s.Alpha[j]-pr.Y[j]*tauStar
	scale := math.Max(math.Max(math.Abs(s.Alpha[i]), math.Abs(s.Alpha[j])), math.Abs(tauStar))
	bounds := []float64{0}
	if !pr.P.Hard {
		bounds = append(bounds, pr.P.C)
		scale = math.Max(scale, pr.P.C)
	}
	for _, u := range []struct {
		name string
		a    float64
	}{{"αᵢ", ui}, {"αⱼ", uj}} {
		for _, b := range bounds {
			if d := math.Abs(u.a - b); d > 0 && d <= 2*svm.TieTol(scale) {
				return demo.NoQuestion(fmt.Sprintf("the full step puts %s at %s, within rounding of the bound %s, so rounding, not the rule, would decide whether it is clipped",
					u.name, textfmt.Sig(u.a), textfmt.Sig(b)))
			}
		}
	}
	tau := pr.Y[i] * (next.Alpha[i] - s.Alpha[i])
	q := &demo.Question{
		Prompt: fmt.Sprintf("Step %d optimises the pair i = %s, y = %s, αᵢ = %s and j = %s, y = %s, αⱼ = %s. "+
			"How many of αᵢ and αⱼ will end at %s?",
			s.T+1, pointAt(i, pr.X[i]), textfmt.Signed(pr.Y[i]), textfmt.Sig(s.Alpha[i]),
			pointAt(j, pr.X[j]), textfmt.Signed(pr.Y[j]), textfmt.Sig(s.Alpha[j]), where),
		Choices: []demo.Option{
			{Value: "none", Label: "neither: both end strictly between the bounds"},
			{Value: "one", Label: "one of them ends at " + bound},
			{Value: "both", Label: "both end at " + bound},
		},
		Right: []string{"none", "one", "both"}[n],
		Marks: []demo.Mark{markOf("i", pr.X[i]), markOf("j", pr.X[j])},
	}
	step := fmt.Sprintf("αᵢ ← αᵢ + yᵢτ and αⱼ ← αⱼ − yⱼτ; the full step is τ* = (vᵢ − vⱼ)/aᵢⱼ = (%s − %s)/%s = %s",
		textfmt.Sig(v[i]), textfmt.Paren(textfmt.Sig(v[j])), textfmt.Sig(a), textfmt.Sig(tauStar))
	// The full step leaves the box exactly when the solver clips it.
	inBox := func(a float64) bool { return a >= 0 && (pr.P.Hard || a <= pr.P.C) }
	if inBox(ui) && inBox(uj) {
		q.Why = fmt.Sprintf("%s, which stays in the box %s: αᵢ = %s, αⱼ = %s.", step, box,
			textfmt.Sig(next.Alpha[i]), textfmt.Sig(next.Alpha[j]))
	} else {
		q.Why = fmt.Sprintf("%s, which would leave the box %s, so it is clipped to τ = %s: αᵢ = %s, αⱼ = %s.", step, box,
			textfmt.Sig(tau), textfmt.Sig(next.Alpha[i]), textfmt.Sig(next.Alpha[j]))
	}
	q.Why += fmt.Sprintf(" D(α) falls from %s to %s.", textfmt.Sig(s.Dual), textfmt.Sig(next.Dual))
	return q
}
