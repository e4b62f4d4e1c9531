package gd

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// The logistic loss with λ = 0 has a minimiser exactly when no direction
// v = (w, b) ≠ 0 has mᵢ = yᵢ x̃ᵢ·v ≥ 0 for every i and > 0 for some i:
// along such a v every term log(1 + e^(−mᵢt)) falls as t grows. By
// Stiemke's lemma exactly one of these holds:
//
//	(a) such a v exists (the data are separable, perhaps only weakly);
//	(b) some λ with every λᵢ > 0 has Σᵢ λᵢyᵢx̃ᵢ = 0.
//
// (b) is a linear program: maximise t subject to λᵢ = μᵢ + t, μ ≥ 0,
// t ≥ 0, Σλᵢ = 1, Σλᵢyᵢx̃ᵢ = 0, which gonum's Simplex solves in standard
// form (minimise −t). The data are separable when its optimum t* is 0
// (below tTol/n: uniform weights give t = 1/n) or it is infeasible.

// tTol is the relative size of t* below which (b) counts as failing.
const tTol = 1e-9

// depTol is the relative size below which a constraint row counts as a
// combination of the rows before it.
const depTol = 1e-9

// separable decides (a) for lg's data. The program has n + 1 columns and
// at most p + 2 rows; it is meant for lesson-sized data (a few thousand
// rows).
func (lg *Logistic) separable() (sep bool, err error) {
	defer func() { // gonum's Simplex panics on some shapes; validated input should not reach them
		if r := recover(); r != nil {
			sep, err = false, fmt.Errorf("the linear program failed: %v", r)
		}
	}()
	n, d := lg.N(), lg.Dim()
	// Row 0: Σμᵢ + n·t = 1. Row 1 + j: Σ μᵢyᵢx̃ᵢⱼ + t·Σᵢyᵢx̃ᵢⱼ = 0.
	var rows [][]float64
	var rhs []float64
	add := func(a []float64, beta float64) (consistent bool) {
		norm := floats.Norm(a, 2)
		for range 2 { // Gram–Schmidt twice is enough (Kahan–Parlett)
			for q, row := range rows {
				c := floats.Dot(row, a)
				floats.AddScaled(a, -c, row)
				beta -= c * rhs[q]
			}
		}
		res := floats.Norm(a, 2)
		if res <= depTol*norm {
			return math.Abs(beta) <= depTol*math.Max(norm, 1)
		}
		floats.Scale(1/res, a)
		rows = append(rows, a)
		rhs = append(rhs, beta/res)
		return true
	}
	first := make([]float64, n+1)
	for i := range n {
		first[i] = 1
	}
	first[n] = float64(n)
	add(first, 1)
	for j := range d {
		a := make([]float64, n+1)
		for i, x := range lg.X {
			v := 1.0 // the bias column
			if j < d-1 {
				v = x[j]
			}
			a[i] = lg.Y[i] * v
			a[n] += a[i]
		}
		if !add(a, 0) {
			return true, nil // no λ at all satisfies the rows: (b) fails
		}
	}
	c := make([]float64, n+1)
	c[n] = -1
	a := mat.NewDense(len(rows), n+1, nil)
	for q, row := range rows {
		a.SetRow(q, row)
	}
	opt, _, err := lp.Simplex(c, a, rhs, 1e-12, nil)
	switch {
	case err == lp.ErrInfeasible:
		return true, nil
	case err != nil:
		return false, err
	}
	return -opt <= tTol/float64(n), nil
}
