package gd

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// DoubleWell is the non-convex f(x, y) = (x² − 1)² + y² + a·x, a = Tilt:
// two valleys along the x-axis with a saddle between them, where gradient
// descent may stop or pick either valley depending on where it starts.
// ∇f = (4x(x² − 1) + a, 2y) and ∇²f = diag(12x² − 4, 2).
//
// Its stationary points have y = 0 and 4x³ − 4x + a = 0. With a = 0 they
// are the minima (±1, 0), where f = 0, and the saddle (0, 0), where f = 1
// and the Hessian is diag(−4, 2). A tilt 0 < |a| < 8/(3√3) ≈ 1.54 keeps
// three of them but lowers the valley on the side opposite to a's sign; a
// larger |a| leaves one minimum only. The Hessian is not bounded, so
// DoubleWell has no L; a step η diverges from where 12x² − 4 > 2/η.
type DoubleWell struct {
	Tilt float64
}

// Kind says what a stationary point is, from the signs of the Hessian's
// eigenvalues.
type Kind int

const (
	Minimum    Kind = iota // all eigenvalues > 0
	Saddle                 // eigenvalues of both signs
	Degenerate             // a zero eigenvalue (|a| = 8/(3√3), where two points merge)
)

// String returns "minimum", "saddle" or "degenerate".
func (k Kind) String() string {
	return [...]string{"minimum", "saddle", "degenerate"}[k]
}

// Stationary is a point where ∇f = 0.
type Stationary struct {
	X    []float64
	F    float64
	Kind Kind
}

// Dim returns 2.
func (dw DoubleWell) Dim() int { return 2 }

// Value returns (x² − 1)² + y² + a·x.
func (dw DoubleWell) Value(p []float64) float64 {
	x, y := p[0], p[1]
	u := float64(x*x) - 1
	return float64(u*u) + float64(y*y) + float64(dw.Tilt*x)
}

// Grad writes (4x(x² − 1) + a, 2y) into grad.
func (dw DoubleWell) Grad(grad, p []float64) {
	x := p[0]
	grad[0] = float64(4*x*(float64(x*x)-1)) + dw.Tilt
	grad[1] = 2 * p[1]
}

// Hessian returns diag(12x² − 4, 2).
func (dw DoubleWell) Hessian(p []float64) *mat.SymDense {
	return mat.NewSymDense(2, []float64{float64(12*p[0]*p[0]) - 4, 0, 0, 2})
}

// StationaryPoints returns the real roots of 4x³ − 4x + a = 0 as points
// (x, 0), in increasing x, each polished by two Newton steps: three (two
// minima around one saddle) when |a| < 8/(3√3), else one minimum (and, when
// a puts the discriminant at exactly 0, also the double root, Degenerate).
func (dw DoubleWell) StationaryPoints() []Stationary {
	q := dw.Tilt / 4 // x³ − x + q = 0: a depressed cubic with p = −1
	var xs []float64
	if disc := q*q/4 - 1.0/27; disc < 0 {
		// Three real roots: x = (2/√3) cos(φ/3 − 2πk/3), cos φ = −(3√3/2)q.
		r := 2 / math.Sqrt(3)
		phi := math.Acos(math.Max(-1, math.Min(1, -q*3*math.Sqrt(3)/2)))
		for k := range 3 {
			xs = append(xs, r*math.Cos(phi/3-2*math.Pi*float64(k)/3))
		}
	} else {
		s := math.Sqrt(disc)
		xs = append(xs, math.Cbrt(-q/2+s)+math.Cbrt(-q/2-s))
		if disc == 0 {
			xs = append(xs, 3*q/2) // the double root where the saddle and a minimum merge
		}
	}
	slices.Sort(xs)
	pts := make([]Stationary, len(xs))
	for i, x := range xs {
		for range 2 {
			if h := 3*x*x - 1; h != 0 {
				x -= (x*x*x - x + q) / h
			}
		}
		p := []float64{x, 0}
		k := Degenerate
		switch h := 12*x*x - 4; {
		case h > 1e-9:
			k = Minimum
		case h < -1e-9:
			k = Saddle
		}
		pts[i] = Stationary{X: p, F: dw.Value(p), Kind: k}
	}
	return pts
}

// Minimiser returns the global minimiser among StationaryPoints (f grows
// without bound far away) and its value; with a = 0 the two minima tie
// and it returns (1, 0).
func (dw DoubleWell) Minimiser() ([]float64, float64, error) {
	var best *Stationary
	for _, s := range dw.StationaryPoints() {
		if s.Kind == Minimum && (best == nil || s.F <= best.F) {
			best = &s
		}
	}
	if best == nil {
		return nil, 0, fmt.Errorf("%w: no strict minimum at tilt %v", ErrNoMinimiser, dw.Tilt)
	}
	return best.X, best.F, nil
}
