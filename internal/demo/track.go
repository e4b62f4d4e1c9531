package demo

import (
	"context"
	"crypto/sha256"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/render/chart"
)

// ProblemKey names a regression problem by everything its solution
// depends on: the kind, the points, their labels and the numbers.
func ProblemKey(kind string, x [][]float64, y []float64, nums ...float64) [sha256.Size]byte {
	return FloatsKey(kind, append([][]float64{nums, y}, x...)...)
}

// RunTracked is RunKept for a run whose history is two scalars of every
// state (the logistic demos' J and ‖w‖), always computed: it returns state
// k of m's run from start (or the last, if the run stops before k), its
// step, and the scalars of states 0…step as two series a and b. The run is
// kept in cache under key as RunKept keeps it (checkpoints, the furthest
// state, the scalars), charged to the cache's byte bound; ctx ends a long
// extension early with its error.
func RunTracked[S any](ctx context.Context, cache *Cache, key CacheKey, m algos.Method[S], start S, k int, stateBytes int64,
	scalars func(S) (float64, float64)) (s S, step int, a, b []float64, err error) {
	s, step, v, err := RunKept(ctx, cache, key, m, start, k, stateBytes, 2,
		func(s S, v []float64) { v[0], v[1] = scalars(s) }, true)
	if err != nil {
		return s, 0, nil, nil, err
	}
	a, b = make([]float64, step+1), make([]float64, step+1)
	for i := range a {
		a[i], b[i] = v[2*i], v[2*i+1]
	}
	return s, step, a, b, nil
}

// markEvery spaces a kept run's checkpoints (KeptEvery): state k is at
// most markEvery − 1 iterations from one.
const markEvery = 32

// Sampled returns a run's scalars v (RunTracked's a or b) at the steps a
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
