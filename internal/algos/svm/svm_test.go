package svm

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func mustNew(t testing.TB, x [][]float64, y []int, p Params) (*Problem, State) {
	t.Helper()
	pr, s, err := New(x, y, p)
	if err != nil {
		t.Fatal(err)
	}
	return pr, s
}

func run(t testing.TB, pr *Problem, s State) State {
	t.Helper()
	for !s.Status.Done() {
		s = pr.Step(s)
	}
	return s
}

func tight(p Params) Params {
	p.Tol, p.MaxIter = 1e-12, 100000
	return p
}

// TestTwoPoints: x₁ = (0,0) with y = −1 and x₂ = (2,0) with y = +1. The
// widest band between them is 0 ≤ x₁ ≤ 2, so w = (1, 0), b = −1 and
// ‖w‖² = 1 = α₁ + α₂ with α₁ = α₂ (Σαy = 0): α = (½, ½), D = −½. SMO
// gets there in one step: Q = [[0, 0], [0, 4]], i = 1 (argmax −yG, the
// last on ties), j = 0, and the step δ = (−G₁ − G₀)/(Q₀₀ + Q₁₁ + 2Q₀₁)
// = 2/4 moves both by ½.
func TestTwoPoints(t *testing.T) {
	pr, s := mustNew(t, [][]float64{{0, 0}, {2, 0}}, []int{-1, 1}, DefaultParams())
	if s.Gap != 2 || s.Dual != 0 || s.B != 0 || s.I != -1 || s.J != -1 || s.Status != algos.Running {
		t.Errorf("state 0 = %+v, want gap 2, D 0, b 0, I = J = −1, running", s)
	}
	s = pr.Step(s)
	w := pr.Weights(s)
	if s.T != 1 || s.I != 1 || s.J != 0 || s.OldI != 0 || s.OldJ != 0 || s.Status != algos.Converged {
		t.Errorf("step 1 = %+v, want T 1, I 1, J 0, converged", s)
	}
	if !slices.Equal(s.Alpha, []float64{0.5, 0.5}) || !slices.Equal(w, []float64{1, 0}) || s.B != -1 || s.Dual != -0.5 || s.Gap != 0 {
		t.Errorf("α = %v, w = %v, b = %v, D = %v, gap %v; want (½, ½), (1, 0), −1, −½, 0", s.Alpha, w, s.B, s.Dual, s.Gap)
	}
	if got := pr.Primal(s); got != 0.5 {
		t.Errorf("primal = %v, want ½ = −D", got)
	}
	if f := pr.Decision(s, []float64{1.5, 7}); f != 0.5 {
		t.Errorf("f(1.5, 7) = %v, want 0.5", f)
	}
}

// TestFourPoints: A = (0,0) and B = (0,1) have y = −1, P = (2,0) and
// D = (3,3) have y = +1. The closest points of the two hulls are A and P
// (P is nearest to the segment AB at its end A), so the separator is the
// perpendicular bisector x₁ = 1: w = (1, 0), b = −1, margin 1. B lies on
// H₋ too (f(B) = −1) and D is outside (f(D) = 2). With α_D = 0, the
// second coordinate of w = Σαyx gives −α_B = 0, the first 2α_P = 1,
// and Σαy = 0 gives α_A = ½: α = (½, 0, ½, 0), D(α) = −1 + ½ = −½. B sits
// on the margin with α = 0, which its KKT condition allows, so it is not
// a support vector. With C = 1 nothing reaches the bound; C = ¼ caps
// α_A = α_P = ¼ … checked by TestSoftBound instead.
func TestFourPoints(t *testing.T) {
	x := [][]float64{{0, 0}, {0, 1}, {2, 0}, {3, 3}}
	y := []int{-1, -1, 1, 1}
	for _, p := range []Params{tight(DefaultParams()), tight(Params{Hard: true, Kernel: Kernel{Kind: Linear}})} {
		pr, s := mustNew(t, x, y, p)
		s = run(t, pr, s)
		w := pr.Weights(s)
		want := []float64{0.5, 0, 0.5, 0}
		for i := range want {
			if !near(s.Alpha[i], want[i], 1e-9) {
				t.Errorf("hard %v: α = %v, want %v", p.Hard, s.Alpha, want)
				break
			}
		}
		if !near(w[0], 1, 1e-9) || !near(w[1], 0, 1e-9) || !near(s.B, -1, 1e-9) || !near(s.Dual, -0.5, 1e-12) {
			t.Errorf("hard %v: w = %v, b = %v, D = %v; want (1, 0), −1, −½", p.Hard, w, s.B, s.Dual)
		}
		if sv := pr.Support(s); !slices.Equal(sv, []int{0, 2}) {
			t.Errorf("hard %v: support = %v, want [0 2]", p.Hard, sv)
		}
		for i, k := range []SVKind{OnMargin, NotSupport, OnMargin, NotSupport} {
			if got := pr.Kind(s, i); got != k {
				t.Errorf("hard %v: Kind(%d) = %q, want %q", p.Hard, i, got, k)
			}
		}
	}
}

