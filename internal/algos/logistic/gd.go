package logistic

import (
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
)

// GD is plain gradient descent on J with a fixed step η:
// (w, b) ← (w, b) − η∇J(w, b). With 0 < η < 2/L it decreases J at every
// step; on separable data with λ = 0 it keeps decreasing J towards 0
// while ‖w‖ grows like log t, never converging.
type GD struct {
	P   *Problem
	Eta float64
}

// Status returns s.Status.
func (g GD) Status(s State) algos.Status { return s.Status }

// Step returns the state after one gradient step; s is not modified. A
// terminal s is returned as is; a step that leaves float64's range
// returns s with Status Diverged.
func (g GD) Step(s State) State {
	if s.Status.Done() {
		return s
	}
	grad := g.P.gradient(s)
	d := len(s.Model.W)
	m := s.Model.clone()
	floats.AddScaled(m.W, -g.Eta, grad[:d])
	m.B -= g.Eta * grad[d]
	next := g.P.state(s.T+1, m)
	if next.Status == algos.Diverged || math.IsNaN(g.Eta) {
		s.Status = algos.Diverged
		return s
	}
	return next
}
