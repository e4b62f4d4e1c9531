package logistic

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos"
)

// SoftmaxState is one iterate of a softmax solver. Its slices are never
// shared with another state.
type SoftmaxState struct {
	T     int
	Model SoftmaxModel
	// Objective and GradNorm are J and ‖∇J‖ (all of W and b) at Model.
	Objective, GradNorm float64
	// Status: Running, Converged (GradNorm < Tol) or Diverged (the
	// state stays on the last finite iterate).
	Status algos.Status
	// Trials is how many step sizes SoftmaxNewton's line search tried
	// for this step (0 for GD and state 0).
	Trials int
	// grad is ∇J at Model laid out blockwise (W[0], b[0], W[1], …); nil in a state built
	// by hand.
	grad []float64
}

// gradient returns ∇J at st.Model as one vector, from st if it has it.
// The caller must not modify it.
func (s *Softmax) gradient(st SoftmaxState) []float64 {
	if len(st.grad) == s.C*(s.dim()+1) {
		return st.grad
	}
	_, g := s.eval(st.Model, true)
	return g
}

// Start returns state 0: W = 0, b = 0.
func (s *Softmax) Start() SoftmaxState {
	m := SoftmaxModel{W: make([][]float64, s.C), B: make([]float64, s.C)}
	for c := range m.W {
		m.W[c] = make([]float64, s.dim())
	}
	return s.state(0, m)
}

// state evaluates m at iteration t.
func (s *Softmax) state(t int, m SoftmaxModel) SoftmaxState {
	j, g := s.eval(m, true)
	st := SoftmaxState{T: t, Model: m, Objective: j, GradNorm: floats.Norm(g, 2), grad: g}
	switch {
	case !finite(st.Objective, st.GradNorm) || !finite(m.B...) || !finiteRows(m.W):
		st.Status = algos.Diverged
	case st.GradNorm < Tol:
		st.Status = algos.Converged
	}
	return st
}

func finiteRows(w [][]float64) bool {
	for _, row := range w {
		if !finite(row...) {
			return false
		}
	}
	return true
}

// SoftmaxGD is gradient descent on the softmax J with a fixed step η;
// with 0 < η < 2/L it decreases J at every step. Σ_c b_c stays at its
// start (0), since the b gradient sums to 0.
type SoftmaxGD struct {
	S   *Softmax
	Eta float64
}

// Status returns st.Status.
func (g SoftmaxGD) Status(st SoftmaxState) algos.Status { return st.Status }

// Step returns the state after one gradient step; st is not modified. A
// terminal st is returned as is; a non-finite step returns st with
// Status Diverged.
func (g SoftmaxGD) Step(st SoftmaxState) SoftmaxState {
	if st.Status.Done() {
		return st
	}
	grad := g.S.gradient(st)
	d1 := g.S.dim() + 1
	m := st.Model.clone()
	for c := range m.W {
		floats.AddScaled(m.W[c], -g.Eta, grad[c*d1:(c+1)*d1-1])
		m.B[c] -= g.Eta * grad[(c+1)*d1-1]
	}
	next := g.S.state(st.T+1, m)
	if next.Status == algos.Diverged || math.IsNaN(g.Eta) {
		st.Status = algos.Diverged
		return st
	}
	return next
}

// SoftmaxNewton is Newton's method on the softmax J with the same line
// search as Newton. J's Hessian H is singular along the shift
// b → b + t·1 (and only there, as λ > 0), and the gradient is orthogonal
// to it; the step solves (H + eeᵀ)Δ = −∇J with e the unit vector of
// that shift, which gives the solution of HΔ = −∇J with Σ_c Δb_c = 0, and
// b is re-centred after the step. A step costs about
// C²n(d+1)²/2 + (C(d+1))³/6 multiply-adds.
type SoftmaxNewton struct{ S *Softmax }

// Status returns st.Status.
func (nt SoftmaxNewton) Status(st SoftmaxState) algos.Status { return st.Status }

// Step returns the state after one Newton iteration; st is not modified.
// As for Newton, a state where no trial step lowers J comes back
// Converged, and a non-finite one Diverged.
func (nt SoftmaxNewton) Step(st SoftmaxState) SoftmaxState {
	if st.Status.Done() {
		return st
	}
	s := nt.S
	g := s.gradient(st)
	dir := s.newtonDir(st.Model, g)
	if !finite(dir...) {
		st.Status = algos.Diverged
		return st
	}
	slope := floats.Dot(g, dir)
	if !(slope < 0) {
		dir = floats.ScaleTo(make([]float64, len(g)), -1, g)
		slope = -floats.Dot(g, g)
	}
	t := 1.0
	for trial := 1; trial <= maxHalvings; trial++ {
		next := s.state(st.T+1, s.step(st.Model, t, dir))
		next.Trials = trial
		switch {
		case next.Status == algos.Diverged:
		case next.Objective <= st.Objective+armijo*t*slope,
			t == 1 && next.GradNorm < st.GradNorm && next.Objective <= st.Objective+roundoff(st.Objective, len(s.X)):
			return next
		}
		t /= 2
	}
	st.Status = algos.Converged
	st.Trials = maxHalvings
	return st
}

