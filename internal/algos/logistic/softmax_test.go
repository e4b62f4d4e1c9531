package logistic

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
)

// clusters returns n points in d dimensions in c classes around the
// corners of a simplex scaled by spread (overlapping for a small one).
func clusters(seed uint64, n, d, c int, spread float64) ([][]float64, []int) {
	r := rand.New(rand.NewPCG(seed, 9))
	x := make([][]float64, n)
	y := make([]int, n)
	for i := range x {
		y[i] = i % c
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = r.NormFloat64()
		}
		x[i][y[i]%d] += spread
	}
	return x, y
}

func mustSoftmax(t *testing.T, x [][]float64, y []int, c int, lambda float64) *Softmax {
	t.Helper()
	s, err := NewSoftmax(x, y, c, lambda)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSoftmaxProba(t *testing.T) {
	m := SoftmaxModel{W: [][]float64{{1e308}, {0}, {-1e308}}, B: []float64{0, 1, 2}}
	for _, x := range [][]float64{{1}, {-1}, {0}, {1e-300}} {
		p := m.Proba(x)
		if sum := floats.Sum(p); math.Abs(sum-1) > 1e-12 || !finite(p...) {
			t.Errorf("Proba(%v) = %v, sum %v", x, p, sum)
		}
	}
	if got := m.Predict([]float64{1}); got != 0 {
		t.Errorf("Predict(1) = %d, want 0", got)
	}
	tie := SoftmaxModel{W: [][]float64{{0}, {1}, {1}}, B: []float64{0, 0, 0}}
	if got := tie.Predict([]float64{2}); got != 1 {
		t.Errorf("Predict with classes 1 and 2 tied = %d, want 1", got)
	}
	x, y := clusters(1, 30, 2, 4, 1)
	s := mustSoftmax(t, x, y, 4, 0.1)
	st := s.Start()
	st = SoftmaxGD{S: s, Eta: 1}.Step(st)
	for i, xi := range x {
		if sum := floats.Sum(st.Model.Proba(xi)); math.Abs(sum-1) > 1e-12 {
			t.Errorf("row %d: probabilities sum to %v", i, sum)
		}
	}
}

func TestSoftmaxGradientFiniteDifferences(t *testing.T) {
	x, y := clusters(2, 24, 3, 3, 1)
	s := mustSoftmax(t, x, y, 3, 0.2)
	r := rand.New(rand.NewPCG(5, 5))
	m := s.Start().Model
	for c := range m.W {
		for j := range m.W[c] {
			m.W[c][j] = r.NormFloat64()
		}
		m.B[c] = r.NormFloat64()
	}
	gW, gb := s.Gradient(m)
	const h = 1e-6
	check := func(name string, got float64, at *float64) {
		old := *at
		*at = old + h
		jp := s.Objective(m)
		*at = old - h
		jm := s.Objective(m)
		*at = old
		if want := (jp - jm) / (2 * h); math.Abs(got-want) > 1e-8 {
			t.Errorf("∂J/∂%s = %v, central difference %v", name, got, want)
		}
	}
	for c := range m.W {
		for j := range m.W[c] {
			check("W", gW[c][j], &m.W[c][j])
		}
		check("b", gb[c], &m.B[c])
	}
	if sum := floats.Sum(gb); math.Abs(sum) > 1e-15 {
		t.Errorf("b gradient sums to %v, want 0", sum)
	}
}

// TestSoftmaxSolve: the optimum's gradient vanishes, W's rows and b sum
// to 0, and GD with η = 1/L and SoftmaxNewton reach the same point.
func TestSoftmaxSolve(t *testing.T) {
	x, y := clusters(3, 60, 2, 3, 1.5)
	s := mustSoftmax(t, x, y, 3, 0.05)
	opt, err := s.Solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if opt.GradNorm >= Tol || opt.Status != algos.Converged {
		t.Fatalf("‖∇J‖ = %v, status %v", opt.GradNorm, opt.Status)
	}
	if sum := floats.Sum(opt.Model.B); math.Abs(sum) > 1e-12 {
		t.Errorf("Σ b = %v, want 0", sum)
	}
	for j := range opt.Model.W[0] {
		var sum float64
		for c := range opt.Model.W {
			sum += opt.Model.W[c][j]
		}
		if math.Abs(sum) > 1e-10 {
			t.Errorf("column %d of W sums to %v, want 0", j, sum)
		}
	}
	gd, _, _ := algos.Replay[SoftmaxState](SoftmaxGD{S: s, Eta: 1 / s.L()}, s.Start(), 20000)
	nt, _, _ := algos.Replay[SoftmaxState](SoftmaxNewton{S: s}, s.Start(), 50)
	for name, st := range map[string]SoftmaxState{"GD": gd, "Newton": nt} {
		if diff := modelDiff(st.Model, opt.Model); diff > 1e-6 {
			t.Errorf("%s after %d steps is %v from Solve's optimum", name, st.T, diff)
		}
	}
	// Separable clusters with λ > 0 still have a finite optimum.
	x, y = clusters(4, 30, 3, 3, 8)
	if st, err := mustSoftmax(t, x, y, 3, 1e-3).Solve(context.Background()); err != nil || !finiteRows(st.Model.W) {
		t.Errorf("separable clusters: %v, W = %v", err, st.Model.W)
	}
}

func modelDiff(a, b SoftmaxModel) float64 {
	var diff float64
	for c := range a.W {
		for j := range a.W[c] {
			diff = math.Max(diff, math.Abs(a.W[c][j]-b.W[c][j]))
		}
		diff = math.Max(diff, math.Abs(a.B[c]-b.B[c]))
	}
	return diff
}

// TestSoftmaxTwoClasses: with C = 2, softmax at λ is binary logistic
// regression at λ/2 with w = W₁ − W₀, b = b₁ − b₀ (class 1 is +1), and
// the centred optimum has W₀ = −W₁, b₀ = −b₁.
func TestSoftmaxTwoClasses(t *testing.T) {
	x, y := clusters(6, 50, 3, 2, 1)
	const lambda = 0.08
	sm, err := mustSoftmax(t, x, y, 2, lambda).Solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ys := make([]float64, len(y))
	for i, v := range y {
		ys[i] = float64(2*v - 1)
	}
	bin, err := mustNew(t, x, ys, lambda/2).Solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	W := sm.Model.W
	for j, w := range bin.Model.W {
		if got := W[1][j] - W[0][j]; math.Abs(got-w) > 1e-9 || math.Abs(W[1][j]+W[0][j]) > 1e-10 {
			t.Errorf("W₁ − W₀ = %v, W₁ + W₀ = %v at %d; binary w = %v", got, W[1][j]+W[0][j], j, w)
		}
	}
	if got := sm.Model.B[1] - sm.Model.B[0]; math.Abs(got-bin.Model.B) > 1e-9 {
		t.Errorf("b₁ − b₀ = %v, binary b = %v", got, bin.Model.B)
	}
	if d := math.Abs(sm.Objective - bin.Objective); d > 1e-12 {
		t.Errorf("objectives differ by %v", d)
	}
	for i, xi := range x {
		if p, q := sm.Model.Proba(xi)[1], bin.Model.Proba(xi); math.Abs(p-q) > 1e-9 {
			t.Errorf("row %d: softmax P(1) = %v, binary %v", i, p, q)
		}
	}
}

func TestNewSoftmaxRejects(t *testing.T) {
	x := [][]float64{{0}, {1}, {2}}
	for _, tc := range []struct {
		name   string
		y      []int
		c      int
		lambda float64
	}{
		{"label too big", []int{0, 1, 2}, 2, 1},
		{"negative label", []int{0, -1, 1}, 2, 1},
		{"empty class", []int{0, 0, 2}, 3, 1},
		{"one class", []int{0, 0, 0}, 1, 1},
		{"too many classes", []int{0, 1, 0}, MaxClasses + 1, 1},
		{"lambda 0", []int{0, 1, 0}, 2, 0},
		{"lambda Inf", []int{0, 1, 0}, 2, math.Inf(1)},
	} {
		if _, err := NewSoftmax(x, tc.y, tc.c, tc.lambda); !errors.Is(err, ErrInput) {
			t.Errorf("%s: error %v, want ErrInput", tc.name, err)
		}
	}
}

func TestSoftmaxDeterministic(t *testing.T) {
	run := func() SoftmaxState {
		x, y := clusters(7, 40, 2, 4, 1)
		s := mustSoftmax(t, x, y, 4, 0.01)
		st, err := s.Solve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		g, _, _ := algos.Replay[SoftmaxState](SoftmaxGD{S: s, Eta: 0.3}, s.Start(), 40)
		st.Objective += g.Objective
		return st
	}
	a, b := run(), run()
	if a.Objective != b.Objective || modelDiff(a.Model, b.Model) != 0 {
		t.Errorf("runs differ: %+v vs %+v", a, b)
	}
}

func TestSoftmaxHessianFiniteDifferences(t *testing.T) {
	x, y := clusters(8, 30, 2, 3, 1)
	s := mustSoftmax(t, x, y, 3, 0.3)
	r := rand.New(rand.NewPCG(8, 8))
	m := s.Start().Model
	for c := range m.W {
		for j := range m.W[c] {
			m.W[c][j] = r.NormFloat64()
		}
		m.B[c] = r.NormFloat64()
	}
	h := s.hessian(m)
	const step = 1e-5
	k := s.C * (s.dim() + 1)
	for col := range k {
		plus, minus := m.clone(), m.clone()
		d1 := s.dim() + 1
		c, a := col/d1, col%d1
		if a < s.dim() {
			plus.W[c][a] += step
			minus.W[c][a] -= step
		} else {
			plus.B[c] += step
			minus.B[c] -= step
		}
		_, gp := s.eval(plus, true)
		_, gm := s.eval(minus, true)
		for row := range gp {
			if want := (gp[row] - gm[row]) / (2 * step); math.Abs(h.At(row, col)-want) > 1e-8 {
				t.Errorf("H[%d][%d] = %v, central difference %v", row, col, h.At(row, col), want)
			}
		}
	}
}
