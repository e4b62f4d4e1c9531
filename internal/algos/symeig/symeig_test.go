package symeig

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestTinyMatrix: entries of 1e-200, on which gonum's own EigenSym
// panics, give the eigenvalues of the same matrix at ordinary size,
// scaled: [[1, 1], [1, 2]] has (3 ∓ √5)/2.
func TestTinyMatrix(t *testing.T) {
	for _, s := range []float64{1, 1e-200, 1e-300, 1e200} {
		a := mat.NewSymDense(2, []float64{s, s, s, 2 * s})
		vals, vecs, ok := Decompose(a, true)
		if !ok {
			t.Fatalf("scale %g: failed", s)
		}
		want := []float64{(3 - math.Sqrt(5)) / 2 * s, (3 + math.Sqrt(5)) / 2 * s}
		for i := range want {
			if math.Abs(vals[i]-want[i]) > 1e-14*want[1] {
				t.Errorf("scale %g: λ%d = %g, want %g", s, i, vals[i], want[i])
			}
		}
		// A v = λ v for the first eigenvector.
		var av mat.VecDense
		v := vecs.ColView(0)
		av.MulVec(a, v)
		for i := range 2 {
			if math.Abs(av.AtVec(i)-vals[0]*v.AtVec(i)) > 1e-14*want[1] {
				t.Errorf("scale %g: A v ≠ λ v", s)
			}
		}
		if got := Largest(a); got != vals[1] {
			t.Errorf("scale %g: Largest %g, Decompose %g", s, got, vals[1])
		}
	}
}

// TestDegenerate: the zero matrix, and NaN or infinite entries.
func TestDegenerate(t *testing.T) {
	vals, vecs, ok := Decompose(mat.NewSymDense(3, nil), true)
	if !ok || vals[0] != 0 || vals[2] != 0 || vecs.At(1, 1) != 1 {
		t.Errorf("zero matrix: %v %v", vals, ok)
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		if _, _, ok := Decompose(mat.NewSymDense(2, []float64{1, bad, bad, 1}), false); ok {
			t.Errorf("entry %v accepted", bad)
		}
	}
	// Gershgorin's bound where the solver cannot run: 1 + |∞| is ∞.
	if got := Largest(mat.NewSymDense(2, []float64{1, math.Inf(1), math.Inf(1), 1})); !math.IsInf(got, 1) {
		t.Errorf("Largest with ∞ = %v", got)
	}
}