// TestSoftBound: the two points of TestTwoPoints with C = ¼. The
// unconstrained optimum α = ½ exceeds C, so α = (¼, ¼), w = (½, 0) and
// both points are inside the band, yf = ½. No multiplier is free, so b
// comes from LIBSVM's midpoint rule: G = Qα − 1 = (−1, 0); point 0 (y = −1
// at C) bounds ρ above by yG = 1, point 1 (y = +1 at C) below by 0, so
// ρ = ½ and b = −½, the middle of the optimal interval [−1, 0] (every b
// there gives hinge sum 1). Primal ⅛ + ¼·1 = ⅜ = −D.
func TestSoftBound(t *testing.T) {
	p := tight(DefaultParams())
	p.C = 0.25
	pr, s := mustNew(t, [][]float64{{0, 0}, {2, 0}}, []int{-1, 1}, p)
	s = run(t, pr, s)
	if !slices.Equal(s.Alpha, []float64{0.25, 0.25}) || s.B != -0.5 || s.Dual != -0.375 || pr.Primal(s) != 0.375 {
		t.Errorf("α = %v, b = %v, D = %v, primal %v; want (¼, ¼), −½, −⅜, ⅜", s.Alpha, s.B, s.Dual, pr.Primal(s))
	}
	for i := range 2 {
		if k := pr.Kind(s, i); k != Inside {
			t.Errorf("Kind(%d) = %q, want inside", i, k)
		}
	}
}

// TestMisclassified: a +1 point among the −1 points ends at α = C with
// yf < 0.
func TestMisclassified(t *testing.T) {
	x := [][]float64{{0, 0}, {0, 1}, {1, 0}, {3, 0}, {3, 1}, {0.5, 0.5}}
	y := []int{-1, -1, -1, 1, 1, 1}
	pr, s := mustNew(t, x, y, tight(DefaultParams()))
	s = run(t, pr, s)
	if f := pr.Decision(s, x[5]); !(f < 0) || s.Alpha[5] != 1 || pr.Kind(s, 5) != Misclassified {
		t.Errorf("point 5: f = %v, α = %v, kind %q; want f < 0, α = C = 1, misclassified", f, s.Alpha[5], pr.Kind(s, 5))
	}
}

func TestValidation(t *testing.T) {
	ok := [][]float64{{0, 0}, {1, 1}}
	good := DefaultParams()
	mod := func(f func(*Params)) Params { p := good; f(&p); return p }
	tests := []struct {
		name string
		x    [][]float64
		y    []int
		p    Params
		want error
	}{
		{"no rows", nil, nil, good, ErrNoData},
		{"no columns", [][]float64{{}, {}}, []int{-1, 1}, good, ErrShape},
		{"ragged", [][]float64{{0, 0}, {1}}, []int{-1, 1}, good, ErrShape},
		{"labels", ok, []int{-1}, good, ErrShape},
		{"NaN", [][]float64{{0, math.NaN()}, {1, 1}}, []int{-1, 1}, good, ErrNotFinite},
		{"label 0", ok, []int{0, 1}, good, ErrLabel},
		{"one class", ok, []int{1, 1}, good, ErrLabel},
		{"C 0", ok, []int{-1, 1}, mod(func(p *Params) { p.C = 0 }), ErrParameters},
		{"C inf", ok, []int{-1, 1}, mod(func(p *Params) { p.C = math.Inf(1) }), ErrParameters},
		{"tol", ok, []int{-1, 1}, mod(func(p *Params) { p.Tol = 0 }), ErrParameters},
		{"iter", ok, []int{-1, 1}, mod(func(p *Params) { p.MaxIter = 0 }), ErrParameters},
		{"cache", ok, []int{-1, 1}, mod(func(p *Params) { p.CacheBytes = -1 }), ErrParameters},
		{"gamma", ok, []int{-1, 1}, mod(func(p *Params) { p.Kernel = Kernel{Kind: RBF} }), ErrParameters},
		{"degree", ok, []int{-1, 1}, mod(func(p *Params) { p.Kernel = Kernel{Kind: Poly, Gamma: 1, Degree: 0} }), ErrParameters},
		{"coef0", ok, []int{-1, 1}, mod(func(p *Params) { p.Kernel = Kernel{Kind: Poly, Gamma: 1, Coef0: -1, Degree: 2} }), ErrParameters},
		{"kind", ok, []int{-1, 1}, mod(func(p *Params) { p.Kernel = Kernel{Kind: 9} }), ErrParameters},
		{"overflow", [][]float64{{1e200, 0}, {1, 1}}, []int{-1, 1}, good, ErrNotFinite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := New(tt.x, tt.y, tt.p); !errors.Is(err, tt.want) {
				t.Errorf("New = %v, want %v", err, tt.want)
			}
		})
	}
	// C is ignored by a hard margin.
	if _, _, err := New(ok, []int{-1, 1}, mod(func(p *Params) { p.C, p.Hard = 0, true })); err != nil {
		t.Errorf("hard margin with C = 0: %v", err)
	}
}