// step returns m + t·dir (dir laid out blockwise: W[0], b[0], W[1], b[1], …) with b
// re-centred to Σ_c b_c = 0.
func (s *Softmax) step(m SoftmaxModel, t float64, dir []float64) SoftmaxModel {
	d := s.dim()
	next := m.clone()
	for c := range s.C {
		blk := dir[c*(d+1) : (c+1)*(d+1)]
		floats.AddScaled(next.W[c], t, blk[:d])
		next.B[c] += t * blk[d]
	}
	mean := floats.Sum(next.B) / float64(s.C)
	for c := range next.B {
		next.B[c] -= mean
	}
	return next
}

// newtonDir solves (H + eeᵀ)Δ = −g, e the unit shift of b.
func (s *Softmax) newtonDir(m SoftmaxModel, g []float64) []float64 {
	h := s.hessian(m)
	d1 := s.dim() + 1
	for c := range s.C {
		for k := c; k < s.C; k++ {
			i, j := c*d1+d1-1, k*d1+d1-1
			h.SetSym(i, j, h.At(i, j)+1/float64(s.C))
		}
	}
	return solveNewton(h, g, false)
}

// hessian returns J's Hessian at m: block (c, k) is
// (1/n) Σ p_ic([c = k] − p_ik) x̃ᵢx̃ᵢᵀ, plus λ on W's diagonal entries.
// Each block is one matrix product X̃ᵀ(diag(wᶜᵏ) X̃), copied into the
// upper triangle that SymDense keeps.
func (s *Softmax) hessian(m SoftmaxModel) *mat.SymDense {
	n, d := len(s.X), s.dim()
	d1 := d + 1
	xt := mat.NewDense(n, d1, nil)
	p := make([]float64, n*s.C)
	for i, x := range s.X {
		row := xt.RawRowView(i)
		copy(row, x)
		row[d] = 1
		pi := p[i*s.C : (i+1)*s.C]
		for c, w := range m.W {
			pi[c] = floats.Dot(w, x) + m.B[c]
		}
		softmaxInPlace(pi)
	}
	h := mat.NewSymDense(s.C*d1, nil)
	raw := h.RawSymmetric()
	wx := mat.NewDense(n, d1, nil)
	blk := mat.NewDense(d1, d1, nil)
	inv := 1 / float64(n)
	for c := range s.C {
		for k := c; k < s.C; k++ {
			for i := range n {
				pi := p[i*s.C : (i+1)*s.C]
				w := -pi[c] * pi[k]
				if c == k { // p_c(1 − p_c), with 1 − p_c summed, not cancelled
					w = pi[c] * (floats.Sum(pi[:c]) + floats.Sum(pi[c+1:]))
				}
				floats.ScaleTo(wx.RawRowView(i), w*inv, xt.RawRowView(i))
			}
			blk.Mul(xt.T(), wx)
			for a := range d1 {
				row := raw.Data[(c*d1+a)*raw.Stride:]
				if c == k {
					copy(row[c*d1+a:(c+1)*d1], blk.RawRowView(a)[a:])
				} else {
					copy(row[k*d1:(k+1)*d1], blk.RawRowView(a))
				}
			}
		}
		for a := range d {
			raw.Data[(c*d1+a)*raw.Stride+c*d1+a] += s.Lambda
		}
	}
	return h
}

// Solve minimises J by SoftmaxNewton from W = 0, b = 0 until the
// gradient norm is below Tol, and returns the minimiser with
// Σ_c b_c = 0. Errors are as for Problem.Solve (there is always a
// minimiser: λ > 0 and every class has points).
func (s *Softmax) Solve(ctx context.Context) (SoftmaxState, error) {
	st := s.Start()
	nt := SoftmaxNewton{S: s}
	for !st.Status.Done() && st.T < MaxNewtonIters {
		if err := ctx.Err(); err != nil {
			return st, fmt.Errorf("logistic: softmax Newton stopped after %d iterations: %w", st.T, err)
		}
		st = nt.Step(st)
	}
	return st, State{T: st.T, Objective: st.Objective, GradNorm: st.GradNorm, Status: st.Status}.err()
}
