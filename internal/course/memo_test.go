package course

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/margin-edu/margin/internal/demo"
)

func keyOf(i int) demo.CacheKey { return demo.FloatsKey("test", []float64{float64(i)}) }

// TestCacheByteBound: many inserts never take the cache over its budget,
// and what it drops is the least recently used.
func TestCacheByteBound(t *testing.T) {
	const budget, size = 10_000, 300
	c := demo.NewCache(budget)
	ctx := t.Context()
	for i := range 1000 {
		v, err := demo.Memoise(ctx, c, keyOf(i), func([]float64) int64 { return size },
			func(context.Context) ([]float64, error) { return []float64{float64(i)}, nil })
		if err != nil || v[0] != float64(i) {
			t.Fatalf("memoise(%d) = %v, %v", i, v, err)
		}
		if c.Used() > budget {
			t.Fatalf("after %d inserts the cache holds %d bytes, over its budget of %d", i+1, c.Used(), budget)
		}
		if i == 500 {
			// Touch entry 480 so that it outlives its neighbours.
			if _, ok := c.Get(keyOf(480)); !ok {
				t.Fatal("entry 480 was dropped while 20 newer entries fit")
			}
		}
	}
	if want := budget / size; c.Len() != want {
		t.Errorf("Len = %d, want %d entries of %d bytes in %d", c.Len(), want, size, budget)
	}
	if _, ok := c.Get(keyOf(999)); !ok {
		t.Error("the newest entry was dropped")
	}
	if _, ok := c.Get(keyOf(0)); ok {
		t.Error("the oldest entry is still there")
	}
	c.SetBudget(budget / 2)
	if c.Used() > budget/2 {
		t.Errorf("after SetBudget(%d) the cache holds %d bytes", budget/2, c.Used())
	}
	c.Put(keyOf(-1), 0, budget) // larger than the whole budget: not kept
	if _, ok := c.Get(keyOf(-1)); ok || c.Used() > budget/2 {
		t.Errorf("an entry over the budget was kept (%d bytes used)", c.Used())
	}
	c.Reset()
	if c.Len() != 0 || c.Used() != 0 {
		t.Errorf("after Reset: %d entries, %d bytes", c.Len(), c.Used())
	}
}

// TestCacheOneComputationPerKey: N concurrent misses of one key compute
// it once, and all get its value.
func TestCacheOneComputationPerKey(t *testing.T) {
	c := demo.NewCache(0)
	if c.Budget() != demo.DefaultCacheBytes {
		t.Errorf("NewCache(0) budget = %d, want DefaultCacheBytes %d", c.Budget(), demo.DefaultCacheBytes)
	}
	const n = 50
	var calls atomic.Int32
	release := make(chan struct{})
	var wg, started sync.WaitGroup
	got := make([]int, n)
	started.Add(n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started.Done()
			v, err := demo.Memoise(t.Context(), c, keyOf(7), func(int) int64 { return 8 }, func(context.Context) (int, error) {
				calls.Add(1)
				<-release
				return 42, nil
			})
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		}()
	}
	started.Wait()
	time.Sleep(20 * time.Millisecond) // let the callers reach the flight; a late one finds the stored value
	close(release)
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("%d concurrent misses computed %d times, want 1", n, calls.Load())
	}
	for i, v := range got {
		if v != 42 {
			t.Fatalf("caller %d got %d, want 42", i, v)
		}
	}
}

