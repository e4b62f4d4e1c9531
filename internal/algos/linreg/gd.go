package linreg

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos"

	"github.com/margin-edu/margin/internal/algos/symeig"
)

// GD is gradient descent on Fit's objective
//
//	J(w, b) = (1/n) Σ rᵢ² + λ‖w‖²,  rᵢ = w·xᵢ + b − yᵢ,
//
// with the constant step η: w ← w − η∇_w, b ← b − η∇_b, where
// ∇_w = (2/n) Σ rᵢxᵢ + 2λw and ∇_b = (2/n) Σ rᵢ (b stays 0 unless
// Intercept). J is a quadratic whose Hessian has largest eigenvalue L
// (see L), so GD converges for 0 < η < 2/L and diverges for η > 2/L along
// the top eigenvector. X and Y are read, never written.
type GD struct {
	X         [][]float64
	Y         []float64
	Lambda    float64
	Eta       float64
	Intercept bool

	l     float64 // L, set by NewGD (hasL)
	hasL  bool
	limit float64 // objectives above this count as diverging
}

// GDState is the run after T iterations. Its slices are read-only: Step
// returns new ones, so every state of a replay can be kept.
type GDState struct {
	T         int
	W         []float64
	B         float64
	Objective float64   // J at (W, B)
	GradW     []float64 // ∇_w J at (W, B)
	GradB     float64   // ∇_b J at (W, B); 0 without intercept
	GradNorm  float64   // ‖(∇_w, ∇_b)‖, the b part only with Intercept
	// Status is algos.Running; algos.Converged once GradNorm <
	// 1e-12·(1 + |Objective|) after a step that did not raise the
	// objective (far out on a diverging run the gradient is small next to
	// the objective too), or once a step no longer changes (W, B) in
	// float64; or algos.Diverged when the next iterate would be NaN or
	// ±Inf or its objective would exceed max(1e100, 1e10·J(0, 0)): the
	// state then stays on the last finite iterate, so no NaN ever reaches
	// a page.
	Status algos.Status
	// Refused is, on a Diverged state, the objective of the iterate the
	// run refused: finite and above Limit when the cap stopped it, +Inf or
	// NaN when the iterate left float64's range. 0 otherwise.
	Refused float64
}

// DivergeFloor and DivergeFactor set the cap on the objective (Limit):
// an iterate whose J would exceed max(DivergeFloor, DivergeFactor·J(0, 0))
// counts as diverging. The factor only matters for data whose starting
// objective is already within 10¹⁰ of the floor.
const (
	DivergeFloor  = 1e100
	DivergeFactor = 1e10
)

// NewGD validates the data (as Fit does) and the step η (finite, > 0)
// and returns the method and state 0, w = 0 and b = 0. It computes L once.
func NewGD(x [][]float64, y []float64, lambda, eta float64, intercept bool) (*GD, GDState, error) {
	if err := checkLambda(lambda); err != nil {
		return nil, GDState{}, err
	}
	if !(eta > 0) || math.IsInf(eta, 0) {
		return nil, GDState{}, fmt.Errorf("%w: step size η is %v; it must be a finite number > 0", ErrParameters, eta)
	}
	n, d, err := checkData(x)
	if err != nil {
		return nil, GDState{}, err
	}
	if err := checkTargets(y, n); err != nil {
		return nil, GDState{}, err
	}
	g := &GD{X: x, Y: y, Lambda: lambda, Eta: eta, Intercept: intercept}
	s := GDState{W: make([]float64, d)}
	s.Objective, s.GradW, s.GradB = g.eval(s.W, 0)
	if !isFinite(s.Objective) {
		return nil, GDState{}, fmt.Errorf("%w: the objective at w = 0 (the mean of y²) overflows float64; rescale y to smaller numbers", ErrNotFinite)
	}
	s.GradNorm = gradNorm(s.GradW, s.GradB)
	s.Status = g.status(s, false, true)
	g.limit = math.Max(DivergeFloor, DivergeFactor*s.Objective)
	g.l, g.hasL = g.hessianMax(), true
	return g, s, nil
}

