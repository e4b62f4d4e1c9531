package perceptron_test

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos/perceptron"
)

// The Init/Step loop on the OR data of Example 1.1.3.
func Example() {
	or := perceptron.Data{
		X: [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}},
		Y: []int{-1, 1, 1, 1},
	}
	pr, s, err := perceptron.Init(or, perceptron.DefaultParams())
	if err != nil {
		fmt.Println(err)
		return
	}
	for !s.Status.Done() {
		s = pr.Step(s)
		if s.Event.Updated[0] {
			fmt.Printf("t=%d i=%d mistake: w=%v b=%v\n", s.T, s.Event.I, s.Models[0].W, s.Models[0].B)
		}
	}
	fmt.Println(s.Status, "after", s.T, "steps,", s.Mistakes, "mistakes")
	// Output:
	// t=1 i=0 mistake: w=[0 0] b=-1
	// t=2 i=1 mistake: w=[1 0] b=0
	// t=3 i=2 mistake: w=[1 1] b=1
	// t=5 i=0 mistake: w=[1 1] b=0
	// t=9 i=0 mistake: w=[1 1] b=-1
	// t=10 i=1 mistake: w=[2 1] b=0
	// t=13 i=0 mistake: w=[2 1] b=-1
	// t=15 i=2 mistake: w=[2 2] b=0
	// t=17 i=0 mistake: w=[2 2] b=-1
	// converged after 24 steps, 9 mistakes
}
