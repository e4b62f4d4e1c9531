// Package feasible decides whether a linear system A x = b has a
// solution x ≥ 0, the form that the lessons' separability tests take:
// Farkas' lemma for the hard-margin SVM (do the classes' convex hulls
// meet?) and Stiemke's lemma for logistic regression without a penalty
// (does a minimiser exist?).
//
// The rows are made orthonormal as they are added, with the same
// operations on the right-hand side: gonum's Simplex needs full row rank,
// and features that are constant or copies of each other would break it.
// A row that depends on the earlier ones is dropped when its right-hand
// side agrees, and makes the system inconsistent when it does not.
package feasible

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// Tolerances: DepTol is the relative size below which a row counts as a
// combination of the rows before it; NegTol how far below zero, relative
// to the solution's size, an entry of x may round and still count as 0.
const (
	DepTol = 1e-9
	NegTol = 1e-12
)

// ErrInfeasible is gonum's: no x ≥ 0 solves the system.
var ErrInfeasible = lp.ErrInfeasible

// System is A x = b built row by row. The zero value is an empty system.
type System struct {
	rows [][]float64 // orthonormal
	rhs  []float64
}

// Add appends the row a (which it may modify) with right-hand side beta,
// orthogonalised against the rows so far by Gram–Schmidt twice (which is
// enough, Kahan–Parlett) and normalised. It reports false when a depends
// on the earlier rows but beta does not agree: then no x solves the
// system, whatever its sign.
func (s *System) Add(a []float64, beta float64) bool {
	norm := floats.Norm(a, 2)
	for range 2 {
		for q, row := range s.rows {
			c := floats.Dot(row, a)
			floats.AddScaled(a, -c, row)
			beta -= c * s.rhs[q]
		}
	}
	res := floats.Norm(a, 2)
	if res <= DepTol*norm {
		return math.Abs(beta) <= DepTol*math.Max(norm, 1)
	}
	floats.Scale(1/res, a)
	s.rows, s.rhs = append(s.rows, a), append(s.rhs, beta/res)
	return true
}

// NonNegative returns some x ≥ 0 with A x = b, or ErrInfeasible. It runs
// gonum's Simplex with a zero cost, turning a panic on a numerically
// singular basis into an error; a square system has the one solution
// A⁻¹b, which Simplex would reject for an entry of −1e-17, so here
// entries down to −NegTol·max(1, ‖x‖∞) count as zero. The system must
// have a row.
func (s *System) NonNegative() (x []float64, err error) {
	m, n := len(s.rows), len(s.rows[0])
	a := mat.NewDense(m, n, nil)
	for r, row := range s.rows {
		a.SetRow(r, row)
	}
	if m == n {
		var v mat.VecDense
		if err := v.SolveVec(a, mat.NewVecDense(m, s.rhs)); err != nil {
			return nil, err
		}
		x = v.RawVector().Data
		if floats.Min(x) < -NegTol*math.Max(1, floats.Norm(x, math.Inf(1))) {
			return nil, ErrInfeasible
		}
		return x, nil
	}
	defer func() {
		if v := recover(); v != nil {
			x, err = nil, fmt.Errorf("simplex panicked: %v", v)
		}
	}()
	_, x, err = lp.Simplex(make([]float64, n), a, s.rhs, 0, nil)
	return x, err
}
