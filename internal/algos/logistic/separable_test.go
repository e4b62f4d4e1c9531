package logistic

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
)

// The tests of separability: where the regularisation-free problem has no
// minimiser, Separable says so, and it agrees with a hard-margin SVM.

// TestSeparableNoMinimiser: with λ = 0 on separable data GD's ‖w‖ grows
// and J falls at every step, and Solve refuses.
func TestSeparableNoMinimiser(t *testing.T) {
	x, y := blobs(4, 30, 2, 2.5)
	p := mustNew(t, x, y, 0)
	g := GD{P: p, Eta: 1 / p.L()}
	s := p.Start()
	norm := 0.0
	for range 3000 {
		next := g.Step(s)
		nn := floats.Norm(next.Model.W, 2)
		if next.Objective >= s.Objective || nn <= norm {
			t.Fatalf("step %d: J %v → %v, ‖w‖ %v → %v; want J falling and ‖w‖ growing", next.T, s.Objective, next.Objective, norm, nn)
		}
		s, norm = next, nn
	}
	if s.Status != algos.Running {
		t.Errorf("status after 3000 steps = %v, want running", s.Status)
	}
	if _, err := p.Solve(context.Background()); !errors.Is(err, ErrNoMinimiser) {
		t.Errorf("Solve error = %v, want ErrNoMinimiser", err)
	}
}

func TestSeparable(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    [][]float64
		y    []float64
		want bool
	}{
		{"separated", [][]float64{{0, 0}, {1, 0}, {3, 1}, {4, 2}}, []float64{-1, -1, 1, 1}, true},
		{"thin margin", [][]float64{{0, 0}, {1, 0}, {1 + 1e-6, 0}, {4, 2}}, []float64{-1, -1, 1, 1}, true},
		// One point of each class on the line x₁ = 1: quasi-complete.
		{"quasi", [][]float64{{0, 0}, {1, 0}, {1, 1}, {2, 0}}, []float64{-1, -1, 1, 1}, true},
		// The same x with both labels, the rest separated: still quasi.
		{"shared point", [][]float64{{0, 0}, {1, 0}, {1, 0}, {2, 0}}, []float64{-1, -1, 1, 1}, true},
		{"overlap", [][]float64{{0, 0}, {2, 0}, {1, 0}, {3, 0}}, []float64{-1, -1, 1, 1}, false},
		{"xor", [][]float64{{0, 0}, {1, 1}, {0, 1}, {1, 0}}, []float64{-1, -1, 1, 1}, false},
		// All points on one line, overlapping along it: w ⟂ the line
		// gives every margin 0, which does not count.
		{"collinear overlap", [][]float64{{0, 0}, {2, 2}, {1, 1}, {3, 3}}, []float64{-1, -1, 1, 1}, false},
		{"one class", [][]float64{{0}, {1}}, []float64{1, 1}, true},
		{"one point", [][]float64{{5}}, []float64{-1}, true},
		{"duplicate feature", [][]float64{{0, 0}, {2, 2}, {1, 1}, {3, 3}, {1, 1}}, []float64{-1, -1, 1, 1, -1}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mustNew(t, tc.x, tc.y, 0).Separable()
			if err != nil || got != tc.want {
				t.Errorf("Separable() = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// TestSeparableMatchesSVM cross-checks Separable on random data with
// the svm package's hard-margin test, another linear program (Farkas'
// lemma on the convex hulls): on points in general position the two
// notions of separable (some margin 0 allowed, or none) coincide.
func TestSeparableMatchesSVM(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	counts := map[bool]int{}
	for trial := range 60 {
		n, d := 4+r.IntN(20), 1+r.IntN(3)
		x, y := blobs(uint64(100+trial), n, d, 0.3+2*r.Float64())
		iy := make([]int, n)
		for i, v := range y {
			iy[i] = int(v)
		}
		sp := svm.DefaultParams()
		sp.Hard = true
		_, s0, err := svm.New(x, iy, sp)
		if err != nil {
			t.Fatal(err)
		}
		want := s0.Status != algos.Infeasible
		got, err := mustNew(t, x, y, 0).Separable()
		if err != nil || got != want {
			t.Errorf("trial %d (n=%d, d=%d): Separable() = %v, %v; svm says %v", trial, n, d, got, err, want)
		}
		counts[want]++
	}
	if counts[true] < 10 || counts[false] < 10 {
		t.Errorf("cases separable/not: %v; want both kinds", counts)
	}
}
