package linreg

import (
	"errors"
	"fmt"
	"math"
)

// Sentinel errors, returned wrapped with what is wrong and what to do.
var (
	// ErrParameters: empty data, rows of different lengths, a parameter
	// out of its range.
	ErrParameters = errors.New("linreg: bad parameter")
	// ErrNotFinite: a NaN or infinite input, or a result that overflows
	// float64.
	ErrNotFinite = errors.New("linreg: NaN or infinite value")
)

// Model is y ≈ W·x + B.
type Model struct {
	W []float64
	B float64
}

// Predict returns W·x + B. x must have len(W) features; with any other
// length Predict returns NaN rather than guess which features to use.
func (m Model) Predict(x []float64) float64 {
	if len(x) != len(m.W) {
		return math.NaN()
	}
	return dot(m.W, x) + m.B
}

// Fit minimises (1/n) Σ (w·xᵢ + b − yᵢ)² + λ‖w‖² over w, and over b when
// intercept is true (b is not penalised; with intercept false, b = 0).
//
// λ must be finite and ≥ 0. With λ = 0 and a rank-deficient design (a
// duplicated column, fewer rows than features) the minimisers form an
// affine set and Fit returns the one of minimum ‖w‖; with an intercept,
// that is the minimum-norm w of the centred problem and b = ȳ − x̄·w, as
// scikit-learn's LinearRegression does. Singular values below
// max(n, d)·ε·σ₁ (ε the float64 epsilon) count as zero.
//
// Rows may have no features (d = 0): then w is empty and b is ȳ, the
// constant model. Errors wrap ErrParameters (no rows, ragged rows, len(y)
// ≠ len(x), λ < 0 or NaN) or ErrNotFinite (NaN or ±Inf in x or y, or
// weights that overflow float64).
func Fit(x [][]float64, y []float64, lambda float64, intercept bool) (Model, error) {
	if err := checkLambda(lambda); err != nil {
		return Model{}, err
	}
	f, err := newFactor(x, lambda, intercept)
	if err != nil {
		return Model{}, err
	}
	if err := checkTargets(y, len(x)); err != nil {
		return Model{}, err
	}
	return f.solve(y)
}

// Objective is (1/n) Σ (w·xᵢ + b − yᵢ)² + λ‖w‖², the quantity Fit
// minimises. x and y must be as Fit accepts them and m must have one
// weight per feature; it returns NaN for no rows and +Inf on overflow.
func Objective(x [][]float64, y []float64, m Model, lambda float64) float64 {
	return MSE(x, y, m) + float64(lambda*dot(m.W, m.W))
}

// MSE is (1/n) Σ (m(xᵢ) − yᵢ)², the mean squared error of m on (x, y);
// NaN for no rows.
func MSE(x [][]float64, y []float64, m Model) float64 {
	var s float64
	for i, row := range x {
		r := m.Predict(row) - y[i]
		s += float64(r * r)
	}
	return s / float64(len(x))
}

// checkData validates a design: at least one row, all rows of one length
// (possibly zero), every value finite. It returns n and d.
func checkData(x [][]float64) (n, d int, err error) {
	n = len(x)
	if n == 0 {
		return 0, 0, fmt.Errorf("%w: x has no rows; give at least one point", ErrParameters)
	}
	d = len(x[0])
	for i, row := range x {
		if len(row) != d {
			return 0, 0, fmt.Errorf("%w: x[%d] has %d features but x[0] has %d; rows must have the same length", ErrParameters, i, len(row), d)
		}
		for j, v := range row {
			if !isFinite(v) {
				return 0, 0, fmt.Errorf("%w: x[%d][%d] is %v", ErrNotFinite, i, j, v)
			}
		}
	}
	return n, d, nil
}

// checkTargets validates y against n rows.
func checkTargets(y []float64, n int) error {
	if len(y) != n {
		return fmt.Errorf("%w: y has %d targets but x has %d rows; give one target per row", ErrParameters, len(y), n)
	}
	for i, v := range y {
		if !isFinite(v) {
			return fmt.Errorf("%w: y[%d] is %v", ErrNotFinite, i, v)
		}
	}
	return nil
}

func checkLambda(lambda float64) error {
	if !(lambda >= 0) || math.IsInf(lambda, 0) {
		return fmt.Errorf("%w: λ is %v; it must be a finite number ≥ 0", ErrParameters, lambda)
	}
	return nil
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func allFinite(v []float64) bool {
	for _, x := range v {
		if !isFinite(x) {
			return false
		}
	}
	return true
}

// dot is Σ aⱼbⱼ over a's length, each product rounded before it is added.
func dot(a, b []float64) float64 {
	var s float64
	for j, v := range a {
		s += float64(v * b[j])
	}
	return s
}
