package gd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
)

// Method is how GD moves from x⁽ᵏ⁻¹⁾ to x⁽ᵏ⁾.
type Method int

const (
	// Gradient is Definition 1.8.2: x ← x − η_k∇f(x).
	Gradient Method = iota
	// Newton is Newton's method (CIS 5200, Feb 1): x ← x − ∇²f(x)⁻¹∇f(x),
	// with no step size; see newtonDir for a Hessian that is not positive
	// definite. On a quadratic with A positive definite one step lands on
	// x* up to rounding.
	Newton
)

// String returns "gd" or "newton".
func (m Method) String() string {
	if m == Newton {
		return "newton"
	}
	return "gd"
}

// State is a run after K iterations. Its slices belong to it: Step never
// changes them, and callers must not either.
type State struct {
	K        int       // iterations done
	X        []float64 // x⁽ᴷ⁾
	F        float64   // f(x⁽ᴷ⁾)
	Grad     []float64 // ∇f(x⁽ᴷ⁾), the full gradient (also under SGD)
	GradNorm float64   // ‖∇f(x⁽ᴷ⁾)‖₂
	Eta      float64   // the step size iteration K used: η_K, 1 for Newton, 0 in state 0
	Batch    []int     // SGD: the rows iteration K sampled, ascending; nil otherwise and in state 0
	// Status is Running; Converged once GradNorm < Tol; IterationLimit
	// after the run's iterations; Diverged when step K+1 was refused: it
	// would put an entry of x or f beyond ±Blowup, the package's cap (or
	// its x, f or ∇f would not be finite), or a Newton step found no
	// direction; the state keeps iterate K, the last the run accepted,
	// and Next and NextF say what step K+1 computed. Stalled when step K+1
	// of a Newton run would return x⁽ᴷ⁾ bit for bit, so that every later
	// step would too: the state keeps iterate K.
	Status algos.Status
	// Next is, in a Diverged state, the iterate step K+1 computed and
	// refused, and NextF is f there (either may be beyond ±Blowup, or not
	// finite); Next is nil when the step computed none (Newton's method
	// with a Hessian that cannot be factorised) and in every other state.
	Next  []float64
	NextF float64

	rng            rand.PCG // SGD's generator, after the draws of iterations 1…K
	spareX, spareG []float64
	spareB         []int
}

// GD is the deterministic stepper: gradient descent with a schedule, or
// Newton's method, on F for Iters iterations. Set the fields, then call
// Init; *GD is an algos.Method[State] and algos.InPlace[State].
type GD struct {
	F        Func
	Eta      float64  // η₀ > 0 (Gradient only; Newton takes the full step)
	Schedule Schedule // Gradient only
	Method   Method
	Iters    int     // ≥ 1: the run stops with IterationLimit at state Iters
	Tol      float64 // ≥ 0: Converged once ‖∇f‖ < Tol (0: never)
}

// Init validates g and x0 (length F.Dim(), finite, within ±Blowup) and
// returns state 0. f(x0) and ∇f(x0) must be finite and |f(x0)| ≤ Blowup.
func (g *GD) Init(x0 []float64) (State, error) {
	if g.F == nil {
		return State{}, fmt.Errorf("%w: no objective F", ErrParameters)
	}
	if err := checkRun(g.Iters, g.Tol); err != nil {
		return State{}, err
	}
	if g.Method == Gradient {
		if err := checkEta(g.Eta, g.Schedule, g.Iters); err != nil {
			return State{}, err
		}
	} else if g.Method != Newton {
		return State{}, fmt.Errorf("%w: unknown method %d", ErrParameters, int(g.Method))
	}
	return start(g.F, x0, g.Tol, g.Iters)
}

func checkRun(iters int, tol float64) error {
	if iters < 1 {
		return fmt.Errorf("%w: iterations are %d; give at least 1", ErrParameters, iters)
	}
	if !(tol >= 0) || math.IsInf(tol, 0) {
		return fmt.Errorf("%w: tolerance is %v; give a finite number ≥ 0", ErrParameters, tol)
	}
	return nil
}

func checkEta(eta float64, s Schedule, iters int) error {
	if !(eta > 0) || math.IsInf(eta, 0) {
		return fmt.Errorf("%w: η is %v; give a finite step size > 0", ErrParameters, eta)
	}
	return s.validate(iters)
}

