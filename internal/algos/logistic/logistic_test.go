package logistic

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
)

// blobs returns n points in d dimensions, class +1 around +shift·1 and
// class −1 around −shift·1 with unit spread: overlapping for a small shift.
func blobs(seed uint64, n, d int, shift float64) ([][]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 7))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		y[i] = float64(2*(i%2) - 1)
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = r.NormFloat64() + y[i]*shift
		}
	}
	return x, y
}

func mustNew(t *testing.T, x [][]float64, y []float64, lambda float64) *Problem {
	t.Helper()
	p, err := New(x, y, lambda)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSigmoidStable(t *testing.T) {
	for _, tc := range []struct{ z, want float64 }{
		{0, 0.5}, {1e308, 1}, {-1e308, 0}, {math.Inf(1), 1}, {math.Inf(-1), 0},
		{-40, math.Exp(-40) / (1 + math.Exp(-40))}, {2, 1 / (1 + math.Exp(-2))},
	} {
		if got := Sigmoid(tc.z); math.Abs(got-tc.want) > 1e-16*math.Max(tc.want, 1e-300) && got != tc.want {
			t.Errorf("Sigmoid(%v) = %v, want %v", tc.z, got, tc.want)
		}
	}
	// log(1 + e^t): exact small values where the naive formula rounds to
	// 0 and finite large ones where it overflows.
	for _, tc := range []struct{ t, want float64 }{
		{-800, 0}, {-40, math.Exp(-40)}, {800, 800}, {1e308, 1e308}, {0, math.Ln2},
	} {
		// One point with margin −t has loss log(1 + e^t).
		got := mustNew(t, [][]float64{{1}}, []float64{1}, 0).Objective(Model{W: []float64{-tc.t}})
		if math.Abs(got-tc.want) > 1e-15*math.Abs(tc.want) {
			t.Errorf("log(1 + e^%v) = %v, want %v", tc.t, got, tc.want)
		}
	}
	m := Model{W: []float64{1e308}, B: 0}
	if got := m.Proba([]float64{-1}); got != 0 {
		t.Errorf("Proba at score -1e308 = %v, want 0", got)
	}
	p := mustNew(t, [][]float64{{1}, {-1}}, []float64{1, 1}, 0)
	if j := p.Objective(m); !(j > 1e307) || math.IsInf(j, 0) {
		t.Errorf("objective with margins ±1e308 = %v, want about 5e307 (finite)", j)
	}
}

// TestGradientFiniteDifferences compares Gradient with central
// differences of Objective in every coordinate.
func TestGradientFiniteDifferences(t *testing.T) {
	x, y := blobs(1, 30, 3, 0.5)
	p := mustNew(t, x, y, 0.3)
	m := Model{W: []float64{0.4, -1.2, 0.7}, B: 0.3}
	gw, gb := p.Gradient(m)
	const h = 1e-6
	for k := 0; k <= 3; k++ {
		plus, minus := m.clone(), m.clone()
		got := gb
		if k < 3 {
			plus.W[k] += h
			minus.W[k] -= h
			got = gw[k]
		} else {
			plus.B += h
			minus.B -= h
		}
		want := (p.Objective(plus) - p.Objective(minus)) / (2 * h)
		if math.Abs(got-want) > 1e-8 {
			t.Errorf("∂J/∂θ%d = %v, central difference %v", k, got, want)
		}
	}
}

// TestSolveBinaryFeature checks Solve against the hand-worked maximum
// likelihood answer: with one 0/1 feature and λ = 0 the fitted
// probabilities are the class frequencies at x = 0 and at x = 1, so
// b = logit(p₀) and w + b = logit(p₁).
func TestSolveBinaryFeature(t *testing.T) {
	// x = 0: 3 of +1, 1 of −1 (p₀ = 3/4); x = 1: 1 of +1, 4 of −1 (p₁ = 1/5).
	x := [][]float64{{0}, {0}, {0}, {0}, {1}, {1}, {1}, {1}, {1}}
	y := []float64{1, 1, 1, -1, 1, -1, -1, -1, -1}
	p := mustNew(t, x, y, 0)
	s, err := p.Solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	logit := func(q float64) float64 { return math.Log(q / (1 - q)) }
	if wantB := logit(0.75); math.Abs(s.Model.B-wantB) > 1e-9 {
		t.Errorf("b = %v, want logit(3/4) = %v", s.Model.B, wantB)
	}
	if wantW := logit(0.2) - logit(0.75); math.Abs(s.Model.W[0]-wantW) > 1e-9 {
		t.Errorf("w = %v, want logit(1/5) − logit(3/4) = %v", s.Model.W[0], wantW)
	}
	if s.GradNorm >= Tol || s.Status != algos.Converged {
		t.Errorf("final ‖∇J‖ = %v, status %v; want < %v, converged", s.GradNorm, s.Status, Tol)
	}
}

// TestSolveSymmetric checks the 1-D pair x = ±1, y = ±1: b = 0 by
// symmetry and w solves σ(−w) = λw, found here by bisection.
func TestSolveSymmetric(t *testing.T) {
	const lambda = 0.05
	p := mustNew(t, [][]float64{{1}, {-1}}, []float64{1, -1}, lambda)
	lo, hi := 0.0, 100.0
	for range 200 {
		mid := (lo + hi) / 2
		if Sigmoid(-mid) > lambda*mid {
			lo = mid
		} else {
			hi = mid
		}
	}
	s, err := p.Solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s.Model.W[0]-lo) > 1e-9 || math.Abs(s.Model.B) > 1e-12 {
		t.Errorf("(w, b) = (%v, %v), want (%v, 0)", s.Model.W[0], s.Model.B, lo)
	}
}