func TestKernels(t *testing.T) {
	x, z := []float64{1, 2}, []float64{3, -1}
	tests := []struct {
		k    Kernel
		want float64
	}{
		{Kernel{Kind: Linear}, 1},                               // 3 − 2
		{Kernel{Kind: Poly, Gamma: 2, Coef0: 1, Degree: 3}, 27}, // (1 + 2·1)³
		{Kernel{Kind: RBF, Gamma: 0.5}, math.Exp(-0.5 * 13)},    // ‖(−2, 3)‖² = 13
		{Kernel{Kind: Laplace, Gamma: 2}, math.Exp(-2 * math.Sqrt(13))},
	}
	for _, tt := range tests {
		if got := tt.k.Eval(x, z); !near(got, tt.want, 1e-15*math.Max(1, tt.want)) {
			t.Errorf("%v.Eval = %v, want %v", tt.k, got, tt.want)
		}
		kind, err := ParseKernelKind(tt.k.String())
		if err != nil || kind != tt.k.Kind {
			t.Errorf("ParseKernelKind(%q) = %v, %v", tt.k, kind, err)
		}
	}
	if _, err := ParseKernelKind("sigmoid"); !errors.Is(err, ErrParameters) || !strings.Contains(err.Error(), "sigmoid") {
		t.Errorf("ParseKernelKind(sigmoid) = %v", err)
	}
}

// TestColumnsAreEval: the kernel columns SMO reads are yᵢyₜ·Eval bit for
// bit, full or partial.
func TestColumnsAreEval(t *testing.T) {
	x, y := NoisyData(30, 8)
	for _, k := range []Kernel{{Kind: Linear}, {Kind: RBF, Gamma: 0.3}, {Kind: Laplace, Gamma: 2}, {Kind: Poly, Gamma: 0.5, Coef0: 2, Degree: 4}} {
		pr, _ := mustNew(t, x, y, Params{C: 1, Kernel: k, Tol: 1, MaxIter: 1})
		col := make([]float64, len(x))
		for i := range x {
			pr.fill(i, col, nil)
			for j := range x {
				if want := pr.Y[i] * pr.Y[j] * k.Eval(x[j], x[i]); col[j] != want || pr.qd[i] != k.Eval(x[i], x[i]) {
					t.Fatalf("%v: Q[%d][%d] = %v, want %v", k, j, i, col[j], want)
				}
			}
			part := make([]float64, len(x))
			pr.fill(i, part, []int{3, 7})
			if part[3] != col[3] || part[7] != col[7] || part[4] != 0 {
				t.Fatalf("%v: a partial column differs", k)
			}
		}
	}
}

// TestOptimality: at Tol 1e-8 every KKT violation is below Tol, the
// primal ½‖w‖² + CΣhinge equals −D to 1e-6 relative (strong duality),
// and the violations and the gap shrink to zero together.
func TestOptimality(t *testing.T) {
	x, y := NoisyData(300, 7)
	for _, k := range []Kernel{{Kind: Linear}, {Kind: RBF, Gamma: 1}, {Kind: Laplace, Gamma: 1}, {Kind: Poly, Gamma: 0.5, Coef0: 1, Degree: 3}} {
		for _, c := range []float64{0.1, 1, 10} {
			p := Params{C: c, Kernel: k, Tol: 1e-8, MaxIter: 1000000}
			pr, _ := mustNew(t, x, y, p)
			s, err := pr.Solve(context.Background())
			if err != nil || s.Status != algos.Converged {
				t.Fatalf("%v C %v: %v %v", k, c, s.Status, err)
			}
			if primal := pr.Primal(s); !near(primal, -s.Dual, 1e-6*math.Abs(s.Dual)) {
				t.Errorf("%v C %v: primal %v, −D %v", k, c, primal, -s.Dual)
			}
			for i, v := range pr.Violations(s) {
				if v > p.Tol {
					t.Errorf("%v C %v: point %d violates its KKT condition by %v > Tol", k, c, i, v)
				}
			}
			for _, i := range pr.Support(s) {
				kind := pr.Kind(s, i)
				m := float64(y[i]) * pr.Decision(s, x[i])
				switch {
				case kind == OnMargin && !near(m, 1, 1e-6):
					t.Errorf("%v C %v: on-margin point %d has yf = %v", k, c, i, m)
				case kind == Inside && !(m > -1e-9 && m < 1+1e-6):
					t.Errorf("%v C %v: inside point %d has yf = %v", k, c, i, m)
				case kind == Misclassified && !(m < 0):
					t.Errorf("%v C %v: misclassified point %d has yf = %v", k, c, i, m)
				}
			}
		}
	}
}

