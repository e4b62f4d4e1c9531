package primal

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
)

// PegasosParams are the inputs of 001's SGD procedure besides the data.
type PegasosParams struct {
	Lambda float64 // λ > 0, the weight of ‖θ‖² in the objective
	T      int     // iterations, at least 1
	Seed   uint64  // seeds the sampling
}

// Pegasos is 001's "procedure for SGD on SVM" (Pegasos without the
// projection step) on validated data: it minimises
//
//	λ‖θ‖² + (1/n) Σᵢ max(0, 1 − yᵢ θ·X̃ᵢ),  X̃ᵢ = (xᵢ, 1),
//
// where the last entry of θ is the bias b, regularised with the rest. At
// iteration t = 1, …, T it sets W_t = θ_t/(2λt), samples i uniformly,
// adds yᵢX̃ᵢ to θ when yᵢ W_t·X̃ᵢ < 1, and its answer is the average of
// W_1, …, W_T.
//
// The indices come from one generator, rand.New(rand.NewPCG(Seed, 0)):
// iteration t draws i with IntN(n) and nothing else draws from it, so the
// t-th call of IntN picks the t-th point. The state carries the
// generator, so stepping from any state continues the same sequence.
type Pegasos struct {
	X [][]float64
	Y []float64
	P PegasosParams

	aug [][]float64 // X̃ᵢ = (xᵢ, 1)
}

// PegasosState is the run after T iterations. Its slices are read-only.
type PegasosState struct {
	T        int       // iterations done
	I        int       // the index sampled at iteration T; −1 in state 0
	Violated bool      // whether iteration T updated θ (yᵢ W_T·X̃ᵢ < 1)
	Theta    []float64 // θ_{T+1}, d+1 entries
	W        []float64 // W_T = θ_T/(2λT), the model iteration T scored with; 0 in state 0
	Avg      []float64 // the average of W_1, …, W_T; its last entry is b
	Status   algos.Status

	sum []float64 // W_1 + … + W_T, in order, of which Avg is sum/T
	rng rand.PCG
}

// NewPegasos validates the data (as svm.New does) and p and returns the
// trainer and state 0, with θ = W = Avg = 0.
func NewPegasos(x [][]float64, y []int, p PegasosParams) (*Pegasos, PegasosState, error) {
	if err := svm.ValidateData(x, y); err != nil {
		return nil, PegasosState{}, err
	}
	switch {
	case !(p.Lambda > 0) || math.IsInf(p.Lambda, 0):
		return nil, PegasosState{}, fmt.Errorf("%w: λ is %v; it must be a finite number > 0", svm.ErrParameters, p.Lambda)
	case p.T < 1:
		return nil, PegasosState{}, fmt.Errorf("%w: T is %d; it must be at least 1", svm.ErrParameters, p.T)
	}
	pg := &Pegasos{X: x, Y: labels(y), P: p, aug: augment(x)}
	d := len(x[0]) + 1
	s := PegasosState{
		I:     -1,
		Theta: make([]float64, d),
		W:     make([]float64, d),
		Avg:   make([]float64, d),
		sum:   make([]float64, d),
		rng:   *rand.NewPCG(p.Seed, 0),
	}
	return pg, s, nil
}

// augment returns the rows (xᵢ, 1).
func augment(x [][]float64) [][]float64 {
	aug := make([][]float64, len(x))
	for i, row := range x {
		aug[i] = append(append(make([]float64, 0, len(row)+1), row...), 1)
	}
	return aug
}

// dot returns ⟨x, z⟩. Each product is rounded by an explicit conversion
// before it is added, so that no compiler fuses the sum into FMA
// instructions and the same data give the same bits on every machine
// (as perceptron.Score does).
func dot(x, z []float64) float64 {
	var s float64
	for j, v := range x {
		s += float64(v * z[j])
	}
	return s
}

// labels converts ±1 labels to float64.
func labels(y []int) []float64 {
	f := make([]float64, len(y))
	for i, c := range y {
		f[i] = float64(c)
	}
	return f
}

// Objective returns λ‖w‖² + (1/n) Σᵢ max(0, 1 − yᵢ w·X̃ᵢ) for a vector w of
// d+1 entries whose last is the bias.
func (pg *Pegasos) Objective(w []float64) float64 {
	var hinge float64
	for i, x := range pg.aug {
		hinge += math.Max(0, 1-pg.Y[i]*dot(w, x))
	}
	return float64(pg.P.Lambda*dot(w, w)) + hinge/float64(len(pg.aug))
}

// Status reports where s stands: Running, then IterationLimit once the T
// iterations are done. Pegasos has no convergence test; its answer is Avg
// after exactly T iterations.
func (pg *Pegasos) Status(s PegasosState) algos.Status { return s.Status }

// Clone returns a deep copy of s for Advance.
func (pg *Pegasos) Clone(s PegasosState) PegasosState {
	s.Theta = slices.Clone(s.Theta)
	s.W = slices.Clone(s.W)
	s.Avg = slices.Clone(s.Avg)
	s.sum = slices.Clone(s.sum)
	return s
}

// Step does iteration T+1 and returns the new state; s is not modified.
func (pg *Pegasos) Step(s PegasosState) PegasosState {
	if s.Status.Done() {
		return s
	}
	next := pg.Clone(s)
	pg.Advance(&next)
	return next
}

// Advance is Step in place on a state from Clone.
func (pg *Pegasos) Advance(s *PegasosState) {
	if s.Status.Done() {
		return
	}
	s.T++
	t := float64(s.T)
	for k, v := range s.Theta {
		s.W[k] = v / (2 * pg.P.Lambda * t)
	}
	s.I = rand.New(&s.rng).IntN(len(pg.aug))
	x, y := pg.aug[s.I], pg.Y[s.I]
	s.Violated = y*dot(s.W, x) < 1
	if s.Violated {
		for k, v := range x {
			s.Theta[k] += y * v
		}
	}
	for k, w := range s.W {
		s.sum[k] += w
		s.Avg[k] = s.sum[k] / t
	}
	if s.T >= pg.P.T {
		s.Status = algos.IterationLimit
	}
}
