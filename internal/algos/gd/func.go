package gd

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
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

// eigenSym returns the eigenvalues of the symmetric a in ascending order
// and, when vectors is set, its eigenvectors (columns). It factorises a
// copy scaled by a power of two to max |aᵢⱼ| ∈ [½, 1) and scales the
// values back, exactly: gonum v0.17's EigenSym panics ("insufficient
// length of a") on matrices whose entries are all below about 1e-140,
// which is the path its own rescaling takes. ok is false if it fails.
func eigenSym(a *mat.SymDense, vectors bool) (vals []float64, vecs *mat.Dense, ok bool) {
	n := a.SymmetricDim()
	var top float64
	for i := range n {
		for j := i; j < n; j++ {
			top = math.Max(top, math.Abs(a.At(i, j)))
		}
	}
	if top == 0 || math.IsNaN(top) || math.IsInf(top, 0) {
		if top != 0 {
			return nil, nil, false
		}
		vecs = mat.NewDense(n, n, nil)
		for i := range n {
			vecs.Set(i, i, 1)
		}
		return make([]float64, n), vecs, true
	}
	_, e := math.Frexp(top)
	scaled := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			scaled.SetSym(i, j, math.Ldexp(a.At(i, j), -e))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(scaled, vectors) {
		return nil, nil, false
	}
	vals = es.Values(nil)
	for i := range vals {
		vals[i] = math.Ldexp(vals[i], e)
	}
	if vectors {
		vecs = new(mat.Dense)
		es.VectorsTo(vecs)
	}
	return vals, vecs, true
}

// largestEigen returns the largest eigenvalue of the symmetric a; should
// the factorisation fail, it falls back to the Gershgorin bound
// max_i Σ_j |a_ij|, which is still a valid L.
func largestEigen(a *mat.SymDense) float64 {
	if vals, _, ok := eigenSym(a, false); ok {
		return vals[len(vals)-1]
	}
	n := a.SymmetricDim()
	best := math.Inf(-1)
	for i := range n {
		var s float64
		for j := range n {
			s += math.Abs(a.At(i, j))
		}
		best = math.Max(best, s)
	}
	return best
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
	vals, v, ok := eigenSym(h, true)
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