// TestGDAndNewtonAgree runs GD with η = 1/L and Newton through
// algos.Replay and Solve, on overlapping data, and on separable data
// with λ > 0 (finite minimiser).
func TestGDAndNewtonAgree(t *testing.T) {
	for _, tc := range []struct {
		name   string
		shift  float64
		lambda float64
	}{{"overlap", 0.4, 0.1}, {"separable", 3, 0.2}} {
		t.Run(tc.name, func(t *testing.T) {
			x, y := blobs(2, 40, 2, tc.shift)
			p := mustNew(t, x, y, tc.lambda)
			if sep, err := p.Separable(); err != nil || sep != (tc.name == "separable") {
				t.Fatalf("Separable() = %v, %v; want %v", sep, err, tc.name == "separable")
			}
			exact, err := p.Solve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if exact.GradNorm >= Tol || !finite(exact.Model.W...) {
				t.Fatalf("Solve: ‖∇J‖ = %v, w = %v", exact.GradNorm, exact.Model.W)
			}
			gd, k, err := algos.Replay[State](GD{P: p, Eta: 1 / p.L()}, p.Start(), 20000)
			if err != nil {
				t.Fatal(err)
			}
			nt, _, _ := algos.Replay[State](Newton{P: p}, p.Start(), 50)
			for name, s := range map[string]State{"GD": gd, "Newton": nt} {
				diff := math.Abs(s.Model.B - exact.Model.B)
				for j := range s.Model.W {
					diff = math.Max(diff, math.Abs(s.Model.W[j]-exact.Model.W[j]))
				}
				if diff > 1e-6 {
					t.Errorf("%s after %d steps is %v off Solve's (w, b) = (%v, %v)", name, k, diff, exact.Model.W, exact.Model.B)
				}
			}
		})
	}
}

// TestGDMonotone: J falls at every GD step with η = 1/L.
func TestGDMonotone(t *testing.T) {
	x, y := blobs(3, 25, 2, 0.3)
	p := mustNew(t, x, y, 0.01)
	g := GD{P: p, Eta: 1 / p.L()}
	s := p.Start()
	for range 300 {
		next := g.Step(s)
		if next.Objective > s.Objective+4*eps*s.Objective { // rounding near the optimum
			t.Fatalf("J rose from %v to %v at step %d", s.Objective, next.Objective, next.T)
		}
		s = next
	}
}

