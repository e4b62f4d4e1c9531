package svm

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
)

// TestSolvePolled: a Poll sees the work inside each iteration's kernel
// columns (issue 28: at subnormal speed one column of 1000 × 550 takes
// tens of milliseconds, longer than a budget may go unchecked). A poll
// that never stops the run changes nothing, bit for bit; one that stops
// it part-way through a column leaves a consistent state: α in its box
// with Σ yᵢαᵢ = 0, status IterationLimit, and G = Qα − 1 on every
// variable, which the end's rebuild of the shrunk variables' gradient
// from cached columns would break if a part-filled column stayed cached.
func TestSolvePolled(t *testing.T) {
	x, y := NoisyData(400, 2)
	for _, k := range []Kernel{{Kind: Linear}, {Kind: RBF, Gamma: 2}} {
		p := Params{C: 1, Kernel: k, Tol: 1e-10, MaxIter: 1000000, CacheBytes: 8 * 400 * 20}
		pr, _ := mustNew(t, x, y, p)
		plain, err := pr.Solve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		same, err := pr.SolvePolled(context.Background(), nil, func(units int) bool { calls++; return units > 0 })
		if err != nil {
			t.Fatal(err)
		}
		if same.T != plain.T || !slices.Equal(same.Alpha, plain.Alpha) || !slices.Equal(same.G, plain.G) || same.B != plain.B {
			t.Fatalf("%s: a poll that never stops changed the run (T %d against %d)", k, same.T, plain.T)
		}
		if calls < 2*plain.T/10 {
			t.Errorf("%s: %d polls in %d iterations", k, calls, plain.T)
		}
		for _, stopAt := range []int{1, 5, 37, calls / 2} {
			n := 0
			s, err := pr.SolvePolled(context.Background(), nil, func(int) bool { n++; return n < stopAt })
			if err != nil {
				t.Fatal(err)
			}
			if s.Status != algos.IterationLimit || s.T >= plain.T {
				t.Fatalf("%s stop at poll %d: status %v after %d iterations", k, stopAt, s.Status, s.T)
			}
			sum, most := 0.0, 0.0
			for i, a := range s.Alpha {
				if a < 0 || a > p.C {
					t.Fatalf("α[%d] = %v outside [0, C]", i, a)
				}
				sum += pr.Y[i] * a
				g := -1.0
				for j, b := range s.Alpha {
					g += pr.Y[i] * pr.Y[j] * k.Eval(x[i], x[j]) * b
				}
				most = max(most, math.Abs(g-s.G[i]))
			}
			if math.Abs(sum) > 1e-9 || most > 1e-9 {
				t.Errorf("%s stop at poll %d (T = %d): Σ yα = %g, max |G − (Qα − 1)| = %g", k, stopAt, s.T, sum, most)
			}
		}
	}
}

// TestCachePollStop: a miss that its poll abandons returns nil and leaves
// no part-filled column behind: the next fetch of that column, and of a
// column evicted to make room for it, computes them whole.
func TestCachePollStop(t *testing.T) {
	x, y := NoisyData(300, 3)
	pr, _ := mustNew(t, x, y, Params{C: 1, Kernel: Kernel{Kind: RBF, Gamma: 1}, Tol: 1e-3, MaxIter: 10})
	want := func(i int) []float64 {
		col := make([]float64, len(x))
		pr.fill(i, col, nil)
		return col
	}
	c := NewColumnCache(len(x), 2*8*len(x), pr.fill) // two columns
	c.perUnit = 1
	c.Get(0)
	c.Get(1)
	for _, i := range []int{5, 7, 9} {
		polls := 0
		c.poll = func(int) bool { polls++; return polls < 2 }
		if col := c.getAt(i, nil, 0); col != nil {
			t.Fatalf("column %d: the stopped miss returned a column", i)
		}
		c.poll = nil
		for _, j := range []int{i, 0, 1} {
			if got := c.Get(j); !slices.Equal(got, want(j)) {
				t.Fatalf("column %d after a stopped miss of %d: not the whole column", j, i)
			}
		}
	}
}
