package linreg

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// factor is the part of the ridge solution that depends on the design
// only, so that ResampleFits can fit many targets on one design and every
// fit goes through exactly the same arithmetic. With X̃ the (centred)
// design, a tall X̃ = QR is reduced to its d×d triangle R (Householder QR,
// stored as LAPACK leaves it); the SVD of M (R, or X̃ itself when n ≤ d)
// is M = U diag(σ) Vᵀ, and then
//
//	w = V diag(filt) Uᵀ z,  z = (Qᵀ ỹ)[:d] or ỹ,  filtₖ = σₖ/(σₖ² + nλ),
//
// with filtₖ = 0 for the σₖ that count as zero when λ = 0.
type factor struct {
	n, d      int
	lambda    float64
	intercept bool
	mean      []float64 // column means x̄ (nil without intercept)

	tall bool           // n > d: QR holds the reduction
	qr   blas64.General // Geqrf's output: R above the diagonal, reflectors below
	tau  []float64

	u, v  *mat.Dense // M = U diag(σ) Vᵀ, thin: U is rows(M)×k, V is d×k
	sigma []float64  // k = min(n, d) singular values, largest first
	filt  []float64
}

// newFactor validates x and λ and factorises the design.
func newFactor(x [][]float64, lambda float64, intercept bool) (*factor, error) {
	n, d, err := checkData(x)
	if err != nil {
		return nil, err
	}
	f := &factor{n: n, d: d, lambda: lambda, intercept: intercept}
	if d == 0 {
		return f, nil
	}
	a := mat.NewDense(n, d, nil)
	for i, row := range x {
		a.SetRow(i, row)
	}
	if intercept {
		if f.mean, err = centre(a); err != nil {
			return nil, err
		}
	}
	m := mat.Matrix(a)
	if n > d {
		f.tall = true
		f.qr = a.RawMatrix()
		f.tau = make([]float64, d)
		work := make([]float64, 1)
		lapack64.Geqrf(f.qr, f.tau, work, -1)
		work = make([]float64, int(work[0]))
		lapack64.Geqrf(f.qr, f.tau, work, len(work))
		r := mat.NewDense(d, d, nil)
		for i := range d {
			for j := i; j < d; j++ {
				r.Set(i, j, f.qr.Data[i*f.qr.Stride+j])
			}
		}
		m = r
	}
	var svd mat.SVD
	if !svd.Factorize(m, mat.SVDThin) {
		return nil, fmt.Errorf("%w: the SVD of the design did not converge; rescale x to moderate numbers", ErrNotFinite)
	}
	f.sigma = svd.Values(nil)
	f.u, f.v = new(mat.Dense), new(mat.Dense)
	svd.UTo(f.u)
	svd.VTo(f.v)
	f.filt = filters(f.sigma, float64(n)*lambda, max(n, d))
	return f, nil
}

// filters returns σ/(σ² + nλ) for each singular value, written as
// 1/(σ + nλ/σ) so that a huge σ does not overflow σ². With nλ = 0 the σ
// at or below max(n, d)·ε·σ₁ count as zero (numpy's lstsq cutoff), which
// makes w the minimum-norm least-squares solution.
func filters(sigma []float64, nLambda float64, size int) []float64 {
	filt := make([]float64, len(sigma))
	if len(sigma) == 0 {
		return filt
	}
	cut := float64(size) * 0x1p-52 * sigma[0]
	for k, s := range sigma {
		switch {
		case s <= 0, nLambda == 0 && s <= cut:
			filt[k] = 0
		default:
			filt[k] = 1 / (s + nLambda/s)
		}
	}
	return filt
}

// centre subtracts each column's mean from a and returns the means.
func centre(a *mat.Dense) ([]float64, error) {
	n, d := a.Dims()
	mean := make([]float64, d)
	for j := range d {
		var s float64
		for i := range n {
			s += a.At(i, j)
		}
		mean[j] = s / float64(n)
		for i := range n {
			v := a.At(i, j) - mean[j]
			if !isFinite(v) {
				return nil, fmt.Errorf("%w: column %d of x overflows when centred (mean %v); rescale x to smaller numbers", ErrNotFinite, j, mean[j])
			}
			a.Set(i, j, v)
		}
	}
	return mean, nil
}

// solve returns the model for targets y (already checked: n finite values).
func (f *factor) solve(y []float64) (Model, error) {
	var ybar float64
	if f.intercept {
		for _, v := range y {
			ybar += v
		}
		ybar /= float64(f.n)
	}
	m := Model{W: make([]float64, f.d), B: ybar}
	if f.d > 0 {
		z := make([]float64, f.n)
		for i, v := range y {
			z[i] = v - ybar
		}
		if f.tall {
			c := blas64.General{Rows: f.n, Cols: 1, Stride: 1, Data: z}
			work := make([]float64, 1)
			lapack64.Ormqr(blas.Left, blas.Trans, f.qr, f.tau, c, work, -1)
			work = make([]float64, int(work[0]))
			lapack64.Ormqr(blas.Left, blas.Trans, f.qr, f.tau, c, work, len(work))
			z = z[:f.d]
		}
		coef := make([]float64, len(f.sigma))
		for k := range coef {
			if f.filt[k] != 0 {
				coef[k] = float64(dotCol(f.u, k, z) * f.filt[k])
			}
		}
		for j := range f.d {
			m.W[j] = dotRow(f.v, j, coef)
		}
		if f.intercept {
			m.B = ybar - dot(f.mean, m.W)
		}
	}
	if !allFinite(m.W) || !isFinite(m.B) {
		return Model{}, fmt.Errorf("%w: the fitted weights overflow float64; rescale x and y to smaller numbers or raise λ", ErrNotFinite)
	}
	return m, nil
}

// dotCol is Σᵢ a[i][k]·z[i].
func dotCol(a *mat.Dense, k int, z []float64) float64 {
	raw := a.RawMatrix()
	var s float64
	for i, v := range z {
		s += float64(raw.Data[i*raw.Stride+k] * v)
	}
	return s
}

// dotRow is Σₖ a[j][k]·c[k].
func dotRow(a *mat.Dense, j int, c []float64) float64 {
	raw := a.RawMatrix()
	return dot(raw.Data[j*raw.Stride:j*raw.Stride+raw.Cols], c)
}

// SingularValues returns the singular values σ₁ ≥ σ₂ ≥ … ≥ 0 of the n×d
// design x (rows are points, no centring, no column of ones), min(n, d)
// of them, for 000 Prop. 1.3.5: XᵀX + nλI has eigenvalues σᵢ² + nλ (and
// nλ for the d − n others when n < d), so ridge is well conditioned for
// any λ > 0. It returns nil for data Fit would refuse (no rows, ragged
// rows, NaN or ±Inf) and an empty slice for rows with no features.
func SingularValues(x [][]float64) []float64 {
	n, d, err := checkData(x)
	if err != nil {
		return nil
	}
	if d == 0 {
		return []float64{}
	}
	a := mat.NewDense(n, d, nil)
	for i, row := range x {
		a.SetRow(i, row)
	}
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDNone) {
		return nil
	}
	return svd.Values(nil)
}

// Augment returns 000 Remark 1.3.6's data augmentation: x followed by d
// rows √(nλ)·eⱼ, and y followed by d zeros, where n is the number of
// ORIGINAL rows. The augmented residuals add up to ‖Xw − y‖² + nλ‖w‖²,
// n times the ridge objective, so plain least squares on the result
// (λ = 0, no intercept) has the ridge minimiser: Fit(ax, ay, 0, false)
// equals Fit(x, y, λ, false). The inputs are not modified; it returns
// nil, nil for no rows, ragged rows, or λ negative, NaN or infinite.
func Augment(x [][]float64, y []float64, lambda float64) ([][]float64, []float64) {
	n := len(x)
	if n == 0 || checkLambda(lambda) != nil {
		return nil, nil
	}
	d := len(x[0])
	ax := make([][]float64, 0, n+d)
	for _, row := range x {
		if len(row) != d {
			return nil, nil
		}
		ax = append(ax, append([]float64(nil), row...))
	}
	s := math.Sqrt(float64(n) * lambda)
	for j := range d {
		row := make([]float64, d)
		row[j] = s
		ax = append(ax, row)
	}
	ay := append(append(make([]float64, 0, len(y)+d), y...), make([]float64, d)...)
	return ax, ay
}
