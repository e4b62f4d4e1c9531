package svm

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos/symeig"
)

// ErrEigen is returned (wrapped) by Eigenvalues when gonum's symmetric
// eigensolver does not converge.
var ErrEigen = errors.New("svm: eigenvalues did not converge")

// Gram returns Kᵢⱼ = k(xᵢ, xⱼ), computing each pair once (i ≤ j) and
// mirroring, so K is exactly symmetric. It works for every kind, Mercer
// or not, and does not validate k (see Kernel.ValidateFunction). It
// returns nil when x has no rows; the rows must have equal lengths. An
// entry can be ±Inf or NaN when the values overflow (Eigenvalues
// refuses such a matrix).
func Gram(k Kernel, x [][]float64) *mat.SymDense {
	K, _ := GramSpend(k, x, nil)
	return K
}

// GramSpend is Gram with its work metered: after each entry it tells
// spend the entry's nominal cost (about one unit per feature), and stops
// with spend's error, returning a nil matrix, the first time spend
// returns one. A nil spend is never told. The entries are Gram's, bit for
// bit: a matrix of subnormal products costs about 100 times its nominal
// work, which is why a caller meters it by the clock (package
// fit/budget), not by its size.
func GramSpend(k Kernel, x [][]float64, spend func(units int) error) (*mat.SymDense, error) {
	n := len(x)
	if n == 0 {
		return nil, nil
	}
	data := make([]float64, n*n)
	cost := len(x[0]) + 8
	for i, xi := range x {
		for j := i; j < n; j++ {
			v := k.Eval(xi, x[j])
			data[i*n+j] = v
			data[j*n+i] = v
			if spend != nil {
				if err := spend(cost); err != nil {
					return nil, err
				}
			}
		}
	}
	return mat.NewSymDense(n, data), nil
}

// Spectrum is the eigenvalues of a symmetric matrix, ascending, from
// gonum/mat's EigenSym (values only). PSD reports whether the matrix is
// positive semi-definite up to rounding: the smallest eigenvalue is
// ≥ −1e-9·max(1, largest). A Gram matrix of a Mercer kernel always is; a
// function whose Gram matrix is not cannot be a kernel.
type Spectrum struct {
	Values []float64
	PSD    bool
}

// psdTol is the relative tolerance of Spectrum.PSD: eigensolvers find
// the eigenvalues of K to about ε·‖K‖, so an exact zero can come out as
// −1e-13·largest, far above −1e-9·largest.
const psdTol = 1e-9

// Negatives counts the eigenvalues below −1e-9·max(1, largest): the ones
// that are negative beyond rounding. PSD is Negatives() == 0.
func (s Spectrum) Negatives() int {
	if len(s.Values) == 0 {
		return 0
	}
	cut := -psdTol * math.Max(1, s.Values[len(s.Values)-1])
	k := 0
	for k < len(s.Values) && s.Values[k] < cut {
		k++
	}
	return k
}

// Eigenvalues returns the spectrum of K. It fails with ErrNoData for a
// nil or empty K, ErrNotFinite when an entry of K is NaN or ±Inf, and
// ErrEigen when the eigensolver does not converge. A 1×1 matrix [a] has
// the one eigenvalue a.
func Eigenvalues(K *mat.SymDense) (Spectrum, error) {
	if K == nil || K.IsEmpty() {
		return Spectrum{}, fmt.Errorf("%w: the matrix is empty", ErrNoData)
	}
	n := K.SymmetricDim()
	raw := K.RawSymmetric()
	for i := range n {
		for j := i; j < n; j++ {
			v := raw.Data[i*raw.Stride+j]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return Spectrum{}, fmt.Errorf("%w: K[%d][%d] is %v", ErrNotFinite, i, j, v)
			}
		}
	}
	// symeig scales K by a power of two first: gonum v0.17's EigenSym
	// panics on a matrix whose entries are all tiny, as −‖x − z‖² of
	// points 1e-160 apart are.
	vals, _, ok := symeig.Decompose(K, false)
	if !ok {
		return Spectrum{}, fmt.Errorf("%w (n = %d)", ErrEigen, n)
	}
	sp := Spectrum{Values: vals}
	sp.PSD = sp.Negatives() == 0
	return sp, nil
}
