package svm

import (
	"context"
	"errors"
	"fmt"

	"github.com/margin-edu/margin/internal/algos/primal"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// reference is the optimum a stochastic or subgradient run is charted
// against. Its solver works within a budget of work units derived from the
// data (never the clock), so a badly conditioned problem (a tiny λ, a
// degree-10 kernel, points at |x| ≈ 10⁶) stops it before the optimum: the
// run is still shown, against the solver's lower bound on the optimum
// (its dual objective), marked approximate, with the interval the optimum
// lies in. The distance to a lower bound overstates the distance to the
// optimum, never understates it.
type reference struct {
	value  float64
	approx *primal.ApproxError // nil when the solver converged
}

// newReference reads an optimum solver's answer: err is nil, an
// *primal.ApproxError (kept), or a failure (returned).
func newReference(value float64, err error) (reference, error) {
	var ae *primal.ApproxError
	switch {
	case err == nil:
		return reference{value: value}, nil
	case errors.As(err, &ae):
		return reference{value: ae.Lower, approx: ae}, nil
	}
	return reference{}, err
}

// name is the counter's and the chart's word for it.
func (r reference) name() string {
	if r.approx != nil {
		return "lower bound on the optimum"
	}
	return "exact optimum"
}

// inTitle is how a figure's title quotes it.
func (r reference) inTitle() string {
	if r.approx != nil {
		return "optimum ≥ " + textfmt.Sig(r.value)
	}
	return "optimum " + textfmt.Sig(r.value)
}

// track marks a history recorder's reference line approximate when it is.
func (r reference) track(approx *bool, gap *float64) {
	if r.approx != nil {
		*approx, *gap = true, r.approx.Gap()
	}
}

// note says why the reference is approximate and how far off it can be;
// empty when it is exact. cure is what would condition the problem better.
func (r reference) note(cure string) []demo.Note {
	if r.approx == nil {
		return nil
	}
	a := r.approx
	return []demo.Note{{TestID: "approximate", Alert: true, Text: fmt.Sprintf(
		"The optimum is not exact here: %s stopped at its work budget after %s with the optimum between %s and %s (its dual and primal objectives). "+
			"The run is measured against the lower bound %s, so the distance shown may overstate the distance to the optimum by up to %s. "+
			"This problem is badly conditioned; %s makes the optimum exact.",
		a.Solver, textfmt.Plural(a.Steps, a.Unit), textfmt.Sig(a.Lower), textfmt.Sig(a.Upper), textfmt.Sig(a.Lower), textfmt.Sig(a.Gap()), cure)}}
}

// optimum is the reference a run is charted against and the model at it
// (θ for Pegasos, w and b for subgradient descent, none for kernel SGD).
type optimum struct {
	ref reference
	w   []float64
	b   float64
}

// memoOptimum returns the optimum of key from the course's cache, or
// solves it and keeps it: it depends on the points and the objective's
// numbers only, never on the step or the run's other parameters, so a
// student stepping through a run (or the page, then its history chart)
// pays for it once, not per request. An approximate optimum is an answer
// (solve folds its *primal.ApproxError into the reference), so it is kept
// too; a failure or a cancelled context is not.
func memoOptimum(ctx context.Context, cache *demo.Cache, key demo.CacheKey, solve func(context.Context) (optimum, error)) (optimum, error) {
	return demo.Memoise(ctx, cache, key, func(o optimum) int64 { return 128 + demo.FloatsBytes(o.w) }, solve)
}

// optimumKey names an optimum by its objective (kind), the points, their
// ±1 labels and the objective's numbers.
func optimumKey(kind string, x [][]float64, y []int, nums ...float64) demo.CacheKey {
	yf := make([]float64, len(y))
	for i, v := range y {
		yf[i] = float64(v)
	}
	return demo.ProblemKey(kind, x, yf, nums...)
}
