package gd

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos/logistic"
)

// Logistic is f(w, b) = (1/n) Σᵢ log(1 + exp(−yᵢ(w·xᵢ + b))) + (λ/2)‖w‖²
// with labels yᵢ = ±1, the objective of Margin's "logistic-regression"
// (eq. 1.4.a averaged; b is not penalised). With zᵢ = w·xᵢ + b and
// σ(t) = 1/(1 + e⁻ᵗ): ∇f = (1/n) Σᵢ −yᵢσ(−yᵢzᵢ) x̃ᵢ + λ(w, 0) and
// ∇²f = (1/n) Σᵢ σ(zᵢ)σ(−zᵢ) x̃ᵢx̃ᵢᵀ + λ diag(1, …, 1, 0). Build one with
// NewLogistic and do not change the data afterwards.
type Logistic struct{ data }

// NewLogistic validates x (n ≥ 1 rows of p ≥ 1 finite features), y (n
// labels, each −1 or +1) and λ ≥ 0. It keeps x and y without copying them.
func NewLogistic(x [][]float64, y []float64, lambda float64) (*Logistic, error) {
	dt, err := newData(x, y, lambda)
	if err != nil {
		return nil, err
	}
	for i, v := range y {
		if v != 1 && v != -1 {
			return nil, fmt.Errorf("%w: label %d is %v; labels must be −1 or +1", ErrParameters, i, v)
		}
	}
	return &Logistic{dt}, nil
}

// Value returns f(θ).
func (lg *Logistic) Value(theta []float64) float64 { return lg.eval(nil, theta, nil) }

// Grad writes ∇f(θ) into grad.
func (lg *Logistic) Grad(grad, theta []float64) { lg.eval(grad, theta, nil) }

// BatchGrad writes (1/B) Σ_{i∈batch} −yᵢσ(−yᵢzᵢ) x̃ᵢ + λ(w, 0) into grad.
func (lg *Logistic) BatchGrad(grad, theta []float64, batch []int) { lg.eval(grad, theta, batch) }

// eval is LeastSquares.eval for the logistic loss.
func (lg *Logistic) eval(grad, theta []float64, batch []int) float64 {
	p := len(theta) - 1
	w, b := theta[:p], theta[p]
	if grad != nil {
		clear(grad)
	}
	var sum float64
	m := lg.rows(batch, func(i int) {
		margin := lg.Y[i] * (dot(w, lg.X[i]) + b)
		sum += softplus(-margin)
		if grad != nil {
			c := float64(-lg.Y[i] * sigmoid(-margin))
			for j, v := range lg.X[i] {
				grad[j] += float64(c * v)
			}
			grad[p] += c
		}
	})
	fm := float64(m)
	if grad != nil {
		for j := range w {
			grad[j] = grad[j]/fm + float64(lg.Lambda*w[j])
		}
		grad[p] /= fm
	}
	return sum/fm + float64(lg.Lambda/2*dot(w, w))
}

// softplus is log(1 + eᵗ) without overflow: t + log1p(e⁻ᵗ) for t > 0.
func softplus(t float64) float64 {
	if t > 0 {
		return t + math.Log1p(math.Exp(-t))
	}
	return math.Log1p(math.Exp(t))
}

// sigmoid is 1/(1 + e⁻ᵗ) without overflow.
func sigmoid(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + math.Exp(-t))
	}
	e := math.Exp(t)
	return e / (1 + e)
}

// Hessian returns (1/n) X̃ᵀ diag(σ(zᵢ)σ(−zᵢ)) X̃ + λ diag(1, …, 1, 0).
func (lg *Logistic) Hessian(theta []float64) *mat.SymDense {
	p := len(theta) - 1
	s := make([]float64, lg.N())
	for i, x := range lg.X {
		z := dot(theta[:p], x) + theta[p]
		s[i] = math.Sqrt(sigmoid(z) * sigmoid(-z))
	}
	return lg.gram(s, 1/float64(lg.N()), lg.Lambda)
}

// L returns λ_max(X̃ᵀX̃)/(4n) + λ, an upper bound on every Hessian's
// largest eigenvalue, since σ(z)σ(−z) ≤ ¼. (The smallest L is usually
// less, so steps a little above 2/L need not diverge.)
func (lg *Logistic) L() float64 {
	return lg.designTop()/(4*float64(lg.N())) + lg.Lambda
}

// Minimiser returns θ* and f(θ*) by Newton's method with a backtracking
// (Armijo) line search from θ = 0, stopped when ‖∇f‖ < 1e-12·max(1, ‖∇f(0)‖).
// With λ = 0 and data that some (w, b) ≠ 0 separates weakly
// (yᵢ(w·xᵢ + b) ≥ 0 for all i, > 0 for one; see separable), f has no
// minimiser: it falls towards its infimum as ‖w‖ grows, and the error
// wraps ErrNoMinimiser.
func (lg *Logistic) Minimiser() ([]float64, float64, error) {
	if lg.Lambda == 0 {
		sep, err := lg.separable()
		if err != nil {
			return nil, 0, fmt.Errorf("%w: could not decide whether the data are separable (%v)", ErrNoMinimiser, err)
		}
		if sep {
			return nil, 0, fmt.Errorf("%w: with λ = 0 on (weakly) separable data, f decreases forever as ‖w‖ grows; give λ > 0", ErrNoMinimiser)
		}
	}
	return lg.newton()
}

// separable decides weak separability with the logistic lesson's own
// linear program (logistic.Problem.Separable): one decision, one code.
func (lg *Logistic) separable() (bool, error) {
	p, err := logistic.New(lg.X, lg.Y, 0)
	if err != nil {
		return false, err
	}
	return p.Separable()
}

// newton minimises f from θ = 0 by Newton's method with a line search.
func (lg *Logistic) newton() ([]float64, float64, error) {
	d := lg.Dim()
	x, g, ng := make([]float64, d), make([]float64, d), make([]float64, d)
	f := lg.eval(g, x, nil)
	tol := 1e-12 * math.Max(1, floats.Norm(g, 2))
	for range 200 {
		if floats.Norm(g, 2) < tol {
			return x, f, nil
		}
		dir, ok := newtonDir(lg.Hessian(x), g)
		if !ok {
			break
		}
		slope := floats.Dot(g, dir)
		step, accepted := 1.0, false
		nx := make([]float64, d)
		for range 60 {
			for j := range nx {
				nx[j] = x[j] - step*dir[j]
			}
			if nf := lg.eval(ng, nx, nil); nf <= f-1e-4*step*slope {
				x, f, accepted = nx, nf, true
				g, ng = ng, g
				break
			}
			step /= 2
		}
		if !accepted {
			break
		}
	}
	return nil, 0, fmt.Errorf("%w: Newton's method stopped at ‖∇f‖ = %.3g without reaching %.3g", ErrNoMinimiser, floats.Norm(g, 2), tol)
}
