package logistic

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos/feasible"
)

// ErrUndecided: the linear program behind Separable failed numerically.
var ErrUndecided = errors.New("logistic: could not decide whether the data are separable")

// Separable reports whether J with λ = 0 has no minimiser: whether some
// (w, b) gives margins yᵢ(w·xᵢ + b) ≥ 0 for every i and > 0 for at least
// one (complete or quasi-complete separation; a direction with every
// margin 0, such as w ⟂ the data when the points lie on a line, changes
// nothing and does not count).
//
// It is decided exactly by Stiemke's theorem of the alternative: with
// aᵢ = yᵢ(xᵢ, 1), exactly one of
//
//	(a) some v has aᵢ·v ≥ 0 for all i and > 0 for some i (separable);
//	(b) some μ with every μᵢ > 0 has Σ μᵢaᵢ = 0.
//
// Scaling (b) so that min μᵢ = 1 and writing μ = 1 + ν makes it the
// feasibility problem Σ νᵢaᵢ = −Σ aᵢ, ν ≥ 0: a linear program with d + 1
// rows and n columns, which gonum's Simplex decides. Its work grows like
// r⁴ + r²n with r = min(n, d+1): on random data it took 15 ms for
// n = 10000, d = 10, 0.15 s for d = 50 and 0.7 to 1.3 s for d = 100, so
// keep d to a few tens when n is in the thousands (the fit API budgets
// it, see fit.separableWork). A certificate from the program is checked
// against the data before it is believed (ErrUndecided otherwise).
func (p *Problem) Separable() (bool, error) {
	n, d := len(p.X), p.dim()
	var sys feasible.System
	for k := 0; k <= d; k++ {
		a := make([]float64, n)
		for i, x := range p.X {
			a[i] = p.Y[i]
			if k < d {
				a[i] *= x[k]
			}
		}
		if !sys.Add(a, -floats.Sum(a)) {
			return true, nil
		}
	}
	nu, err := sys.NonNegative()
	switch {
	case errors.Is(err, feasible.ErrInfeasible):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("%w: the linear program failed: %v", ErrUndecided, err)
	}
	return false, p.verify(nu)
}

// verify checks the certificate μ = 1 + ν of (b): Σ μᵢyᵢ(xᵢ, 1) must
// vanish relative to Σ μᵢ‖(xᵢ, 1)‖.
func (p *Problem) verify(nu []float64) error {
	d := p.dim()
	v := make([]float64, d+1)
	var scale float64
	for i, x := range p.X {
		mu := 1 + math.Max(nu[i], 0)
		floats.AddScaled(v[:d], mu*p.Y[i], x)
		v[d] += mu * p.Y[i]
		scale += mu * math.Hypot(floats.Norm(x, 2), 1)
	}
	if r := floats.Norm(v, 2); !(r <= 1e-8*scale) {
		return fmt.Errorf("%w: the linear program's certificate is off by %.3g of %.3g", ErrUndecided, r, scale)
	}
	return nil
}
