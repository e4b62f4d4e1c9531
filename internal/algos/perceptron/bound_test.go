package perceptron

import (
	"context"
	"math"
	"testing"

	"github.com/margin-edu/margin/internal/algos/dataset"
)

// BenchmarkBound200 times Bound on a separable and a noisy set of 200
// points, the work each perceptron page request does.
func BenchmarkBound200(b *testing.B) {
	for _, name := range []string{"separable", "noisy"} {
		set, err := dataset.New(dataset.Spec{Name: name, N: 200, Margin: 0.2, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				Bound(context.Background(), set.X, set.Y)
			}
		})
	}
}

// TestBoundNotSeparable: inseparable sets are settled (Solved) as such,
// including a duplicated point with both labels.
func TestBoundNotSeparable(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    [][]float64
		y    []int
	}{
		{"xor", xorData.X, xorData.Y},
		{"duplicate", [][]float64{{0, 0}, {1, 1}, {1, 1}}, []int{-1, 1, -1}},
	} {
		if mb := Bound(context.Background(), tc.x, tc.y); mb.Separable || !mb.Solved || !math.IsInf(mb.Mistakes, 1) || mb.W != nil {
			t.Errorf("Bound(context.Background(), %s) = %+v, want not separable, solved", tc.name, mb)
		}
	}
}

// TestBoundThinMargin: a margin of 1e-3 is found (the old coordinate
// ascent needed far more sweeps than its budget for such sets).
func TestBoundThinMargin(t *testing.T) {
	const half = 1e-3
	x := [][]float64{{-half, 0}, {half, 0}, {-1, 2}, {1, -2}, {-2, 1}, {3, 0}}
	y := []int{-1, 1, -1, 1, -1, 1}
	mb := Bound(context.Background(), x, y)
	// The separator through the middle is x₁ = 0, w̃ = (1, 0, 0)/1 in
	// augmented space, with γ = 1e-3 on the two closest points.
	if !mb.Separable || !mb.Solved || !near(mb.Gamma, half, 1e-9) || !near(mb.W[0], 1, 1e-6) {
		t.Errorf("Bound = %+v, want γ = %g, w* = (1, 0), b* = 0", mb, half)
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
