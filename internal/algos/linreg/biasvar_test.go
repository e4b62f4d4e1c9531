package linreg

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func grid(n int, lo, hi float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return xs
}

func cubic(x float64) float64 { return 0.5 - x + 2*x*x*x }

// responses returns Fit's model for each unit target eᵢ on the design:
// ridge is linear in y (and Fit(0) = 0), so θ̂(y) = Σ yᵢ θ̂(eᵢ), an
// independent way to get the estimator's covariance σ² Σᵢ θ̂(eᵢ)θ̂(eᵢ)ᵀ.
func responses(t *testing.T, x [][]float64, lambda float64) []Model {
	t.Helper()
	out := make([]Model, len(x))
	for i := range x {
		e := make([]float64, len(x))
		e[i] = 1
		m, err := Fit(x, e, lambda, true)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = m
	}
	return out
}

// TestResampleMoments: the average of R = 500 fits lies within 5
// standard errors of E[θ̂] (Expected), the standard errors computed
// independently from the unit responses; the closed-form Variance equals
// σ² Σᵢ f̂ₑᵢ(x)² from the same responses; and the sample bias and variance
// are near the exact ones.
func TestResampleMoments(t *testing.T) {
	x := grid(15, -1, 1)
	xs := grid(41, -1, 1)
	const sigma, R, p, lambda = 0.5, 500, 3, 0.01
	bv, err := ResampleFits(x, cubic, sigma, R, p, lambda, 7, xs)
	if err != nil {
		t.Fatal(err)
	}
	resp := responses(t, PolyRows(x, p), lambda)
	se := func(coef func(Model) float64) float64 {
		var s float64
		for _, m := range resp {
			s += coef(m) * coef(m)
		}
		return sigma * math.Sqrt(s/R)
	}
	for j := range p {
		if d, lim := math.Abs(bv.Mean.W[j]-bv.Expected.W[j]), 5*se(func(m Model) float64 { return m.W[j] }); d > lim {
			t.Errorf("w[%d]: mean of fits %v, expected %v: off by %g > 5 standard errors %g", j, bv.Mean.W[j], bv.Expected.W[j], d, lim)
		}
	}
	if d, lim := math.Abs(bv.Mean.B-bv.Expected.B), 5*se(func(m Model) float64 { return m.B }); d > lim {
		t.Errorf("b: mean of fits %v, expected %v: off by %g > %g", bv.Mean.B, bv.Expected.B, d, lim)
	}
	var want float64
	for _, v := range xs {
		phi := Poly(v, p)
		for _, m := range resp {
			f := m.Predict(phi)
			want += sigma * sigma * f * f
		}
	}
	want /= float64(len(xs))
	if math.Abs(bv.Variance-want) > 1e-10*want {
		t.Errorf("Variance %v, from the unit responses %v", bv.Variance, want)
	}
	if math.Abs(bv.SampleVariance-bv.Variance) > 0.3*bv.Variance {
		t.Errorf("sample variance %v is far from the exact %v", bv.SampleVariance, bv.Variance)
	}
	if bv.SampleBias2 > bv.Bias2+5*bv.Variance/R {
		t.Errorf("sample bias² %v, exact %v (+ the mean's own variance %v)", bv.SampleBias2, bv.Bias2, bv.Variance/R)
	}
}

// TestResampleIdentity: the sample bias² and variance add up to the fits'
// mean squared distance from f, by the algebra of the mean.
func TestResampleIdentity(t *testing.T) {
	x := grid(12, 0, 2)
	xs := grid(9, 0, 2)
	bv, err := ResampleFits(x, cubic, 0.3, 20, 2, 0.1, 3, xs)
	if err != nil {
		t.Fatal(err)
	}
	var mse float64
	for _, v := range xs {
		for _, m := range bv.Fits {
			e := m.Predict(Poly(v, 2)) - cubic(v)
			mse += e * e
		}
	}
	mse /= float64(len(xs) * len(bv.Fits))
	if got := bv.SampleBias2 + bv.SampleVariance; math.Abs(got-mse) > 1e-12*mse {
		t.Errorf("sample bias² + variance = %v, mean squared error of the fits %v", got, mse)
	}
	if len(bv.Fits) != 20 {
		t.Errorf("%d fits, want 20", len(bv.Fits))
	}
}

