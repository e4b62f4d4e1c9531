package demo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/dataset"
	"github.com/margin-edu/margin/internal/algos/primal"
	"github.com/margin-edu/margin/internal/algos/svm"
)

func keptSet(t *testing.T, n int, seed uint64) ([][]float64, []int) {
	t.Helper()
	set, err := dataset.New(dataset.Spec{Name: "noisy", N: n, Seed: seed, Margin: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	return set.X, set.Y
}

// checkKept asks RunKept for steps ks in that order and compares each
// state and its scalars with a replay from 0.
func checkKept[S any](t *testing.T, c *Cache, key CacheKey, m algos.Method[S], s0 S, ks []int, stateBytes int64, width int, sc func(S, []float64)) {
	t.Helper()
	for idx, k := range ks {
		// Some requests skip the scalars (a plot URL), which later ones
		// fill in.
		wantV := idx%3 != 1
		got, gk, v, err := RunKept(context.Background(), c, key, m, s0, k, stateBytes, width, sc, wantV)
		if err != nil {
			t.Fatal(err)
		}
		var want []float64
		rec := algos.RecorderFunc[S](func(i int, s S) error {
			n := len(want)
			want = append(want, make([]float64, width)...)
			sc(s, want[n:])
			return nil
		})
		ws, wk, _ := algos.Replay(m, s0, k, rec)
		if gk != wk || !reflect.DeepEqual(got, ws) {
			t.Fatalf("kept state at %d = step %d, replay = step %d, or the states differ", k, gk, wk)
		}
		if wantV && !reflect.DeepEqual(v, want) || !wantV && v != nil {
			t.Fatalf("kept scalars to %d (wanted: %v) differ from a replay's", k, wantV)
		}
	}
}

func orderOfSteps(seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, 1))
	ks := []int{1, 2, 3, 200, 0, 31, 32, 33, 64, 5, 2000, 79, 80, 1500}
	for range 20 {
		ks = append(ks, r.IntN(2500))
	}
	return ks
}

// TestKeptIsReplay: SMO and Pegasos runs reached in any order of steps,
// from a warm cache, a cleared one and one too small to keep them, give
// the very states (and scalars) of a replay from 0.
func TestKeptIsReplay(t *testing.T) {
	for _, n := range []int{30, 500} {
		x, y := keptSet(t, n, uint64(n))
		p := svm.DefaultParams()
		p.C, p.Tol = 10, 1e-9
		pr, s0, err := svm.New(x, y, p)
		if err != nil {
			t.Fatal(err)
		}
		pg, g0, err := primal.NewPegasos(x, y, primal.PegasosParams{Lambda: 1e-3, T: 2200, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		smo := func(s svm.State, v []float64) { v[0], v[1], v[2] = s.Dual, s.Gap, pr.Primal(s) }
		peg := func(s primal.PegasosState, v []float64) { v[0] = pg.Objective(s.Avg) }
		for _, c := range []*Cache{NewCache(0), NewCache(10_000), nil} {
			ks := orderOfSteps(uint64(n))
			checkKept(t, c, CacheKey{1}, pr, s0, ks, int64(16*n), 3, smo)
			checkKept(t, c, CacheKey{2}, pg, g0, ks, 40, 1, peg)
			c.Reset() // evicted: the next requests start the run again
			checkKept(t, c, CacheKey{1}, pr, s0, ks[5:], int64(16*n), 3, smo)
		}
	}
}

// TestKeptBytes: runs kept in a small cache stay within its byte bound,
// charged for what they hold.
func TestKeptBytes(t *testing.T) {
	x, y := keptSet(t, 200, 4)
	c := NewCache(1 << 20)
	for seed := range uint64(30) {
		pg, g0, err := primal.NewPegasos(x, y, primal.PegasosParams{Lambda: 1e-3, T: MaxStep, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := RunKept(context.Background(), c, CacheKey{byte(seed), 9}, pg, g0, 5000, 1000, 2,
			func(s primal.PegasosState, v []float64) { v[0], v[1] = s.Avg[0], s.Avg[1] }, true); err != nil {
			t.Fatal(err)
		}
		if c.Used() > c.Budget() {
			t.Fatalf("after %d runs the cache holds %d bytes of %d", seed+1, c.Used(), c.Budget())
		}
	}
	// 5000 steps × 16 bytes of scalars and 5000/32 + 1 states of 1000
	// bytes: about 237 KB a run, so four fit and the rest were dropped.
	if n := c.Len(); n < 2 || n > 5 {
		t.Errorf("the cache keeps %d runs of about 237 KB in 1 MiB", n)
	}
	if KeptEvery(8000) != 77 || KeptEvery(40) != markEvery {
		t.Errorf("checkpoint spacing %d for 8 KB states, %d for 40 B", KeptEvery(8000), KeptEvery(40))
	}
}

// TestKeptConcurrent: many requests for steps of one run at once (run
// with -race) each get the state a replay gives.
func TestKeptConcurrent(t *testing.T) {
	x, y := keptSet(t, 100, 5)
	pr, s0, err := svm.New(x, y, svm.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	c := NewCache(0)
	sc := func(s svm.State, v []float64) { v[0] = s.Dual }
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				k := (g*37 + i*91) % 400
				got, gk, v, err := RunKept(context.Background(), c, CacheKey{7}, pr, s0, k, 1600, 1, sc, i%2 == 0)
				want, wk, _ := algos.Replay(pr, s0, k)
				if err != nil || gk != wk || !reflect.DeepEqual(got, want) || i%2 == 0 && v[gk] != want.Dual {
					t.Errorf("concurrent request for step %d: %v, step %d, want %d", k, err, gk, wk)
				}
			}
		}()
	}
	wg.Wait()
}

// TestKeptCancelled: a request whose context ends stops extending the run
// and leaves it consistent for the next.
func TestKeptCancelled(t *testing.T) {
	x, y := keptSet(t, 50, 6)
	pg, g0, err := primal.NewPegasos(x, y, primal.PegasosParams{Lambda: 1e-3, T: MaxStep, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := NewCache(0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sc := func(s primal.PegasosState, v []float64) { v[0] = s.Avg[0] }
	if _, _, _, err := RunKept(ctx, c, CacheKey{8}, pg, g0, 3000, 100, 1, sc, true); err == nil {
		// Memoise may answer a cancelled context first; either way the
		// run must stay right.
		t.Log("cancelled request answered")
	}
	checkKept(t, c, CacheKey{8}, pg, g0, []int{3000, 10, 2999}, 100, 1, sc)
}

// TestFloatsKeyBytes: FloatsKey hashes what binary.Write would write, so
// the keys of everything the cache holds are what they were.
func TestFloatsKeyBytes(t *testing.T) {
	parts := [][]float64{{1, -0.5, math.Inf(1)}, nil, {math.SmallestNonzeroFloat64}}
	h := sha256.New()
	h.Write([]byte("tag\x00"))
	for _, p := range parts {
		binary.Write(h, binary.LittleEndian, int64(len(p)))
		binary.Write(h, binary.LittleEndian, p)
	}
	if got := FloatsKey("tag", parts...); !bytes.Equal(got[:], h.Sum(nil)) {
		t.Errorf("FloatsKey = %x, want %x", got, h.Sum(nil))
	}
}
