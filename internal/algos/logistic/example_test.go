package logistic_test

import (
	"context"
	"fmt"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
)

// One 0/1 feature: at x = 0 three of four points are +1, at x = 1 one of
// five. With λ = 0 the fitted probabilities are those frequencies, so
// b = logit(3/4) and w + b = logit(1/5). At w = b = 0 every σ is ½, so
// ∇J = (−(1/9)Σyᵢxᵢ/2, −(1/9)Σyᵢ/2) = (1/6, 1/18), of norm 0.1757, and
// J = log 2. Gradient descent with η = 1/L
// heads there with J falling at every step; Newton gets there in a few.
func Example() {
	x := [][]float64{{0}, {0}, {0}, {0}, {1}, {1}, {1}, {1}, {1}}
	y := []float64{1, 1, 1, -1, 1, -1, -1, -1, -1}
	p, err := logistic.New(x, y, 0)
	if err != nil {
		panic(err)
	}
	gd := logistic.GD{P: p, Eta: 1 / p.L()}
	s := p.Start()
	for k := range 3 {
		fmt.Printf("GD step %d: J = %.4f, ‖∇J‖ = %.4f\n", k, s.Objective, s.GradNorm)
		s = gd.Step(s)
	}
	s, k, _ := algos.Replay[logistic.State](logistic.Newton{P: p}, p.Start(), 100)
	fmt.Printf("Newton: %v after %d steps, w = %.4f, b = %.4f\n", s.Status, k, s.Model.W[0], s.Model.B)
	best, err := p.Solve(context.Background())
	fmt.Printf("Solve: P(y = +1 | x = 0) = %.4f, P(y = +1 | x = 1) = %.4f, %v\n",
		best.Model.Proba([]float64{0}), best.Model.Proba([]float64{1}), err)
	// Output:
	// GD step 0: J = 0.6931, ‖∇J‖ = 0.1757
	// GD step 1: J = 0.6334, ‖∇J‖ = 0.0938
	// GD step 2: J = 0.6094, ‖∇J‖ = 0.0819
	// Newton: converged after 4 steps, w = -2.4849, b = 1.0986
	// Solve: P(y = +1 | x = 0) = 0.7500, P(y = +1 | x = 1) = 0.2000, <nil>
}
