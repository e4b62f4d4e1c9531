package perceptron

import (
	"slices"

	"github.com/margin-edu/margin/internal/algos"
)

// Step examines the next point of the current epoch and returns the new
// state. It updates every task whose model scores the point at or below
// the margin: w ← w + η y x, b ← b + η y (and the averaging sums). At the
// end of an epoch it sets Status when the run is over. A terminal state is
// returned unchanged. s is not modified, and the state returned shares no
// slice that a later Step or Advance writes.
func (pr *Problem) Step(s State) State {
	if s.Status.Done() {
		return s
	}
	next := s
	next.Models = make([]Model, len(s.Models))
	for k, m := range s.Models {
		next.Models[k] = m.clone()
	}
	next.Event = Event{} // fresh slices: s keeps its own
	pr.advance(&next, false)
	next.Event.Before = s.Models
	return next
}

// advance is Step in place: it writes the models of s and reuses the
// Event slices of s when they are large enough, so that Run and Advance
// allocate nothing per step. When own is set, s alone holds its visiting
// order, and a new random epoch reshuffles it in place. It leaves
// Event.Before nil.
func (pr *Problem) advance(s *State, own bool) {
	i := s.order[s.Pos]
	s.T++
	s.Pos++
	nt := len(s.Models)
	ev := &s.Event
	ev.I, ev.Before = i, nil
	ev.Updated = reuse(ev.Updated, nt)
	ev.Seen = reuse(ev.Seen, nt)
	ev.Margin = reuse(ev.Margin, nt)
	for k := range s.Models {
		seen, marg, updated := pr.visit(&s.Models[k], k, i)
		ev.Seen[k], ev.Margin[k], ev.Updated[k] = seen, marg, updated
		if updated {
			s.Mistakes++
			s.EpochMistakes++
			if marg > 0 {
				s.Violations++
			}
		}
	}
	if s.Pos == len(s.order) {
		pr.endEpoch(s, own)
	}
}

// reuse returns s cleared to length n, allocating only when it is too small.
func reuse[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// visit shows point i to task k's model m: it reports whether the task
// includes the point and, if so, the margin y(w·x + b) before the step and
// whether the model was updated.
func (pr *Problem) visit(m *Model, k, i int) (seen bool, marg float64, updated bool) {
	y, ok := pr.Tasks[k].Label(pr.Y[i])
	if !ok {
		return false, 0, false
	}
	x := pr.X[i]
	marg = y * Score(m.W, m.B, x)
	if marg <= pr.P.Margin {
		pr.update(m, x, y)
		updated = true
	}
	m.C++
	return true, marg, updated
}

// update applies w ← w + η y x, b ← b + η y and the averaging sums
// u ← u + η y c x, β ← β + η y c to m in place.
//
// Every product is rounded by an explicit float64 conversion before it is
// added. Without it the compiler may fuse a·b + c into one FMA instruction
// with a single rounding (it does on arm64, ppc64, s390x and amd64 with
// GOAMD64=v3), and the same URL would then draw a different run on another
// machine; with it every target rounds as amd64 always has.
func (pr *Problem) update(m *Model, x []float64, y float64) {
	ey := float64(pr.P.Eta * y) // η y
	eyc := float64(ey * m.C)    // η y c
	for j := range m.W {
		m.W[j] += float64(ey * x[j])
		m.U[j] += float64(eyc * x[j])
	}
	m.B += ey
	m.Beta += eyc
}

func (m Model) clone() Model {
	m.W = slices.Clone(m.W)
	m.U = slices.Clone(m.U)
	return m
}

// endEpoch closes an epoch: converged if it made no update, cycled if the
// models repeat an earlier epoch start, stopped at the epoch limit, or else
// ready for the next epoch. When the last allowed epoch both makes updates
// and closes a cycle, the status is CycleDetected: the cycle is a finding
// about the data (they are not separable), the limit only about the budget.
// With FixedEpochs only the limit ends the run.
func (pr *Problem) endEpoch(s *State, own bool) {
	s.Epoch++
	last := s.Epoch >= pr.P.MaxEpochs
	switch {
	case pr.P.FixedEpochs:
		if last && s.EpochMistakes == 0 {
			s.Status = algos.Converged
		} else if last {
			s.Status = algos.IterationLimit
		}
	case s.EpochMistakes == 0:
		s.Status = algos.Converged
	case pr.cycles(s.starts, s.Epoch, s.Models):
		s.Status = algos.CycleDetected
	case last:
		s.Status = algos.IterationLimit
	}
	if s.Status.Done() {
		return
	}
	if own && pr.P.Order == Random {
		s.order = pr.shuffle(s.order, s.Epoch)
	} else {
		s.order = pr.order(s.Epoch)
	}
	s.Pos, s.EpochMistakes = 0, 0
}

// Score returns w·x + b. Each product is rounded before it is added so
// that no machine fuses the sum into FMAs (see update).
func Score(w []float64, b float64, x []float64) float64 {
	s := b
	for j, v := range w {
		s += float64(v * x[j])
	}
	return s
}

// AveragedScore returns the score of x under the averaged classifier
// (w − u/c, b − β/c), bit for bit Score(m.Averaged()) but without
// allocating the averaged vector.
func (m Model) AveragedScore(x []float64) float64 {
	s := m.B - m.Beta/m.C
	for j, w := range m.W {
		s += float64((w - m.U[j]/m.C) * x[j])
	}
	return s
}
