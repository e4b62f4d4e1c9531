package perceptron

import (
	"hash/fnv"
	"math"

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
	i := s.order[s.Pos]
	x := pr.X[i]
	next := s
	next.T++
	next.Pos++
	next.Models = make([]Model, len(s.Models))
	next.Event = Event{
		I:       i,
		Updated: make([]bool, len(s.Models)),
		Seen:    make([]bool, len(s.Models)),
		Margin:  make([]float64, len(s.Models)),
		Before:  s.Models,
	}
	for k, m := range s.Models {
		y, ok := pr.Tasks[k].Label(pr.Y[i])
		if !ok {
			next.Models[k] = m
			continue
		}
		next.Event.Seen[k] = true
		next.Event.Margin[k] = y * Score(m.W, m.B, x)
		m, next.Event.Updated[k] = pr.update(m, x, y, next.Event.Margin[k])
		if next.Event.Updated[k] {
			next.Mistakes++
			next.EpochMistakes++
		}
		next.Models[k] = m
	}
	if next.Pos == len(next.order) {
		pr.endEpoch(&next)
	}
	return next
}

// update applies one perceptron step to m for the example (x, y) whose
// functional margin y(w·x+b) is marg, returning the new model and whether
// it changed. m's slices are copied, never written.
func (pr *Problem) update(m Model, x []float64, y, marg float64) (Model, bool) {
	mistake := marg <= pr.P.Margin
	if mistake {
		eta := pr.P.Eta
		w := make([]float64, len(m.W))
		u := make([]float64, len(m.U))
		for j := range w {
			w[j] = m.W[j] + eta*y*x[j]
			u[j] = m.U[j] + eta*y*m.C*x[j]
		}
		m.W, m.U = w, u
		m.B += eta * y
		m.Beta += eta * y * m.C
	}
	m.C++
	return m, mistake
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
