package gd

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/margin-edu/margin/internal/algos"
)

// SGD is stochastic gradient descent on an average over data rows (notes
// 000 §1.8, CIS 5200): iteration k samples a mini-batch of Batch distinct
// rows and steps x ← x − η_k·ĝ, ĝ the gradient with the data term
// averaged over the batch only (F.BatchGrad). Batch = 1 is SGD, 1 < Batch
// < n mini-batch descent and Batch = n full-batch gradient descent, all on
// this one code path: with Batch = n every row is taken in order and the
// run equals GD's bit for bit.
//
// The batches come from one generator, rand.New(rand.NewPCG(Seed, 0)),
// carried in the state: iteration k draws Batch numbers by Floyd's
// algorithm (for j = n−B, …, n−1: t = IntN(j+1); take t, or j if t is
// taken already) and nothing else draws, so the same Seed gives the same
// batches bit for bit and stepping from any state continues the sequence.
// Batch = n draws nothing. Set the fields, then call Init.
type SGD struct {
	F        Sum
	Eta      float64 // η₀ > 0
	Schedule Schedule
	Batch    int // 1 ≤ Batch ≤ n
	Seed     uint64
	Iters    int     // ≥ 1
	Tol      float64 // ≥ 0: Converged once the full ‖∇f‖ < Tol (0: never)
}

// Init validates g and x0 as GD.Init does, and Batch, and returns state 0.
func (g *SGD) Init(x0 []float64) (State, error) {
	if g.F == nil {
		return State{}, fmt.Errorf("%w: no objective F", ErrParameters)
	}
	if err := checkRun(g.Iters, g.Tol); err != nil {
		return State{}, err
	}
	if err := checkEta(g.Eta, g.Schedule, g.Iters); err != nil {
		return State{}, err
	}
	if n := g.F.N(); g.Batch < 1 || g.Batch > n {
		return State{}, fmt.Errorf("%w: the batch size is %d; give 1 to n = %d", ErrParameters, g.Batch, n)
	}
	s, err := start(g.F, x0, g.Tol, g.Iters)
	s.rng = *rand.NewPCG(g.Seed, 0)
	return s, err
}

// Status returns s.Status.
func (g *SGD) Status(s State) algos.Status { return s.Status }

// Step returns state K+1 (s itself once s is done); s is not modified.
func (g *SGD) Step(s State) State {
	if s.Status.Done() {
		return s
	}
	next := g.Clone(s)
	g.Advance(&next)
	return next
}

// Clone returns a deep copy of s for Advance.
func (g *SGD) Clone(s State) State { return clone(s) }

// Advance is Step in place on a state from Clone.
func (g *SGD) Advance(s *State) {
	if s.Status.Done() {
		return
	}
	rng := s.rng
	batch := sample(rand.New(&rng), g.F.N(), g.Batch, grow(s.spareB, g.Batch))
	bg := grow(s.spareG, len(s.X))
	g.F.BatchGrad(bg, s.X, batch)
	next := grow(s.spareX, len(s.X))
	eta := g.Schedule.Eta(g.Eta, s.K+1, g.Iters)
	descend(next, s.X, bg, eta)
	s.spareG = bg
	commit(g.F, s, next, eta, g.Tol, g.Iters)
	if s.Status == algos.Diverged {
		s.spareB = batch
		return
	}
	s.rng = rng
	s.Batch, s.spareB = batch, s.Batch
}

// sample fills dst (length b) with b distinct indices of 0, …, n−1 in
// ascending order, by Floyd's algorithm; b = n takes them all without a draw.
func sample(r *rand.Rand, n, b int, dst []int) []int {
	if b == n {
		for i := range dst {
			dst[i] = i
		}
		return dst
	}
	taken := make([]uint64, (n+63)/64)
	for j := n - b; j < n; j++ {
		t := r.IntN(j + 1)
		if taken[t/64]&(1<<(t%64)) != 0 {
			t = j
		}
		taken[t/64] |= 1 << (t % 64)
	}
	k := 0
	for w, word := range taken {
		for word != 0 {
			dst[k] = w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			k++
		}
	}
	return dst
}
