package bayes

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// maxBound is the accuracy the package claims for well-conditioned
// mixtures.
const maxBound = 1e-12

// TestSymmetric: π = ½, both classes σ²I, means Δ apart. The Bayes
// boundary is the bisector and the error is Φ(−Δ/(2σ)) (each class is
// misclassified when its projection on the line of the means crosses the
// midpoint, Δ/2 away). The bound must cover the difference.
func TestSymmetric(t *testing.T) {
	for _, c := range []struct{ delta, sigma, angle float64 }{
		{0.1, 1, 0}, {1, 1, 0.3}, {2, 0.5, 1}, {3, 2, 2.5}, {6, 1, -0.7}, {12, 1, 4}, {1, 1e-3, 0.2}, {50, 10, 1.1},
	} {
		dir := [2]float64{math.Cos(c.angle), math.Sin(c.angle)}
		centre := [2]float64{0.7, -1.9}
		mp := [2]float64{centre[0] + c.delta/2*dir[0], centre[1] + c.delta/2*dir[1]}
		mn := [2]float64{centre[0] - c.delta/2*dir[0], centre[1] - c.delta/2*dir[1]}
		m, err := NewIsotropic(0.5, mp, mn, c.sigma)
		if err != nil {
			t.Fatal(err)
		}
		got, bound := m.BayesError()
		want := distuv.UnitNormal.CDF(-c.delta / (2 * c.sigma))
		if math.Abs(got-want) > bound || bound > maxBound {
			t.Errorf("Δ=%v σ=%v: BayesError = %.17g ± %.2g, want Φ(−Δ/2σ) = %.17g (off by %.2g)", c.delta, c.sigma, got, bound, want, got-want)
		}
	}
}

// TestSharedCovariance: one covariance Σ and any π. Then ℓ(x) = wᵀx + b
// is linear with w = Σ⁻¹(μ₊ − μ₋), and wᵀx is normal under each class,
// so R(h*) = π Φ(−(wᵀμ₊ + b)/s) + (1 − π) Φ((wᵀμ₋ + b)/s), s = √(wᵀΣw):
// a one-dimensional route the general integration never takes.
func TestSharedCovariance(t *testing.T) {
	for _, c := range []struct {
		pi     float64
		mp, mn [2]float64
		cov    [2][2]float64
	}{
		{0.3, [2]float64{1, 0}, [2]float64{-1, 0.5}, [2][2]float64{{1, 0.3}, {0.3, 0.5}}},
		{0.9, [2]float64{0, 0}, [2]float64{0.5, 0.5}, [2][2]float64{{2, -1.2}, {-1.2, 1}}},
		{0.05, [2]float64{3, 1}, [2]float64{-1, 2}, [2][2]float64{{0.5, 0}, {0, 3}}},
	} {
		m, err := New(c.pi, c.mp, c.cov, c.mn, c.cov)
		if err != nil {
			t.Fatal(err)
		}
		got, bound := m.BayesError()
		sigma := mat.NewSymDense(2, []float64{c.cov[0][0], c.cov[0][1], c.cov[1][0], c.cov[1][1]})
		var w mat.VecDense
		if err := w.SolveVec(sigma, mat.NewVecDense(2, []float64{c.mp[0] - c.mn[0], c.mp[1] - c.mn[1]})); err != nil {
			t.Fatal(err)
		}
		mp, mn := mat.NewVecDense(2, c.mp[:]), mat.NewVecDense(2, c.mn[:])
		b := math.Log(c.pi/(1-c.pi)) - (mat.Dot(&w, mp)+mat.Dot(&w, mn))/2
		s := math.Sqrt(mat.Inner(&w, sigma, &w))
		want := c.pi*distuv.UnitNormal.CDF(-(mat.Dot(&w, mp)+b)/s) + (1-c.pi)*distuv.UnitNormal.CDF((mat.Dot(&w, mn)+b)/s)
		if math.Abs(got-want) > bound || bound > maxBound {
			t.Errorf("π=%v: BayesError = %.17g ± %.2g, want %.17g (off by %.2g)", c.pi, got, bound, want, got-want)
		}
	}
}

// unequal are mixtures whose Bayes boundary is a conic: an ellipse round
// a tight class, a hyperbola between crossed ellipses, a general one.
var unequal = []struct {
	name   string
	pi     float64
	mp, mn [2]float64
	cp, cn [2][2]float64
}{
	{"general", 0.3, [2]float64{1, 0}, [2]float64{-1, 0.5}, [2][2]float64{{1, 0.3}, {0.3, 0.5}}, [2][2]float64{{2, -0.4}, {-0.4, 1}}},
	{"concentric", 0.5, [2]float64{0, 0}, [2]float64{0, 0}, [2][2]float64{{1, 0}, {0, 1}}, [2][2]float64{{4, 0}, {0, 4}}},
	{"crossed", 0.5, [2]float64{0, 0}, [2]float64{0, 0}, [2][2]float64{{1, 0}, {0, 4}}, [2][2]float64{{4, 0}, {0, 1}}},
	{"tight", 0.6, [2]float64{0.5, 0.5}, [2]float64{0, 0}, [2][2]float64{{0.05, 0.02}, {0.02, 0.1}}, [2][2]float64{{1, 0.5}, {0.5, 2}}},
}

