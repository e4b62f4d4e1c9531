package primal

import (
	"context"
	"fmt"
	"math"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
)

// optimumTol is PegasosOptimum's stopping rule, far tighter than a plot
// needs, and OptWork its budget in work units: an SMO iteration on the 2n
// mirrored points updates the gradient with two kernel columns of
// d + 1 coordinates, 4n(d + 1) units, plus its fixed cost. On the
// lessons' data SMO needs a few percent of it; points at |x| ≈ 10⁶ with a
// small λ reach it in about a quarter of a second.
const (
	optimumTol = 1e-9
	OptWork    = 1.5e8
)

// smoIterations is the SMO iterations work pays for when an iteration
// costs perIter units plus its fixed cost (passOverhead): at least one.
func smoIterations(work float64, perIter int) int {
	return max(1, int(work/float64(perIter+passOverhead)))
}

// PegasosOptimum returns the exact minimiser θ* of Pegasos' objective
// λ‖θ‖² + (1/n) Σᵢ max(0, 1 − yᵢθ·X̃ᵢ), X̃ᵢ = (xᵢ, 1), and its value, so a
// lesson can plot Pegasos' objective against the optimum. Dividing the
// objective by 2λ turns it into an SVM without intercept on the points X̃ᵢ
// with box C = 1/(2λn); SMO solves that on svm.Mirror's points with box
// C/2 = 1/(4λn) and the linear kernel, to a gap of 1e-9. When SMO stops
// at its work budget (OptWork) first, the θ reached is returned with an
// *ApproxError wrapping algos.ErrIterationLimit, whose Lower is 2λ
// times SMO's dual value; when ctx ends first, an error wrapping ctx's.
func PegasosOptimum(ctx context.Context, x [][]float64, y []int, lambda float64) (theta []float64, objective float64, err error) {
	return pegasosOptimum(ctx, x, y, lambda, OptWork)
}

// pegasosOptimum is PegasosOptimum with a budget of work units.
func pegasosOptimum(ctx context.Context, x [][]float64, y []int, lambda, work float64) (theta []float64, objective float64, err error) {
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
		MaxIter: smoIterations(work, 4*len(x)*(len(x[0])+1)),
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
	switch s.Status {
	case algos.Converged:
	case algos.IterationLimit:
		// −D(α) is the mirrored SVM's dual; times 2λ, the objective's. At
		// θ = 0 the objective is the mean hinge 1.
		return theta, objective, approx("SMO", s.T, "iterations", objective, -2*lambda*s.Dual, 1)
	default:
		return theta, objective, fmt.Errorf("svm: Pegasos optimum after %d SMO iterations, gap %.3g: %w", s.T, s.Gap, s.Status.Err())
	}
	return theta, objective, nil
}

// SubgradientOptimum returns the exact minimiser (w, b) of the SVM primal
// ½‖w‖² + C Σᵢ max(0, 1 − yᵢ(w·xᵢ + b)) that Subgradient descends, and
// its value, by SMO to a gap of 1e-9 within OptWork work units (an SMO
// iteration on n points of d coordinates costs 2n·d). At the budget it
// returns the point reached with an *ApproxError; when ctx ends first, an
// error wrapping ctx's.
func SubgradientOptimum(ctx context.Context, x [][]float64, y []int, c float64) (w []float64, b, objective float64, err error) {
	if err := svm.ValidateData(x, y); err != nil {
		return nil, 0, 0, err
	}
	p := svm.DefaultParams()
	p.C, p.Tol = c, optimumTol
	p.MaxIter = smoIterations(OptWork, 2*len(x)*len(x[0]))
	pr, _, err := svm.New(x, y, p)
	if err != nil {
		return nil, 0, 0, err
	}
	s, err := pr.Solve(ctx)
	if err != nil {
		return nil, 0, 0, err
	}
	w, b, objective = pr.Weights(s), s.B, pr.Primal(s)
	switch s.Status {
	case algos.Converged:
		return w, b, objective, nil
	case algos.IterationLimit:
		// At w = 0, b = 0 every hinge is 1.
		return w, b, objective, approx("SMO", s.T, "iterations", objective, -s.Dual, c*float64(len(x)))
	}
	return w, b, objective, fmt.Errorf("svm: SVM optimum after %d SMO iterations, gap %.3g: %w", s.T, s.Gap, s.Status.Err())
}
