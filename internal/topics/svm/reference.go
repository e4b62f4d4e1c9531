package svm

import (
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

// optimumValue keeps an optimum solver's value and error, dropping the
// point it reached.
func optimumValue(_ []float64, value float64, err error) (float64, error) { return value, err }
