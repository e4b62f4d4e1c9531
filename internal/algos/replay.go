package algos

// Method is a stepper Replay can drive, after gonum/optimize's local
// methods: Step returns the state after one more iteration without
// touching its argument, and Status says whether a state ends the run.
// S is a value type whose slices may be shared between states.
type Method[S any] interface {
	Step(S) S
	Status(S) Status
}

// InPlace is an optional fast path of a Method for long replays: Clone
// returns a deep copy of a state, and Advance steps that private copy in
// place, reusing its storage. Advance(&s) must leave s equal to what
// Step(s) would return, except for fields that describe the step before
// (such as a copy of the previous model), which it may leave empty.
type InPlace[S any] interface {
	Clone(S) S
	Advance(*S)
}

// Recorder observes a replay, after optimize.Recorder: Record is called
// with state 0 and then with each state reached, in order. It must not
// modify the state or keep its slices (the state may be reused by the
// next step); it keeps scalars. An error stops the replay.
type Recorder[S any] interface {
	Record(k int, s S) error
}

// RecorderFunc adapts a function to Recorder.
type RecorderFunc[S any] func(k int, s S) error

// Record calls f.
func (f RecorderFunc[S]) Record(k int, s S) error { return f(k, s) }

// Replay steps m from s0 until state k or until the run stops, whichever
// comes first, and returns the last state and its index (≤ k). Only the
// current state is kept, so memory does not grow with k. When m is also
// InPlace, every step but the last runs in place on a private copy; the
// last one is a real Step, so the state returned is complete. When the
// run stops before k in place, Replay steps again from s0 to that state,
// without recorders, to end on a real Step: a run to its end (step=end)
// costs two passes. recs see every state from 0 to the one returned, once.
// m must be deterministic: stepping from s0 twice gives the same states.
func Replay[S any](m Method[S], s0 S, k int, recs ...Recorder[S]) (S, int, error) {
	s := s0
	if err := record(recs, 0, s); err != nil {
		return s, 0, err
	}
	i := 0
	ip, fast := m.(InPlace[S])
	if fast && k > 1 && !m.Status(s).Done() {
		s = ip.Clone(s)
		for i < k-1 && !m.Status(s).Done() {
			ip.Advance(&s)
			i++
			if err := record(recs, i, s); err != nil {
				return s, i, err
			}
		}
		if m.Status(s).Done() {
			// Advance may leave out the step before (Event.Before of a
			// perceptron state), which a panel writes out.
			s, _, err := Replay(m, s0, i)
			return s, i, err
		}
	}
	for i < k && !m.Status(s).Done() {
		s = m.Step(s)
		i++
		if err := record(recs, i, s); err != nil {
			return s, i, err
		}
	}
	return s, i, nil
}

func record[S any](recs []Recorder[S], k int, s S) error {
	for _, r := range recs {
		if err := r.Record(k, s); err != nil {
			return err
		}
	}
	return nil
}
