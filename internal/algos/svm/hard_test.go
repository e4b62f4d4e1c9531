package svm

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
)

var hardLinear = Params{Hard: true, Kernel: Kernel{Kind: Linear}, Tol: 1e-9, MaxIter: 1000000}

// checkCertificate verifies λ against its definition with the true
// kernel: λ ≥ 0, Σλ = 1, Σλᵢyᵢ = 0 and ‖Σλᵢyᵢφ(xᵢ)‖² = λᵀQλ = 0, the
// last relative to the largest ‖φ(xᵢ)‖ (λᵀQλ is a sum of terms that large,
// so it cannot be computed closer to 0 than their round-off).
func checkCertificate(t *testing.T, name string, pr *Problem) {
	t.Helper()
	l := pr.Certificate()
	if l == nil {
		t.Fatalf("%s: no certificate", name)
	}
	var sum, sy, qq, scale float64
	for _, x := range pr.X {
		scale = math.Max(scale, pr.P.Kernel.Eval(x, x))
	}
	for i, v := range l {
		if v < 0 {
			t.Errorf("%s: λ[%d] = %v < 0", name, i, v)
		}
		sum += v
		sy += v * pr.Y[i]
		for j, w := range l {
			qq += v * w * pr.Y[i] * pr.Y[j] * pr.P.Kernel.Eval(pr.X[i], pr.X[j])
		}
	}
	if r := math.Sqrt(math.Abs(qq) / scale); !near(sum, 1, 1e-12) || !near(sy, 0, 1e-12) || r > 1e-6 {
		t.Errorf("%s: Σλ = %v, Σλy = %v, ‖Σλyφ‖/max‖φ‖ = %v; want 1, 0, 0", name, sum, sy, r)
	}
}

