package logistic

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos"
)

// Errors of the package. Wrapped errors add what was wrong.
var (
	// ErrNoMinimiser: λ = 0 on separable data, where J has no minimiser
	// (J → 0 as ‖w‖ → ∞ along a separating direction).
	ErrNoMinimiser = errors.New("logistic: no minimiser: the data are separable and λ = 0, so J keeps falling as ‖w‖ grows; give λ > 0")
	// ErrInput: a problem's data or λ are not allowed.
	ErrInput = errors.New("logistic: invalid input")
	// ErrStalled: Solve stopped with the gradient norm above 1e-10
	// because no step along the Newton direction lowers J any more (the
	// gradient is at the size of its rounding error, as for features of
	// size 1e8), or at its iteration limit.
	ErrStalled = errors.New("logistic: the solver stopped before the gradient norm fell below 1e-10")
	// ErrDiverged: an iterate left float64's range.
	ErrDiverged = errors.New("logistic: the iterates overflowed float64")
	// ErrScale: a row of x is longer than MaxFeatureNorm, so the
	// Hessian would overflow float64 before the first step.
	ErrScale = errors.New("logistic: the features are too large for float64")
)

// Tol is the gradient norm below which a state is Converged.
const Tol = 1e-10

// MaxFeatureNorm bounds ‖xᵢ‖ for every row: J's curvature is up to
// ‖x̃ᵢ‖²/4 and the Hessian sums such terms, so beyond about 1.3·10¹⁵⁴
// they overflow float64 and Newton's system holds +Inf. 10¹⁵⁰ leaves room
// for the sums over n rows and d + 1 columns.
const MaxFeatureNorm = 1e150

// Problem is binary logistic regression with labels ±1:
//
//	J(w, b) = (1/n) Σ log(1 + exp(−yᵢ(w·xᵢ + b))) + (λ/2)‖w‖²,
//
// with b not penalised. The loss log(1 + e^(−z)) is computed as a
// softplus, so it neither overflows nor rounds to 0 for large |z|.
type Problem struct {
	X      [][]float64
	Y      []float64
	Lambda float64
}

// New checks and returns the problem on x with labels y and penalty
// λ: x has n ≥ 1 rows of the same length d ≥ 1, every number finite,
// y has n entries each −1 or +1, and λ ≥ 0 is finite. The slices are
// kept, not copied: do not modify them afterwards.
func New(x [][]float64, y []float64, lambda float64) (*Problem, error) {
	if err := checkX(x, len(y)); err != nil {
		return nil, err
	}
	for i, v := range y {
		if v != 1 && v != -1 {
			return nil, fmt.Errorf("%w: y[%d] is %v; labels must be -1 or +1", ErrInput, i, v)
		}
	}
	if !(lambda >= 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("%w: λ is %v; give a finite λ ≥ 0", ErrInput, lambda)
	}
	return &Problem{X: x, Y: y, Lambda: lambda}, nil
}

// checkX checks that x has n ≥ 1 rows (n labels were given) of one
// length d ≥ 1 with finite entries and norms at most MaxFeatureNorm.
func checkX(x [][]float64, n int) error {
	switch {
	case len(x) == 0:
		return fmt.Errorf("%w: x is empty; give at least one row", ErrInput)
	case n != len(x):
		return fmt.Errorf("%w: %d labels for %d rows; give one label per row", ErrInput, n, len(x))
	case len(x[0]) == 0:
		return fmt.Errorf("%w: x has rows of no features; give at least one", ErrInput)
	}
	for i, row := range x {
		if len(row) != len(x[0]) {
			return fmt.Errorf("%w: x[%d] has %d features, x[0] has %d", ErrInput, i, len(row), len(x[0]))
		}
		if !finite(row...) {
			return fmt.Errorf("%w: x[%d] has a number that is not finite", ErrInput, i)
		}
		if nrm := floats.Norm(row, 2); nrm > MaxFeatureNorm {
			return fmt.Errorf("%w: ‖x[%d]‖ is %.3g, above %g: J's curvature ‖x‖²/4 would overflow float64; "+
				"scale the features to numbers near 1 (divide each column by its largest |value|)", ErrScale, i, nrm, MaxFeatureNorm)
		}
	}
	return nil
}

func (p *Problem) dim() int { return len(p.X[0]) }

// Objective returns J(m.W, m.B).
func (p *Problem) Objective(m Model) float64 {
	j, _ := p.eval(m, false)
	return j
}

// Gradient returns ∇J at m: gw = (1/n) Σ −yᵢσ(−yᵢfᵢ)xᵢ + λw and
// gb = (1/n) Σ −yᵢσ(−yᵢfᵢ), with fᵢ = w·xᵢ + b.
func (p *Problem) Gradient(m Model) (gw []float64, gb float64) {
	_, g := p.eval(m, true)
	return g[:len(m.W)], g[len(m.W)]
}

