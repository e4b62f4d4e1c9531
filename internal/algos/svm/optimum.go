package svm

import (
	"context"
	"fmt"
	"math"

	"github.com/margin-edu/margin/internal/algos"
)

// Mirror returns the 2n points (xᵢ, yᵢ) followed by (−xᵢ, −yᵢ), with which
// SMO solves an SVM without an intercept. SMO's dual always carries the
// intercept's constraint Σαᵢyᵢ = 0; on the mirrored set the primal at
// (w, b) is
//
//	½‖w‖² + C Σᵢ [h(yᵢ⟨w, xᵢ⟩ + yᵢb) + h(yᵢ⟨w, xᵢ⟩ − yᵢb)],  h(t) = max(0, 1 − t),
//
// which is convex and even in b, so b = 0 is optimal, and there it is
// ½‖w‖² + 2C Σᵢ h(yᵢ⟨w, xᵢ⟩). So the mirrored SVM with box C/2 gives the w
// of the no-intercept SVM with box C, and a hard margin on the mirrored
// set is the max-margin separator through the origin of the original one.
func Mirror(x [][]float64, y []int) ([][]float64, []int) {
	n := len(x)
	mx := make([][]float64, 2*n)
	my := make([]int, 2*n)
	for i, row := range x {
		neg := make([]float64, len(row))
		for k, v := range row {
			neg[k] = -v
		}
		mx[i], my[i] = row, y[i]
		mx[n+i], my[n+i] = neg, -y[i]
	}
	return mx, my
}

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
// with box C = 1/(2λn); SMO solves that on Mirror's points with box
// C/2 = 1/(4λn) and the linear kernel, to a gap of 1e-9. When SMO stops
// at its budget first, the θ reached is returned with an error wrapping
// algos.ErrIterationLimit; when ctx ends first, an error wrapping ctx's.
func PegasosOptimum(ctx context.Context, x [][]float64, y []int, lambda float64) (theta []float64, objective float64, err error) {
	if err := validData(x, y); err != nil {
		return nil, 0, err
	}
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return nil, 0, fmt.Errorf("%w: λ is %v; it must be a finite number > 0", ErrParameters, lambda)
	}
	aug := augment(x)
	mx, my := Mirror(aug, y)
	p := Params{
		C:       1 / (4 * lambda * float64(len(x))),
		Kernel:  Kernel{Kind: Linear},
		Tol:     optimumTol,
		MaxIter: optimumIter,
	}
	pr, _, err := New(mx, my, p)
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
