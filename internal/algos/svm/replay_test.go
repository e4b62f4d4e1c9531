package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
)

// sameState reports whether two states are equal bit for bit, with the
// first difference.
func sameState(a, b State) error {
	bits := math.Float64bits
	switch {
	case a.T != b.T || a.I != b.I || a.J != b.J || a.Status != b.Status || a.up != b.up:
		return fmt.Errorf("T/I/J/status/up %d/%d/%d/%v/%d vs %d/%d/%d/%v/%d", a.T, a.I, a.J, a.Status, a.up, b.T, b.I, b.J, b.Status, b.up)
	case bits(a.OldI) != bits(b.OldI) || bits(a.OldJ) != bits(b.OldJ):
		return fmt.Errorf("old α %v, %v vs %v, %v", a.OldI, a.OldJ, b.OldI, b.OldJ)
	case bits(a.Gap) != bits(b.Gap) || bits(a.Dual) != bits(b.Dual) || bits(a.B) != bits(b.B):
		return fmt.Errorf("gap/D/b %v/%v/%v vs %v/%v/%v", a.Gap, a.Dual, a.B, b.Gap, b.Dual, b.B)
	}
	for k := range a.Alpha {
		if bits(a.Alpha[k]) != bits(b.Alpha[k]) || bits(a.G[k]) != bits(b.G[k]) {
			return fmt.Errorf("α[%d], G[%d] = %v, %v vs %v, %v", k, k, a.Alpha[k], a.G[k], b.Alpha[k], b.G[k])
		}
	}
	return nil
}

var replayCases = []struct {
	name string
	p    Params
}{
	{"linear", Params{C: 1, Kernel: Kernel{Kind: Linear}, Tol: 1e-6, MaxIter: 5000}},
	{"rbf", Params{C: 3, Kernel: Kernel{Kind: RBF, Gamma: 1}, Tol: 1e-6, MaxIter: 5000}},
	{"poly budget", Params{C: 10, Kernel: Kernel{Kind: Poly, Gamma: 1, Coef0: 1, Degree: 3}, Tol: 1e-9, MaxIter: 40}},
}

// TestStepAdvanceReplay: Step, Advance and algos.Replay give the same
// states bit for bit, Step leaves its argument alone, and two runs agree.
func TestStepAdvanceReplay(t *testing.T) {
	x, y := NoisyData(120, 5)
	for _, tc := range replayCases {
		pr, s0 := mustNew(t, x, y, tc.p)
		states := []State{s0}
		for s := s0; !s.Status.Done(); {
			before := pr.Clone(s)
			s = pr.Step(s)
			if err := sameState(before, states[len(states)-1]); err != nil {
				t.Fatalf("%s: Step modified its argument: %v", tc.name, err)
			}
			states = append(states, s)
		}
		last := states[len(states)-1]
		if tc.p.MaxIter == 40 && (last.Status != algos.IterationLimit || last.T != 40) {
			t.Errorf("%s: %v after %d, want the iteration limit at 40", tc.name, last.Status, last.T)
		}
		adv := pr.Clone(s0)
		for k := 1; k < len(states); k++ {
			pr.Advance(&adv)
			if err := sameState(adv, states[k]); err != nil {
				t.Fatalf("%s: Advance differs from Step at %d: %v", tc.name, k, err)
			}
		}
		for _, k := range []int{0, 1, 17, len(states) - 1, len(states) + 5} {
			got, at, err := algos.Replay[State](pr, s0, k)
			want := states[min(k, len(states)-1)]
			if err != nil || at != want.T {
				t.Fatalf("%s: Replay(%d) stopped at %d: %v", tc.name, k, at, err)
			}
			if err := sameState(got, want); err != nil {
				t.Errorf("%s: Replay(%d): %v", tc.name, k, err)
			}
		}
		pr2, s := mustNew(t, x, y, tc.p)
		if err := sameState(run(t, pr2, s), last); err != nil {
			t.Errorf("%s: a second run differs: %v", tc.name, err)
		}
	}
}

