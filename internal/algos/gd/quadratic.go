package gd

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos/symeig"
)

// Quadratic is f(x) = ½xᵀAx − cᵀx with A symmetric: ∇f = Ax − c, ∇²f = A.
// When A is positive definite its minimiser is x* = A⁻¹c, the constant
// step η converges exactly when 0 < η < 2/λ_max(A), and each eigen-
// direction of A shrinks by the factor 1 − ηλ per step:
// x⁽ᵏ⁾ = x* + (I − ηA)ᵏ(x⁽⁰⁾ − x*). Build one with NewQuadratic or
// NewQuadratic2D, and do not change A or C afterwards.
type Quadratic struct {
	A [][]float64 // d×d, symmetric
	C []float64   // d entries

	sym *mat.SymDense
}

// NewQuadratic validates and copies a and c: a must be square (1×1 or
// larger), exactly symmetric and finite, and c must have one finite entry
// per row of a.
func NewQuadratic(a [][]float64, c []float64) (*Quadratic, error) {
	d := len(a)
	if d == 0 {
		return nil, fmt.Errorf("%w: A is empty; give a d×d matrix with d ≥ 1", ErrShape)
	}
	if len(c) != d {
		return nil, fmt.Errorf("%w: c has %d entries but A has %d rows; give one per row", ErrShape, len(c), d)
	}
	q := &Quadratic{A: make([][]float64, d), C: append([]float64(nil), c...), sym: mat.NewSymDense(d, nil)}
	for i, row := range a {
		if len(row) != d {
			return nil, fmt.Errorf("%w: A[%d] has %d entries but A has %d rows; A must be square", ErrShape, i, len(row), d)
		}
		if !finite(row) {
			return nil, fmt.Errorf("%w: A[%d] has a NaN or infinite entry", ErrNotFinite, i)
		}
		q.A[i] = append([]float64(nil), row...)
	}
	if !finite(c) {
		return nil, fmt.Errorf("%w: c has a NaN or infinite entry", ErrNotFinite)
	}
	for i := range d {
		for j := i + 1; j < d; j++ {
			if a[i][j] != a[j][i] {
				return nil, fmt.Errorf("%w: A is not symmetric: A[%d][%d] = %v but A[%d][%d] = %v; use (A + Aᵀ)/2, which gives the same f",
					ErrShape, i, j, a[i][j], j, i, a[j][i])
			}
			q.sym.SetSym(i, j, a[i][j])
		}
		q.sym.SetSym(i, i, a[i][i])
	}
	return q, nil
}

// NewQuadratic2D returns the lesson's 2-D family: c = 0 (so x* = 0 and
// f* = 0) and A = R diag(1, κ) Rᵀ with R the rotation by θ radians, that is
//
//	A = [cos²θ + κ sin²θ, (1 − κ) sinθ cosθ; (1 − κ) sinθ cosθ, sin²θ + κ cos²θ],
//
// with eigenvalue 1 along (cos θ, sin θ) and κ along (−sin θ, cos θ), so
// κ is the condition number and L = κ. kappa must be finite and ≥ 1 and
// theta finite.
func NewQuadratic2D(kappa, theta float64) (*Quadratic, error) {
	if !(kappa >= 1) || math.IsInf(kappa, 0) {
		return nil, fmt.Errorf("%w: κ is %v; the condition number must be a finite number ≥ 1", ErrParameters, kappa)
	}
	if math.IsNaN(theta) || math.IsInf(theta, 0) {
		return nil, fmt.Errorf("%w: θ is %v; give a finite angle in radians", ErrParameters, theta)
	}
	s, c := math.Sincos(theta)
	off := (1 - kappa) * s * c
	a := [][]float64{
		{float64(c*c) + float64(kappa*s*s), off},
		{off, float64(s*s) + float64(kappa*c*c)},
	}
	return NewQuadratic(a, []float64{0, 0})
}

// Dim returns d.
func (q *Quadratic) Dim() int { return len(q.C) }

// Value returns ½xᵀAx − cᵀx, computed as Σᵢ xᵢ(½(Ax)ᵢ − cᵢ).
func (q *Quadratic) Value(x []float64) float64 { return q.valueGrad(nil, x) }

// Grad writes Ax − c into grad: each (Ax)ᵢ is summed left to right with
// every product rounded, then cᵢ is subtracted.
func (q *Quadratic) Grad(grad, x []float64) { q.valueGrad(grad, x) }

// valueGrad returns f(x) and, when grad is not nil, writes ∇f(x) into it,
// from one pass over A.
func (q *Quadratic) valueGrad(grad, x []float64) float64 {
	var f float64
	for i, row := range q.A {
		s := dot(row, x)
		if grad != nil {
			grad[i] = s - q.C[i]
		}
		f += float64(x[i] * (float64(0.5*s) - q.C[i]))
	}
	return f
}

// Hessian returns a copy of A.
func (q *Quadratic) Hessian([]float64) *mat.SymDense {
	return mat.NewSymDense(q.Dim(), append([]float64(nil), q.sym.RawSymmetric().Data...))
}

// Minimiser returns x* = A⁻¹c (by a Cholesky solve) and f* = f(x*) =
// −½cᵀx*. When A is not positive definite f has no unique minimiser
// (it is unbounded below, or flat along a direction) and the error wraps
// ErrNoMinimiser.
func (q *Quadratic) Minimiser() ([]float64, float64, error) {
	var ch mat.Cholesky
	if !ch.Factorize(q.sym) {
		return nil, 0, fmt.Errorf("%w: A is not positive definite (its eigenvalues are not all > 0), so f is unbounded below or flat along some direction",
			ErrNoMinimiser)
	}
	var x mat.VecDense
	if err := ch.SolveVecTo(&x, mat.NewVecDense(q.Dim(), append([]float64(nil), q.C...))); err != nil {
		return nil, 0, fmt.Errorf("%w: A is too close to singular (%v)", ErrNoMinimiser, err)
	}
	xs := x.RawVector().Data
	return xs, q.Value(xs), nil
}

// L returns λ_max(A), the smallest L with LI ⪰ ∇²f. It is ≤ 0 when A has
// no positive eigenvalue (then no step size converges).
func (q *Quadratic) L() float64 { return symeig.Largest(q.sym) }

// Eigenvalues returns A's eigenvalues in ascending order (nil should the
// factorisation fail).
func (q *Quadratic) Eigenvalues() []float64 {
	vals, _, _ := symeig.Decompose(q.sym, false)
	return vals
}