func TestHardInfeasible(t *testing.T) {
	xor := [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	noisy, noisyY := NoisyData(200, 3)
	dup := [][]float64{{0, 0}, {1, 2}, {1, 2}, {3, 1}}
	tests := []struct {
		name string
		x    [][]float64
		y    []int
		k    Kernel
	}{
		{"xor linear", xor, []int{-1, 1, 1, -1}, Kernel{Kind: Linear}},
		{"noisy linear", noisy, noisyY, Kernel{Kind: Linear}},
		{"duplicate point rbf", dup, []int{-1, 1, -1, 1}, Kernel{Kind: RBF, Gamma: 1}},
		{"duplicate point poly", dup, []int{-1, 1, -1, 1}, Kernel{Kind: Poly, Gamma: 1, Coef0: 1, Degree: 2}},
		{"noisy quadratic", noisy, noisyY, Kernel{Kind: Poly, Gamma: 1, Coef0: 1, Degree: 2}},
	}
	for _, tt := range tests {
		p := hardLinear
		p.Kernel = tt.k
		pr, s := mustNew(t, tt.x, tt.y, p)
		if s.Status != algos.Infeasible || !errors.Is(s.Status.Err(), algos.ErrInfeasible) {
			t.Errorf("%s: status %v, want infeasible", tt.name, s.Status)
			continue
		}
		checkCertificate(t, tt.name, pr)
		if next := pr.Step(s); next.T != 0 || next.Status != algos.Infeasible {
			t.Errorf("%s: Step on an infeasible state moved to %+v", tt.name, next)
		}
		if fs, err := pr.Solve(context.Background()); err != nil || fs.Status != algos.Infeasible || fs.T != 0 {
			t.Errorf("%s: Solve = %v after %d, %v; want infeasible at 0", tt.name, fs.Status, fs.T, err)
		}
	}
}

// thinMargin returns 40 points whose classes are separated by the band
// |x₁| < δ: two of them sit on its edges, (±δ, 0), the rest further out.
func thinMargin(delta float64) ([][]float64, []int) {
	src, _ := NoisyData(38, 11)
	x := [][]float64{{-delta, 0}, {delta, 0}}
	y := []int{-1, 1}
	for i, p := range src {
		c := float64(1 - 2*(i%2))
		x = append(x, []float64{c * (delta + math.Abs(p[0])), p[1]})
		y = append(y, int(c))
	}
	return x, y
}

// TestHardThinMargin: a margin of 1e-4 is separable, and the solver finds
// w = (1/δ, 0), b = 0; moving one point 1e-4 across (inside the other
// class's hull) makes the set infeasible.
func TestHardThinMargin(t *testing.T) {
	const delta = 1e-4
	x, y := thinMargin(delta)
	pr, s := mustNew(t, x, y, hardLinear)
	if s.Status != algos.Running || pr.Certificate() != nil {
		t.Fatalf("margin %g: status %v, want a separable problem", delta, s.Status)
	}
	s, err := pr.Solve(context.Background())
	if err != nil || s.Status != algos.Converged {
		t.Fatalf("margin %g: %v, %v", delta, s.Status, err)
	}
	w := pr.Weights(s)
	if !near(w[0], 1/delta, 1e-6/delta) || !near(w[1], 0, 1e-6/delta) || !near(s.B, 0, 1e-6) {
		t.Errorf("margin %g: w = %v, b = %v; want (%g, 0), 0", delta, w, s.B, 1/delta)
	}
	for i := range x {
		if m := float64(y[i]) * pr.Decision(s, x[i]); m < 1-1e-6 {
			t.Errorf("margin %g: point %d has yf = %v < 1", delta, i, m)
		}
	}
	// Two −1 points at (−δ, ±1) and a +1 point 1e-4 beyond the segment
	// between them: the +1 hull (which reaches x₁ ≥ δ) crosses it.
	x = append(x, []float64{-delta, -1}, []float64{-delta, 1}, []float64{-delta - 1e-4, 0})
	y = append(y, -1, -1, 1)
	pr, s = mustNew(t, x, y, hardLinear)
	if s.Status != algos.Infeasible {
		t.Fatalf("one point 1e-4 across: status %v, want infeasible", s.Status)
	}
	checkCertificate(t, "one point across", pr)
}

// TestHardKernelSeparable: XOR has no linear separator but an RBF or
// quadratic one; the solution puts every point on the margin.
func TestHardKernelSeparable(t *testing.T) {
	xor := [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	y := []int{-1, 1, 1, -1}
	for _, k := range []Kernel{{Kind: RBF, Gamma: 1}, {Kind: Poly, Gamma: 1, Coef0: 1, Degree: 2}, {Kind: Laplace, Gamma: 1}} {
		p := hardLinear
		p.Kernel = k
		pr, s := mustNew(t, xor, y, p)
		s = run(t, pr, s)
		if s.Status != algos.Converged {
			t.Fatalf("%v: %v", k, s.Status)
		}
		for i := range xor {
			if m := float64(y[i]) * pr.Decision(s, xor[i]); !near(m, 1, 1e-7) || pr.Kind(s, i) != OnMargin {
				t.Errorf("%v: point %d has yf = %v, kind %q; want 1, margin", k, i, m, pr.Kind(s, i))
			}
		}
	}
}

// TestHardAgreesWithSolver: on random sets of many sizes, whenever the
// linear program says "separable" the hard-margin SMO converges to a
// separator, and whenever it says "not separable" the certificate holds.
func TestHardAgreesWithSolver(t *testing.T) {
	for _, k := range []Kernel{{Kind: Linear}, {Kind: Poly, Gamma: 1, Coef0: 1, Degree: 2}, {Kind: Poly, Gamma: 0.5, Coef0: 0, Degree: 3}} {
		sep, insep := 0, 0
		for seed := uint64(1); seed <= 30; seed++ {
			n := 3 + int(seed)%20
			if k.Kind == Poly {
				n *= 3
			}
			x, y := NoisyData(n, seed)
			if seed%3 == 0 { // a collinear feature: a rank-deficient LP
				for _, row := range x {
					row[1] = 2 * row[0]
				}
			}
			p := hardLinear
			p.Kernel = k
			pr, s := mustNew(t, x, y, p)
			if s.Status == algos.Infeasible {
				insep++
				checkCertificate(t, "random", pr)
				continue
			}
			sep++
			s, err := pr.Solve(context.Background())
			if err != nil || s.Status != algos.Converged {
				t.Fatalf("%+v seed %d: separable per the LP, but SMO: %v %v", k, seed, s.Status, err)
			}
			for i := range x {
				if m := float64(y[i]) * pr.Decision(s, x[i]); m < 1-1e-6 {
					t.Errorf("%+v seed %d: point %d has yf = %v < 1", k, seed, i, m)
				}
			}
		}
		if sep < 5 || insep < 5 {
			t.Errorf("%+v: %d separable and %d inseparable sets; want some of each", k, sep, insep)
		}
	}
}

func TestHardPolyTooLarge(t *testing.T) {
	x := [][]float64{make([]float64, 10), make([]float64, 10)}
	x[1][0] = 1
	p := hardLinear
	p.Kernel = Kernel{Kind: Poly, Gamma: 1, Coef0: 1, Degree: 3} // C(13, 3) = 286 monomials
	if _, _, err := New(x, []int{-1, 1}, p); !errors.Is(err, ErrTooLarge) {
		t.Errorf("New(hard poly, d = 10, p = 3) = %v, want ErrTooLarge", err)
	}
}

// TestPolyFeatures: the explicit feature map reproduces the kernel.
func TestPolyFeatures(t *testing.T) {
	x, _ := NoisyData(6, 2)
	x = append(x, []float64{0, 0})
	for _, k := range []Kernel{
		{Kind: Poly, Gamma: 0.7, Coef0: 1.5, Degree: 3},
		{Kind: Poly, Gamma: 2, Coef0: 0, Degree: 4},
		{Kind: Poly, Gamma: 1, Coef0: 1, Degree: 10},
	} {
		phi, err := polyPhi(x, k)
		if err != nil {
			t.Fatal(err)
		}
		for i := range x {
			for j := range x {
				want := k.Eval(x[i], x[j])
				if got := dot(phi[i], phi[j]); !near(got, want, 1e-12*math.Max(1, math.Abs(want))) {
					t.Errorf("%+v: ⟨φ(x%d), φ(x%d)⟩ = %v, K = %v", k, i, j, got, want)
				}
			}
		}
	}
}