// TestCacheCancelledNotStored: a computation whose context ended, or that
// failed, is not stored, and a waiter whose own context is live computes
// again instead of taking the other's cancellation.
func TestCacheCancelledNotStored(t *testing.T) {
	c := demo.NewCache(0)
	size := func(int) int64 { return 8 }
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := demo.Memoise(ctx, c, keyOf(1), size, func(ctx context.Context) (int, error) { return 1, ctx.Err() })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled computation: err = %v, want context.Canceled", err)
	}
	// A computation that ignores ctx and returns a value after it ended.
	ctx2, cancel2 := context.WithCancel(t.Context())
	_, _ = demo.Memoise(ctx2, c, keyOf(2), size, func(context.Context) (int, error) { cancel2(); return 2, nil })
	_, _ = demo.Memoise(t.Context(), c, keyOf(3), size, func(context.Context) (int, error) { return 3, errors.New("boom") })
	for _, k := range []int{1, 2, 3} {
		if _, ok := c.Get(keyOf(k)); ok {
			t.Errorf("key %d: a cancelled or failed computation was stored", k)
		}
	}
	if c.Len() != 0 {
		t.Errorf("Len = %d, want 0", c.Len())
	}

	// The leader's context ends while a second caller waits: the second
	// computes again under its own context.
	lead, cancelLead := context.WithCancel(t.Context())
	inFlight := make(chan struct{})
	var calls atomic.Int32
	compute := func(ctx context.Context) (int, error) {
		if calls.Add(1) == 1 {
			close(inFlight)
			<-ctx.Done()
			return 0, ctx.Err()
		}
		return 5, nil
	}
	done := make(chan error, 1)
	go func() { _, err := demo.Memoise(lead, c, keyOf(5), size, compute); done <- err }()
	<-inFlight
	res := make(chan int, 1)
	go func() {
		v, err := demo.Memoise(t.Context(), c, keyOf(5), size, compute)
		if err != nil {
			t.Error(err)
		}
		res <- v
	}()
	time.Sleep(20 * time.Millisecond)
	cancelLead()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("leader: err = %v, want context.Canceled", err)
	}
	if v := <-res; v != 5 {
		t.Errorf("waiter got %d, want 5 from its own computation", v)
	}
	if v, ok := c.Get(keyOf(5)); !ok || v.(int) != 5 {
		t.Errorf("stored %v, %v; want 5", v, ok)
	}
}

// TestCachePanicIsAnError: a computation that panics is an error for its
// callers, not a crash of the process.
func TestCachePanicIsAnError(t *testing.T) {
	c := demo.NewCache(0)
	_, err := demo.Memoise(t.Context(), c, keyOf(9), func(int) int64 { return 8 }, func(context.Context) (int, error) { panic("bug") })
	if err == nil || !strings.Contains(err.Error(), "bug") {
		t.Errorf("err = %v, want the panic as an error", err)
	}
}

// TestDemosColdAndWarmCache: every demo that memoises draws the same
// bytes from a cold cache, a warm one and no cache at all.
func TestDemosColdAndWarmCache(t *testing.T) {
	course, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ demo, q string }{
		{"kernel-svm", "step=end"}, {"interpolation", ""}, {"bias-variance", "fits=20"},
		{"logistic", "step=40"}, {"logistic", "method=gd&step=300"}, {"softmax", "step=60"},
		{"knn", "n=60"},
	} {
		d := course.Demo(c.demo)
		draw := func() string {
			t.Helper()
			q, _ := url.ParseQuery(c.q)
			s, probs := d.Parse(q)
			if len(probs) > 0 {
				t.Fatalf("%s?%s: %v", c.demo, c.q, probs)
			}
			r, err := d.ExecuteFigure(t.Context(), s, "")
			if err != nil {
				t.Fatalf("%s?%s: %v", c.demo, c.q, err)
			}
			var b bytes.Buffer
			for _, name := range append([]string{demo.PlotFigure, demo.HistoryFigure}, d.Panels...) {
				if _, err := r.WriteFigure(&b, name, false); err != nil {
					t.Fatalf("%s?%s figure %s: %v", c.demo, c.q, name, err)
				}
			}
			fmt.Fprintf(&b, "%+v", r.Panel())
			return b.String()
		}
		course.Cache.Reset()
		cold := draw()
		if course.Cache.Len() == 0 {
			t.Errorf("%s?%s: nothing was memoised", c.demo, c.q)
		}
		if warm := draw(); warm != cold {
			t.Errorf("%s?%s: a warm cache draws differently from a cold one", c.demo, c.q)
		}
		d.Cache = nil
		if none := draw(); none != cold {
			t.Errorf("%s?%s: no cache draws differently from a cold one", c.demo, c.q)
		}
		d.Cache = course.Cache
	}
}

// TestTrackCharged: a run's track is charged for the scalars and marks it
// holds as it grows, so long runs count against the budget.
func TestTrackCharged(t *testing.T) {
	course, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	d := course.Demo("logistic")
	s, probs := d.Parse(url.Values{"method": {"gd"}, "eta": {"0.01"}})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	s.Step = 3000
	r, err := d.ExecuteFigure(t.Context(), s, demo.PlotFigure)
	if err != nil {
		t.Fatal(err)
	}
	if min := int64(16 * r.State.Step); course.Cache.Used() < min {
		t.Errorf("after a run of %d steps the cache is charged %d bytes, want at least %d for its scalars", r.State.Step, course.Cache.Used(), min)
	}
}
