package primal_test

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos/primal"
)

// The NewPegasos/Step loop on four points, two of each class, with the
// bias as a last coordinate: step t scores the sampled point with
// W_t = θ_t/(2λt) and, when its margin is below 1 (Violated), adds yᵢx̃ᵢ
// to θ. W is large early (1/(2λt) with λ = 0.1) and the objective
// λ‖Avg‖² + mean hinge of the average Avg falls only slowly, which is why
// a lesson plots it against PegasosOptimum.
func Example() {
	x := [][]float64{{0, 0}, {0, 1}, {2, 0}, {3, 3}}
	y := []int{-1, -1, 1, 1}
	pg, s, err := primal.NewPegasos(x, y, primal.PegasosParams{Lambda: 0.1, T: 6, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for !s.Status.Done() {
		s = pg.Step(s)
		fmt.Printf("t=%d point %d violated=%v: W=%.3g objective(Avg)=%.4f\n",
			s.T, s.I, s.Violated, s.W, pg.Objective(s.Avg))
	}
	fmt.Printf("%v: Avg=%.3g\n", s.Status, s.Avg)
	// Output:
	// t=1 point 3 violated=true: W=[0 0 0] objective(Avg)=1.0000
	// t=2 point 2 violated=false: W=[7.5 7.5 2.5] objective(Avg)=5.0312
	// t=3 point 2 violated=false: W=[5 5 1.67] objective(Avg)=5.9012
	// t=4 point 0 violated=true: W=[3.75 3.75 1.25] objective(Avg)=5.6769
	// t=5 point 0 violated=true: W=[3 3 0] objective(Avg)=5.0860
	// t=6 point 0 violated=true: W=[2.5 2.5 -0.833] objective(Avg)=4.4747
	// iteration limit: Avg=[3.62 3.62 0.764]
}