// TestConcentric: N(0, I) against N(0, 4I), π = ½. ℓ = log 4 − 3‖x‖²/8,
// so h* = +1 inside the circle ‖x‖² ≤ R² = (8/3) log 4, and
// R(h*) = ½ e^{−R²/2} + ½ (1 − e^{−R²/8}) by the χ² tail e^{−r²/(2σ²)}.
func TestConcentric(t *testing.T) {
	c := unequal[1]
	m, _ := New(c.pi, c.mp, c.cp, c.mn, c.cn)
	got, bound := m.BayesError()
	r2 := 8 * math.Log(4) / 3
	want := math.Exp(-r2/2)/2 + (1-math.Exp(-r2/8))/2
	if math.Abs(got-want) > bound || bound > maxBound {
		t.Errorf("BayesError = %.17g ± %.2g, want %.17g", got, bound, want)
	}
}

// TestCubature compares BayesError with the notes' formula
// R(h*) = ∫ min(π p₊(x), (1 − π) p₋(x)) dx, integrated in Cartesian
// coordinates with the textbook density (det and inverse of the 2×2
// covariance, not the package's Cholesky whitening): Gauss–Legendre in x₂ between the
// roots of ℓ(x₁, ·) (where the min switches branch) and in x₁ between the
// x₁ where those roots appear or merge, over ±10 standard deviations.
func TestCubature(t *testing.T) {
	for _, c := range unequal {
		m, _ := New(c.pi, c.mp, c.cp, c.mn, c.cn)
		got, bound := m.BayesError()
		want := cubature(t, c.pi, c.mp, c.cp, c.mn, c.cn)
		// The cubature, not BayesError, limits the agreement: at 150 × 400
		// nodes it is good to about 1e-11 (with twice the nodes it meets
		// BayesError within 5e-15), so 1e-10 is its tolerance.
		if math.Abs(got-want) > 1e-10 || bound > maxBound {
			t.Errorf("%s: BayesError = %.15g ± %.2g, cubature %.15g (off by %.2g)", c.name, got, bound, want, got-want)
		}
	}
}

// TestCubatureRandom: the same on random mixtures, covariances with
// eigenvalues from 1/e to e at random angles. (Sixty of them agreed to
// 4e-11 when this test was written; three keep the test quick.)
func TestCubatureRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	cov := func() [2][2]float64 {
		a, b, th := math.Exp(2*r.Float64()-1), math.Exp(2*r.Float64()-1), r.Float64()*math.Pi
		c, s := math.Cos(th), math.Sin(th)
		return [2][2]float64{{a*c*c + b*s*s, (a - b) * c * s}, {(a - b) * c * s, a*s*s + b*c*c}}
	}
	for range 3 {
		pi, mp, cp := 0.1+0.8*r.Float64(), [2]float64{2*r.Float64() - 1, 2*r.Float64() - 1}, cov()
		mn, cn := [2]float64{2*r.Float64() - 1, 2*r.Float64() - 1}, cov()
		m, err := New(pi, mp, cp, mn, cn)
		if err != nil {
			t.Fatal(err)
		}
		got, bound := m.BayesError()
		if want := cubature(t, pi, mp, cp, mn, cn); math.Abs(got-want) > 1e-10 || bound > maxBound {
			t.Errorf("π=%.3f μ=%v,%v Σ=%v,%v: BayesError = %.15g ± %.2g, cubature %.15g", pi, mp, mn, cp, cn, got, bound, want)
		}
	}
}

func cubature(t *testing.T, pi float64, mp [2]float64, cp [2][2]float64, mn [2]float64, cn [2][2]float64) float64 {
	t.Helper()
	pos, neg := density(mp, cp), density(mn, cn)
	// ℓ(x) = xᵀQx + wᵀx + k from the precision matrices (a test may
	// invert a 2×2: it is the independent route).
	q, w, k := quadratic(pi, mp, cp, mn, cn)
	box := func(j int) (float64, float64) {
		s := 10 * math.Sqrt(max(cp[j][j], cn[j][j]))
		return min(mp[j], mn[j]) - s, max(mp[j], mn[j]) + s
	}
	lo1, hi1 := box(0)
	lo2, hi2 := box(1)
	// As a quadratic in x₂: q₂₂ x₂² + (2q₁₂x₁ + w₂) x₂ + (q₁₁x₁² + w₁x₁ + k);
	// its discriminant is a quadratic in x₁ whose roots split the x₁ range.
	d2 := 4*q[0][1]*q[0][1] - 4*q[1][1]*q[0][0]
	d1 := 4*q[0][1]*w[1] - 4*q[1][1]*w[0]
	d0 := w[1]*w[1] - 4*q[1][1]*k
	inner := func(x1 float64) float64 {
		cuts := append([]float64{lo2, hi2}, roots(q[1][1], 2*q[0][1]*x1+w[1], q[0][0]*x1*x1+w[0]*x1+k, lo2, hi2)...)
		return gl(cuts, 150, func(x2 float64) float64 {
			return min(pi*pos(x1, x2), (1-pi)*neg(x1, x2))
		})
	}
	return gl(append([]float64{lo1, hi1}, roots(d2, d1, d0, lo1, hi1)...), 400, inner)
}

