package demo

import (
	"context"
	"errors"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
)

// countingMethod counts its steps and calls cancel at step cancelAt of
// the count (0: never): a stepper whose client leaves mid-run.
type countingMethod struct {
	steps    *int
	cancelAt int
	cancel   context.CancelFunc
}

type countState struct{ T int }

func (m countingMethod) Step(s countState) countState {
	*m.steps++
	if *m.steps == m.cancelAt {
		m.cancel()
	}
	return countState{s.T + 1}
}

func (countingMethod) Status(countState) algos.Status { return algos.Running }

// TestKeptStopsWhenClientLeaves: a run the kit extends, replays from a
// checkpoint or fills with scalars stops within one step of its context
// ending, however the checkpoints are spaced (32 steps, or 200 for large
// states) and whether a cache keeps the run or not. Before issue 28 the
// look at ctx came every 256 steps of one chunk of every steps, which no
// chunk reached: a softmax plot of 20000 steps abandoned after 0.2 s
// still used 1.5 s of CPU.
func TestKeptStopsWhenClientLeaves(t *testing.T) {
	const bigState = 200 * keptMarkBytes / MaxStep // KeptEvery 200
	for _, c := range []struct {
		name       string
		cache      bool
		stateBytes int64
		warm       int  // steps kept before the request (with scalars if want)
		warmWant   bool // the warm-up kept the scalars
		k          int  // the request's step
		want       bool // the request wants the scalars
		cancelAt   int  // cancel at this step of the request's
	}{
		{"new run, no cache", false, 8, 0, false, MaxStep, true, 1000},
		{"new run, no cache, no scalars", false, 8, 0, false, MaxStep, false, 1000},
		{"new run, cached", true, 8, 0, false, MaxStep, true, 5},
		{"extension of a kept run", true, 8, 3000, true, MaxStep, true, 77},
		{"large states", true, bigState, 0, false, MaxStep, false, 450},
		{"from a checkpoint", true, bigState, 2000, false, 1999, false, 3},
		{"scalars a plot skipped", true, bigState, 5000, false, 5000, true, 1234},
	} {
		t.Run(c.name, func(t *testing.T) {
			var cache *Cache
			if c.cache {
				cache = NewCache(0)
			}
			key := CacheKey{9}
			sc := func(s countState, v []float64) { v[0] = float64(s.T) }
			steps := 0
			m := countingMethod{steps: &steps}
			if c.warm > 0 {
				if _, _, _, err := RunKept(context.Background(), cache, key, m, countState{}, c.warm, c.stateBytes, 1, sc, c.warmWant); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			steps = 0
			m = countingMethod{steps: &steps, cancelAt: c.cancelAt, cancel: cancel}
			_, _, _, err := RunKept(ctx, cache, key, m, countState{}, c.k, c.stateBytes, 1, sc, c.want)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("RunKept to %d cancelled at step %d: err = %v, want context.Canceled", c.k, c.cancelAt, err)
			}
			if after := steps - c.cancelAt; after > 1 {
				t.Errorf("RunKept to %d took %d steps after its context ended at step %d, want ≤ 1", c.k, after, c.cancelAt)
			}
			if c.cache {
				// What the cancelled request left is still the run.
				checkKept(t, cache, key, countingMethod{steps: new(int)}, countState{}, []int{c.k, 10, c.cancelAt}, c.stateBytes, 1, sc)
			}
		})
	}
}
