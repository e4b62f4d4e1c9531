package svm

import (
	"context"
	"testing"
)

// benchSolve times Solve on NoisyData(n, 1) with svm-train's settings
// -c 1 -g 1 -e 1e-6: the set-up (New) is outside the timer, as LIBSVM's
// reading of its file is not part of its solve.
func benchSolve(b *testing.B, kind KernelKind, n int) {
	x, y := NoisyData(n, 1)
	p := DefaultParams()
	p.Tol = 1e-6
	p.Kernel = Kernel{Kind: kind, Gamma: 1}
	pr, _, err := New(x, y, p)
	if err != nil {
		b.Fatal(err)
	}
	var s State
	for b.Loop() {
		s, _ = pr.Solve(context.Background())
	}
	b.ReportMetric(float64(s.T), "iter")
	b.ReportMetric(float64(len(pr.Support(s))), "SV")
}

func BenchmarkSolveLinear1000(b *testing.B) { benchSolve(b, Linear, 1000) }
func BenchmarkSolveLinear5000(b *testing.B) { benchSolve(b, Linear, 5000) }
func BenchmarkSolveRBF1000(b *testing.B)    { benchSolve(b, RBF, 1000) }
func BenchmarkSolveRBF5000(b *testing.B)    { benchSolve(b, RBF, 5000) }

// BenchmarkStep times one SMO step of a lesson-sized problem, the work
// behind each step a page replays.
func BenchmarkStep(b *testing.B) {
	x, y := NoisyData(500, 1)
	p := DefaultParams()
	p.Kernel = Kernel{Kind: RBF, Gamma: 1}
	pr, s0, err := New(x, y, p)
	if err != nil {
		b.Fatal(err)
	}
	s := pr.Clone(s0)
	for b.Loop() {
		if s.Status.Done() {
			s = pr.Clone(s0)
		}
		pr.Advance(&s)
	}
}

// BenchmarkHardLinearNew times New's separability test on 5000 points.
func BenchmarkHardLinearNew(b *testing.B) {
	x, y := NoisyData(5000, 1)
	p := DefaultParams()
	p.Hard = true
	for b.Loop() {
		if _, _, err := New(x, y, p); err != nil {
			b.Fatal(err)
		}
	}
}
