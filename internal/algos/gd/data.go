package gd

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos/symeig"
)

// data is what LeastSquares and Logistic share: n rows of p features,
// n targets and a penalty weight. The parameter vector is θ = (w, b) with
// d = p + 1 entries, the bias last, and X̃ = [X 1] is the design with a
// column of ones for it.
type data struct {
	X      [][]float64
	Y      []float64
	Lambda float64
}

func newData(x [][]float64, y []float64, lambda float64) (data, error) {
	n := len(x)
	switch {
	case n == 0:
		return data{}, fmt.Errorf("%w: no rows; give at least one", ErrShape)
	case len(y) != n:
		return data{}, fmt.Errorf("%w: %d targets for %d rows; give one per row", ErrShape, len(y), n)
	case len(x[0]) == 0:
		return data{}, fmt.Errorf("%w: rows have no features; give at least one", ErrShape)
	case !(lambda >= 0) || math.IsInf(lambda, 0):
		return data{}, fmt.Errorf("%w: λ is %v; give a finite number ≥ 0", ErrParameters, lambda)
	}
	for i, row := range x {
		if len(row) != len(x[0]) {
			return data{}, fmt.Errorf("%w: row %d has %d features but row 0 has %d", ErrShape, i, len(row), len(x[0]))
		}
		if !finite(row) {
			return data{}, fmt.Errorf("%w: row %d has a NaN or infinite feature", ErrNotFinite, i)
		}
	}
	if !finite(y) {
		return data{}, fmt.Errorf("%w: a target is NaN or infinite", ErrNotFinite)
	}
	return data{X: x, Y: y, Lambda: lambda}, nil
}

// Dim returns d = p + 1: the features' weights and the bias.
func (dt data) Dim() int { return len(dt.X[0]) + 1 }

// N returns the number of rows.
func (dt data) N() int { return len(dt.X) }

// rows calls visit(i) for every row of batch in order, or for every row
// 0, …, n−1 when batch is nil, and returns how many it visited.
func (dt data) rows(batch []int, visit func(i int)) int {
	if batch == nil {
		for i := range dt.X {
			visit(i)
		}
		return len(dt.X)
	}
	for _, i := range batch {
		visit(i)
	}
	return len(batch)
}

// design returns X̃ = [X 1] with row i scaled by s[i] (s nil: no scaling).
func (dt data) design(s []float64) *mat.Dense {
	d := dt.Dim()
	m := mat.NewDense(dt.N(), d, nil)
	for i, row := range dt.X {
		c := 1.0
		if s != nil {
			c = s[i]
		}
		for j, v := range row {
			m.Set(i, j, c*v)
		}
		m.Set(i, d-1, c)
	}
	return m
}

// gram returns scale·X̃ᵀ diag(s²) X̃ + pen·diag(1, …, 1, 0): the Hessians
// of both objectives have this form.
func (dt data) gram(s []float64, scale, pen float64) *mat.SymDense {
	var h mat.SymDense
	h.SymOuterK(scale, dt.design(s).T())
	for j := range dt.Dim() - 1 {
		h.SetSym(j, j, h.At(j, j)+pen)
	}
	return &h
}

// designTop returns λ_max(X̃ᵀX̃), from the smaller of X̃ᵀX̃ and X̃X̃ᵀ
// (they share their nonzero eigenvalues), so wide data cost n²d, not nd².
func (dt data) designTop() float64 {
	x := dt.design(nil)
	var g mat.SymDense
	if n, d := x.Dims(); n < d {
		g.SymOuterK(1, x)
	} else {
		g.SymOuterK(1, x.T())
	}
	return symeig.Largest(&g)
}

// LeastSquares is f(w, b) = (1/n) Σᵢ (w·xᵢ + b − yᵢ)² + λ‖w‖² on data,
// the objective of Margin's "linear-regression" (b is not penalised):
// ∇f = (2/n) X̃ᵀr + 2λ(w, 0) with residuals r = X̃θ − y, and
// ∇²f = (2/n) X̃ᵀX̃ + 2λ diag(1, …, 1, 0), the same at every θ. Build one
// with NewLeastSquares and do not change the data afterwards.
type LeastSquares struct{ data }

