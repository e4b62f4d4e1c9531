package logistic

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos"
)

// Line search constants: the Armijo fraction of the predicted decrease,
// and the most halvings of the step before the search gives up.
const (
	armijo = 1e-4
	// MaxTrials is the most step sizes the Newton line searches try
	// (t = 1, ½, …, 2⁻³⁹) before they give up.
	MaxTrials   = 40
	maxHalvings = MaxTrials
	// maxCond is the condition number of the Newton system above which
	// the step is the minimum-norm least-squares solution (a truncated
	// SVD) instead of the Cholesky one: with λ = 0 and dependent
	// features the Hessian is singular and J is flat along its null
	// space, so a step there would be rounding noise.
	maxCond = 1e12
	// MaxNewtonIters bounds Solve's Newton iterations.
	MaxNewtonIters = 200
)

// Newton is Newton's method on J with a backtracking (Armijo) line
// search: the direction Δ solves H Δ = −∇J, with the Hessian
// H = (1/n) X̃ᵀDX̃ + λ diag(1, …, 1, 0) and D = diag(σᵢ(1 − σᵢ)); the
// step tries t = 1 first and halves t until
// J(θ + tΔ) ≤ J(θ) + 10⁻⁴ t ∇Jᵀ Δ. Near the optimum, where that test
// is below J's rounding, the full step is also taken when it lowers the
// gradient norm without raising J by more than its rounding (roundoff). Each step
// costs about n(d+1)²/2 + (d+1)³/6 multiply-adds for H and its Cholesky
// factor, plus n(d+1) per trial step.
type Newton struct{ P *Problem }

// Status returns s.Status.
func (nt Newton) Status(s State) algos.Status { return s.Status }

// Step returns the state after one Newton iteration; s is not modified.
// A terminal s is returned as is. When no trial step lowers J (the
// gradient is already at the size of its rounding error) the state is
// s with Status Converged; Solve reports that as ErrStalled when the
// gradient norm is still ≥ Tol. A step that leaves float64's range
// returns s with Status Diverged.
func (nt Newton) Step(s State) State {
	if s.Status.Done() {
		return s
	}
	p := nt.P
	g := p.gradient(s)
	dir := p.newtonDir(s.Model, g)
	if !finite(dir...) {
		s.Status = algos.Diverged
		return s
	}
	slope := floats.Dot(g, dir)
	if !(slope < 0) { // not a descent direction: fall back to −∇J
		dir = floats.ScaleTo(make([]float64, len(g)), -1, g)
		slope = -floats.Dot(g, g)
	}
	t := 1.0
	for trial := 1; trial <= maxHalvings; trial++ {
		next := p.state(s.T+1, s.Model.step(t, dir))
		next.Trials = trial
		switch {
		case next.Status == algos.Diverged:
		case next.Objective <= s.Objective+armijo*t*slope,
			t == 1 && next.GradNorm < s.GradNorm && next.Objective <= s.Objective+roundoff(s.Objective, len(p.X)):
			return next
		}
		t /= 2
	}
	s.Status = algos.Converged
	s.Trials = maxHalvings
	return s
}

const eps = 0x1p-52

// roundoff bounds the rounding error of J = j computed as a mean of n
// non-negative losses plus the penalty: nε|j| (the classical bound for
// a sum of n terms). Near the optimum J changes by less than this, and
// a full Newton step that lowers the gradient norm is taken even if J
// rises within it.
func roundoff(j float64, n int) float64 {
	return float64(max(n, 4)) * eps * math.Abs(j)
}

// step returns m + t·dir, dir holding the w entries then b's.
func (m Model) step(t float64, dir []float64) Model {
	d := len(m.W)
	next := Model{W: make([]float64, d), B: m.B + t*dir[d]}
	floats.AddScaledTo(next.W, m.W, t, dir[:d])
	return next
}

// newtonDir solves H Δ = −g at m.
func (p *Problem) newtonDir(m Model, g []float64) []float64 {
	return solveNewton(p.hessian(m), g, p.Lambda == 0)
}

