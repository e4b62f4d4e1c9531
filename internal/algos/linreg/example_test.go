package linreg_test

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/linreg"
)

// 000 §1.3's example: the points (0, 1) and (ε, 1) with targets 1 and −1
// need w = (−2/ε, 1), which explodes as ε shrinks; ridge keeps it small.
// By hand for ε = 1, λ = 0.1 (nλ = 0.2): (XᵀX + 0.2I)w = Xᵀy is
// [[1.2, 1], [1, 2.2]]w = (−1, 0), so w = (−2.2, 1)/1.64.
func ExampleFit() {
	for _, eps := range []float64{1, 1e-3} {
		x := [][]float64{{0, 1}, {eps, 1}}
		y := []float64{1, -1}
		ls, _ := linreg.Fit(x, y, 0, false)
		ridge, _ := linreg.Fit(x, y, 0.1, false)
		fmt.Printf("ε=%g: least squares w=%.4g, ridge λ=0.1 w=%.4g\n", eps, ls.W, ridge.W)
	}
	// Output:
	// ε=1: least squares w=[-2 1], ridge λ=0.1 w=[-1.341 0.6098]
	// ε=0.001: least squares w=[-2000 1], ridge λ=0.1 w=[-0.005 2.273e-06]
}

// The NewGD/Step loop on two points, (1, 2) and (3, 4), no intercept:
// J(w) = ((w − 2)² + (3w − 4)²)/2 has L = J” = 10 and its minimum 0.2 at
// w = 1.4, which the first step with η = 1/L reaches at once (in 1-D that
// step is Newton's). With η = 0.21 > 2/L the error w − 1.4 is multiplied
// by 1 − 0.21·10 = −1.1 each step, so J − 0.2 = 5(w − 1.4)² grows by 1.21
// from 9.8: J₁₁₉₅ = 0.2 + 9.8·1.21¹¹⁹⁵ ≈ 8.31e99 and J₁₁₉₆ ≈ 1.006e100, past
// the 1e100 limit, so the run stops on T = 1195 (Replay's count includes
// the step that was refused).
func ExampleNewGD() {
	g, s, err := linreg.NewGD([][]float64{{1}, {3}}, []float64{2, 4}, 0, 0.1, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("L=%g\n", g.L())
	for !s.Status.Done() {
		s = g.Step(s)
		fmt.Printf("t=%d w=%.4g J=%.4g ‖∇‖<1e-12: %v, %v\n", s.T, s.W[0], s.Objective, s.GradNorm < 1e-12, s.Status)
	}
	g, s, _ = linreg.NewGD([][]float64{{1}, {3}}, []float64{2, 4}, 0, 0.21, false)
	s, k, _ := algos.Replay[linreg.GDState](g, s, 10000)
	fmt.Printf("η=0.21: %v at T=%d (replay index %d), J=%.3g\n", s.Status, s.T, k, s.Objective)
	// Output:
	// L=10
	// t=1 w=1.4 J=0.2 ‖∇‖<1e-12: true, converged
	// η=0.21: diverged at T=1195 (replay index 1196), J=8.31e+99
}
