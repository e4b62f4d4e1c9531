package linreg

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
)

// lassoData is n seeded rows of d features, the first two correlated by
// rho, with y = x·wTrue + 1 + noise.
func lassoData(seed uint64, n, d int, rho, noise float64, wTrue []float64) ([][]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 17))
	x, y := make([][]float64, n), make([]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range d {
			x[i][j] = r.NormFloat64()
		}
		if d > 1 {
			x[i][1] = rho*x[i][0] + math.Sqrt(1-rho*rho)*x[i][1]
		}
		y[i] = dot(wTrue[:d], x[i]) + 1 + noise*r.NormFloat64()
	}
	return x, y
}

// TestLassoOneFeature checks the solution against the closed form for
// d = 1: w = S(x̃·ỹ/n, α)/(‖x̃‖²/n), b = ȳ − x̄w, computed here from the
// raw data without the method's centring.
func TestLassoOneFeature(t *testing.T) {
	x := [][]float64{{1}, {2}, {4}, {7}}
	y := []float64{2, 3, 7, 9}
	xbar, ybar := 3.5, 5.25
	var sxy, sxx float64
	for i := range x {
		sxy += (x[i][0] - xbar) * (y[i] - ybar)
		sxx += (x[i][0] - xbar) * (x[i][0] - xbar)
	}
	rho, z := sxy/4, sxx/4
	for _, alpha := range []float64{0, 0.5, 3, rho, 2 * rho} {
		m, s, err := SolveLasso(x, y, alpha, 100)
		if err != nil {
			t.Fatalf("α = %v: %v", alpha, err)
		}
		w := math.Max(rho-alpha, 0) / z
		if math.Abs(m.W[0]-w) > 1e-12 || math.Abs(m.B-(ybar-xbar*w)) > 1e-12 {
			t.Errorf("α = %v: w, b = %v, %v; want %v, %v", alpha, m.W[0], m.B, w, ybar-xbar*w)
		}
		if alpha >= rho && m.W[0] != 0 {
			t.Errorf("α = %v ≥ ρ = %v: w = %v, want exactly 0", alpha, rho, m.W[0])
		}
		// One step to the answer and one to see it stay; one step when
		// the answer is w = 0, where the run starts.
		if steps := map[bool]int{true: 1, false: 2}[w == 0]; s.T != steps || s.Status != algos.Converged {
			t.Errorf("α = %v: %d steps, %v; want %d, converged", alpha, s.T, s.Status, steps)
		}
	}
}

// TestLassoKKT checks the solution on two and five features against the
// optimality conditions, computed on the raw data: Σᵢ rᵢ = 0 (b is free),
// and for each j, gⱼ = (1/n) Σᵢ xᵢⱼ rᵢ equals α·sign(wⱼ) where wⱼ ≠ 0
// and lies in [−α, α] where wⱼ = 0. It also checks that no nearby point
// has a lower objective (a brute-force look around the answer).
func TestLassoKKT(t *testing.T) {
	wTrue := []float64{1.5, 0.5, 0, -0.7, 0.05}
	for _, tc := range []struct {
		d          int
		rho, alpha float64
	}{{2, 0.6, 0.05}, {2, 0.6, 0.5}, {2, 0.6, 1}, {2, -0.9, 0.3}, {2, 0.95, 0.01}, {5, 0.3, 0.1}, {5, 0.8, 0.4}} {
		for seed := uint64(1); seed <= 3; seed++ {
			x, y := lassoData(seed, 40, tc.d, tc.rho, 0.5, wTrue)
			m, s, err := SolveLasso(x, y, tc.alpha, 200000)
			if err != nil {
				t.Fatalf("%+v seed %d: %v", tc, seed, err)
			}
			n := float64(len(x))
			g, sum := make([]float64, tc.d), 0.0
			for i, row := range x {
				r := y[i] - dot(m.W, row) - m.B
				sum += r
				for j := range g {
					g[j] += row[j] * r / n
				}
			}
			if math.Abs(sum/n) > 1e-12 {
				t.Errorf("%+v seed %d: mean residual %v, want 0", tc, seed, sum/n)
			}
			for j, w := range m.W {
				switch {
				case w > 0 && math.Abs(g[j]-tc.alpha) > 1e-10, w < 0 && math.Abs(g[j]+tc.alpha) > 1e-10:
					t.Errorf("%+v seed %d: w%d = %v but g = %v, want α·sign(w)", tc, seed, j, w, g[j])
				case w == 0 && math.Abs(g[j]) > tc.alpha+1e-12:
					t.Errorf("%+v seed %d: w%d = 0 but |g| = %v > α", tc, seed, j, math.Abs(g[j]))
				}
			}
			l := &Lasso{X: x, Y: y, Alpha: tc.alpha}
			best := l.Objective(m.W, m.B)
			if math.Abs(best-s.Objective) > 1e-12*(1+best) {
				t.Errorf("%+v seed %d: state objective %v, recomputed %v", tc, seed, s.Objective, best)
			}
			for j := range tc.d + 1 {
				for _, h := range []float64{1e-6, -1e-6, 1e-3, -1e-3} {
					w, b := slices.Clone(m.W), m.B
					if j == tc.d {
						b += h
					} else {
						w[j] += h
					}
					if v := l.Objective(w, b); v < best-1e-14 {
						t.Errorf("%+v seed %d: moving coordinate %d by %v lowers J from %v to %v", tc, seed, j, h, best, v)
					}
				}
			}
		}
	}
}

