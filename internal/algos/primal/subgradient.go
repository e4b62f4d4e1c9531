package primal

import (
	"fmt"
	"math"
	"slices"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
)

// SubgradientParams are full-batch subgradient descent's inputs.
type SubgradientParams struct {
	C     float64 // weight of the hinge losses, > 0
	Eta   float64 // step size η > 0
	Decay bool    // step η/√t at iteration t instead of the constant η
	T     int     // iterations, at least 1
}

// Subgradient is 000 §1.8's gradient descent on the soft-margin primal
// (eq. 1.6.a)
//
//	½‖w‖² + C Σᵢ max(0, 1 − yᵢ(⟨xᵢ, w⟩ + b)),
//
// with the hinge's subgradient ℓ′(t) = −1 for t ≤ 1 and 0 for t > 1, as
// the notes define it:
//
//	w ← w − η_t [w − C Σ_{yᵢfᵢ ≤ 1} yᵢxᵢ],   b ← b − η_t [−C Σ_{yᵢfᵢ ≤ 1} yᵢ],
//
// both from the same (w, b). Unlike Pegasos the bias is not regularised,
// so this is the objective SMO solves, and Primal of the SMO optimum is
// the value it tends to. A subgradient step need not descend, so the
// state also tracks the best objective so far. With a constant η the
// iterates end up oscillating near the optimum; η/√t lets them settle.
// Too large an η (above 2, for the ‖w‖² term alone) makes them diverge.
type Subgradient struct {
	X [][]float64
	Y []float64
	P SubgradientParams
}

// SubgradientState is the run after T iterations. W is read-only.
type SubgradientState struct {
	T         int
	W         []float64
	B         float64
	Objective float64 // the primal objective at (W, B)
	Best      float64 // the lowest Objective of states 0…T
	Violators int     // points with yᵢf(xᵢ) ≤ 1 at (W, B): the ones the next step uses
	Status    algos.Status
}

// NewSubgradient validates the data (as svm.New does) and p and returns the
// trainer and state 0, w = 0 and b = 0.
func NewSubgradient(x [][]float64, y []int, p SubgradientParams) (*Subgradient, SubgradientState, error) {
	if err := svm.ValidateData(x, y); err != nil {
		return nil, SubgradientState{}, err
	}
	switch {
	case !(p.C > 0) || math.IsInf(p.C, 0):
		return nil, SubgradientState{}, fmt.Errorf("%w: C is %v; it must be a finite number > 0", svm.ErrParameters, p.C)
	case !(p.Eta > 0) || math.IsInf(p.Eta, 0):
		return nil, SubgradientState{}, fmt.Errorf("%w: step size η is %v; it must be a finite number > 0", svm.ErrParameters, p.Eta)
	case p.T < 1:
		return nil, SubgradientState{}, fmt.Errorf("%w: T is %d; it must be at least 1", svm.ErrParameters, p.T)
	}
	sg := &Subgradient{X: x, Y: labels(y), P: p}
	s := SubgradientState{W: make([]float64, len(x[0]))}
	s.Objective, s.Violators = sg.objective(s.W, s.B)
	s.Best = s.Objective
	return sg, s, nil
}

// objective returns the primal objective at (w, b) and the number of
// points with yᵢf(xᵢ) ≤ 1.
func (sg *Subgradient) objective(w []float64, b float64) (float64, int) {
	var hinge float64
	active := 0
	for i, x := range sg.X {
		m := sg.Y[i] * (dot(w, x) + b)
		if m <= 1 {
			active++
			hinge += 1 - m
		}
	}
	return dot(w, w)/2 + float64(sg.P.C*hinge), active
}

// Status reports where s stands: Running, IterationLimit after T
// iterations (there is no convergence test), or Diverged.
func (sg *Subgradient) Status(s SubgradientState) algos.Status { return s.Status }

// Step does one full-batch subgradient step; s is not modified. When the
// step leaves float64's range, it returns s with Status Diverged instead.
func (sg *Subgradient) Step(s SubgradientState) SubgradientState {
	if s.Status.Done() {
		return s
	}
	eta := sg.P.Eta
	if sg.P.Decay {
		eta /= math.Sqrt(float64(s.T + 1))
	}
	gw := slices.Clone(s.W)
	var gb float64
	for i, x := range sg.X {
		y := sg.Y[i]
		if y*(dot(s.W, x)+s.B) <= 1 {
			for k, v := range x {
				gw[k] -= float64(sg.P.C * y * v)
			}
			gb -= sg.P.C * y
		}
	}
	next := s
	next.T++
	next.W = make([]float64, len(s.W))
	for k, w := range s.W {
		next.W[k] = w - float64(eta*gw[k])
	}
	next.B = s.B - float64(eta*gb)
	next.Objective, next.Violators = sg.objective(next.W, next.B)
	if math.IsNaN(next.Objective) || math.IsInf(next.Objective, 0) {
		s.Status = algos.Diverged
		return s
	}
	next.Best = math.Min(s.Best, next.Objective)
	if next.T >= sg.P.T {
		next.Status = algos.IterationLimit
	}
	return next
}