// solveNewton solves h Δ = −g. h is positive definite in theory unless
// singular is set (λ = 0, where dependent features make it singular):
// then an ill-conditioned h gets the minimum-norm least-squares solution
// (a truncated SVD), which keeps the iterates off h's null space, along
// which J is flat. Otherwise a Cholesky factorisation that fails on
// rounding is retried with h + δI, δ growing from 10⁻¹² of h's largest
// diagonal entry to that entry (at most 7 tries); −g is the last resort.
// An h that is not finite gives NaNs, which the caller reports as
// Diverged.
func solveNewton(h *mat.SymDense, g []float64, singular bool) []float64 {
	k := len(g)
	for i := range k {
		for j := i; j < k; j++ {
			if v := h.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return []float64{math.NaN()}
			}
		}
	}
	rhs := mat.NewVecDense(k, nil)
	rhs.ScaleVec(-1, mat.NewVecDense(k, g))
	var chol mat.Cholesky
	var dir mat.VecDense
	if chol.Factorize(h) && (!singular || chol.Cond() < maxCond) {
		if err := chol.SolveVecTo(&dir, rhs); err == nil {
			return dir.RawVector().Data
		}
	}
	if singular {
		return minNorm(h, rhs)
	}
	var top float64
	for i := range k {
		top = math.Max(top, h.At(i, i))
	}
	shifted := mat.NewSymDense(k, nil)
	// top is finite, so δ passes it after at most 7 tries (10⁻¹² · 10⁴ᵏ).
	for delta := 1e-12 * top; delta <= top && delta > 0; delta *= 1e4 {
		shifted.CopySym(h)
		for i := range k {
			shifted.SetSym(i, i, h.At(i, i)+delta)
		}
		if chol.Factorize(shifted) {
			if err := chol.SolveVecTo(&dir, rhs); err == nil {
				return dir.RawVector().Data
			}
		}
	}
	return rhs.RawVector().Data
}

// minNorm returns the minimum-norm least-squares solution of h x = rhs,
// dropping singular values below maxCond⁻¹ of the largest.
func minNorm(h mat.Symmetric, rhs *mat.VecDense) []float64 {
	var svd mat.SVD
	if !svd.Factorize(h, mat.SVDThin) {
		return []float64{math.NaN()}
	}
	vals := svd.Values(nil)
	rank := 0
	for _, v := range vals {
		if v > vals[0]/maxCond {
			rank++
		}
	}
	if rank == 0 {
		return make([]float64, rhs.Len())
	}
	var x mat.Dense
	svd.SolveTo(&x, rhs, rank)
	return x.RawMatrix().Data
}

// hessian returns H = (1/n) X̃ᵀDX̃ + λ diag(1, …, 1, 0) at m, built as
// AᵀA with A's rows √(Dᵢᵢ/n) x̃ᵢ. Dᵢᵢ = σ(f)σ(−f) rather than σ(1 − σ),
// which would round to 0 for f > 37 where the product is still ~e^(−f).
func (p *Problem) hessian(m Model) *mat.SymDense {
	n, d := len(p.X), p.dim()
	a := mat.NewDense(n, d+1, nil)
	for i, x := range p.X {
		f := m.Score(x)
		r := math.Sqrt(Sigmoid(f) * Sigmoid(-f) / float64(n))
		row := a.RawRowView(i)
		floats.ScaleTo(row[:d], r, x)
		row[d] = r
	}
	h := mat.NewSymDense(d+1, nil)
	h.SymOuterK(1, a.T())
	for k := range d {
		h.SetSym(k, k, h.At(k, k)+p.Lambda)
	}
	return h
}

// Solve minimises J by Newton's method with the line search, from w = 0,
// b = 0, until the gradient norm is below Tol, and returns the final
// state. With λ = 0 it first decides Separable: separable data have no
// minimiser (ErrNoMinimiser). It stops with ErrStalled when no step
// lowers J before the gradient norm reaches Tol or after
// MaxNewtonIters iterations, with ErrDiverged when an iterate
// overflows, and with ctx's error (wrapped) when ctx is done; ctx is
// checked before every iteration. The state returned with an error is
// the last one reached.
func (p *Problem) Solve(ctx context.Context) (State, error) {
	s := p.Start()
	if p.Lambda == 0 {
		sep, err := p.Separable()
		if err != nil {
			return s, err
		}
		if sep {
			return s, ErrNoMinimiser
		}
	}
	nt := Newton{P: p}
	for !s.Status.Done() && s.T < MaxNewtonIters {
		if err := ctx.Err(); err != nil {
			return s, fmt.Errorf("logistic: Newton stopped after %d iterations: %w", s.T, err)
		}
		s = nt.Step(s)
	}
	return s, s.err()
}

// err says why a solver's final state is not a solution, or nil.
func (s State) err() error {
	switch {
	case s.Status == algos.Diverged:
		return fmt.Errorf("%w after %d iterations (last objective %g); rescale x to smaller numbers or raise λ", ErrDiverged, s.T, s.Objective)
	case s.GradNorm >= Tol:
		return fmt.Errorf("%w: ‖∇J‖ = %.3g after %d iterations; rescale x to numbers near 1", ErrStalled, s.GradNorm, s.T)
	}
	return nil
}