// NewLeastSquares validates x (n ≥ 1 rows of p ≥ 1 finite features), y
// (n finite targets) and λ ≥ 0. It keeps x and y without copying them.
func NewLeastSquares(x [][]float64, y []float64, lambda float64) (*LeastSquares, error) {
	dt, err := newData(x, y, lambda)
	if err != nil {
		return nil, err
	}
	return &LeastSquares{dt}, nil
}

// Value returns f(θ).
func (ls *LeastSquares) Value(theta []float64) float64 { return ls.eval(nil, theta, nil) }

// Grad writes ∇f(θ) into grad.
func (ls *LeastSquares) Grad(grad, theta []float64) { ls.eval(grad, theta, nil) }

// BatchGrad writes (2/B) Σ_{i∈batch} rᵢ x̃ᵢ + 2λ(w, 0) into grad.
func (ls *LeastSquares) BatchGrad(grad, theta []float64, batch []int) {
	ls.eval(grad, theta, batch)
}

// eval returns the objective over the rows of batch (all when nil) and,
// when grad is not nil, writes its gradient there. Sums run over the rows
// in order, products rounded, so a batch of all rows is bit for bit the
// full gradient.
func (ls *LeastSquares) eval(grad, theta []float64, batch []int) float64 {
	p := len(theta) - 1
	w, b := theta[:p], theta[p]
	if grad != nil {
		clear(grad)
	}
	var sum float64
	m := ls.rows(batch, func(i int) {
		r := dot(w, ls.X[i]) + b - ls.Y[i]
		sum += float64(r * r)
		if grad != nil {
			for j, v := range ls.X[i] {
				grad[j] += float64(r * v)
			}
			grad[p] += r
		}
	})
	fm := float64(m)
	if grad != nil {
		for j := range w {
			grad[j] = 2*grad[j]/fm + float64(2*ls.Lambda*w[j])
		}
		grad[p] = 2 * grad[p] / fm
	}
	return sum/fm + float64(ls.Lambda*dot(w, w))
}

// Hessian returns (2/n) X̃ᵀX̃ + 2λ diag(1, …, 1, 0).
func (ls *LeastSquares) Hessian([]float64) *mat.SymDense {
	return ls.gram(nil, 2/float64(ls.N()), 2*ls.Lambda)
}

// L returns λ_max of the Hessian: (2/n) λ_max(X̃ᵀX̃) when λ = 0.
func (ls *LeastSquares) L() float64 {
	if ls.Lambda == 0 {
		return 2 * ls.designTop() / float64(ls.N())
	}
	return symeig.Largest(ls.Hessian(nil))
}

// Minimiser returns θ* and f(θ*). With λ > 0 it solves the augmented
// least-squares problem [X̃; √(nλ)[I 0]]θ ≈ [y; 0] by QR (its columns are
// independent); with λ = 0 it returns the minimum-norm minimiser X̃⁺y by
// SVD, treating singular values below max(n, d)·ε·σ₁ as zero (when X̃ has
// dependent columns, every θ* + v with X̃v = 0 is a minimiser too).
func (ls *LeastSquares) Minimiser() ([]float64, float64, error) {
	n, d := ls.N(), ls.Dim()
	var theta mat.VecDense
	if ls.Lambda > 0 {
		a := mat.NewDense(n+d-1, d, nil)
		a.Slice(0, n, 0, d).(*mat.Dense).Copy(ls.design(nil))
		for j := range d - 1 {
			a.Set(n+j, j, math.Sqrt(float64(n)*ls.Lambda))
		}
		y := mat.NewVecDense(n+d-1, nil)
		for i, v := range ls.Y {
			y.SetVec(i, v)
		}
		if err := theta.SolveVec(a, y); err != nil {
			return nil, 0, fmt.Errorf("%w: the ridge system could not be solved (%v)", ErrNoMinimiser, err)
		}
	} else {
		var svd mat.SVD
		if !svd.Factorize(ls.design(nil), mat.SVDThin) {
			return nil, 0, fmt.Errorf("%w: the SVD of the design failed", ErrNoMinimiser)
		}
		rank := svd.Rank(float64(max(n, d)) * 0x1p-52) // ≥ 1: X̃ has a column of ones
		svd.SolveVecTo(&theta, mat.NewVecDense(n, append([]float64(nil), ls.Y...)), rank)
	}
	x := theta.RawVector().Data
	f := ls.Value(x)
	if !finite(x) || !tame(f) {
		return nil, 0, fmt.Errorf("%w: θ* overflows; rescale the data", ErrNotFinite)
	}
	return x, f, nil
}
