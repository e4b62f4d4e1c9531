package gd

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos/symeig"
)

// Func is an objective f: Rᵈ → R that descent can minimise, after
// gonum/optimize's Problem. Its methods do not keep x or grad.
type Func interface {
	// Dim is d, the length of x.
	Dim() int
	// Value returns f(x).
	Value(x []float64) float64
	// Grad writes ∇f(x) into grad (length d).
	Grad(grad, x []float64)
	// Hessian returns ∇²f(x) as a new matrix.
	Hessian(x []float64) *mat.SymDense
}

// Minimiser is a Func whose minimiser is known: x* and f* = f(x*). It
// returns an error wrapping ErrNoMinimiser when f has none (or no unique
// one), such as an indefinite quadratic.
type Minimiser interface {
	Minimiser() (x []float64, f float64, err error)
}

// Smooth is a Func that is L-smooth (Definition 1.8.4: LI ⪰ ∇²f(x) for
// every x), so that constant steps η ≤ 1/L obey Theorem 1.8.5 and, on a
// quadratic, steps η > 2/L diverge.
type Smooth interface {
	L() float64
}

// Sum is a Func that is an average over n data rows plus a penalty, so
// that a gradient can be estimated from a mini-batch (SGD).
type Sum interface {
	Func
	// N is the number of rows.
	N() int
	// BatchGrad writes into grad the gradient with the data term averaged
	// over the rows in batch (distinct, ascending indices) instead of all n.
	// With batch = 0, 1, …, n−1 it equals Grad bit for bit.
	BatchGrad(grad, x []float64, batch []int)
}

// Sentinel errors, wrapped with what to change.
var (
	ErrParameters  = errors.New("gd: bad parameter")
	ErrShape       = errors.New("gd: inconsistent shape")
	ErrNotFinite   = errors.New("gd: NaN, infinite or too large value")
	ErrNoMinimiser = errors.New("gd: no unique minimiser")
)

// Blowup is the size past which an iterate or its value counts as
// diverged: a step whose x has an entry beyond ±Blowup, or whose f is
// beyond ±Blowup or not finite, ends the run as algos.Diverged.
const Blowup = 1e100

// dot returns a·b summed left to right, each product rounded first (no FMA).
func dot(a, b []float64) float64 {
	var s float64
	for j, v := range a {
		s += float64(v * b[j])
	}
	return s
}

// tame reports whether every entry of v is finite and at most Blowup in size.
func tame(v ...float64) bool {
	for _, x := range v {
		if !(math.Abs(x) <= Blowup) {
			return false
		}
	}
	return true
}

func finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// newtonDir returns the Newton direction H⁻¹g: by Cholesky when H is
// positive definite, and otherwise by H's eigendecomposition as the
// pseudo-inverse H⁺g, which inverts every eigenvalue above 1e-12 of the
// largest in size and drops the rest (for a nonsingular indefinite H that
// is H⁻¹g; for a singular one, the shortest step that solves what can be).
// ok is false when neither factorisation succeeds.
func newtonDir(h *mat.SymDense, g []float64) (dir []float64, ok bool) {
	d := len(g)
	gv := mat.NewVecDense(d, append([]float64(nil), g...))
	var ch mat.Cholesky
	if ch.Factorize(h) {
		var x mat.VecDense
		if err := ch.SolveVecTo(&x, gv); err == nil {
			return x.RawVector().Data, true
		}
	}
	vals, v, ok := symeig.Decompose(h, true)
	if !ok {
		return nil, false
	}
	top := math.Max(math.Abs(vals[0]), math.Abs(vals[d-1]))
	var proj mat.VecDense // Vᵀg, then scaled by 1/λ
	proj.MulVec(v.T(), gv)
	for i, l := range vals {
		if math.Abs(l) > 1e-12*top {
			proj.SetVec(i, proj.AtVec(i)/l)
		} else {
			proj.SetVec(i, 0)
		}
	}
	var x mat.VecDense
	x.MulVec(v, &proj)
	return x.RawVector().Data, true
}
