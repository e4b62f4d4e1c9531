package linreg

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// randomData returns n rows of d standard normal features and targets
// from a random linear model plus noise.
func randomData(n, d int, seed uint64) ([][]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	theta := make([]float64, d)
	for j := range theta {
		theta[j] = r.NormFloat64() * 2
	}
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = r.NormFloat64()
		}
		y[i] = floats.Dot(theta, x[i]) + 0.5 + 0.3*r.NormFloat64()
	}
	return x, y
}

func dense(x [][]float64) *mat.Dense {
	a := mat.NewDense(len(x), len(x[0]), nil)
	for i, row := range x {
		a.SetRow(i, row)
	}
	return a
}

// closeTo fails unless got and want agree to tol relative to want's
// largest entry (or absolutely, below 1).
func closeTo(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values %v, want %d %v", what, len(got), got, len(want), want)
	}
	scale := math.Max(1, floats.Norm(want, math.Inf(1)))
	for j := range got {
		if math.Abs(got[j]-want[j]) > tol*scale {
			t.Fatalf("%s[%d] = %.17g, want %.17g (tolerance %g·%g)\ngot  %v\nwant %v", what, j, got[j], want[j], tol, scale, got, want)
		}
	}
}

// TestEpsilonExample is 000 §1.3's example: points (0, 1) and (ε, 1)
// with targets 1 and −1 force w = (−2/ε, 1), which explodes as ε → 0.
func TestEpsilonExample(t *testing.T) {
	for _, eps := range []float64{1, 1e-3, 1e-6} {
		m, err := Fit([][]float64{{0, 1}, {eps, 1}}, []float64{1, -1}, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{-2 / eps, 1}
		for j := range want {
			if math.Abs(m.W[j]-want[j]) > 1e-9*math.Abs(want[j]) {
				t.Errorf("ε = %g: w = %v, want %v to 1e-9 relative", eps, m.W, want)
			}
		}
		if m.B != 0 {
			t.Errorf("ε = %g: b = %v without intercept, want 0", eps, m.B)
		}
	}
}

// TestRidgeClosedForm compares Fit with the normal equations solved
// independently: (XᵀX + nλI)w = Xᵀy without intercept, and with one the
// bordered system that leaves b unpenalised,
//
//	[XᵀX + nλI  Xᵀ1] [w]   [Xᵀy]
//	[1ᵀX        n  ] [b] = [1ᵀy].
func TestRidgeClosedForm(t *testing.T) {
	for _, tc := range []struct {
		n, d   int
		lambda float64
	}{{30, 5, 0.01}, {30, 5, 0.7}, {12, 20, 0.05}, {200, 3, 3}, {50, 4, 0}} {
		x, y := randomData(tc.n, tc.d, uint64(tc.n*tc.d))
		X := dense(x)
		nl := float64(tc.n) * tc.lambda
		// Without intercept: Cholesky of XᵀX + nλI.
		var g mat.SymDense
		g.SymOuterK(1, X.T())
		for j := range tc.d {
			g.SetSym(j, j, g.At(j, j)+nl)
		}
		var xty mat.VecDense
		xty.MulVec(X.T(), mat.NewVecDense(tc.n, y))
		if tc.lambda > 0 || tc.n > tc.d {
			var ch mat.Cholesky
			if !ch.Factorize(&g) {
				t.Fatal("Cholesky failed")
			}
			var w mat.VecDense
			if err := ch.SolveVecTo(&w, &xty); err != nil {
				t.Fatal(err)
			}
			m, err := Fit(x, y, tc.lambda, false)
			if err != nil {
				t.Fatal(err)
			}
			closeTo(t, "w (no intercept)", m.W, w.RawVector().Data, 1e-10)
		}
		// With intercept: the bordered system by LU.
		d1 := tc.d + 1
		a := mat.NewDense(d1, d1, nil)
		rhs := make([]float64, d1)
		for i := range tc.d {
			for j := range tc.d {
				a.Set(i, j, g.At(i, j))
			}
			var s float64
			for k := range tc.n {
				s += x[k][i]
			}
			a.Set(i, tc.d, s)
			a.Set(tc.d, i, s)
			rhs[i] = xty.AtVec(i)
		}
		a.Set(tc.d, tc.d, float64(tc.n))
		rhs[tc.d] = floats.Sum(y)
		if tc.lambda == 0 && tc.n <= tc.d {
			continue
		}
		var sol mat.VecDense
		if err := sol.SolveVec(a, mat.NewVecDense(d1, rhs)); err != nil {
			t.Fatal(err)
		}
		m, err := Fit(x, y, tc.lambda, true)
		if err != nil {
			t.Fatal(err)
		}
		closeTo(t, "(w, b) with intercept", append(m.W, m.B), sol.RawVector().Data, 1e-10)
	}
}

// TestAugmentEqualsRidge is Remark 1.3.6: least squares on the augmented
// data is ridge.
func TestAugmentEqualsRidge(t *testing.T) {
	x, y := randomData(25, 4, 9)
	for _, lambda := range []float64{0.001, 0.3, 10} {
		ax, ay := Augment(x, y, lambda)
		if len(ax) != 29 || len(ay) != 29 || len(x) != 25 {
			t.Fatalf("augmented to %d rows and %d targets, want 29 (and x left at 25, got %d)", len(ax), len(ay), len(x))
		}
		plain, err := Fit(ax, ay, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		ridge, err := Fit(x, y, lambda, false)
		if err != nil {
			t.Fatal(err)
		}
		closeTo(t, "augmented least squares", plain.W, ridge.W, 1e-12)
	}
	if ax, ay := Augment(x, y, -1); ax != nil || ay != nil {
		t.Errorf("Augment with λ = −1 = %v, %v; want nil, nil", ax, ay)
	}
}

// pinv is the pseudo-inverse solution V Σ⁺ Uᵀ y from gonum's SVD of x,
// zeroing σ below 1e-10·σ₁ (the designs here are exactly rank-deficient).
func pinv(t *testing.T, x [][]float64, y []float64) []float64 {
	t.Helper()
	var svd mat.SVD
	if !svd.Factorize(dense(x), mat.SVDThin) {
		t.Fatal("SVD failed")
	}
	var u, v mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	s := svd.Values(nil)
	var uty mat.VecDense
	uty.MulVec(u.T(), mat.NewVecDense(len(y), y))
	for k := range s {
		if s[k] > 1e-10*s[0] {
			uty.SetVec(k, uty.AtVec(k)/s[k])
		} else {
			uty.SetVec(k, 0)
		}
	}
	var w mat.VecDense
	w.MulVec(&v, &uty)
	return w.RawVector().Data
}

// TestMinimumNorm: with a duplicated column the least-squares minimisers
// form a line; Fit returns the pseudo-inverse one, which splits the
// weight evenly between the twins and is shorter than the minimiser
// that drops the twin.
func TestMinimumNorm(t *testing.T) {
	x, y := randomData(40, 3, 4)
	dup := make([][]float64, len(x))
	for i, row := range x {
		dup[i] = []float64{row[0], row[1], row[2], row[0]}
	}
	for _, intercept := range []bool{false, true} {
		m, err := Fit(dup, y, 0, intercept)
		if err != nil {
			t.Fatal(err)
		}
		design, target := dup, y
		if intercept {
			design, target = centred(dup), centredVec(y)
		}
		closeTo(t, "min-norm w", m.W, pinv(t, design, target), 1e-10)
		if math.Abs(m.W[0]-m.W[3]) > 1e-10*math.Abs(m.W[0]) {
			t.Errorf("twins got %v and %v, want equal shares", m.W[0], m.W[3])
		}
		other, err := Fit(x, y, 0, intercept)
		if err != nil {
			t.Fatal(err)
		}
		o := Model{W: append(other.W, 0), B: other.B}
		if a, b := MSE(dup, y, m), MSE(dup, y, o); math.Abs(a-b) > 1e-12*b {
			t.Errorf("intercept %v: MSE %v of the min-norm fit, %v of the one without the twin; both are minimisers", intercept, a, b)
		}
		if floats.Norm(m.W, 2) >= floats.Norm(o.W, 2)*(1-1e-6) {
			t.Errorf("‖w‖ = %v is not below the other minimiser's %v", floats.Norm(m.W, 2), floats.Norm(o.W, 2))
		}
	}
}

// TestWideMinimumNorm: with fewer rows than features the fit
// interpolates, and the min-norm interpolant is Xᵀ(XXᵀ)⁻¹y.
func TestWideMinimumNorm(t *testing.T) {
	x, y := randomData(6, 15, 2)
	X := dense(x)
	var k mat.SymDense
	k.SymOuterK(1, X)
	var ch mat.Cholesky
	if !ch.Factorize(&k) {
		t.Fatal("XXᵀ not positive definite")
	}
	var alpha, want mat.VecDense
	if err := ch.SolveVecTo(&alpha, mat.NewVecDense(6, y)); err != nil {
		t.Fatal(err)
	}
	want.MulVec(X.T(), &alpha)
	m, err := Fit(x, y, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	closeTo(t, "wide min-norm w", m.W, want.RawVector().Data, 1e-10)
	if mse := MSE(x, y, m); mse > 1e-20 {
		t.Errorf("MSE %v, want an interpolant", mse)
	}
}

func centred(x [][]float64) [][]float64 {
	out := make([][]float64, len(x))
	for i := range x {
		out[i] = make([]float64, len(x[i]))
	}
	for j := range x[0] {
		var m float64
		for i := range x {
			m += x[i][j]
		}
		m /= float64(len(x))
		for i := range x {
			out[i][j] = x[i][j] - m
		}
	}
	return out
}

func centredVec(y []float64) []float64 {
	m := floats.Sum(y) / float64(len(y))
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = v - m
	}
	return out
}

// TestInterpolation is Thm 1.3.2 made concrete: a degree n−1 polynomial
// (n − 1 monomials plus the intercept) passes through n points with
// distinct x exactly.
func TestInterpolation(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int{2, 5, 9} {
		xs := make([]float64, n)
		y := make([]float64, n)
		for i := range xs {
			xs[i] = -1 + 2*float64(i)/float64(n-1) + 0.01*r.Float64()
			y[i] = 3 * r.NormFloat64()
		}
		m, err := Fit(PolyRows(xs, n-1), y, 0, true)
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range xs {
			if got := m.Predict(Poly(x, n-1)); math.Abs(got-y[i]) > 1e-9*(1+math.Abs(y[i])) {
				t.Errorf("n = %d: f(%v) = %.15g, want %.15g", n, x, got, y[i])
			}
		}
	}
}

func TestNoFeatures(t *testing.T) {
	x := [][]float64{{}, {}, {}}
	y := []float64{1, 2, 6}
	m, err := Fit(x, y, 0.5, true)
	if err != nil || len(m.W) != 0 || m.B != 3 {
		t.Errorf("Fit with no features = %+v, %v; want w = [], b = ȳ = 3", m, err)
	}
	m, err = Fit(x, y, 0, false)
	if err != nil || len(m.W) != 0 || m.B != 0 {
		t.Errorf("Fit with no features nor intercept = %+v, %v; want w = [], b = 0", m, err)
	}
}

func TestFitErrors(t *testing.T) {
	ok := [][]float64{{1, 2}, {3, 4}}
	for _, tc := range []struct {
		name   string
		x      [][]float64
		y      []float64
		lambda float64
		want   error
	}{
		{"no rows", nil, nil, 0, ErrParameters},
		{"ragged", [][]float64{{1, 2}, {3}}, []float64{1, 2}, 0, ErrParameters},
		{"short y", ok, []float64{1}, 0, ErrParameters},
		{"NaN x", [][]float64{{1, math.NaN()}, {3, 4}}, []float64{1, 2}, 0, ErrNotFinite},
		{"Inf y", ok, []float64{1, math.Inf(-1)}, 0, ErrNotFinite},
		{"negative λ", ok, []float64{1, 2}, -1, ErrParameters},
		{"NaN λ", ok, []float64{1, 2}, math.NaN(), ErrParameters},
		{"infinite λ", ok, []float64{1, 2}, math.Inf(1), ErrParameters},
		{"overflow", [][]float64{{1e-300}}, []float64{1e300}, 0, ErrNotFinite},
		{"centring overflows", [][]float64{{1.5e308}, {-1.5e308}}, []float64{1, 2}, 0, ErrNotFinite},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Fit(tc.x, tc.y, tc.lambda, true)
			if tc.name == "overflow" {
				m, err = Fit(tc.x, tc.y, tc.lambda, false)
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("Fit = %+v, %v; want an error wrapping %v", m, err, tc.want)
			}
		})
	}
}
