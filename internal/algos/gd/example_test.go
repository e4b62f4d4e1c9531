package gd_test

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos/gd"
)

// The Init/Step loop on f(x) = ½(x₁² + 10x₂²), κ = 10, from (1, 1) with
// η = 1/L = 0.1: the steep direction is solved in one step (1 − ηκ = 0)
// and the flat one shrinks by 1 − η = 0.9 per step. A step above
// 2/L = 0.2 diverges: with η = 0.21, x₂ grows by |1 − 2.1| = 1.1 per step
// and f = 5·1.1^(2k) passes 1e100 at k = 1200, so the run stops on
// iterate 1199, where f = 5·1.1²³⁹⁸ ≈ 9.09e99.
func Example() {
	f, err := gd.NewQuadratic2D(10, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	g := &gd.GD{F: f, Eta: 1 / f.L(), Iters: 3}
	s, err := g.Init([]float64{1, 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for !s.Status.Done() {
		s = g.Step(s)
		fmt.Printf("k=%d x=(%.4g, %.4g) f=%.5g ‖∇f‖=%.4g\n", s.K, s.X[0], s.X[1], s.F, s.GradNorm)
	}
	fmt.Println(s.Status)

	g = &gd.GD{F: f, Eta: 0.21, Iters: 10000}
	s, _ = g.Init([]float64{1, 1})
	for !s.Status.Done() {
		s = g.Step(s)
	}
	fmt.Printf("η = 0.21: %v after %d steps, f = %.3g\n", s.Status, s.K, s.F)
	// Output:
	// k=1 x=(0.9, 0) f=0.405 ‖∇f‖=0.9
	// k=2 x=(0.81, 0) f=0.32805 ‖∇f‖=0.81
	// k=3 x=(0.729, 0) f=0.26572 ‖∇f‖=0.729
	// iteration limit
	// η = 0.21: diverged after 1199 steps, f = 9.09e+99
}