// TestNoBiasInClass: least squares on a model class that holds f is
// unbiased (003 §4.4: E[ϑ_opt] = ϑ*), so Bias2 vanishes and Expected is
// f's own coefficients; a line (p = 1) is biased for a cubic.
func TestNoBiasInClass(t *testing.T) {
	x := grid(10, -1, 1)
	xs := grid(30, -1.2, 1.2)
	bv, err := ResampleFits(x, cubic, 1, 50, 3, 0, 1, xs)
	if err != nil {
		t.Fatal(err)
	}
	if bv.Bias2 > 1e-24 {
		t.Errorf("Bias2 = %g for a cubic fitted by a cubic, want 0", bv.Bias2)
	}
	closeTo(t, "E[θ̂] for f = 0.5 − x + 2x³", append(bv.Expected.W, bv.Expected.B), []float64{-1, 0, 2, 0.5}, 1e-12)
	line, err := ResampleFits(x, cubic, 1, 50, 1, 0, 1, xs)
	if err != nil {
		t.Fatal(err)
	}
	if line.Bias2 < 0.01 {
		t.Errorf("Bias2 = %g for a line fitted to a cubic, want clearly positive", line.Bias2)
	}
}

// TestShrinkage is 003 §4.5: E[θ̂] = (I − nλ(X̃ᵀX̃ + nλI)⁻¹)θ* on the
// centred design X̃ when f = θ*·φ + θ₀*, computed here by a Cholesky
// solve, and b = θ₀* + x̄·(θ* − w).
func TestShrinkage(t *testing.T) {
	x := grid(20, -1, 2)
	theta := []float64{1.5, -0.7, 0.3}
	const theta0, lambda, p = 0.8, 0.05, 3
	f := func(v float64) float64 { return dot(theta, Poly(v, p)) + theta0 }
	bv, err := ResampleFits(x, f, 0.2, 3, p, lambda, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows := PolyRows(x, p)
	c := centred(rows)
	n := float64(len(x))
	var g mat.SymDense
	g.SymOuterK(1, dense(c).T())
	for j := range p {
		g.SetSym(j, j, g.At(j, j)+n*lambda)
	}
	var ch mat.Cholesky
	if !ch.Factorize(&g) {
		t.Fatal("Cholesky failed")
	}
	var inv mat.VecDense
	if err := ch.SolveVecTo(&inv, mat.NewVecDense(p, theta)); err != nil {
		t.Fatal(err)
	}
	want := make([]float64, p)
	for j := range want {
		want[j] = theta[j] - n*lambda*inv.AtVec(j)
	}
	closeTo(t, "shrunk w", bv.Expected.W, want, 1e-10)
	var b float64 = theta0
	for j := range p {
		var mean float64
		for _, r := range rows {
			mean += r[j] / n
		}
		b += mean * (theta[j] - want[j])
	}
	if math.Abs(bv.Expected.B-b) > 1e-10 {
		t.Errorf("expected b %v, want %v", bv.Expected.B, b)
	}
	if bv.Bias2 != 0 || bv.Variance != 0 {
		t.Errorf("no evaluation points: Bias2 %v, Variance %v; want 0, 0", bv.Bias2, bv.Variance)
	}
}

func TestResampleDeterministic(t *testing.T) {
	x := grid(11, -1, 1)
	xs := grid(7, -1, 1)
	a, err := ResampleFits(x, cubic, 0.4, 30, 4, 0.01, 99, xs)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ResampleFits(x, cubic, 0.4, 30, 4, 0.01, 99, xs)
	if !reflect.DeepEqual(a, b) {
		t.Error("two runs with one seed differ")
	}
	c, _ := ResampleFits(x, cubic, 0.4, 30, 4, 0.01, 100, xs)
	if reflect.DeepEqual(a.Fits, c.Fits) {
		t.Error("seeds 99 and 100 gave the same fits")
	}
}

func TestResampleErrors(t *testing.T) {
	x := grid(5, 0, 1)
	nan := func(float64) float64 { return math.NaN() }
	for _, tc := range []struct {
		name   string
		x      []float64
		f      func(float64) float64
		sigma  float64
		R, p   int
		lambda float64
		want   error
	}{
		{"no points", nil, cubic, 1, 5, 2, 0, ErrParameters},
		{"p too high", x, cubic, 1, 5, MaxDegree + 1, 0, ErrParameters},
		{"p negative", x, cubic, 1, 5, -1, 0, ErrParameters},
		{"R = 0", x, cubic, 1, 0, 2, 0, ErrParameters},
		{"R too high", x, cubic, 1, MaxResamples + 1, 2, 0, ErrParameters},
		{"σ < 0", x, cubic, -1, 5, 2, 0, ErrParameters},
		{"λ < 0", x, cubic, 1, 5, 2, -1, ErrParameters},
		{"nil f", x, nil, 1, 5, 2, 0, ErrParameters},
		{"f NaN", x, nan, 1, 5, 2, 0, ErrNotFinite},
	} {
		if _, err := ResampleFits(tc.x, tc.f, tc.sigma, tc.R, tc.p, tc.lambda, 1, nil); !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
}