// start returns state 0 at a copy of x0.
func start(f Func, x0 []float64, tol float64, iters int) (State, error) {
	if len(x0) != f.Dim() {
		return State{}, fmt.Errorf("%w: x0 has %d entries; the objective takes %d", ErrShape, len(x0), f.Dim())
	}
	if !tame(x0...) {
		return State{}, fmt.Errorf("%w: x0 has an entry that is not finite or beyond ±%g", ErrNotFinite, Blowup)
	}
	s := State{X: slices.Clone(x0), Grad: make([]float64, len(x0))}
	s.F = valueGrad(f, s.Grad, s.X)
	s.GradNorm = floats.Norm(s.Grad, 2)
	if !tame(s.F) || !finite(s.Grad) || math.IsInf(s.GradNorm, 0) {
		return State{}, fmt.Errorf("%w: f(x0) = %v with ‖∇f(x0)‖ = %v; the values must be finite and f within ±%g: start closer or rescale the problem",
			ErrNotFinite, s.F, s.GradNorm, Blowup)
	}
	s.Status = status(s, tol, iters)
	return s, nil
}

func status(s State, tol float64, iters int) algos.Status {
	switch {
	case s.GradNorm < tol:
		return algos.Converged
	case s.K >= iters:
		return algos.IterationLimit
	}
	return algos.Running
}

// valueGrad returns f(x) and writes ∇f(x) into grad, in one pass when
// the objective can.
func valueGrad(f Func, grad, x []float64) float64 {
	if vg, ok := f.(interface {
		valueGrad(grad, x []float64) float64
	}); ok {
		return vg.valueGrad(grad, x)
	}
	f.Grad(grad, x)
	return f.Value(x)
}

func (ls *LeastSquares) valueGrad(grad, x []float64) float64 { return ls.eval(grad, x, nil) }
func (lg *Logistic) valueGrad(grad, x []float64) float64     { return lg.eval(grad, x, nil) }

// Status returns s.Status.
func (g *GD) Status(s State) algos.Status { return s.Status }

// Step returns state K+1 (s itself once s is done); s is not modified.
func (g *GD) Step(s State) State {
	if s.Status.Done() {
		return s
	}
	next := g.Clone(s)
	g.Advance(&next)
	return next
}

// Clone returns a deep copy of s for Advance.
func (g *GD) Clone(s State) State { return clone(s) }

func clone(s State) State {
	s.X, s.Grad, s.Batch, s.Next = slices.Clone(s.X), slices.Clone(s.Grad), slices.Clone(s.Batch), slices.Clone(s.Next)
	s.spareX, s.spareG, s.spareB = nil, nil, nil
	return s
}

// Advance is Step in place on a state from Clone. A gradient step is
// computed as x − float64(η_k·gᵢ) entry by entry, g being the state's
// gradient (for a quadratic: (A·x, row by row, left to right) − c).
func (g *GD) Advance(s *State) {
	if s.Status.Done() {
		return
	}
	next := grow(s.spareX, len(s.X))
	eta := 1.0
	if g.Method == Newton {
		dir, ok := newtonDir(g.F.Hessian(s.X), s.Grad)
		if !ok {
			s.Status = algos.Diverged
			return
		}
		for i, v := range s.X {
			next[i] = v - dir[i]
		}
	} else {
		eta = g.Schedule.Eta(g.Eta, s.K+1, g.Iters)
		descend(next, s.X, s.Grad, eta)
	}
	// A Newton step depends on x alone, so one that does not move repeats
	// for ever. (A gradient step that does not move is left to Tol and
	// Iters: it is the float fixed point a converging run reaches.) A zero
	// gradient is a stationary point, also left to them.
	if g.Method == Newton && s.GradNorm > 0 && slices.Equal(next, s.X) {
		s.spareX = next
		s.Status = algos.Stalled
		return
	}
	commit(g.F, s, next, eta, g.Tol, g.Iters)
}

// descend writes x − η·g into next, each product rounded (no FMA).
func descend(next, x, g []float64, eta float64) {
	for i, v := range x {
		next[i] = v - float64(eta*g[i])
	}
}

// commit makes next iterate K+1 of s, or marks s Diverged and leaves it
// on iterate K, with next as s.Next, when next or f(next) is beyond the
// cap or ∇f(next) is not finite.
func commit(f Func, s *State, next []float64, eta, tol float64, iters int) {
	grad := grow(s.spareG, len(s.X))
	fx := valueGrad(f, grad, next)
	norm := floats.Norm(grad, 2)
	s.spareX, s.spareG = next, grad
	if !tame(next...) || !tame(fx) || !finite(grad) || math.IsInf(norm, 0) {
		s.Status = algos.Diverged
		s.Next, s.NextF, s.spareX = next, fx, nil
		return
	}
	s.X, s.spareX = next, s.X
	s.Grad, s.spareG = grad, s.Grad
	s.K++
	s.F, s.GradNorm, s.Eta = fx, norm, eta
	s.Status = status(*s, tol, iters)
}

func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}
