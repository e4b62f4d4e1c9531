package gd

import (
	"slices"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
)

// TestNewtonStalls: the logistic loss of a set on a line, Newton from a
// start it overshoots from. Once b has run off to ~10¹², every σ(z)σ(−z)
// is 0 in float64, the Hessian diag(λ, 0) is singular, its pseudo-inverse
// drops the b direction, and ∂f/∂w = 0: the step would not move although
// ∂f/∂b = ½. The run stops there as Stalled instead of repeating that
// state to its last iteration, and never moves again.
func TestNewtonStalls(t *testing.T) {
	lg, err := NewLogistic([][]float64{{-2}, {-1.5}, {-1}, {-0.3}, {0.2}, {0.8}, {1.4}, {2}}, []float64{-1, -1, 1, -1, 1, -1, 1, 1}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	g := &GD{F: lg, Method: Newton, Iters: 500, Tol: 1e-10}
	s, err := g.Init([]float64{2, 1.5})
	if err != nil {
		t.Fatal(err)
	}
	states := run(t, g, s, 500)
	last := states[len(states)-1]
	if last.Status != algos.Stalled || last.K >= 500 || !(last.GradNorm > 0.1) {
		t.Fatalf("Newton on the logistic loss ends %v at K = %d with ‖∇f‖ = %v, want stalled well before 500 with a large gradient", last.Status, last.K, last.GradNorm)
	}
	if next := g.Step(last); !slices.Equal(next.X, last.X) || next.K != last.K {
		t.Errorf("a stalled state stepped to %v (K %d)", next.X, next.K)
	}
	// The step it refused is one that does not move x.
	dir, ok := newtonDir(lg.Hessian(last.X), last.Grad)
	if !ok || last.X[0]-dir[0] != last.X[0] || last.X[1]-dir[1] != last.X[1] {
		t.Errorf("Newton direction at the stall = %v, want one that does not move x = %v", dir, last.X)
	}
}
