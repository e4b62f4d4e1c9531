package logistic

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// ErrUndecided: the linear program behind Separable failed numerically.
var ErrUndecided = errors.New("logistic: could not decide whether the data are separable")

// Tolerances of the linear program, as in svm's hard-margin test:
// depTol is the relative size below which a row counts as a combination
// of the rows before it; negTol how far below 0 an entry may round.
const (
	depTol = 1e-9
	negTol = 1e-12
)

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
	var rows [][]float64 // orthonormal rows
	var rhs []float64
	for k := 0; k <= d; k++ {
		a := make([]float64, n)
		for i, x := range p.X {
			a[i] = p.Y[i]
			if k < d {
				a[i] *= x[k]
			}
		}
		var ok bool
		if rows, rhs, ok = addRow(rows, rhs, a, -floats.Sum(a)); !ok {
			return true, nil
		}
	}
	if len(rows) == 0 { // every aᵢ = 0 cannot happen (the b entry is ±1)
		return false, nil
	}
	nu, err := simplex(rows, rhs)
	switch {
	case errors.Is(err, lp.ErrInfeasible):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("%w: the linear program failed: %v", ErrUndecided, err)
	}
	return false, p.verify(nu)
}

// addRow makes a (with right-hand side beta) orthogonal to the rows so
// far by Gram–Schmidt (twice, which is enough) and appends it,
// normalised. A row that depends on the earlier ones is dropped; ok is
// false when its right-hand side then disagrees, which makes the system
// inconsistent.
func addRow(rows [][]float64, rhs []float64, a []float64, beta float64) ([][]float64, []float64, bool) {
	norm := floats.Norm(a, 2)
	for range 2 {
		for q, row := range rows {
			c := floats.Dot(row, a)
			floats.AddScaled(a, -c, row)
			beta -= c * rhs[q]
		}
	}
	res := floats.Norm(a, 2)
	if res <= depTol*norm {
		return rows, rhs, math.Abs(beta) <= depTol*norm*math.Sqrt(float64(len(a)))
	}
	floats.Scale(1/res, a)
	return append(rows, a), append(rhs, beta/res), true
}

// simplex finds x ≥ 0 with A x = b (A's rows orthonormal) by gonum's
// Simplex with a zero cost, turning its panics into errors; a square A
// has the one solution Aᵀb.
func simplex(rows [][]float64, rhs []float64) (x []float64, err error) {
	m, n := len(rows), len(rows[0])
	a := mat.NewDense(m, n, nil)
	for r, row := range rows {
		a.SetRow(r, row)
	}
	if m == n {
		var v mat.VecDense
		if err := v.SolveVec(a, mat.NewVecDense(m, rhs)); err != nil {
			return nil, err
		}
		x = v.RawVector().Data
		if floats.Min(x) < -negTol*math.Max(1, floats.Norm(x, math.Inf(1))) {
			return nil, lp.ErrInfeasible
		}
		return x, nil
	}
	defer func() {
		if v := recover(); v != nil {
			x, err = nil, fmt.Errorf("simplex panicked: %v", v)
		}
	}()
	_, x, err = lp.Simplex(make([]float64, n), a, rhs, 0, nil)
	return x, err
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