// eval returns J at m and, when grad is set, ∇J (the w entries then
// b's) from the same pass over the data. With z = yᵢfᵢ and e = e^(−|z|),
// log(1 + e^(−z)) = max(−z, 0) + log1p(e) and σ(−z) is 1/(1 + e) or
// e/(1 + e): one exp per row serves both.
func (p *Problem) eval(m Model, grad bool) (float64, []float64) {
	d := len(m.W)
	var g []float64
	if grad {
		g = make([]float64, d+1)
	}
	var loss float64
	for i, x := range p.X {
		z := p.Y[i] * (floats.Dot(m.W, x) + m.B)
		e := math.Exp(-math.Abs(z))
		loss += math.Max(-z, 0) + math.Log1p(e)
		if !grad {
			continue
		}
		s := e / (1 + e) // σ(−z) for z ≥ 0
		if z < 0 {
			s = 1 / (1 + e)
		}
		r := -p.Y[i] * s
		floats.AddScaled(g[:d], r, x)
		g[d] += r
	}
	inv := 1 / float64(len(p.X))
	loss *= inv
	if grad {
		floats.Scale(inv, g)
		floats.AddScaled(g[:d], p.Lambda, m.W)
	}
	if p.Lambda == 0 { // 0·∞ would be NaN when ‖w‖² overflows
		return loss, g
	}
	return loss + p.Lambda/2*floats.Dot(m.W, m.W), g
}

// L returns a smoothness constant of J, λ_max(X̃ᵀX̃)/(4n) + λ with
// X̃ = [X 1]: the Hessian (1/n) X̃ᵀDX̃ + λ diag(1, …, 1, 0) has
// D = diag(σᵢ(1 − σᵢ)) ≤ ¼, so gradient descent with η < 2/L decreases J
// at every step. It costs an eigendecomposition of the smaller of X̃ᵀX̃
// and X̃X̃ᵀ: about min(n, d+1)²·max(n, d+1)/2 + 4·min(n, d+1)³ flops.
func (p *Problem) L() float64 {
	return lambdaMax(p.X)/(4*float64(len(p.X))) + p.Lambda
}

// lambdaMax returns the largest eigenvalue of X̃ᵀX̃ with X̃ = [X 1],
// from the smaller of X̃ᵀX̃ and X̃X̃ᵀ (they share their non-zero spectrum).
func lambdaMax(x [][]float64) float64 {
	n, d := len(x), len(x[0])
	xt := mat.NewDense(n, d+1, nil)
	for i, row := range x {
		copy(xt.RawRowView(i)[:d], row)
		xt.Set(i, d, 1)
	}
	var g mat.SymDense
	if n <= d+1 {
		g.SymOuterK(1, xt)
	} else {
		g.SymOuterK(1, xt.T())
	}
	var eig mat.EigenSym
	if !eig.Factorize(&g, false) {
		// EigenSym fails only on non-finite input; the trace bounds
		// λ_max from above in any case.
		return mat.Trace(&g)
	}
	v := eig.Values(nil)
	return v[len(v)-1]
}

// State is one iterate of a solver, kept by the lesson after every
// iteration. Its slices are never shared with another state.
type State struct {
	T     int
	Model Model
	// Objective and GradNorm are J and ‖∇J‖ (w and b components) at Model.
	Objective, GradNorm float64
	// Status is Running, Converged (GradNorm < Tol) or Diverged (a step
	// was not finite: the state stays on the last finite iterate, so no
	// state holds NaN).
	Status algos.Status
	// Trials is how many step sizes Newton's line search tried for this
	// step (0 for GD and state 0): a step's work is its Hessian and
	// Trials evaluations of J and ∇J.
	Trials int
	// grad is ∇J at Model (w entries, then b's), kept so that the next
	// step need not compute it again; nil in a State built by hand.
	grad []float64
}

// gradient returns ∇J at s.Model as one vector, from s if it has it.
// The caller must not modify it.
func (p *Problem) gradient(s State) []float64 {
	if len(s.grad) == len(s.Model.W)+1 {
		return s.grad
	}
	_, g := p.eval(s.Model, true)
	return g
}

// Start returns state 0: w = 0, b = 0.
func (p *Problem) Start() State {
	return p.state(0, Model{W: make([]float64, p.dim())})
}

// state evaluates m: its objective, gradient norm and status (Running or
// Converged; Diverged if a number is not finite).
func (p *Problem) state(t int, m Model) State {
	j, g := p.eval(m, true)
	s := State{T: t, Model: m, Objective: j, GradNorm: floats.Norm(g, 2), grad: g}
	switch {
	case !finite(s.Objective, s.GradNorm, m.B) || !finite(m.W...):
		s.Status = algos.Diverged
	case s.GradNorm < Tol:
		s.Status = algos.Converged
	}
	return s
}
