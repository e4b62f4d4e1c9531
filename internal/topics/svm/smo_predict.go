package svm

import (
	"context"
	"fmt"
	"strconv"

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

// smoPair is a candidate working pair with the numbers that rank it.
type smoPair struct {
	i, j   int
	vi, vj float64 // vₜ = −yₜ ∂D/∂αₜ
	a      float64 // aᵢⱼ = Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ (τ when ≤ 0)
	gain   float64 // (vᵢ − vⱼ)²/aᵢⱼ, twice the decrease of D of a full step
}

func (p smoPair) value() string {
	return strconv.Itoa(p.i+1) + "-" + strconv.Itoa(p.j+1)
}

// smoV returns every vₜ = −yₜGₜ of state s.
func smoV(pr *svm.Problem, s svm.State) []float64 {
	v := make([]float64, len(s.G))
	for t, g := range s.G {
		v[t] = -pr.Y[t] * g
	}
	return v
}

// inUp and inLow report whether t is in I_up or I_low of state s.
func inUp(pr *svm.Problem, s svm.State, t int) bool {
	if pr.Y[t] > 0 {
		return pr.P.Hard || s.Alpha[t] < pr.P.C
	}
	return s.Alpha[t] > 0
}

func inLow(pr *svm.Problem, s svm.State, t int) bool {
	if pr.Y[t] > 0 {
		return s.Alpha[t] > 0
	}
	return pr.P.Hard || s.Alpha[t] < pr.P.C
}

// curvature is aᵢⱼ = K(xᵢ, xᵢ) + K(xⱼ, xⱼ) − 2K(xᵢ, xⱼ), or LIBSVM's
// TAU = 10⁻¹² where it is not positive (duplicate points), as the solver
// takes it.
func curvature(pr *svm.Problem, i, j int) float64 {
	k := pr.P.Kernel
	a := k.Eval(pr.X[i], pr.X[i]) + k.Eval(pr.X[j], pr.X[j]) - float64(2*k.Eval(pr.X[i], pr.X[j]))
	if a <= 0 {
		a = 1e-12
	}
	return a
}

// partners ranks the j ∈ I_low with vⱼ < vᵢ by the second-order rule,
// best first (the later index first on ties, as LIBSVM's scan).
func partners(pr *svm.Problem, s svm.State, v []float64, i int) []smoPair {
	var out []smoPair
	for t := range v {
		diff := v[i] - v[t]
		if !inLow(pr, s, t) || diff <= 0 {
			continue
		}
		a := curvature(pr, i, t)
		out = append(out, smoPair{i: i, j: t, vi: v[i], vj: v[t], a: a, gain: diff * diff / a})
	}
	// Insertion sort, stable from the last index down: best gain first,
	// the later index first among equals.
	for a := 1; a < len(out); a++ {
		for b := a; b > 0 && out[b].gain >= out[b-1].gain; b-- {
			out[b], out[b-1] = out[b-1], out[b]
		}
	}
	return out
}

// smoCandidates are the pairs the pair question offers, the one SMO's
// rule picks first: i, the last point of I_up with the largest vᵢ, with
// its best partner a by the second-order rule. The others are built so
// that no index stands out by how often it appears: i with a second
// partner b (the maximal violating pair's j, the smallest vⱼ, when it is
// not a; else i's second-best partner), and the runner-up i₂ for the
// first index with the same a and b where they are partners of i₂ (else
// with i₂'s own best ones). Pairs are unique as sets; at most four.
func smoCandidates(pr *svm.Problem, s svm.State) []smoPair {
	v := smoV(pr, s)
	first, second := -1, -1
	for t := range v {
		if !inUp(pr, s, t) {
			continue
		}
		switch {
		case first < 0 || v[t] >= v[first]:
			first, second = t, first
		case second < 0 || v[t] >= v[second]:
			second = t
		}
	}
	if first < 0 {
		return nil
	}
	ps := partners(pr, s, v, first)
	if len(ps) == 0 {
		return nil
	}
	mvp := ps[0]
	for _, p := range ps {
		if p.vj < mvp.vj || p.vj == mvp.vj && p.j > mvp.j {
			mvp = p
		}
	}
	mine := []smoPair{ps[0]}
	if mvp.j != ps[0].j {
		mine = append(mine, mvp)
	} else if len(ps) > 1 {
		mine = append(mine, ps[1])
	}
	var out []smoPair
	add := func(p smoPair) bool {
		for _, q := range out {
			if (p.i == q.i && p.j == q.j) || (p.i == q.j && p.j == q.i) {
				return false
			}
		}
		out = append(out, p)
		return true
	}
	for _, p := range mine {
		add(p)
	}
	if second < 0 {
		return out
	}
	// The runner-up's pairs: with i's partners where it can take them,
	// then with its own best ones, as many as i has.
	theirs := partners(pr, s, v, second)
	n := 0
	for _, m := range mine {
		for _, p := range theirs {
			if p.j == m.j && n < len(mine) && add(p) {
				n++
			}
		}
	}
	for _, p := range theirs {
		if n < len(mine) && add(p) {
			n++
		}
	}
	return out
}

// pairQuestion asks which pair step t+1 optimises, or returns nil when
// the rule leaves a single candidate.
func pairQuestion(pr *svm.Problem, s, next svm.State) *demo.Question {
	cs := smoCandidates(pr, s)
	if len(cs) < 2 {
		return nil
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
	best := cs[0]
	dist := "aᵢⱼ = ‖xᵢ − xⱼ‖²"
	if pr.P.Kernel.Kind != svm.Linear {
		dist = "aᵢⱼ = K(xᵢ, xᵢ) + K(xⱼ, xⱼ) − 2K(xᵢ, xⱼ)"
	}
	q.Why = fmt.Sprintf("i = %s: the point of I_up with the largest vₜ = yₜ − Σₖ αₖyₖK(xₖ, xₜ), v = m(α) = %s. "+
		"Among the j ∈ I_low with vⱼ < vᵢ, the second-order rule takes the one whose full step lowers D the most, "+
		"(vᵢ − vⱼ)²/(2aᵢⱼ) with %s: for j = %s that is (%s − %s)²/(2·%s) = %s",
		render.PointName(best.i), textfmt.Sig(best.vi), dist, render.PointName(best.j),
		textfmt.Sig(best.vi), textfmt.Paren(textfmt.Sig(best.vj)), textfmt.Sig(best.a), textfmt.Sig(best.gain/2))
	for _, c := range cs[1:] {
		if c.i == best.i {
			q.Why += fmt.Sprintf(", against %s for %s", textfmt.Sig(c.gain/2), render.PointName(c.j))
		}
	}
	q.Why += "."
	for k, c := range cs[1:] {
		if c.i != best.i && cs[k].i == best.i { // the runner-up's first pair
			q.Why += fmt.Sprintf(" %s, with v = %s, comes after %s for i.", render.PointName(c.i), textfmt.Sig(c.vi), render.PointName(best.i))
		}
	}
	return q
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
	a := curvature(pr, i, j)
	tauStar := (v[i] - v[j]) / a
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
	ui, uj := s.Alpha[i]+pr.Y[i]*tauStar, s.Alpha[j]-pr.Y[j]*tauStar
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