func TestSolveCollinear(t *testing.T) {
	// Points on the line x₂ = x₁, overlapping: minimisers form a line;
	// Solve returns the one with w ⟂ (1, −1) (minimum norm).
	x := [][]float64{{0, 0}, {2, 2}, {1, 1}, {3, 3}}
	p := mustNew(t, x, []float64{-1, -1, 1, 1}, 0)
	s, err := p.Solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s.Model.W[0]-s.Model.W[1]) > 1e-9 {
		t.Errorf("w = %v, want equal entries (no part along the null direction)", s.Model.W)
	}
	// The 1-D problem on u = x₁ has the same optimum with w_u = w₁ + w₂.
	q := mustNew(t, [][]float64{{0}, {2}, {1}, {3}}, []float64{-1, -1, 1, 1}, 0)
	r, err := q.Solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Model.W[0]-s.Model.W[0]-s.Model.W[1]) > 1e-9 || math.Abs(r.Model.B-s.Model.B) > 1e-9 {
		t.Errorf("2-D (w, b) = (%v, %v), 1-D (%v, %v)", s.Model.W, s.Model.B, r.Model.W, r.Model.B)
	}
}

func TestNewRejects(t *testing.T) {
	for _, tc := range []struct {
		name   string
		x      [][]float64
		y      []float64
		lambda float64
	}{
		{"label 0", [][]float64{{1}}, []float64{0}, 1},
		{"lambda < 0", [][]float64{{1}}, []float64{1}, -1},
		{"lambda NaN", [][]float64{{1}}, []float64{1}, math.NaN()},
		{"x NaN", [][]float64{{math.NaN()}}, []float64{1}, 1},
		{"ragged", [][]float64{{1}, {1, 2}}, []float64{1, -1}, 1},
		{"empty", nil, nil, 1},
		{"short y", [][]float64{{1}, {2}}, []float64{1}, 1},
	} {
		if _, err := New(tc.x, tc.y, tc.lambda); !errors.Is(err, ErrInput) {
			t.Errorf("%s: New error = %v, want ErrInput", tc.name, err)
		}
	}
}

// TestStepDoesNotMutate: Step leaves its argument alone and shares no
// slice with it.
func TestStepDoesNotMutate(t *testing.T) {
	x, y := blobs(5, 20, 2, 0.5)
	p := mustNew(t, x, y, 0.1)
	for name, m := range map[string]algos.Method[State]{"GD": GD{P: p, Eta: 1}, "Newton": Newton{P: p}} {
		s := GD{P: p, Eta: 0.5}.Step(p.Start())
		before := s.Model.clone()
		next := m.Step(s)
		next.Model.W[0] = 99
		if !floats.Equal(s.Model.W, before.W) || s.Model.B != before.B {
			t.Errorf("%s.Step changed its argument: %v, was %v", name, s.Model.W, before.W)
		}
	}
}

func TestDivergedKeepsLastFinite(t *testing.T) {
	x, y := blobs(6, 10, 2, 0.5)
	p := mustNew(t, x, y, 1)
	s, k, _ := algos.Replay[State](GD{P: p, Eta: 1e300}, p.Start(), 100)
	if s.Status != algos.Diverged || k >= 100 {
		t.Fatalf("status %v after %d steps, want diverged early", s.Status, k)
	}
	if !finite(s.Model.W...) || !finite(s.Model.B, s.Objective, s.GradNorm) {
		t.Errorf("diverged state holds a non-finite number: %+v", s)
	}
}

// TestDeterministic: two runs give bit-identical iterates.
func TestDeterministic(t *testing.T) {
	run := func() []State {
		x, y := blobs(7, 50, 3, 0.5)
		p := mustNew(t, x, y, 0.01)
		var out []State
		rec := algos.RecorderFunc[State](func(k int, s State) error { out = append(out, s); return nil })
		algos.Replay[State](GD{P: p, Eta: 0.5}, p.Start(), 30, rec)
		algos.Replay[State](Newton{P: p}, p.Start(), 30, rec)
		return out
	}
	a, b := run(), run()
	if len(a) != len(b) {
		t.Fatalf("%d states, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Objective != b[i].Objective || a[i].Model.B != b[i].Model.B || !floats.Same(a[i].Model.W, b[i].Model.W) {
			t.Fatalf("state %d differs: %+v vs %+v", i, a[i], b[i])
		}
	}
}

