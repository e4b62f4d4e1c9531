package svm

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/primal"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/textfmt"
)

// predictSGD asks svm-sgd's question about iteration in.Step+1. Pegasos
// samples a point: will it be inside the margin, so that its hinge term
// contributes? Full-batch subgradient descent samples none and is not a
// descent method: will its objective go down?
func predictSGD(ctx context.Context, in demo.Input) (*demo.Question, error) {
	x, yf := demo.Columns(in.Points)
	y := pointset.SignLabels(yf)
	if !pointset.BothClasses(y) || in.Step >= demo.MaxStep {
		return nil, nil
	}
	if pegasos(in.State) {
		return pegasosQuestion(ctx, x, y, in)
	}
	return subgradientQuestion(ctx, x, y, in)
}

// pegasosQuestion asks whether the point iteration t+1 samples has
// yᵢ W_t·X̃ᵢ < 1 (001's procedure), naming the point it really samples:
// the stepper's own next draw.
func pegasosQuestion(ctx context.Context, x [][]float64, y []int, in demo.Input) (*demo.Question, error) {
	st := in.State
	p := primal.PegasosParams{Lambda: demo.Lambda.Get(st), T: demo.Iterations.Get(st), Seed: uint64(demo.Aseed.Get(st))}
	pg, s0, err := primal.NewPegasos(x, y, p)
	if err != nil {
		return nil, demo.UncomputableIf(err, svm.ErrNotFinite)
	}
	s, k, _, err := keptPegasos(ctx, in, x, y, p, pg, s0, false)
	if err != nil || k < in.Step || s.Status.Done() {
		return nil, err
	}
	next := pg.Step(s)
	i, t := next.I, next.T
	d := len(x[0])
	var m float64
	for j, v := range x[i] {
		m += float64(next.W[j] * v)
	}
	m = pg.Y[i] * (m + next.W[d])
	scale := math.Abs(next.W[d])
	for j, v := range x[i] {
		scale += math.Abs(next.W[j] * v)
	}
	if math.Abs(m-1) <= 2*svm.TieTol(scale) {
		return demo.NoQuestion(fmt.Sprintf("y·W_t·X̃ = %s for the point iteration %d samples is 1 to within rounding, so rounding, not the rule, would say whether it is inside the margin",
			textfmt.Sig(m), t)), nil
	}
	q := &demo.Question{
		Prompt: fmt.Sprintf("Iteration t = %d samples %s, y = %s, and scores it with W_t = θ_t/(2λt) = %s (its last entry is b). "+
			"Will the point be inside the margin, y·W_t·X̃ < 1, so that its hinge term contributes and θ changes?",
			t, pointAt(i, x[i]), textfmt.Signed(pg.Y[i]), textfmt.Vec(next.W)),
		Choices: demo.YesNoSaying("yes: y·W_t·X̃ < 1, so θ ← θ + yX̃", "no: y·W_t·X̃ ≥ 1, so θ stays"),
		Right:   demo.YesOrNo(next.Violated),
		Marks:   []demo.Mark{markOf("i", x[i])},
	}
	if next.Violated {
		q.Why = fmt.Sprintf("y·W_t·X̃ = %s < 1: the point is inside the margin (or on the wrong side), its hinge term 1 − y·W_t·X̃ is positive, "+
			"so θ ← θ + yX̃ = %s.", textfmt.Sig(m), textfmt.Vec(next.Theta))
	} else {
		q.Why = fmt.Sprintf("y·W_t·X̃ = %s ≥ 1: the point is on or beyond its margin, its hinge term is 0, so θ stays %s.",
			textfmt.Sig(m), textfmt.Vec(next.Theta))
	}
	return q, nil
}

