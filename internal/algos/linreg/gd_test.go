package linreg

import (
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos"
)

func mustGD(t *testing.T, x [][]float64, y []float64, lambda, eta float64, intercept bool) (*GD, GDState) {
	t.Helper()
	g, s, err := NewGD(x, y, lambda, eta, intercept)
	if err != nil {
		t.Fatal(err)
	}
	return g, s
}

// TestGDL compares L with an independent route: with λ = 0 the Hessian
// is (2/n)X̃ᵀX̃, whose top eigenvalue is (2/n)σ₁(X̃)²; without intercept a
// ridge term adds 2λ to every eigenvalue.
func TestGDL(t *testing.T) {
	x, y := randomData(30, 3, 11)
	ones := make([][]float64, len(x))
	for i, row := range x {
		ones[i] = append(slices.Clone(row), 1)
	}
	for _, tc := range []struct {
		name      string
		lambda    float64
		intercept bool
		want      float64
	}{
		{"plain", 0, false, 2.0 / 30 * math.Pow(SingularValues(x)[0], 2)},
		{"ridge", 0.4, false, 2.0/30*math.Pow(SingularValues(x)[0], 2) + 0.8},
		{"intercept", 0, true, 2.0 / 30 * math.Pow(SingularValues(ones)[0], 2)},
	} {
		g, _ := mustGD(t, x, y, tc.lambda, 0.1, tc.intercept)
		if got := g.L(); math.Abs(got-tc.want) > 1e-12*tc.want {
			t.Errorf("%s: L = %.17g, want %.17g", tc.name, got, tc.want)
		}
		lit := GD{X: x, Y: y, Lambda: tc.lambda, Eta: 0.1, Intercept: tc.intercept}
		if got := lit.L(); math.Abs(got-tc.want) > 1e-12*tc.want {
			t.Errorf("%s: L of a GD literal = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestGDConverges: with η = 1/L gradient descent reaches Fit's answer.
func TestGDConverges(t *testing.T) {
	x, y := randomData(40, 3, 12)
	for _, tc := range []struct {
		lambda    float64
		intercept bool
	}{{0, false}, {0, true}, {0.1, true}, {1, false}} {
		g, s0 := mustGD(t, x, y, tc.lambda, 1, tc.intercept)
		g.Eta = 1 / g.L()
		s, k, err := algos.Replay[GDState](g, s0, 100000)
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != algos.Converged {
			t.Fatalf("λ = %v, intercept %v: status %v after %d steps (‖∇‖ = %g), want converged", tc.lambda, tc.intercept, s.Status, k, s.GradNorm)
		}
		m, err := Fit(x, y, tc.lambda, tc.intercept)
		if err != nil {
			t.Fatal(err)
		}
		closeTo(t, "GD's (w, b)", append(slices.Clone(s.W), s.B), append(m.W, m.B), 1e-8)
		if want := Objective(x, y, m, tc.lambda); math.Abs(s.Objective-want) > 1e-12*want {
			t.Errorf("objective %v, want %v", s.Objective, want)
		}
	}
}

// TestGDDescends: below 2/L every step lowers the objective (a quadratic
// with η < 2/L), and the first step from 0 is −η∇J(0) by hand.
func TestGDDescends(t *testing.T) {
	// Points (1, 2) and (3, 4), no intercept, λ = 0: ∇J(0) = (2/2)(−1·2 −
	// 3·4) = −14, so with η = 0.1 the first step lands on w = 1.4.
	g, s := mustGD(t, [][]float64{{1}, {3}}, []float64{2, 4}, 0, 0.1, false)
	if s.GradW[0] != -14 || s.Objective != 10 {
		t.Fatalf("state 0: ∇ = %v, J = %v; want −14 and 10", s.GradW, s.Objective)
	}
	if s1 := g.Step(s); math.Abs(s1.W[0]-1.4) > 1e-15 || s1.T != 1 {
		t.Errorf("step 1: w = %v at T = %d, want 1.4 at 1", s1.W, s1.T)
	}
	x, y := randomData(30, 4, 13)
	g, s = mustGD(t, x, y, 0.05, 1, true)
	g.Eta = 1.9 / g.L()
	for range 200 {
		next := g.Step(s)
		if next.Objective > s.Objective*(1+1e-15) {
			t.Fatalf("step %d raised J from %v to %v", next.T, s.Objective, next.Objective)
		}
		s = next
	}
}

// TestGDDiverges: above 2/L the iterates blow up; the run stops on the
// last finite state.
func TestGDDiverges(t *testing.T) {
	x, y := randomData(30, 3, 14)
	for _, intercept := range []bool{false, true} {
		g, s0 := mustGD(t, x, y, 0.01, 1, intercept)
		g.Eta = 2.1 / g.L()
		s, k, err := algos.Replay[GDState](g, s0, 100000)
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != algos.Diverged || !errors.Is(s.Status.Err(), algos.ErrDiverged) {
			t.Fatalf("intercept %v: status %v after %d steps, want diverged", intercept, s.Status, k)
		}
		if !allFinite(s.W) || !allFinite(s.GradW) || !isFinite(s.B) || !isFinite(s.Objective) || !isFinite(s.GradNorm) {
			t.Errorf("diverged state is not finite: %+v", s)
		}
		if s.Objective < 1e90 {
			t.Errorf("diverged at J = %v after %d steps; expected growth towards 1e100", s.Objective, k)
		}
		// The cap stopped it: the refused iterate's J is finite, above the
		// cap, which the last state's J is not.
		if !isFinite(s.Refused) || s.Refused <= g.Limit() || s.Objective > g.Limit() || g.Limit() != 1e100 {
			t.Errorf("refused J = %v, last J = %v, cap %v", s.Refused, s.Objective, g.Limit())
		}
		if again := g.Step(s); again.T != s.T || again.Status != algos.Diverged {
			t.Errorf("Step on a diverged state moved it to T = %d, %v", again.T, again.Status)
		}
	}
}

// TestGDReplay: Step leaves its argument alone, a replay equals the
// Step loop bit for bit, and two runs agree.
func TestGDReplay(t *testing.T) {
	x, y := randomData(25, 3, 15)
	g, s0 := mustGD(t, x, y, 0.1, 0.05, true)
	states := []GDState{s0}
	for s := s0; len(states) < 60; {
		before := slices.Clone(s.W)
		s = g.Step(s)
		if !slices.Equal(before, states[len(states)-1].W) {
			t.Fatal("Step modified its argument")
		}
		states = append(states, s)
	}
	for _, k := range []int{0, 1, 17, 59} {
		got, at, err := algos.Replay[GDState](g, s0, k)
		if err != nil || at != k {
			t.Fatalf("Replay to %d stopped at %d: %v", k, at, err)
		}
		want := states[k]
		if got.T != want.T || math.Float64bits(got.B) != math.Float64bits(want.B) ||
			math.Float64bits(got.Objective) != math.Float64bits(want.Objective) || !slices.Equal(got.W, want.W) {
			t.Errorf("Replay to %d = %+v, want %+v", k, got, want)
		}
	}
}

func TestGDZeroGradientAtStart(t *testing.T) {
	_, s := mustGD(t, [][]float64{{1}, {2}}, []float64{0, 0}, 0, 0.1, true)
	if s.Status != algos.Converged {
		t.Errorf("y = 0: state 0 status %v, want converged (w = 0 is optimal)", s.Status)
	}
}

func TestGDErrors(t *testing.T) {
	x := [][]float64{{1}, {2}}
	y := []float64{1, 2}
	for _, tc := range []struct {
		name        string
		lambda, eta float64
		y           []float64
		want        error
	}{
		{"η = 0", 0, 0, y, ErrParameters},
		{"η NaN", 0, math.NaN(), y, ErrParameters},
		{"η Inf", 0, math.Inf(1), y, ErrParameters},
		{"λ < 0", -1, 0.1, y, ErrParameters},
		{"short y", 0, 0.1, y[:1], ErrParameters},
		{"huge y", 0, 0.1, []float64{1e200, 1e200}, ErrNotFinite},
	} {
		if _, _, err := NewGD(x, tc.y, tc.lambda, tc.eta, true); !errors.Is(err, tc.want) {
			t.Errorf("%s: NewGD error %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestGDHessianByHand: L for two 1-D points with intercept, λ = 0:
// H = (2/n)[Σx² Σx; Σx n] = [[5, 3], [3, 2]] for x = (1, 2); its top
// eigenvalue is (7 + √(9 + 36))/2 … checked against gonum's dense eigen
// solver on that hand-built matrix.
func TestGDHessianByHand(t *testing.T) {
	g, _ := mustGD(t, [][]float64{{1}, {2}}, []float64{0, 1}, 0, 0.1, true)
	var e mat.Eigen
	if !e.Factorize(mat.NewDense(2, 2, []float64{5, 3, 3, 2}), mat.EigenNone) {
		t.Fatal("eigen failed")
	}
	var want float64
	for _, v := range e.Values(nil) {
		want = math.Max(want, real(v))
	}
	if got := g.L(); math.Abs(got-want) > 1e-13*want || math.Abs(want-(7+math.Sqrt(45))/2) > 1e-12 {
		t.Errorf("L = %v, want %v = (7 + √45)/2", got, want)
	}
}

// TestGDTinyData: a Hessian with every entry near 1e-300 (no intercept,
// tiny x) still has its L, where gonum's EigenSym alone would panic.
func TestGDTinyData(t *testing.T) {
	g, _, err := NewGD([][]float64{{1e-150}, {2e-150}}, []float64{1, 2}, 0, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	// H = (2/n) Σ xᵢ² = 5e-300.
	if L := g.L(); math.Abs(L-5e-300) > 1e-14*5e-300 {
		t.Errorf("L = %g, want 5e-300", L)
	}
}
