package linreg

import (
	"fmt"
	"math"
	"slices"

	"github.com/margin-edu/margin/internal/algos"
)

// Lasso is cyclic coordinate descent on the lasso objective (004's ℓ1
// regulariser)
//
//	J(w, b) = (1/2n) ‖y − Xw − b·1‖² + α‖w‖₁,
//
// with the intercept b not penalised: exactly what scikit-learn's
// Lasso(alpha=α, fit_intercept=True) minimises. For any w the best b is
// ȳ − x̄·w, so Lasso centres X and y once (x̃ᵢ = xᵢ − x̄, ỹᵢ = yᵢ − ȳ),
// runs on w alone and reports b = ȳ − x̄·w with every state, as
// scikit-learn does.
//
// One Step updates one coordinate j, cyclically j = 0, 1, …, d−1, 0, …
// (scikit-learn's selection='cyclic'), to the exact minimiser of J over
// wⱼ with the others held:
//
//	ρⱼ = (1/n) Σᵢ x̃ᵢⱼ (rᵢ + x̃ᵢⱼ wⱼ),   zⱼ = (1/n) Σᵢ x̃ᵢⱼ²,
//	wⱼ ← S(ρⱼ, α) / zⱼ,   S(ρ, α) = sign(ρ)·max(|ρ| − α, 0),
//
// where r = ỹ − X̃w is the current residual: soft-thresholding, which sets
// wⱼ to exactly 0 whenever |ρⱼ| ≤ α. A column with zⱼ = 0 (constant
// feature) keeps wⱼ = 0. X and Y are read, never written.
type Lasso struct {
	X        [][]float64
	Y        []float64
	Alpha    float64
	MaxSteps int // the work budget: coordinate steps before IterationLimit

	cols [][]float64 // centred columns x̃ⱼ
	z    []float64   // zⱼ = ‖x̃ⱼ‖²/n
	xbar []float64
	ybar float64
}

// LassoStep is what one coordinate step did: the numbers of the
// soft-thresholding, filled in.
type LassoStep struct {
	J        int     // the coordinate updated (0-based)
	Rho      float64 // ρⱼ
	Z        float64 // zⱼ
	Old, New float64 // wⱼ before and after: New = S(Rho, α)/Z
}

// LassoState is the run after T coordinate steps. Its slices are
// read-only: Step returns new ones, so every state of a replay can be
// kept.
type LassoState struct {
	T         int
	W         []float64
	B         float64   // ȳ − x̄·W, the best intercept for W
	R         []float64 // the centred residual ỹ − X̃W
	Objective float64   // J(W, B)
	// Last is the step that made this state; zero at T = 0.
	Last LassoStep
	// SweepChange is the largest |Δwⱼ| of the sweep in progress (the
	// steps since T was last a multiple of d), the stopping rule's input.
	SweepChange float64
	// Status is algos.Running; algos.Converged once a whole sweep of d
	// steps moved no coordinate by more than LassoTol·(1 + max|wⱼ|) (in
	// particular once a sweep leaves w unchanged); algos.IterationLimit
	// once T reaches MaxSteps first.
	Status algos.Status
}

// LassoTol is the stopping rule's relative tolerance on a sweep's largest
// coordinate change. Coordinate descent converges linearly, so the
// iterate then lies within about LassoTol/(1 − rate) of the minimiser:
// far below the 1e-8 at which tools/crosscheck/lasso.py compares it with
// scikit-learn.
const LassoTol = 1e-13

// NewLasso validates the data (as Fit does), α (finite, ≥ 0) and the
// budget (≥ 1), and returns the method and state 0: w = 0, b = ȳ.
func NewLasso(x [][]float64, y []float64, alpha float64, maxSteps int) (*Lasso, LassoState, error) {
	if !(alpha >= 0) || math.IsInf(alpha, 0) {
		return nil, LassoState{}, fmt.Errorf("%w: α is %v; it must be a finite number ≥ 0", ErrParameters, alpha)
	}
	if maxSteps < 1 {
		return nil, LassoState{}, fmt.Errorf("%w: the step budget is %d; it must be at least 1", ErrParameters, maxSteps)
	}
	n, d, err := checkData(x)
	if err != nil {
		return nil, LassoState{}, err
	}
	if err := checkTargets(y, n); err != nil {
		return nil, LassoState{}, err
	}
	l := &Lasso{X: x, Y: y, Alpha: alpha, MaxSteps: maxSteps, cols: make([][]float64, d), z: make([]float64, d), xbar: make([]float64, d)}
	nf := float64(n)
	for _, v := range y {
		l.ybar += v
	}
	l.ybar /= nf
	for j := range d {
		for _, row := range x {
			l.xbar[j] += row[j]
		}
		l.xbar[j] /= nf
		c := make([]float64, n)
		for i, row := range x {
			c[i] = row[j] - l.xbar[j]
		}
		l.cols[j], l.z[j] = c, dot(c, c)/nf
	}
	s := LassoState{W: make([]float64, d), R: make([]float64, n), B: l.ybar}
	for i, v := range y {
		s.R[i] = v - l.ybar
	}
	s.Objective = l.objective(s.W, s.R)
	if !isFinite(s.Objective) || !allFinite(l.z) {
		return nil, LassoState{}, fmt.Errorf("%w: the data's squares overflow float64; rescale x and y to smaller numbers", ErrNotFinite)
	}
	if d == 0 {
		s.Status = algos.Converged
	}
	return l, s, nil
}

