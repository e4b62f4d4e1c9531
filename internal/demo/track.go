package demo

import (
	"context"
	"crypto/sha256"
	"sync"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/render/chart"
)

// ProblemKey names a regression problem by everything its solution
// depends on: the kind, the points, their labels and the numbers.
func ProblemKey(kind string, x [][]float64, y []float64, nums ...float64) [sha256.Size]byte {
	return FloatsKey(kind, append([][]float64{nums, y}, x...)...)
}

// track is a run of a deterministic method, kept between requests so that
// stepping through it costs a few iterations, not a replay from 0: the
// state at every markEvery-th step, the furthest state reached, and two
// scalars (J and ‖w‖) of every state so far, for the history. State k
// comes from the mark before it, so it is the same to the last bit as a
// replay from 0 would give. A track is used under its lock.
type track[S any] struct {
	mu    sync.Mutex
	marks []S // marks[i] is state i·markEvery
	last  S   // state end, where the run stopped if done
	end   int
	done  bool
	a, b  []float64 // the scalars of states 0…end
}

// markEvery spaces a track's marks: state k is at most markEvery − 1
// iterations from one.
const markEvery = 32

// RunTracked returns state k of m's run from start (or the last, if the
// run stops before k), its step and the scalars of the states up to it,
// from the track of key in cache, which it starts or extends as needed.
// Tracks are kept by everything their run depends on (the points, labels,
// method and its numbers), and charged for what they hold: 16 bytes of
// scalars a step and stateBytes a mark (a run of MaxStep iterations keeps
// 320 KB of scalars and 625 states). A nil cache keeps no track.
func RunTracked[S any](ctx context.Context, cache *Cache, key [sha256.Size]byte, m algos.Method[S], start S, k int, stateBytes int64,
	scalars func(S) (float64, float64)) (s S, step int, a, b []float64, err error) {
	t, err := Memoise(ctx, cache, key, func(*track[S]) int64 { return 0 },
		func(context.Context) (*track[S], error) { return &track[S]{}, nil })
	if err != nil {
		return s, 0, nil, nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	s, step, err = t.at(m, start, k, scalars)
	cache.recharge(key, 128+16*int64(len(t.a))+stateBytes*int64(len(t.marks)+1))
	// The scalars of states 0…step never change once computed, so the
	// caller may read them after the lock is released.
	return s, step, t.a[: step+1 : step+1], t.b[: step+1 : step+1], err
}

// at returns state k of m's run from start (or the last, if the run stops
// before k) and its step, extending the track as far as k first.
func (t *track[S]) at(m algos.Method[S], start S, k int, scalars func(S) (float64, float64)) (S, int, error) {
	if t.a == nil {
		a, b := scalars(start)
		t.marks, t.last, t.a, t.b, t.done = []S{start}, start, []float64{a}, []float64{b}, m.Status(start).Done()
	}
	rec := algos.RecorderFunc[S](func(i int, s S) error {
		if i > 0 {
			a, b := scalars(s)
			t.a, t.b = append(t.a, a), append(t.b, b)
		}
		return nil
	})
	for t.end < k && !t.done {
		want := min(k, (t.end/markEvery+1)*markEvery) - t.end
		s, i, err := algos.Replay(m, t.last, want, rec)
		if err != nil {
			return s, 0, err
		}
		t.last, t.end, t.done = s, t.end+i, m.Status(s).Done()
		if t.end%markEvery == 0 && t.end/markEvery == len(t.marks) {
			t.marks = append(t.marks, s)
		}
	}
	if k >= t.end {
		return t.last, t.end, nil
	}
	base := k / markEvery * markEvery
	s, i, err := algos.Replay(m, t.marks[k/markEvery], k-base)
	return s, base + i, err
}

// Sampled returns a track's scalars v (t.a or t.b) at the steps a
// sampleClock picks from 0 to k, and at k: the series a history draws.
func Sampled(v []float64, k int) chart.Series {
	var s chart.Series
	c := NewSampleClock(k)
	for i := 0; i <= k; i++ {
		if c.Due(i) || i == k {
			s.T, s.Y = append(s.T, float64(i)), append(s.Y, v[i])
		}
	}
	return s
}

// B2f is 1 for true, for hashing a flag with numbers.
func B2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
