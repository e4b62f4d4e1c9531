package svm

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// everyKind returns one valid kernel of each kind ValidateFunction knows,
// so kinds added later are tested without editing this file.
func everyKind(gamma float64) []Kernel {
	var ks []Kernel
	for kind := KernelKind(0); ; kind++ {
		k := Kernel{Kind: kind, Gamma: gamma, Coef0: 0.5, Degree: 3}
		if k.ValidateFunction() != nil {
			return ks
		}
		ks = append(ks, k)
	}
}

// randomExpansion returns m terms at NoisyData points with coefficients
// uniform in (−2, 2), every fourth one 0 (to be dropped).
func randomExpansion(k Kernel, m int, seed uint64) *Expansion {
	x, _ := NoisyData(m, seed)
	r := rand.New(rand.NewPCG(seed, 1))
	coef := make([]float64, m)
	for i := range coef {
		if i%4 != 3 {
			coef[i] = 4*r.Float64() - 2
		}
	}
	return NewExpansion(k, x, coef, 0.25)
}

func gridSpan(lo, hi float64, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return v
}

// TestExpansionGridMatchesEval: Grid's shortcuts agree with Eval at every
// grid point, for every kind and for RBF widths whose factors underflow.
func TestExpansionGridMatchesEval(t *testing.T) {
	var cases []Kernel
	for _, gamma := range []float64{0.05, 0.7, 60} {
		cases = append(cases, everyKind(gamma)...)
	}
	xs, ys := gridSpan(-4, 4, 23), gridSpan(-3.5, 4.5, 19)
	for _, k := range cases {
		e := randomExpansion(k, 40, 3)
		if len(e.Coef) != 30 {
			t.Fatalf("%v: %d terms kept, want the 30 non-zero ones", k, len(e.Coef))
		}
		var l1 float64
		for _, c := range e.Coef {
			l1 += math.Abs(c)
		}
		z := make([]float64, len(xs)*len(ys))
		e.Grid(xs, ys, z)
		for j, gy := range ys {
			for i, gx := range xs {
				want := e.Eval([]float64{gx, gy})
				if got := z[j*len(xs)+i]; !near(got, want, 1e-12*(1+l1)) {
					t.Fatalf("%v γ %v: Grid at (%v, %v) = %v, Eval %v", k, k.Gamma, gx, gy, got, want)
				}
			}
		}
	}
}

func TestExpansionEmpty(t *testing.T) {
	e := NewExpansion(Kernel{Kind: RBF, Gamma: 1}, [][]float64{{1, 2}}, []float64{0}, -1.5)
	z := make([]float64, 6)
	e.Grid([]float64{0, 1, 2}, []float64{0, 1}, z)
	for k, v := range z {
		if v != -1.5 {
			t.Errorf("z[%d] = %v, want b = −1.5 (no terms)", k, v)
		}
	}
	if got := e.Eval([]float64{1, 2}); got != -1.5 {
		t.Errorf("Eval = %v, want −1.5", got)
	}
}

// TestProblemExpansion: the expansion of an SMO solution keeps the
// support vectors' αᵢyᵢ and b, and Eval is Decision bit for bit.
func TestProblemExpansion(t *testing.T) {
	x, y := NoisyData(60, 4)
	for _, k := range []Kernel{{Kind: Linear}, {Kind: RBF, Gamma: 0.8}, {Kind: Poly, Gamma: 0.5, Coef0: 1, Degree: 3}, {Kind: Laplace, Gamma: 1}} {
		pr, _ := mustNew(t, x, y, Params{C: 1, Kernel: k, Tol: 1e-6, MaxIter: 100000})
		s, err := pr.Solve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		e := pr.Expansion(s)
		nz := 0
		for _, a := range s.Alpha {
			if a != 0 {
				nz++
			}
		}
		if len(e.Coef) != nz || len(e.X) != nz || e.B != s.B {
			t.Fatalf("%v: %d terms, b %v; want %d, %v", k, len(e.Coef), e.B, nz, s.B)
		}
		probe, _ := NoisyData(30, 9)
		for _, p := range append(probe, x...) {
			if got, want := e.Eval(p), pr.Decision(s, p); got != want {
				t.Fatalf("%v: Eval(%v) = %v, Decision %v", k, p, got, want)
			}
		}
	}
}

// BenchmarkExpansionGrid times a lesson's decision field: an RBF model of
// 150 terms on a 121×121 grid, the RBF shortcut.
func BenchmarkExpansionGrid(b *testing.B) {
	e := randomExpansion(Kernel{Kind: RBF, Gamma: 1}, 200, 1) // 150 non-zero
	xs, ys := gridSpan(-4, 4, 121), gridSpan(-4, 4, 121)
	z := make([]float64, len(xs)*len(ys))
	for b.Loop() {
		e.Grid(xs, ys, z)
	}
}

// BenchmarkExpansionGridEval is the same field by Kernel.Eval at every
// point (the Laplace path), for comparison.
func BenchmarkExpansionGridEval(b *testing.B) {
	e := randomExpansion(Kernel{Kind: Laplace, Gamma: 1}, 200, 1)
	xs, ys := gridSpan(-4, 4, 121), gridSpan(-4, 4, 121)
	z := make([]float64, len(xs)*len(ys))
	for b.Loop() {
		e.Grid(xs, ys, z)
	}
}
