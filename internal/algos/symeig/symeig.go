// Package symeig is gonum's symmetric eigensolver made safe for every
// matrix Margin's algorithms build: a Hessian whose step-size bound L is
// its largest eigenvalue, a Gram matrix whose spectrum decides Mercer's
// test.
//
// gonum v0.17's EigenSym panics ("lapack: insufficient length of a") when
// every entry is below about 1e-140 in size, the path its own rescaling
// takes; data of that size are legal input. Decompose therefore factorises
// a copy scaled by a power of two, so that the largest entry lies in
// [½, 1), and scales the eigenvalues back: both scalings are exact in
// floating point, so the answer is the one gonum gives for ordinary
// sizes. Any other panic inside LAPACK is turned into ok = false.
package symeig

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Decompose returns the eigenvalues of the symmetric a in ascending order
// and, when vectors is set, its orthonormal eigenvectors as the columns of
// vecs. ok is false for a matrix with a NaN or infinite entry, or if the
// solver fails. The zero matrix has eigenvalues 0 and the identity as
// eigenvectors.
func Decompose(a *mat.SymDense, vectors bool) (vals []float64, vecs *mat.Dense, ok bool) {
	n := a.SymmetricDim()
	var top float64
	for i := range n {
		for j := i; j < n; j++ {
			v := a.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, false
			}
			top = math.Max(top, math.Abs(v))
		}
	}
	if top == 0 {
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
	return factorize(scaled, e, vectors)
}

func factorize(scaled *mat.SymDense, e int, vectors bool) (vals []float64, vecs *mat.Dense, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			vals, vecs, ok = nil, nil, false
		}
	}()
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

// Largest returns the largest eigenvalue of the symmetric a; should the
// factorisation fail it falls back to the Gershgorin bound
// max_i Σ_j |a_ij|, which is still an upper bound, so a step-size rule
// built on it stays safe. It is NaN when a has a NaN entry.
func Largest(a *mat.SymDense) float64 {
	if vals, _, ok := Decompose(a, false); ok {
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
