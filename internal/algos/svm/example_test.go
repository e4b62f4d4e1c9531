package svm_test

import (
	"context"
	"fmt"

	"github.com/margin-edu/margin/internal/algos/svm"
)

// The New/Step loop on four points: A = (0,0) and B = (0,1) of class −1,
// P = (2,0) and D = (3,3) of class +1. The widest band is 0 ≤ x₁ ≤ 2, so
// w = (1, 0), b = −1 and α = (½, 0, ½, 0). The first pair is i = 3 (the
// last of the maximal −yᵢGᵢ = 1) and j = 1, whose step −(2²)/‖x₃ − x₁‖²
// = −4/13 decreases D most; both move by 2/13 ≈ 0.154.
func Example() {
	x := [][]float64{{0, 0}, {0, 1}, {2, 0}, {3, 3}}
	y := []int{-1, -1, 1, 1}
	pr, s, err := svm.New(x, y, svm.DefaultParams())
	if err != nil {
		fmt.Println(err)
		return
	}
	for !s.Status.Done() {
		s = pr.Step(s)
		fmt.Printf("t=%d pair (%d,%d): α%d %.3g→%.3g, α%d %.3g→%.3g, D=%.4f gap=%.3g\n",
			s.T, s.I, s.J, s.I, s.OldI, s.Alpha[s.I], s.J, s.OldJ, s.Alpha[s.J], s.Dual, s.Gap)
	}
	fmt.Printf("%v: w=%.3g b=%.3g support %v\n", s.Status, pr.Weights(s), s.B, pr.Support(s))
	// Output:
	// t=1 pair (3,1): α3 0→0.154, α1 0→0.154, D=-0.1538 gap=1.38
	// t=2 pair (2,1): α2 0→0.277, α1 0.154→0.431, D=-0.3456 gap=1.11
	// t=3 pair (1,3): α1 0.431→0.346, α3 0.154→0.0686, D=-0.3928 gap=0.48
	// t=4 pair (2,0): α2 0.277→0.397, α0 0→0.12, D=-0.4216 gap=0.721
	// t=5 pair (1,3): α1 0.346→0.29, α3 0.0686→0.0132, D=-0.4416 gap=0.333
	// t=6 pair (2,0): α2 0.397→0.48, α0 0.12→0.203, D=-0.4554 gap=0.499
	// t=7 pair (1,0): α1 0.29→0.0396, α0 0.203→0.454, D=-0.4868 gap=1
	// t=8 pair (2,3): α2 0.48→0.493, α3 0.0132→0, D=-0.4991 gap=0.0396
	// t=9 pair (1,0): α1 0.0396→0, α0 0.454→0.493, D=-0.4999 gap=0.0264
	// t=10 pair (2,0): α2 0.493→0.5, α0 0.493→0.5, D=-0.5000 gap=1.11e-16
	// converged: w=[1 0] b=-1 support [0 2]
}

// Solve goes from state 0 to the optimum in one call.
func ExampleProblem_Solve() {
	x, y := svm.NoisyData(1000, 1)
	p := svm.DefaultParams()
	p.Kernel = svm.Kernel{Kind: svm.RBF, Gamma: 1}
	pr, _, err := svm.New(x, y, p)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := pr.Solve(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v, %d support vectors, D = %.2f\n", s.Status, len(pr.Support(s)), s.Dual)
	// Output:
	// converged, 218 support vectors, D = -156.40
}

// A hard margin on data that no line separates is infeasible, and the
// certificate is the point where the two classes' hulls meet: XOR's
// diagonals cross at (½, ½).
func ExampleProblem_Certificate() {
	x := [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	y := []int{-1, 1, 1, -1}
	p := svm.DefaultParams()
	p.Hard = true
	pr, s, err := svm.New(x, y, p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Status, pr.Certificate())
	// Output:
	// infeasible [0.25 0.25 0.25 0.25]
}