// TestLassoSteps checks the stepper's contract: one coordinate per step,
// cyclically; each step's numbers are the soft-thresholding of its ρⱼ;
// J never rises; Step leaves its argument alone; in-place and copying
// replays agree bit for bit, twice.
func TestLassoSteps(t *testing.T) {
	x, y := lassoData(7, 30, 3, 0.7, 0.4, []float64{1, 0.3, -0.5})
	l, s0, err := NewLasso(x, y, 0.2, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if s0.T != 0 || s0.B != mean(y) || s0.Status != algos.Running {
		t.Fatalf("state 0: %+v", s0)
	}
	s := s0
	for k := 1; k <= 60 && !s.Status.Done(); k++ {
		before := l.Clone(s)
		next := l.Step(s)
		if !reflect.DeepEqual(s, before) {
			t.Fatalf("step %d modified its argument", k)
		}
		st := next.Last
		if st.J != (k-1)%3 {
			t.Errorf("step %d updated coordinate %d, want %d", k, st.J, (k-1)%3)
		}
		if want := SoftThreshold(st.Rho, 0.2) / st.Z; st.New != want || next.W[st.J] != want || st.Old != s.W[st.J] {
			t.Errorf("step %d: %+v, w = %v; want new = S(ρ, α)/z = %v", k, st, next.W, want)
		}
		if next.Objective > s.Objective+1e-15 {
			t.Errorf("step %d raised J from %v to %v", k, s.Objective, next.Objective)
		}
		s = next
	}
	a, ka, _ := algos.Replay[LassoState](l, s0, 1000)
	b, kb, _ := algos.Replay[LassoState](stepOnly{l}, s0, 1000)
	c, _, _ := algos.Replay[LassoState](l, s0, 1000)
	if ka != kb || !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
		t.Errorf("replays differ: in place %d %+v, by Step %d %+v", ka, a, kb, b)
	}
	if a.Status != algos.Converged {
		t.Errorf("status after %d steps: %v, want converged", ka, a.Status)
	}
}

// stepOnly hides Lasso's InPlace methods from Replay.
type stepOnly struct{ l *Lasso }

func (m stepOnly) Step(s LassoState) LassoState     { return m.l.Step(s) }
func (m stepOnly) Status(s LassoState) algos.Status { return m.l.Status(s) }

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// TestLassoZeros checks the sparsity: from α = AlphaMax on, no coordinate
// ever leaves 0; just below it, one does.
func TestLassoZeros(t *testing.T) {
	x, y := lassoData(3, 25, 2, 0.5, 0.3, []float64{1, 0.2})
	l, _, _ := NewLasso(x, y, 0, 10)
	amax := l.AlphaMax()
	m, _, err := SolveLasso(x, y, amax, 100)
	if err != nil || m.W[0] != 0 || m.W[1] != 0 {
		t.Errorf("α = AlphaMax = %v: w = %v, %v; want exactly (0, 0)", amax, m.W, err)
	}
	m, _, _ = SolveLasso(x, y, amax*0.99, 10000)
	if m.W[0] == 0 && m.W[1] == 0 {
		t.Errorf("α = 0.99·AlphaMax: w = %v, want a non-zero coordinate", m.W)
	}
}

func TestLassoBudgetAndErrors(t *testing.T) {
	x, y := lassoData(1, 30, 2, 0.95, 0.5, []float64{1, 1})
	_, s, err := SolveLasso(x, y, 0.001, 5)
	if !errors.Is(err, algos.ErrIterationLimit) || s.Status != algos.IterationLimit || s.T != 5 {
		t.Errorf("budget 5: %v, %v after %d steps; want the iteration limit", err, s.Status, s.T)
	}
	for _, tc := range []struct {
		x     [][]float64
		y     []float64
		alpha float64
		steps int
		want  string
	}{
		{x, y, -1, 10, "α is -1"},
		{x, y, math.NaN(), 10, "α is NaN"},
		{x, y, math.Inf(1), 10, "α is +Inf"},
		{x, y, 1, 0, "budget is 0"},
		{nil, nil, 1, 10, "no rows"},
		{[][]float64{{1, 2}, {3}}, []float64{1, 2}, 1, 10, "rows must have the same length"},
		{x, y[:3], 1, 10, "one target per row"},
		{[][]float64{{1e200}, {-1e200}}, []float64{1, 2}, 1, 10, "overflow"},
	} {
		_, _, err := NewLasso(tc.x, tc.y, tc.alpha, tc.steps)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewLasso(α = %v, budget %d): %v; want an error containing %q", tc.alpha, tc.steps, err, tc.want)
		}
	}
}