// subgradientQuestion asks whether the objective of (1.6.a) goes down at
// iteration t+1: a step along minus a subgradient need not lower it.
func subgradientQuestion(ctx context.Context, x [][]float64, y []int, in demo.Input) (*demo.Question, error) {
	st := in.State
	p := primal.SubgradientParams{C: subC.Get(st), Eta: subEta.Get(st), Decay: subDecay.Is(st, "sqrt"), T: demo.Iterations.Get(st)}
	sg, s0, err := primal.NewSubgradient(x, y, p)
	if err != nil {
		return nil, demo.UncomputableIf(err, svm.ErrNotFinite)
	}
	s, k, _, err := keptSubgradient(ctx, in, x, y, p, sg, s0, false)
	if err != nil || k < in.Step || s.Status.Done() {
		return nil, err
	}
	next := sg.Step(s)
	t := s.T + 1
	eta := p.Eta
	if p.Decay {
		eta /= math.Sqrt(float64(t))
	}
	diverged := next.Status == algos.Diverged
	down := !diverged && next.Objective < s.Objective
	if why := subgradientUndecided(x, y, p.C, s, next); !diverged && why != "" {
		return demo.NoQuestion(why), nil
	}
	q := &demo.Question{
		Prompt: fmt.Sprintf("The objective ½‖w‖² + CΣ hinge is %s at w = %s, b = %s, where yᵢf(xᵢ) ≤ 1 holds for %s. "+
			"Iteration t = %d steps along minus a subgradient with η_t = %s. Will the objective go down?",
			textfmt.Sig(s.Objective), textfmt.Vec(s.W), textfmt.Num(s.B), textfmt.Plural(s.Violators, "points"), t, textfmt.Sig(eta)),
		Choices: demo.YesNoSaying("yes: it will be lower", "no: it will stay or rise"),
		Right:   demo.YesOrNo(down),
	}
	if diverged {
		q.Why = "The step leaves the range of float64: with η_t this large the objective blows up (the run stops, diverged)."
		return q, nil
	}
	update := fmt.Sprintf("w ← w − η_t (w − C Σ yᵢxᵢ), b ← b + η_t C Σ yᵢ, both sums over the %s with yᵢf(xᵢ) ≤ 1, gives w = %s, b = %s",
		textfmt.Plural(s.Violators, "points"), textfmt.Vec(next.W), textfmt.Num(next.B))
	switch {
	case down:
		q.Why = fmt.Sprintf("%s, and the objective goes down from %s to %s.", update, textfmt.Sig(s.Objective), textfmt.Sig(next.Objective))
	case slices.Equal(next.W, s.W) && next.B == s.B:
		q.Why = fmt.Sprintf("%s: the subgradient is 0 here, so (w, b) does not move and the objective stays %s.", update, textfmt.Sig(s.Objective))
	default:
		q.Why = fmt.Sprintf("%s, and the objective does not go down: from %s to %s. A subgradient step is not a descent step, and with η_t = %s this one overshoots.",
			update, textfmt.Sig(s.Objective), textfmt.Sig(next.Objective), textfmt.Sig(eta))
	}
	return q, nil
}

// subgradientUndecided says why rounding rather than the step could
// decide whether the objective goes down at the step from s to next, or
// "": a point with yᵢf(xᵢ) = 1 to within rounding (in the subgradient's
// sum or not), or a change of the objective within its rounding error,
// n·2⁻⁵² times the sum of its terms' magnitudes, unless (w, b) did not
// move at all (a zero subgradient, as on XOR at w = 0).
func subgradientUndecided(x [][]float64, y []int, c float64, s, next primal.SubgradientState) string {
	terms := 0.0
	for i, xi := range x {
		f, scale := s.B, math.Abs(s.B)
		for k, v := range xi {
			f += s.W[k] * v
			scale += math.Abs(s.W[k] * v)
		}
		if m := float64(y[i]) * f; math.Abs(m-1) <= 2*svm.TieTol(scale) {
			return fmt.Sprintf("y·f(x) = %s at %s is 1 to within rounding, so rounding would decide whether its hinge enters the subgradient",
				textfmt.Sig(m), pointAt(i, xi))
		}
		terms += c * math.Abs(1-float64(y[i])*f)
	}
	for _, w := range s.W {
		terms += w * w / 2
	}
	noise := float64(len(x)+len(s.W)) * 0x1p-52 * 2 * math.Max(terms, math.Abs(next.Objective))
	if d := next.Objective - s.Objective; math.Abs(d) <= noise && !(slices.Equal(next.W, s.W) && next.B == s.B) {
		return fmt.Sprintf("the objective changes by %s, within its rounding error (about %s)", textfmt.Sig(d), textfmt.Sig(noise))
	}
	return ""
}
