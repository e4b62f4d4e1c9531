package gd

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos/symeig"
)

// blobs returns n 2-D points, y = ±1, the classes centred at ±(sep, sep/2)
// with unit noise: overlapping for small sep.
func blobs(n int, sep float64, seed uint64) ([][]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 7))
	x, y := make([][]float64, n), make([]float64, n)
	for i := range x {
		y[i] = float64(1 - 2*(i%2))
		x[i] = []float64{y[i]*sep + r.NormFloat64(), y[i]*sep/2 + r.NormFloat64()}
	}
	return x, y
}

// line returns y = 2x₁ − x₂ + 0.5 + noise on n random points.
func line(n int, seed uint64) ([][]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 3))
	x, y := make([][]float64, n), make([]float64, n)
	for i := range x {
		x[i] = []float64{r.Float64()*4 - 2, r.Float64()*2 - 1}
		y[i] = 2*x[i][0] - x[i][1] + 0.5 + 0.3*r.NormFloat64()
	}
	return x, y
}

func mustLS(t *testing.T, x [][]float64, y []float64, lambda float64) *LeastSquares {
	t.Helper()
	f, err := NewLeastSquares(x, y, lambda)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mustLogistic(t *testing.T, x [][]float64, y []float64, lambda float64) *Logistic {
	t.Helper()
	f, err := NewLogistic(x, y, lambda)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestLeastSquaresByHand: x = 0, 1, 2 with y = 1, 3, 5 lie on y = 2x + 1.
func TestLeastSquaresByHand(t *testing.T) {
	f := mustLS(t, [][]float64{{0}, {1}, {2}}, []float64{1, 3, 5}, 0)
	if v := f.Value([]float64{0, 0}); v != 35.0/3 {
		t.Errorf("f(0, 0) = %v, want (1 + 9 + 25)/3", v)
	}
	g := make([]float64, 2)
	f.Grad(g, []float64{0, 0}) // (2/3) Σ rᵢ x̃ᵢ with r = −y
	if g[0] != -26.0/3 || g[1] != -6 {
		t.Errorf("∇f(0, 0) = %v, want (−26/3, −6)", g)
	}
	xs, fs, err := f.Minimiser()
	if err != nil || dist(xs, []float64{2, 1}) > 1e-12 || math.Abs(fs) > 1e-24 {
		t.Errorf("Minimiser = %v, %v, %v; want (2, 1), 0", xs, fs, err)
	}
	// Hessian (2/3)[[5, 3], [3, 3]]: L is its larger eigenvalue, by the
	// 2×2 formula tr/2 + √((tr/2)² − det).
	tr, det := 2.0/3*8, 4.0/9*6
	if l, want := f.L(), tr/2+math.Sqrt(tr*tr/4-det); math.Abs(l-want) > 1e-12 {
		t.Errorf("L = %v, want %v", l, want)
	}
}

// TestGradients compares Grad with central differences of Value, and the
// Hessian with central differences of Grad, for every objective.
func TestGradients(t *testing.T) {
	x, y := line(30, 1)
	bx, by := blobs(30, 0.5, 2)
	for _, c := range []struct {
		name string
		f    Func
		at   []float64
	}{
		{"least squares", mustLS(t, x, y, 0), []float64{0.3, -0.2, 0.1}},
		{"ridge", mustLS(t, x, y, 0.7), []float64{0.3, -0.2, 0.1}},
		{"logistic", mustLogistic(t, bx, by, 0), []float64{0.8, -0.5, 0.2}},
		{"logistic λ", mustLogistic(t, bx, by, 0.3), []float64{-1.5, 2, 0.7}},
		{"quadratic", shifted2D(t, 7, 0.3), []float64{0.4, 2}},
		{"double well", DoubleWell{Tilt: 0.3}, []float64{0.7, -0.4}},
	} {
		d := c.f.Dim()
		g := make([]float64, d)
		c.f.Grad(g, c.at)
		h := c.f.Hessian(c.at)
		const eps = 1e-5
		for j := range d {
			p, m := append([]float64(nil), c.at...), append([]float64(nil), c.at...)
			p[j] += eps
			m[j] -= eps
			if fd := (c.f.Value(p) - c.f.Value(m)) / (2 * eps); math.Abs(fd-g[j]) > 1e-7*math.Max(1, math.Abs(g[j])) {
				t.Errorf("%s: ∂f/∂x%d = %v, central difference %v", c.name, j, g[j], fd)
			}
			gp, gm := make([]float64, d), make([]float64, d)
			c.f.Grad(gp, p)
			c.f.Grad(gm, m)
			for i := range d {
				if fd := (gp[i] - gm[i]) / (2 * eps); math.Abs(fd-h.At(i, j)) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Errorf("%s: H[%d][%d] = %v, central difference %v", c.name, i, j, h.At(i, j), fd)
				}
			}
		}
	}
}

// TestLeastSquaresMinimiser checks θ* against the normal equations
// (X̃ᵀX̃ + nλD)θ = X̃ᵀy solved by Cholesky, and the minimum-norm answer on
// a design with a repeated column.
func TestLeastSquaresMinimiser(t *testing.T) {
	x, y := line(40, 5)
	for _, lambda := range []float64{0, 0.01, 3} {
		f := mustLS(t, x, y, lambda)
		xs, fs, err := f.Minimiser()
		if err != nil {
			t.Fatal(err)
		}
		n := float64(len(x))
		a := mat.NewSymDense(3, nil)
		b := mat.NewVecDense(3, nil)
		for i, row := range x {
			xt := []float64{row[0], row[1], 1}
			for j := range 3 {
				b.SetVec(j, b.AtVec(j)+xt[j]*y[i])
				for k := j; k < 3; k++ {
					a.SetSym(j, k, a.At(j, k)+xt[j]*xt[k])
				}
			}
		}
		a.SetSym(0, 0, a.At(0, 0)+n*lambda)
		a.SetSym(1, 1, a.At(1, 1)+n*lambda)
		var ch mat.Cholesky
		var want mat.VecDense
		if !ch.Factorize(a) || ch.SolveVecTo(&want, b) != nil {
			t.Fatal("normal equations failed")
		}
		if d := dist(xs, want.RawVector().Data); d > 1e-10 {
			t.Errorf("λ %v: θ* = %v, normal equations %v", lambda, xs, want.RawVector().Data)
		}
		if math.Abs(fs-f.Value(xs)) != 0 {
			t.Errorf("λ %v: f* = %v ≠ f(θ*) = %v", lambda, fs, f.Value(xs))
		}
		checkRate(t, "least squares", f, []float64{-3, 2, 4}, 300)
	}
	// Columns x and x: every (w₁, w₂) with w₁ + w₂ = 2 fits y = 2x + 1;
	// the shortest is (1, 1).
	f := mustLS(t, [][]float64{{0, 0}, {1, 1}, {2, 2}}, []float64{1, 3, 5}, 0)
	xs, _, err := f.Minimiser()
	if err != nil || dist(xs, []float64{1, 1, 1}) > 1e-12 {
		t.Errorf("repeated column: θ* = %v, %v; want the minimum-norm (1, 1, 1)", xs, err)
	}
}

func TestLogisticMinimiser(t *testing.T) {
	x, y := blobs(60, 0.6, 11)
	for _, lambda := range []float64{0, 0.05} {
		f := mustLogistic(t, x, y, lambda)
		xs, fs, err := f.Minimiser()
		if err != nil {
			t.Fatalf("λ %v: %v", lambda, err)
		}
		g := make([]float64, 3)
		f.Grad(g, xs)
		if norm(g) >= 1e-12 || fs != f.Value(xs) {
			t.Errorf("λ %v: ‖∇f(θ*)‖ = %v, want < 1e-12", lambda, norm(g))
		}
		// Gradient descent with η = 1/L reaches the same point.
		gd := &GD{F: f, Eta: 1 / f.L(), Iters: 20000, Tol: 1e-11}
		s0, _ := gd.Init([]float64{0, 0, 0})
		s := run(t, gd, s0, 20000)
		if last := s[len(s)-1]; dist(last.X, xs) > 1e-8 {
			t.Errorf("λ %v: GD ends at %v (%v), Newton at %v", lambda, last.X, last.Status, xs)
		}
		if lambda > 0 {
			checkRate(t, "logistic", f, []float64{2, -3, 1}, 300)
		}
	}
}

// TestLogisticSeparable: with λ = 0 separable data have no minimiser, and
// nor do weakly separable data (a point on the separating line); λ > 0
// always has one.
func TestLogisticSeparable(t *testing.T) {
	for _, c := range []struct {
		name string
		x    [][]float64
		y    []float64
		want bool // has a minimiser at λ = 0
	}{
		{"separable", [][]float64{{0, 0}, {1, 0}, {0, 1}, {3, 3}, {4, 3}}, []float64{-1, -1, -1, 1, 1}, false},
		{"point on the line", [][]float64{{0, 0}, {1, 0}, {2, 0}, {1, 1}}, []float64{-1, 1, -1, 1}, false},
		{"overlapping", [][]float64{{0, 0}, {1, 0}, {2, 0}, {3, 0}}, []float64{-1, 1, -1, 1}, true},
		{"one class", [][]float64{{0, 0}, {1, 2}}, []float64{1, 1}, false},
		{"xor", [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, []float64{-1, 1, 1, -1}, true},
	} {
		_, _, err := mustLogistic(t, c.x, c.y, 0).Minimiser()
		if got := err == nil; got != c.want || (err != nil && !errors.Is(err, ErrNoMinimiser)) {
			t.Errorf("%s, λ = 0: Minimiser error %v, want a minimiser: %v", c.name, err, c.want)
		}
		if _, _, err := mustLogistic(t, c.x, c.y, 0.1).Minimiser(); err != nil {
			t.Errorf("%s, λ = 0.1: %v, want a minimiser", c.name, err)
		}
	}
	// 200 points: far apart they separate, close together they do not.
	for _, c := range []struct {
		sep  float64
		want bool
	}{{8, false}, {0.3, true}} {
		x, y := blobs(200, c.sep, 12)
		if _, _, err := mustLogistic(t, x, y, 0).Minimiser(); (err == nil) != c.want {
			t.Errorf("blobs %v apart, λ = 0: Minimiser error %v, want a minimiser: %v", c.sep, err, c.want)
		}
	}
}

// TestLogisticL: L bounds the Hessian's top eigenvalue everywhere.
func TestLogisticL(t *testing.T) {
	x, y := blobs(50, 1, 3)
	f := mustLogistic(t, x, y, 0.2)
	L := f.L()
	for _, th := range [][]float64{{0, 0, 0}, {1, -1, 0.5}, {-4, 2, 3}} {
		if top := symeig.Largest(f.Hessian(th)); top > L*(1+1e-12) {
			t.Errorf("λ_max(∇²f(%v)) = %v > L = %v", th, top, L)
		}
	}
	// At θ = 0 every weight σσ is ¼: with λ = 0 the bound is exact.
	f0 := mustLogistic(t, x, y, 0)
	if top, L := symeig.Largest(f0.Hessian([]float64{0, 0, 0})), f0.L(); math.Abs(top-L) > 1e-12*L {
		t.Errorf("λ = 0: λ_max(∇²f(0)) = %v, want L = %v", top, L)
	}
}

func TestDataErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"no rows", second(NewLeastSquares(nil, nil, 0)), ErrShape},
		{"ragged", second(NewLeastSquares([][]float64{{1, 2}, {1}}, []float64{1, 2}, 0)), ErrShape},
		{"y length", second(NewLeastSquares([][]float64{{1}}, []float64{1, 2}, 0)), ErrShape},
		{"NaN", second(NewLeastSquares([][]float64{{math.NaN()}}, []float64{1}, 0)), ErrNotFinite},
		{"λ < 0", second(NewLogistic([][]float64{{1}}, []float64{1}, -1)), ErrParameters},
		{"label 0", second(NewLogistic([][]float64{{1}}, []float64{0}, 0)), ErrParameters},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, c.err, c.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }
