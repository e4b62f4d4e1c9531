package perceptron

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"sync"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/demo"
)

// The demo keeps its run between requests (demo.RunKept), so a student
// stepping through it pays a few iterations a step, not a replay from 0.
// The run keeps one scalar of every state, its update count, for the
// history's top panel (a state's t is its step). The training error, the
// bottom panel, costs a pass over the points, so only the states a history
// samples get one, and they are kept apart (errChunk) as they are
// computed: stepping on computes one more, and a deep link to a new run
// computes the ≤ 2000 its history samples, as a replay did, not one a
// step.

// keptPerceptron returns state k of pr's run from s0 (or its last) and
// its step from the run the course's cache keeps, with the update count
// of each state 0…step when recorded: the one way the demo and its
// questions reach a step.
func keptPerceptron(ctx context.Context, in demo.Input, pr *perceptron.Problem, s0 perceptron.State, k int, recorded bool) (perceptron.State, int, []float64, error) {
	return demo.RunKept(ctx, in.Cache, perceptronRunKey(pr), pr, s0, k, perceptronStateBytes(pr), 1,
		func(s perceptron.State, v []float64) { v[0] = float64(s.Mistakes) }, recorded)
}

// perceptronRunKey names a run by everything it and what is kept of it
// depend on: the points, their labels and the parameters (the seed only
// for a random order, which alone reads it; Average for the error).
func perceptronRunKey(pr *perceptron.Problem) demo.CacheKey {
	y := make([]float64, len(pr.Y))
	for i, c := range pr.Y {
		y[i] = float64(c)
	}
	p := pr.P
	seed := 0.0
	if p.Order == perceptron.Random {
		seed = float64(p.Seed)
	}
	return demo.ProblemKey("perceptron-run", pr.X, y, float64(p.Order), seed, float64(p.MaxEpochs), p.Eta, p.Margin,
		demo.B2f(p.Average), float64(p.Multiclass), demo.B2f(p.FixedEpochs))
}

// perceptronStateBytes is the memory of a kept state of pr: its models
// (each a 72-byte Model and w and u), the models before its step that its
// Event keeps (as many again), the Event's per-task slices, a random
// order's n indices, and its share of the run's index of epoch starts
// (about 48 bytes an epoch of n steps, and one model-sized scratch),
// spread over the checkpoints a run to MaxStep keeps.
func perceptronStateBytes(pr *perceptron.Problem) int64 {
	n, d, tasks := int64(len(pr.X)), int64(len(pr.X[0])), int64(len(pr.Tasks))
	model := 72 + 16*d
	b := 160 + 2*tasks*model + 3*24 + 10*tasks
	if pr.P.Order == perceptron.Random {
		b += 8 * n
	}
	epochs := min(int64(pr.P.MaxEpochs), int64(demo.MaxStep)/n+1)
	index := 48*epochs + 8*tasks*(d+1)
	marks := int64(demo.MaxStep/demo.KeptEvery(b) + 1)
	return b + (index+marks-1)/marks
}

// errChunkLen is the steps an errChunk covers.
const errChunkLen = 1024

// errChunk is the training error (in %) of the states of a kept run from
// step j·errChunkLen on, NaN for those not computed yet, used under its
// lock.
type errChunk struct {
	mu sync.Mutex
	e  [errChunkLen]float64
}

// errChunkOf is chunk j of the run under key, from the cache (new and
// empty when missing).
func errChunkOf(ctx context.Context, in demo.Input, key demo.CacheKey, j int) (*errChunk, error) {
	b := binary.LittleEndian.AppendUint64(append([]byte("perceptron-errors\x00"), key[:]...), uint64(j))
	return demo.Memoise(ctx, in.Cache, sha256.Sum256(b), func(*errChunk) int64 { return 64 + 8*errChunkLen },
		func(context.Context) (*errChunk, error) {
			c := &errChunk{}
			for i := range c.e {
				c.e[i] = math.NaN()
			}
			return c, nil
		})
}

// keptErrors returns the training error (in %) of the states at steps
// (ascending, none past the run's last) of pr's run from s0: those the
// cache holds, and the others computed in one pass from the state at the
// first of them, then kept.
func keptErrors(ctx context.Context, in demo.Input, pr *perceptron.Problem, s0 perceptron.State, steps []int) ([]float64, error) {
	key := perceptronRunKey(pr)
	out := make([]float64, len(steps))
	chunks := map[int]*errChunk{}
	var missing []int // indices into steps
	for i := 0; i < len(steps); {
		j := steps[i] / errChunkLen
		c, err := errChunkOf(ctx, in, key, j)
		if err != nil {
			return nil, err
		}
		chunks[j] = c
		c.mu.Lock()
		for ; i < len(steps) && steps[i]/errChunkLen == j; i++ {
			if out[i] = c.e[steps[i]%errChunkLen]; math.IsNaN(out[i]) {
				missing = append(missing, i)
			}
		}
		c.mu.Unlock()
	}
	if len(missing) == 0 {
		return out, nil
	}
	first, last := steps[missing[0]], steps[missing[len(missing)-1]]
	s, _, _, err := keptPerceptron(ctx, in, pr, s0, first, false)
	if err != nil {
		return nil, err
	}
	// A step that updates nothing leaves every task's (w, b), so the
	// error of the classifier Algorithm 1 predicts with is that of the
	// last state with as many updates: within one run the count names
	// the weights. Averaged, the counters move the classifier each step.
	lastM, lastErr, m := -1, 0.0, 0
	rec := algos.RecorderFunc[perceptron.State](func(i int, s perceptron.State) error {
		if i%256 == 255 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if m == len(missing) || steps[missing[m]] != first+i {
			return nil
		}
		if pr.P.Average || s.Mistakes != lastM {
			lastM, lastErr = s.Mistakes, 100*pr.TrainingError(s)
		}
		at := steps[missing[m]]
		c := chunks[at/errChunkLen]
		c.mu.Lock()
		c.e[at%errChunkLen] = lastErr
		c.mu.Unlock()
		out[missing[m]] = lastErr
		m++
		return nil
	})
	if _, _, err := algos.Replay(pr, s, last-first, rec); err != nil {
		return nil, err
	}
	return out, nil
}