func TestSolveCanceled(t *testing.T) {
	x, y := blobs(8, 20, 2, 0.5)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := mustNew(t, x, y, 0.1).Solve(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Solve error = %v, want context.Canceled", err)
	}
}

// TestSolveLargeN: with many rows J's rounding error (about nε|J|) is far
// above the Armijo decrease of the last Newton steps; the full step must
// still be taken while it lowers the gradient, or the run stalls just
// above Tol.
func TestSolveLargeN(t *testing.T) {
	x, y := blobs(9, 8000, 12, 0.05)
	for _, row := range x {
		for j := range row {
			row[j] = math.Round(3 * row[j])
		}
	}
	for _, lambda := range []float64{0, 1e-3} {
		s, err := mustNew(t, x, y, lambda).Solve(context.Background())
		if err != nil || s.GradNorm >= Tol {
			t.Errorf("λ = %v: ‖∇J‖ = %v after %d steps, %v", lambda, s.GradNorm, s.T, err)
		}
	}
}

// TestHessianFiniteDifferences compares Newton's Hessian with central
// differences of the gradient, column by column.
func TestHessianFiniteDifferences(t *testing.T) {
	x, y := blobs(10, 25, 3, 0.5)
	p := mustNew(t, x, y, 0.2)
	m := Model{W: []float64{0.3, -0.8, 0.5}, B: -0.2}
	h := p.hessian(m)
	const step = 1e-5
	for k := 0; k <= 3; k++ {
		dir := make([]float64, 4)
		dir[k] = 1
		_, gp := p.eval(m.step(step, dir), true)
		_, gm := p.eval(m.step(-step, dir), true)
		for r := range gp {
			if want := (gp[r] - gm[r]) / (2 * step); math.Abs(h.At(r, k)-want) > 1e-8 {
				t.Errorf("H[%d][%d] = %v, central difference %v", r, k, h.At(r, k), want)
			}
		}
	}
}

// TestHugeFeatures: rows longer than MaxFeatureNorm are refused with
// ErrScale, and a Newton step on a problem built around New with such
// rows (whose Hessian holds +Inf) ends Diverged at once instead of
// growing the Cholesky shift for ever.
func TestHugeFeatures(t *testing.T) {
	x, y := [][]float64{{1e155}, {-1e155}}, []float64{-1, 1}
	if _, err := New(x, y, 0.01); !errors.Is(err, ErrScale) || !strings.Contains(err.Error(), "scale the features") {
		t.Errorf("New: %v, want ErrScale saying to scale the features", err)
	}
	if _, err := NewSoftmax([][]float64{{1e308}, {-1e308}}, []int{0, 1}, 2, 0.01); !errors.Is(err, ErrScale) {
		t.Errorf("NewSoftmax: %v, want ErrScale", err)
	}
	if _, err := New([][]float64{{1e149, 1e149}, {1, 1}}, y, 0.01); err != nil {
		t.Errorf("rows of norm 1.4e149 are allowed: %v", err)
	}
	p := &Problem{X: x, Y: y, Lambda: 0.01}
	if s := (Newton{P: p}).Step(p.Start()); s.Status != algos.Diverged {
		t.Errorf("Newton on +Inf curvature: status %v, want diverged", s.Status)
	}
	sm := &Softmax{X: [][]float64{{1e308}, {-1e308}}, Y: []int{0, 1}, C: 2, Lambda: 0.01}
	if s := (SoftmaxNewton{S: sm}).Step(sm.Start()); s.Status != algos.Diverged {
		t.Errorf("softmax Newton on +Inf curvature: status %v, want diverged", s.Status)
	}
}
