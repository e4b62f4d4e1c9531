package demo

import (
	"context"
	"sync"

	"github.com/margin-edu/margin/internal/algos"
)

// Kept runs: a demo whose Compute would replay its run from step 0 for
// every step a student asks for keeps the run in the course's Cache
// instead, as checkpoints (a copy of the state every `every` steps), the
// furthest state reached, and a few scalars of every state so far (what
// its history charts). State k then costs at most every − 1 steps from
// the checkpoint before it. The steppers are deterministic (their seeded
// generators live in their states), so a state resumed from a checkpoint
// is the one a replay from 0 reaches, to the last bit: a URL gives the
// same bytes whatever the cache holds.

// keptMarkBytes is what a run's checkpoints may take at MaxStep: a run of
// large states spaces them further apart than markEvery.
const keptMarkBytes = 2 << 20

// KeptEvery is the spacing of the checkpoints of a run whose states take
// stateBytes each: markEvery, or more when MaxStep/markEvery of them would
// take over 2 MiB (the SMO state of 500 points, 8 KB, is kept every 77
// steps).
func KeptEvery(stateBytes int64) int {
	every := markEvery
	if n := (int64(MaxStep)*stateBytes + keptMarkBytes - 1) / keptMarkBytes; n > int64(every) {
		every = int(n)
	}
	return every
}

// keptRun is a run kept between requests, used under its lock.
type keptRun[S any] struct {
	mu    sync.Mutex
	every int
	width int
	marks []S // marks[i] is state i·every
	last  S   // state end, where the run stopped if done
	end   int
	done  bool
	v     []float64 // width scalars of each of the states 0…vEnd
	vEnd  int       // −1 before any
}

// RunKept returns state k of m's run from start (or the last, if the run
// stops before k) and its step, from the run kept under key in cache,
// which it starts or extends as needed; with want, also width scalars of
// each state 0…step (state i's at v[i·width : (i+1)·width], as scalars
// wrote them), else v is nil. The scalars (what a history charts) are
// computed only for requests that want them, so a plot URL deep in a new
// run costs what a replay costs; a later request that wants them fills
// them in from the checkpoint before the first missing one. scalars must
// depend on its state alone. key must name everything the run depends on
// (the points, labels, method and its numbers), never the step or the
// view. stateBytes estimates one state's memory; the entry is charged for
// its checkpoints, its last state and its scalars (8 bytes each), so the
// cache's byte bound holds. The returned scalars never change: the caller
// may read them after others extend the run. A nil cache keeps nothing
// (every call replays from start). ctx ends a long extension early with
// its error.
func RunKept[S any](ctx context.Context, cache *Cache, key CacheKey, m algos.Method[S], start S, k int, stateBytes int64,
	width int, scalars func(S, []float64), want bool) (s S, step int, v []float64, err error) {
	r, err := Memoise(ctx, cache, key, func(*keptRun[S]) int64 { return 0 },
		func(context.Context) (*keptRun[S], error) {
			return &keptRun[S]{every: KeptEvery(stateBytes), width: width, vEnd: -1}, nil
		})
	if err != nil {
		return s, 0, nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, step, err = r.at(ctx, m, start, k, scalars, want)
	cache.recharge(key, r.bytes(stateBytes))
	if err != nil || !want {
		return s, step, nil, err
	}
	n := (step + 1) * width
	return s, step, r.v[:n:n], nil
}

// bytes is what the run holds.
func (r *keptRun[S]) bytes(stateBytes int64) int64 {
	return 160 + 8*int64(cap(r.v)) + stateBytes*int64(len(r.marks)+1)
}

// record returns a recorder of a replay from state base that appends the
// scalars of each state after vEnd (when want) and looks at ctx after
// every step: the replays run in chunks of every steps, so a look every
// so many steps of one chunk (256, before issue 28) was never reached by
// a chunk of 32, and a client that left still bought its whole run. One
// look is an atomic load, nothing beside a step of any demo (a softmax
// step of 500 points is ~50 µs), and a step is the unit the demos' work
// budgets count, so the run stops within one step of ctx ending.
func (r *keptRun[S]) record(ctx context.Context, base int, scalars func(S, []float64), want bool) algos.Recorder[S] {
	return algos.RecorderFunc[S](func(i int, s S) error {
		if i > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if !want || base+i <= r.vEnd {
			return nil
		}
		n := len(r.v)
		for range r.width {
			r.v = append(r.v, 0)
		}
		scalars(s, r.v[n:n+r.width])
		r.vEnd = base + i
		return nil
	})
}

// watch is a recorder that only looks at ctx after every step.
func watch[S any](ctx context.Context) algos.Recorder[S] {
	return algos.RecorderFunc[S](func(i int, _ S) error {
		if i > 0 {
			return ctx.Err()
		}
		return nil
	})
}

// at returns state k (or the last) and its step, extending the run as far
// as k first, and the scalars as far as the run when want.
func (r *keptRun[S]) at(ctx context.Context, m algos.Method[S], start S, k int, scalars func(S, []float64), want bool) (S, int, error) {
	if r.marks == nil {
		r.marks, r.last, r.done = []S{start}, start, m.Status(start).Done()
	}
	if want && r.vEnd < r.end {
		// Fill in the scalars a plot-only request skipped (all of them,
		// state 0's included, in a new run), from the checkpoint before
		// the first missing state.
		j := (r.vEnd + 1) / r.every
		base := j * r.every
		if _, _, err := algos.Replay(m, r.marks[j], r.end-base, r.record(ctx, base, scalars, want)); err != nil {
			r.v = r.v[:(r.vEnd+1)*r.width]
			var zero S
			return zero, 0, err
		}
	}
	for r.end < k && !r.done {
		want := want && r.vEnd == r.end
		want0 := r.vEnd
		stepTo := min(k, (r.end/r.every+1)*r.every) - r.end
		s, i, err := algos.Replay(m, r.last, stepTo, r.record(ctx, r.end, scalars, want))
		if err != nil {
			r.vEnd = want0
			r.v = r.v[:(r.vEnd+1)*r.width]
			return s, 0, err
		}
		r.last, r.end, r.done = s, r.end+i, m.Status(s).Done()
		if r.end%r.every == 0 && r.end/r.every == len(r.marks) {
			r.marks = append(r.marks, s)
		}
	}
	if k >= r.end {
		return r.last, r.end, nil
	}
	base := k / r.every * r.every
	s, i, err := algos.Replay(m, r.marks[k/r.every], k-base, watch[S](ctx))
	return s, base + i, err
}

// KeptObjective is an objective recorder (NewObjectiveRecorder) fed from
// the scalars RunKept kept of a run's states 0…k, width numbers a state of
// which the first two are its iteration T and its objective: it sees each
// state's numbers as a replay's recorder would have computed them, so its
// history has the same bits. Its states are step numbers: call History
// with the step RunKept returned. It records only when the request draws
// the history.
func KeptObjective(in Input, v []float64, width int) *objectiveRecorder[int] {
	rec := NewObjectiveRecorder(in.Step, func(i int) (int, float64) { return int(v[i*width]), v[i*width+1] })
	if in.Wants(HistoryFigure) {
		rec.On = true
		for i := range len(v) / width {
			rec.Record(i, i)
		}
	}
	return rec
}