// Centred returns the centred design X̃ as rows, and ỹ.
func (l *Lasso) Centred() ([][]float64, []float64) {
	n := len(l.Y)
	x := make([][]float64, n)
	for i := range x {
		x[i] = make([]float64, len(l.cols))
		for j, c := range l.cols {
			x[i][j] = c[i]
		}
	}
	y := make([]float64, n)
	for i, v := range l.Y {
		y[i] = v - l.ybar
	}
	return x, y
}

// AlphaMax is the smallest α at which w = 0 is the lasso solution:
// max over j of |x̃ⱼ·ỹ|/n. For α ≥ AlphaMax every ρⱼ at w = 0 lies in
// [−α, α], so no coordinate ever leaves 0.
func (l *Lasso) AlphaMax() float64 {
	_, yc := l.Centred()
	m := 0.0
	for _, c := range l.cols {
		m = math.Max(m, math.Abs(dot(c, yc))/float64(len(yc)))
	}
	return m
}

// Gradient returns x̃ⱼ·r/n for each j: the correlation of each feature
// with the residual. At the lasso solution it equals α·sign(wⱼ) where
// wⱼ ≠ 0 and lies in [−α, α] where wⱼ = 0 (the KKT conditions).
func (l *Lasso) Gradient(s LassoState) []float64 {
	g := make([]float64, len(l.cols))
	for j, c := range l.cols {
		g[j] = dot(c, s.R) / float64(len(s.R))
	}
	return g
}

// Objective returns J(w, b) on the original (uncentred) data, for a
// check from outside the centring.
func (l *Lasso) Objective(w []float64, b float64) float64 {
	var sq float64
	for i, row := range l.X {
		r := l.Y[i] - dot(w, row) - b
		sq += float64(r * r)
	}
	return sq/float64(2*len(l.X)) + l.penalty(w)
}

func (l *Lasso) penalty(w []float64) float64 {
	var s float64
	for _, v := range w {
		s += math.Abs(v)
	}
	return float64(l.Alpha * s)
}

// objective is J from the centred residual r = ỹ − X̃w.
func (l *Lasso) objective(w, r []float64) float64 {
	return dot(r, r)/float64(2*len(r)) + l.penalty(w)
}

// SoftThreshold is S(ρ, α) = sign(ρ)·max(|ρ| − α, 0): 0 on [−α, α],
// ρ moved towards 0 by α outside it.
func SoftThreshold(rho, alpha float64) float64 {
	switch {
	case rho > alpha:
		return rho - alpha
	case rho < -alpha:
		return rho + alpha
	}
	return 0
}

// Status returns s.Status: Step decides it when it makes a state.
func (l *Lasso) Status(s LassoState) algos.Status { return s.Status }

// Step updates coordinate T mod d from s without modifying s. A terminal
// state is returned unchanged.
func (l *Lasso) Step(s LassoState) LassoState {
	if s.Status.Done() {
		return s
	}
	next := s
	next.W, next.R = slices.Clone(s.W), slices.Clone(s.R)
	l.Advance(&next)
	return next
}

// Clone returns a deep copy of s (algos.InPlace).
func (l *Lasso) Clone(s LassoState) LassoState {
	s.W, s.R = slices.Clone(s.W), slices.Clone(s.R)
	return s
}

// Advance does Step's work on s in place, reusing its slices
// (algos.InPlace): s must be a private copy.
func (l *Lasso) Advance(s *LassoState) {
	if s.Status.Done() {
		return
	}
	d, n := len(s.W), float64(len(s.R))
	j := s.T % d
	if j == 0 {
		s.SweepChange = 0
	}
	c, old := l.cols[j], s.W[j]
	step := LassoStep{J: j, Z: l.z[j], Old: old}
	if l.z[j] > 0 {
		var acc float64
		for i, v := range c {
			acc += float64(v * (s.R[i] + float64(v*old)))
		}
		step.Rho = acc / n
		step.New = SoftThreshold(step.Rho, l.Alpha) / l.z[j]
	}
	if delta := step.New - old; delta != 0 {
		for i, v := range c {
			s.R[i] -= float64(v * delta)
		}
		s.W[j] = step.New
	}
	s.T++
	s.Last = step
	s.SweepChange = math.Max(s.SweepChange, math.Abs(step.New-old))
	s.B = l.ybar - dot(l.xbar, s.W)
	s.Objective = l.objective(s.W, s.R)
	switch {
	case s.T%d == 0 && s.SweepChange <= LassoTol*(1+maxAbs(s.W)):
		s.Status = algos.Converged
	case s.T >= l.MaxSteps:
		s.Status = algos.IterationLimit
	}
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// SolveLasso runs coordinate descent from w = 0 to convergence within
// maxSteps and returns the model; the error wraps algos.ErrIterationLimit
// when the budget ran out first, or is NewLasso's.
func SolveLasso(x [][]float64, y []float64, alpha float64, maxSteps int) (Model, LassoState, error) {
	l, s, err := NewLasso(x, y, alpha, maxSteps)
	if err != nil {
		return Model{}, LassoState{}, err
	}
	s, _, err = algos.Replay[LassoState](l, s, maxSteps)
	if err != nil {
		return Model{}, s, err
	}
	if err := s.Status.Err(); err != nil {
		return Model{W: s.W, B: s.B}, s, fmt.Errorf("lasso with α = %v after %d coordinate steps: %w", alpha, s.T, err)
	}
	return Model{W: slices.Clone(s.W), B: s.B}, s, nil
}