// density is the bivariate normal density exp(−½ dᵀΣ⁻¹d)/(2π√det Σ).
func density(mu [2]float64, c [2][2]float64) func(x1, x2 float64) float64 {
	det := c[0][0]*c[1][1] - c[0][1]*c[1][0]
	return func(x1, x2 float64) float64 {
		d1, d2 := x1-mu[0], x2-mu[1]
		q := (c[1][1]*d1*d1 - 2*c[0][1]*d1*d2 + c[0][0]*d2*d2) / det
		return math.Exp(-q/2) / (2 * math.Pi * math.Sqrt(det))
	}
}

// quadratic returns Q, w and k with ℓ(x) = xᵀQx + wᵀx + k.
func quadratic(pi float64, mp [2]float64, cp [2][2]float64, mn [2]float64, cn [2][2]float64) (q [2][2]float64, w [2]float64, k float64) {
	inv := func(c [2][2]float64) ([2][2]float64, float64) {
		det := c[0][0]*c[1][1] - c[0][1]*c[1][0]
		return [2][2]float64{{c[1][1] / det, -c[0][1] / det}, {-c[1][0] / det, c[0][0] / det}}, det
	}
	pp, detp := inv(cp)
	pn, detn := inv(cn)
	k = math.Log(pi/(1-pi)) - math.Log(detp)/2 + math.Log(detn)/2
	for i := range 2 {
		for j := range 2 {
			q[i][j] = (pn[i][j] - pp[i][j]) / 2
			w[i] += pp[i][j]*mp[j] - pn[i][j]*mn[j]
			k += -mp[i]*pp[i][j]*mp[j]/2 + mn[i]*pn[i][j]*mn[j]/2
		}
	}
	return q, w, k
}

// roots returns the real roots of a t² + b t + c inside (lo, hi).
func roots(a, b, c, lo, hi float64) []float64 {
	var rs []float64
	switch {
	case math.Abs(a) < 1e-14 && b != 0:
		rs = []float64{-c / b}
	case a != 0 && b*b-4*a*c >= 0: // a double root is a kink too
		s := math.Sqrt(b*b - 4*a*c)
		rs = []float64{(-b - s) / (2 * a), (-b + s) / (2 * a)}
	}
	var in []float64
	for _, r := range rs {
		if r > lo && r < hi {
			in = append(in, r)
		}
	}
	return in
}

// gl integrates f over [min(cuts), max(cuts)] with an n-point
// Gauss–Legendre rule between consecutive cuts.
func gl(cuts []float64, n int, f func(float64) float64) float64 {
	sortFloats(cuts)
	var sum float64
	for i := 1; i < len(cuts); i++ {
		if cuts[i] > cuts[i-1] {
			sum += quad.Fixed(f, cuts[i-1], cuts[i], n, quad.Legendre{}, 0)
		}
	}
	return sum
}

func sortFloats(a []float64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// TestMonteCarlo: on the unequal-covariance mixtures, the error of h* on
// fresh samples agrees with BayesError within 4 standard errors.
func TestMonteCarlo(t *testing.T) {
	for i, c := range unequal {
		m, _ := New(c.pi, c.mp, c.cp, c.mn, c.cn)
		want, _ := m.BayesError()
		got, se, err := m.Risk(m.BayesClassifier, 200000, uint64(10+i))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 4*se {
			t.Errorf("%s: Monte Carlo risk %.5f ± %.5f, BayesError %.5f: %.1f standard errors apart", c.name, got, se, want, (got-want)/se)
		}
	}
}

// TestDegenerate: equal class distributions make η ≡ π. With π < ½, h* ≡
// −1 errs on every +1, R = π; with π = ½, η ≡ ½ and h* ≡ +1 (the notes'
// tie rule), R = ½. Far-apart means make R tiny but not negative.
func TestDegenerate(t *testing.T) {
	for _, c := range []struct{ pi, want float64 }{{0.3, 0.3}, {0.5, 0.5}, {0.8, 0.2}} {
		m, _ := NewIsotropic(c.pi, [2]float64{1, 2}, [2]float64{1, 2}, 0.7)
		if got, bound := m.BayesError(); math.Abs(got-c.want) > bound {
			t.Errorf("π=%v, equal classes: BayesError = %v ± %.2g, want %v", c.pi, got, bound, c.want)
		}
	}
	m, _ := NewIsotropic(0.5, [2]float64{40, 0}, [2]float64{-40, 0}, 1)
	if got, bound := m.BayesError(); got < 0 || got > bound {
		t.Errorf("means 80σ apart: BayesError = %v ± %v, want within the bound of 0", got, bound)
	}
}
