package primal

import (
	"context"
	"fmt"
	"math"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
)

// optimumTol and optimumIter are PegasosOptimum's stopping rule and
// budget: far tighter than a plot needs.
const (
	optimumTol  = 1e-9
	optimumIter = 1000000
)

// PegasosOptimum returns the exact minimiser θ* of Pegasos' objective
// λ‖θ‖² + (1/n) Σᵢ max(0, 1 − yᵢθ·X̃ᵢ), X̃ᵢ = (xᵢ, 1), and its value, so a
// lesson can plot Pegasos' objective against the optimum. Dividing the
// objective by 2λ turns it into an SVM without intercept on the points X̃ᵢ
// with box C = 1/(2λn); SMO solves that on svm.Mirror's points with box
// C/2 = 1/(4λn) and the linear kernel, to a gap of 1e-9. When SMO stops
// at its budget first, the θ reached is returned with an error wrapping
// algos.ErrIterationLimit; when ctx ends first, an error wrapping ctx's.
func PegasosOptimum(ctx context.Context, x [][]float64, y []int, lambda float64) (theta []float64, objective float64, err error) {
	if err := svm.ValidateData(x, y); err != nil {
		return nil, 0, err
	}
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return nil, 0, fmt.Errorf("%w: λ is %v; it must be a finite number > 0", svm.ErrParameters, lambda)
	}
	aug := augment(x)
	mx, my := svm.Mirror(aug, y)
	p := svm.Params{
		C:       1 / (4 * lambda * float64(len(x))),
		Kernel:  svm.Kernel{Kind: svm.Linear},
		Tol:     optimumTol,
		MaxIter: optimumIter,
	}
	pr, _, err := svm.New(mx, my, p)
	if err != nil {
		return nil, 0, err
	}
	s, err := pr.Solve(ctx)
	if err != nil {
		return nil, 0, err
	}
	theta = pr.Weights(s)
	pg := &Pegasos{X: x, Y: labels(y), P: PegasosParams{Lambda: lambda}, aug: aug}
	objective = pg.Objective(theta)
	if s.Status != algos.Converged {
		return theta, objective, fmt.Errorf("svm: Pegasos optimum after %d SMO iterations, gap %.3g: %w", s.T, s.Gap, s.Status.Err())
	}
	return theta, objective, nil
}
