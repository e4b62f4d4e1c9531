package knn_test

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos/knn"
)

// A 1-nearest-neighbour classifier memorises its training set (training
// error 0) but leave-one-out shows what it has learnt; k = 3 votes.
func Example() {
	x := [][]float64{{0, 0}, {1, 0}, {0, 1}, {3, 3}, {4, 3}, {3, 4}, {1.5, 1.5}}
	y := []int{0, 0, 0, 1, 1, 1, 1}
	for _, k := range []int{1, 3} {
		c, err := knn.New(x, y, k, knn.Euclidean)
		if err != nil {
			fmt.Println(err)
			return
		}
		h, _ := c.Predict([]float64{1, 1})
		nb, _ := c.Neighbours([]float64{1, 1})
		loo, _ := c.LeaveOneOutError()
		fmt.Printf("k=%d: h(1,1)=%d from points %v; training error %.2f, leave-one-out %.2f\n",
			k, h, nb, c.TrainingError(), loo)
	}
	// Output:
	// k=1: h(1,1)=1 from points [6]; training error 0.00, leave-one-out 0.14
	// k=3: h(1,1)=0 from points [6 1 2]; training error 0.14, leave-one-out 0.14
}

// The notes' warning, measured: in many dimensions the nearest point is
// almost as far as the farthest.
func ExampleCurseOfDimensionality() {
	rows, err := knn.CurseOfDimensionality([]int{1, 10, 1000}, 1000, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rows {
		fmt.Printf("D=%4d nearest/farthest %.1f\n", r.D, r.Ratio)
	}
	// Output:
	// D=   1 nearest/farthest 0.0
	// D=  10 nearest/farthest 0.3
	// D=1000 nearest/farthest 0.9
}
