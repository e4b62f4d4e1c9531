package perceptron

import (
	"slices"

	"github.com/margin-edu/margin/internal/algos"
)

// Trajectory returns the states 0, 1, …, k of the run (state 0 is Init's),
// or fewer when the run ends before step k. It is how a demo shows step k
// and how it draws the history up to it.
func Trajectory(d Data, p Params, k int) (*Problem, []State, error) {
	pr, s, err := Init(d, p)
	if err != nil {
		return nil, nil, err
	}
	states := []State{s}
	for len(states) <= k && !s.Status.Done() {
		s = pr.Step(s)
		states = append(states, s)
	}
	return pr, states, nil
}

// Run trains until the run stops and returns the final state. When observe
// is not nil it is called with every state after the initial one, in
// order. Run updates one set of models and events in place, so a state
// passed to observe is valid only during the call (copy what you keep),
// and its Event.Before is nil; an error from observe stops the run.
func Run(d Data, p Params, observe func(State) error) (*Problem, State, error) {
	pr, s, err := Init(d, p)
	if err != nil {
		return nil, State{}, err
	}
	for !s.Status.Done() {
		pr.advance(&s, true) // s is Init's, and no one else's
		if observe != nil {
			if err := observe(s); err != nil {
				return pr, s, err
			}
		}
	}
	return pr, s, nil
}

// Classifier returns the weights and bias task k uses to predict in state
// s: the current ones, or the averaged ones when Params.Average is set.
func (pr *Problem) Classifier(s State, k int) ([]float64, float64) {
	m := s.Models[k]
	if pr.P.Average {
		return m.Averaged()
	}
	return m.W, m.B
}

// Binary reports whether pr is one two-class problem with labels ±1, as
// opposed to a multiclass reduction.
func (pr *Problem) Binary() bool {
	return len(pr.Tasks) == 1 && pr.Tasks[0] == (Task{Pos: 1, Neg: -1})
}

// UpdatesAreMistakes reports whether every update is a mistake, as in
// Algorithm 1. With a margin γ > 0 a correctly classified point inside the
// band also updates, and with several perceptrons one point can update
// several of them, so there the honest word is "updates".
func (pr *Problem) UpdatesAreMistakes() bool {
	return pr.Binary() && pr.P.Margin == 0
}

// Score returns w·x + b of task k's classifier in state s (the averaged
// one when Params.Average is set), bit for bit Score(pr.Classifier(s, k))
// but without allocating, so a demo can score every point of every state.
func (pr *Problem) Score(s State, k int, x []float64) float64 {
	m := s.Models[k]
	if pr.P.Average {
		return m.AveragedScore(x)
	}
	return Score(m.W, m.B, x)
}

// Predict returns the predicted class of x in state s. For a two-class
// problem it is sgn(w·x + b) with sgn(0) = −1 (Definition 1.2.4); with more
// classes it is the one-vs-all or one-vs-one rule of Params.Multiclass.
// It does not allocate.
func (pr *Problem) Predict(s State, x []float64) int {
	if pr.Binary() {
		if pr.Score(s, 0, x) > 0 {
			return 1
		}
		return -1
	}
	// Classes are 0…K−1 here (validLabels), so a slice indexes them.
	var votes [MaxClasses]float64
	for k, t := range pr.Tasks {
		sc := pr.Score(s, k, x)
		votes[t.Pos] += sc
		if !t.Rest {
			votes[t.Neg] -= sc
		}
	}
	best := pr.Classes[0]
	for _, c := range pr.Classes[1:] {
		if votes[c] > votes[best] {
			best = c
		}
	}
	return best
}

// TrainingError returns the fraction of training points that Predict gets
// wrong in state s. It does not allocate.
func (pr *Problem) TrainingError(s State) float64 {
	wrong := 0
	for i, x := range pr.X {
		if pr.Predict(s, x) != pr.Y[i] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(pr.X))
}

// CurrentTrainingError is TrainingError of the current weights w, b of s,
// whether or not Params.Average makes the averaged ones the prediction.
func (pr *Problem) CurrentTrainingError(s State) float64 {
	q := *pr
	q.P.Average = false
	return q.TrainingError(s)
}

// Status reports where s stands; with Step, Clone and Advance it makes
// *Problem an algos.Method and algos.InPlace for algos.Replay.
func (pr *Problem) Status(s State) algos.Status { return s.Status }

// Clone returns a deep copy of s that Advance may then change in place:
// the models, the Event slices and a random visiting order are copied
// (a cyclic order is shared; nothing writes it).
func (pr *Problem) Clone(s State) State {
	c := s
	c.Models = make([]Model, len(s.Models))
	for k, m := range s.Models {
		c.Models[k] = m.clone()
	}
	c.Event.Updated = slices.Clone(s.Event.Updated)
	c.Event.Seen = slices.Clone(s.Event.Seen)
	c.Event.Margin = slices.Clone(s.Event.Margin)
	if pr.P.Order == Random {
		c.order = slices.Clone(s.order)
	}
	return c
}

// Advance is Step in place on a state from Clone: it writes s's models
// and Event slices, and reshuffles its random order each epoch,
// allocating nothing per step once they exist; it leaves Event.Before nil.
func (pr *Problem) Advance(s *State) {
	if s.Status.Done() {
		return
	}
	pr.advance(s, true)
}