// eval returns J, ∇_w J and ∇_b J at (w, b) in one pass over the data.
func (g *GD) eval(w []float64, b float64) (obj float64, gw []float64, gb float64) {
	n := float64(len(g.X))
	gw = make([]float64, len(w))
	for i, x := range g.X {
		r := dot(w, x) + b - g.Y[i]
		obj += float64(r * r)
		gb += r
		for j, v := range x {
			gw[j] += float64(r * v)
		}
	}
	for j := range gw {
		gw[j] = float64(2*gw[j])/n + float64(2*g.Lambda*w[j])
	}
	obj = obj/n + float64(g.Lambda*dot(w, w))
	if !g.Intercept {
		return obj, gw, 0
	}
	return obj, gw, 2 * gb / n
}

func gradNorm(gw []float64, gb float64) float64 {
	return math.Sqrt(dot(gw, gw) + float64(gb*gb))
}

// Status returns s.Status: Step decides it when it makes a state.
func (g *GD) Status(s GDState) algos.Status { return s.Status }

// status decides whether s ends the run: stalled says the step that made
// s left (W, B) unchanged, descended that it did not raise J.
func (g *GD) status(s GDState, stalled, descended bool) algos.Status {
	if stalled || descended && s.GradNorm < 1e-12*(1+math.Abs(s.Objective)) {
		return algos.Converged
	}
	return algos.Running
}

// Step does one iteration from s without modifying it. A terminal state
// is returned unchanged; a step that would leave float64's range, or make
// the objective exceed the divergence limit, returns s with Status
// algos.Diverged instead.
func (g *GD) Step(s GDState) GDState {
	if s.Status.Done() {
		return s
	}
	next := GDState{T: s.T + 1, W: make([]float64, len(s.W)), B: s.B}
	for j, w := range s.W {
		next.W[j] = w - float64(g.Eta*s.GradW[j])
	}
	if g.Intercept {
		next.B = s.B - float64(g.Eta*s.GradB)
	}
	next.Objective, next.GradW, next.GradB = g.eval(next.W, next.B)
	next.GradNorm = gradNorm(next.GradW, next.GradB)
	limit := g.Limit()
	if !allFinite(next.W) || !isFinite(next.B) || !isFinite(next.GradNorm) ||
		!isFinite(next.Objective) || next.Objective > limit {
		s.Status, s.Refused = algos.Diverged, next.Objective
		if !allFinite(next.W) || !isFinite(next.B) || !isFinite(next.GradNorm) {
			s.Refused = math.Inf(1)
		}
		return s
	}
	next.Status = g.status(next, next.B == s.B && slices.Equal(next.W, s.W), next.Objective <= s.Objective)
	return next
}

// Limit is the cap on the objective: a step whose objective would exceed
// it stops the run as Diverged, long before float64 overflows, so a
// diverging run ends in a few hundred steps and every number on a page is
// finite. It is max(10¹⁰⁰, 10¹⁰·J(0, 0)).
func (g *GD) Limit() float64 {
	if g.limit == 0 {
		return DivergeFloor
	}
	return g.limit
}

// L returns the smoothness constant of J: the largest eigenvalue of its
// Hessian (2/n)X̃ᵀX̃ + 2λ·diag(1, …, 1, 0), where X̃ = [X 1] with an
// intercept (the 0 is b's, which is not penalised) and X̃ = X, with 2λ on
// the whole diagonal, without. GD converges for 0 < η < 2/L; η = 1/L is
// the classic safe choice. L is +Inf when the Hessian overflows float64,
// and 0 when J does not depend on (w, b) at all.
func (g *GD) L() float64 {
	if g.hasL {
		return g.l
	}
	return g.hessianMax()
}

// hessianMax computes L with gonum's symmetric eigensolver.
func (g *GD) hessianMax() float64 {
	n := len(g.X)
	if n == 0 {
		return 0
	}
	d := len(g.X[0])
	cols := d
	if g.Intercept {
		cols++
	}
	if cols == 0 {
		return 0
	}
	a := mat.NewDense(n, cols, nil)
	for i, row := range g.X {
		copy(a.RawRowView(i), row)
		if g.Intercept {
			a.Set(i, d, 1)
		}
	}
	h := mat.NewSymDense(cols, nil)
	h.SymOuterK(2/float64(n), a.T())
	for j := range d {
		h.SetSym(j, j, h.At(j, j)+2*g.Lambda)
	}
	for i := range cols {
		for j := i; j < cols; j++ {
			if !isFinite(h.At(i, j)) {
				return math.Inf(1)
			}
		}
	}
	// symeig, not mat.EigenSym: gonum's panics on a Hessian of tiny data.
	return math.Max(symeig.Largest(h), 0)
}
