package svm

import (
	"math"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
)

// TestTiesRule checks Step's pair under Params.Ties against the rule as
// TieTol states it, computed here from the state alone: i is the last
// point of I_up within the tolerance of m(α), j the last violating point
// of I_low whose gain is within the tolerance of the best. Without Ties
// the pair is LIBSVM's, which the rule can differ from only at a tie.
// With Ties the run still converges, and WorkingSet names each step's
// pair.
func TestTiesRule(t *testing.T) {
	x, y := NoisyData(60, 3)
	for _, hard := range []bool{false, true} {
		p := Params{C: 1, Hard: hard, Kernel: Kernel{Kind: Linear}, Tol: 1e-3, MaxIter: 5000, Ties: true}
		if hard {
			x, y = separableCloud(40)
		}
		pr, s := mustNew(t, x, y, p)
		p.Ties = false
		lib, _ := mustNew(t, x, y, p)
		differs := 0
		for !s.Status.Done() {
			v := make([]float64, len(s.G))
			scale := 0.0
			for k, g := range s.G {
				v[k] = -pr.Y[k] * g
				scale = math.Max(scale, math.Abs(v[k]))
			}
			tol := TieTol(scale)
			m := math.Inf(-1)
			for k := range v {
				if pr.isUp(s.Alpha[k], k) {
					m = math.Max(m, v[k])
				}
			}
			wi := -1
			for k := range v {
				if pr.isUp(s.Alpha[k], k) && v[k] >= m-tol {
					wi = k
				}
			}
			gain := map[int]float64{}
			best := 0.0
			for k := range v {
				if d := v[wi] - v[k]; pr.isLow(s.Alpha[k], k) && d > tol {
					a := pr.qd[wi] + pr.qd[k] - 2*pr.P.Kernel.Eval(pr.X[wi], pr.X[k])
					gain[k] = d * d / a
					best = math.Max(best, gain[k])
				}
			}
			wj := -1
			for k := range v {
				if g, ok := gain[k]; ok && g >= best-TieTol(best) {
					wj = k
				}
			}
			if i, j := pr.WorkingSet(s); i != wi || j != wj {
				t.Fatalf("hard %v, state %d: WorkingSet (%d, %d), the rule (%d, %d)", hard, s.T, i, j, wi, wj)
			}
			next := pr.Step(s)
			if next.I != wi || next.J != wj {
				t.Fatalf("hard %v, step %d: pair (%d, %d), the rule (%d, %d)", hard, next.T, next.I, next.J, wi, wj)
			}
			if i, j := lib.WorkingSet(s); i != wi || j != wj {
				differs++
			}
			s = next
		}
		if s.Status != algos.Converged {
			t.Errorf("hard %v: %v after %d steps", hard, s.Status, s.T)
		}
		t.Logf("hard %v: %d steps, LIBSVM's scan would differ at %d", hard, s.T, differs)
		if differs == 0 {
			t.Errorf("hard %v: the rule never differs from LIBSVM's scan; the case exercises no tie", hard)
		}
	}
}

// separableCloud is n points of the noisy cloud's shape, labelled by the
// line x₁ + x₂ = 0 with the points nearer it than 0.2 left out.
func separableCloud(n int) ([][]float64, []int) {
	cx, _ := NoisyData(3*n, 11)
	var x [][]float64
	var y []int
	for _, p := range cx {
		if s := p[0] + p[1]; math.Abs(s) > 0.2 && len(x) < n {
			x = append(x, p)
			y = append(y, map[bool]int{true: 1, false: -1}[s > 0])
		}
	}
	return x, y
}
