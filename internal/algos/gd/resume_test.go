package gd

import (
	"slices"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
)

// TestResumeLeavesStateAlone: a state a replay returned can be kept and
// resumed from any number of times (demo.RunKept keeps checkpoints so):
// resuming writes none of its slices, spares included, and reaches the
// state a replay from 0 reaches, bit for bit, the SGD draws included.
func TestResumeLeavesStateAlone(t *testing.T) {
	x, y := blobs(20, 1, 5)
	f := mustLogistic(t, x, y, 0.1)
	for _, m := range []interface {
		algos.Method[State]
		Init([]float64) (State, error)
	}{
		&GD{F: f, Eta: 0.7, Iters: 40},
		&GD{F: f, Method: Newton, Iters: 40},
		&SGD{F: f, Eta: 0.7, Batch: 4, Seed: 9, Iters: 40},
	} {
		s0, err := m.Init([]float64{1, 2, 3})
		if err != nil {
			t.Fatal(err)
		}
		mark, _, err := algos.Replay(m, s0, 5)
		if err != nil {
			t.Fatal(err)
		}
		before := [][]float64{slices.Clone(mark.X), slices.Clone(mark.Grad), slices.Clone(mark.spareX), slices.Clone(mark.spareG)}
		batches := [][]int{slices.Clone(mark.Batch), slices.Clone(mark.spareB)}
		for _, k := range []int{1, 2, 10, 1} {
			got, _, err := algos.Replay(m, mark, k)
			want, _, err0 := algos.Replay(m, s0, 5+k)
			if err != nil || err0 != nil || !sameStates([]State{got}, []State{want}) || got.rng != want.rng {
				t.Errorf("%T: %d steps on from state 5 differ from a replay to %d", m, k, 5+k)
			}
		}
		m.Step(mark)
		after := [][]float64{mark.X, mark.Grad, mark.spareX, mark.spareG}
		for i := range before {
			if !slices.Equal(before[i], after[i]) {
				t.Errorf("%T: resuming from state 5 wrote into its slice %d", m, i)
			}
		}
		if !slices.Equal(batches[0], mark.Batch) || !slices.Equal(batches[1], mark.spareB) {
			t.Errorf("%T: resuming from state 5 wrote into its batch", m)
		}
	}
}
