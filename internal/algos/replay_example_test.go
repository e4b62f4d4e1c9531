package algos_test

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/perceptron"
)

// Replay jumps to step k of a run, as a demo URL asks, keeping only the
// current state; a recorder sees every state on the way. Here the
// perceptron learns OR (Example 1.1.3 of the notes).
func ExampleReplay() {
	or := perceptron.Data{
		X: [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}},
		Y: []int{-1, 1, 1, 1},
	}
	pr, s0, err := perceptron.Init(or, perceptron.DefaultParams())
	if err != nil {
		fmt.Println(err)
		return
	}
	mistakes := algos.RecorderFunc[perceptron.State](func(k int, s perceptron.State) error {
		if k > 0 && s.Event.Updated[0] {
			fmt.Printf("step %d: mistake on point %d\n", k, s.Event.I)
		}
		return nil
	})
	s, k, err := algos.Replay(pr, s0, 10, mistakes)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("state %d: w=%v b=%v, %v\n", k, s.Models[0].W, s.Models[0].B, pr.Status(s))
	s, k, _ = algos.Replay(pr, s0, 1000)
	fmt.Printf("state %d: w=%v b=%v, %v\n", k, s.Models[0].W, s.Models[0].B, pr.Status(s))
	// Output:
	// step 1: mistake on point 0
	// step 2: mistake on point 1
	// step 3: mistake on point 2
	// step 5: mistake on point 0
	// step 9: mistake on point 0
	// step 10: mistake on point 1
	// state 10: w=[2 1] b=0, running
	// state 24: w=[2 2] b=-1, converged
}
