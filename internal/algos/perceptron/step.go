package perceptron

import (
	"hash/fnv"
	"math"
	"slices"

	"github.com/margin-edu/margin/internal/algos"
)

// Step examines the next point of the current epoch and returns the new
// state. It updates every task whose model scores the point at or below
// the margin: w ← w + η y x, b ← b + η y (and the averaging sums). At the
// end of an epoch it sets Status when the run is over. A terminal state is
// returned unchanged. s is not modified.
func (pr *Problem) Step(s State) State {
	if s.Status.Done() {
		return s
	}
	next := s
	next.Models = make([]Model, len(s.Models))
	for k, m := range s.Models {
		next.Models[k] = m.clone()
	}
	pr.advance(&next)
	next.Event.Before = s.Models
	return next
}

// advance is Step in place: it writes the models of s. Run uses it so
// that a long run on wide data does not copy w at every step.
func (pr *Problem) advance(s *State) {
	i := s.order[s.Pos]
	x := pr.X[i]
	s.T++
	s.Pos++
	s.Event = Event{
		I:       i,
		Updated: make([]bool, len(s.Models)),
		Seen:    make([]bool, len(s.Models)),
		Margin:  make([]float64, len(s.Models)),
	}
	for k := range s.Models {
		y, ok := pr.Tasks[k].Label(pr.Y[i])
		if !ok {
			continue
		}
		m := &s.Models[k]
		marg := y * Score(m.W, m.B, x)
		s.Event.Seen[k], s.Event.Margin[k] = true, marg
		if marg <= pr.P.Margin {
			pr.update(m, x, y)
			s.Event.Updated[k] = true
			s.Mistakes++
			s.EpochMistakes++
		}
		m.C++
	}
	if s.Pos == len(s.order) {
		pr.endEpoch(s)
	}
}

// update applies w ← w + η y x, b ← b + η y and the averaging sums
// u ← u + η y c x, β ← β + η y c to m in place.
func (pr *Problem) update(m *Model, x []float64, y float64) {
	eta := pr.P.Eta
	for j := range m.W {
		m.W[j] += eta * y * x[j]
		m.U[j] += eta * y * m.C * x[j]
	}
	m.B += eta * y
	m.Beta += eta * y * m.C
}

func (m Model) clone() Model {
	m.W = slices.Clone(m.W)
	m.U = slices.Clone(m.U)
	return m
}

// endEpoch closes an epoch: converged if it made no update, cycled if the
// models repeat an earlier epoch start, stopped at the epoch limit, or else
// ready for the next epoch.
func (pr *Problem) endEpoch(s *State) {
	s.Epoch++
	switch {
	case s.EpochMistakes == 0:
		s.Status = algos.Converged
	case s.hist.contains(s.Models):
		s.Status = algos.CycleDetected
	case s.Epoch >= pr.P.MaxEpochs:
		s.Status = algos.IterationLimit
	default:
		s.hist = s.hist.push(s.Epoch, s.Models)
		s.order = pr.order(s.Epoch)
		s.Pos = 0
		s.EpochMistakes = 0
	}
}

// Score returns w·x + b.
func Score(w []float64, b float64, x []float64) float64 {
	s := b
	for j, v := range w {
		s += v * x[j]
	}
	return s
}

// epochStart is an immutable list of the models at the start of each
// epoch, newest first, shared between states.
type epochStart struct {
	epoch int
	sum   uint64
	key   []float64
	next  *epochStart
}

func (h *epochStart) push(epoch int, ms []Model) *epochStart {
	key := modelKey(ms)
	return &epochStart{epoch: epoch, sum: hashKey(key), key: key, next: h}
}

func (h *epochStart) contains(ms []Model) bool {
	key := modelKey(ms)
	sum := hashKey(key)
	for e := h; e != nil; e = e.next {
		if e.sum == sum && equal(e.key, key) {
			return true
		}
	}
	return false
}

// modelKey lists every w and b; only they decide the future of the run.
func modelKey(ms []Model) []float64 {
	var key []float64
	for _, m := range ms {
		key = append(key, m.W...)
		key = append(key, m.B)
	}
	return key
}

func hashKey(key []float64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for _, v := range key {
		bits := math.Float64bits(v + 0) // +0 folds −0 into 0
		for k := range b {
			b[k] = byte(bits >> (8 * k))
		}
		h.Write(b[:])
	}
	return h.Sum64()
}

func equal(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