// TestSolveWithoutShrinkingIsStepping: Solve's loop without shrinking
// performs Step's iterations exactly; with shrinking it reaches the same
// D to 1e-9 relative (both stop at a gap ≤ 1e-10).
func TestSolveWithoutShrinkingIsStepping(t *testing.T) {
	x, y := NoisyData(400, 2)
	for _, k := range []Kernel{{Kind: Linear}, {Kind: RBF, Gamma: 2}} {
		p := Params{C: 1, Kernel: k, Tol: 1e-10, MaxIter: 1000000}
		pr, s := mustNew(t, x, y, p)
		stepped := run(t, pr, s)
		plain, err := pr.solve(context.Background(), false, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := sameState(plain, stepped); err != nil {
			t.Errorf("%v: Solve without shrinking differs from stepping: %v", k, err)
		}
		fast, err := pr.Solve(context.Background())
		if err != nil || fast.Status != algos.Converged {
			t.Fatalf("%v: %v %v", k, fast.Status, err)
		}
		if !near(fast.Dual, stepped.Dual, 1e-9*math.Abs(stepped.Dual)) {
			t.Errorf("%v: Solve D = %v, stepping %v", k, fast.Dual, stepped.Dual)
		}
		t.Logf("%v: %d iterations stepping, %d with shrinking", k, stepped.T, fast.T)
	}
}

// TestCacheDoesNotChangeResults: a cache of two columns (the least it
// keeps) gives the same iterates as one that holds the whole matrix.
func TestCacheDoesNotChangeResults(t *testing.T) {
	x, y := NoisyData(300, 4)
	for _, k := range []Kernel{{Kind: Linear}, {Kind: RBF, Gamma: 1}} {
		p := Params{C: 2, Kernel: k, Tol: 1e-8, MaxIter: 100000}
		p.CacheBytes = 1
		small, s := mustNew(t, x, y, p)
		if small.cache.capacity != 2 {
			t.Fatalf("capacity %d, want 2", small.cache.capacity)
		}
		p.CacheBytes = 1 << 30
		big, b := mustNew(t, x, y, p)
		if err := sameState(run(t, small, s), run(t, big, b)); err != nil {
			t.Errorf("%v: stepping with a small cache differs: %v", k, err)
		}
		fs, _ := small.Solve(context.Background())
		fb, _ := big.Solve(context.Background())
		if err := sameState(fs, fb); err != nil {
			t.Errorf("%v: Solve with a small cache differs: %v", k, err)
		}
	}
}

// TestConcurrentSteps: goroutines stepping and solving one Problem get
// what a lone caller gets (run with -race).
func TestConcurrentSteps(t *testing.T) {
	x, y := NoisyData(200, 9)
	p := Params{C: 1, Kernel: Kernel{Kind: RBF, Gamma: 1}, Tol: 1e-6, MaxIter: 100000, CacheBytes: 1}
	pr, s0 := mustNew(t, x, y, p)
	want := run(t, pr, s0)
	wantSolve, _ := pr.Solve(context.Background())
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range errs {
		wg.Go(func() {
			if g%2 == 0 {
				errs[g] = sameState(run(t, pr, s0), want)
				return
			}
			s, _ := pr.Solve(context.Background())
			errs[g] = sameState(s, wantSolve)
		})
	}
	wg.Wait()
	for g, err := range errs {
		if err != nil {
			t.Errorf("goroutine %d: %v", g, err)
		}
	}
}

func TestSolveCancelled(t *testing.T) {
	x, y := NoisyData(1500, 1) // 1000 iterations are not enough here
	pr, _ := mustNew(t, x, y, Params{C: 100, Kernel: Kernel{Kind: Linear}, Tol: 1e-6, MaxIter: 1000000})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, err := pr.Solve(ctx)
	if !errors.Is(err, context.Canceled) || s.Status != algos.Running || s.T != 1000 {
		t.Errorf("cancelled Solve: %v after %d iterations, err %v; want running, stopped at the first check", s.Status, s.T, err)
	}
}