// TestLargeCIsHardMargin: on separable data C = 1e6 never binds, so the
// soft-margin SVM is the hard-margin one.
func TestLargeCIsHardMargin(t *testing.T) {
	x, y := separable(40, 0.3, 3)
	soft, s := mustNew(t, x, y, tight(Params{C: 1e6, Kernel: Kernel{Kind: Linear}}))
	hard, h := mustNew(t, x, y, tight(Params{Hard: true, Kernel: Kernel{Kind: Linear}}))
	s, h = run(t, soft, s), run(t, hard, h)
	ws, wh := soft.Weights(s), hard.Weights(h)
	if !near(ws[0], wh[0], 1e-7) || !near(ws[1], wh[1], 1e-7) || !near(s.B, h.B, 1e-7) || !near(s.Dual, h.Dual, 1e-9*math.Abs(h.Dual)) {
		t.Errorf("C = 1e6: w = %v, b = %v, D = %v; hard: %v, %v, %v", ws, s.B, s.Dual, wh, h.B, h.Dual)
	}
	if !slices.Equal(soft.Support(s), hard.Support(h)) {
		t.Errorf("support: C = 1e6 %v, hard %v", soft.Support(s), hard.Support(h))
	}
}

// separable returns n points in [−2, 2]² labelled by the side of the line
// x₁ + 0.5x₂ = 0.2 they fall on, keeping only those at distance > margin.
func separable(n int, margin float64, seed uint64) ([][]float64, []int) {
	src, _ := NoisyData(8*n, seed)
	var x [][]float64
	var y []int
	for _, p := range src {
		d := (p[0] + 0.5*p[1] - 0.2) / math.Sqrt(1.25)
		if math.Abs(d) <= margin || len(x) == n {
			continue
		}
		x = append(x, p)
		y = append(y, 1-2*btoi(d < 0))
	}
	return x, y
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestMarginsMatchDecision: the margins read off the gradient are the
// scores Decision computes from the kernel, to rounding.
func TestMarginsMatchDecision(t *testing.T) {
	x, y := NoisyData(60, 3)
	p := DefaultParams()
	p.Kernel = Kernel{Kind: RBF, Gamma: 2}
	pr, _, err := New(x, y, p)
	if err != nil {
		t.Fatal(err)
	}
	s, err := pr.Solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range pr.Margins(s) {
		if want := pr.Y[i] * pr.Decision(s, x[i]); math.Abs(m-want) > 1e-9 {
			t.Errorf("point %d: margin %v from G, %v from Decision", i, m, want)
		}
	}
}

// TestBiasRange checks the offsets the KKT conditions allow. On XOR with
// C = 1 every αᵢ = C and w = 0, so the primal is Σᵢ max(0, 1 − yᵢb),
// which is 4 − b·Σyᵢ = 4 for every b in [−1, 1] and larger outside: the
// interval is [−1, 1] and SMO's b its midpoint. On OR some
// multiplier is free and b is pinned.
func TestBiasRange(t *testing.T) {
	xor := [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	p := DefaultParams()
	pr, _, err := New(xor, []int{-1, 1, 1, -1}, p)
	if err != nil {
		t.Fatal(err)
	}
	s, err := pr.Solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, free := pr.BiasRange(s)
	if lo != -1 || hi != 1 || free != 0 || s.B != 0 {
		t.Fatalf("XOR: BiasRange = [%v, %v], %d free, b = %v; want [−1, 1], 0 free, b = 0", lo, hi, free, s.B)
	}
	at := func(b float64) float64 { s2 := s; s2.B = b; return pr.Primal(s2) }
	for _, b := range []float64{lo, (lo + hi) / 2, hi, 0.3} {
		if got := at(b); math.Abs(got-at(s.B)) > 1e-12 {
			t.Errorf("XOR: primal %v at b = %v, %v at SMO's b", got, b, at(s.B))
		}
	}
	for _, b := range []float64{lo - 0.1, hi + 0.1} {
		if at(b) <= at(s.B) {
			t.Errorf("XOR: primal %v at b = %v outside the interval is not above the optimum %v", at(b), b, at(s.B))
		}
	}

	pr, _, err = New(xor, []int{-1, 1, 1, 1}, p)
	if err != nil {
		t.Fatal(err)
	}
	if s, err = pr.Solve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if lo, hi, free := pr.BiasRange(s); free == 0 || lo != s.B || hi != s.B {
		t.Errorf("OR: BiasRange = [%v, %v], %d free; want b = %v pinned by a free multiplier", lo, hi, free, s.B)
	}
}
