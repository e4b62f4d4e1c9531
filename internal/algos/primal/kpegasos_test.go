package primal

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
)

// kpegasosRun is the procedure's trace: per iteration t = 1…T, α⁽ᵗ⁾, the
// j drawn, the margin compared with 1 and β⁽ᵗ⁺¹⁾, then the average.
type kpegasosRun struct {
	alpha, beta [][]float64
	j           []int
	margin      []float64
	avg         []float64
}

// kpegasosReference is 001's "SGD procedure for SVM with kernels"
// transcribed line by line on the full Gram matrix K[i][j] =
// K(xᵢ, xⱼ), recomputing everything each step, with the draws the package
// documents (IntN(n) from rand.New(rand.NewPCG(seed, 0)), 0-based).
// Products are rounded before they are added, as the package does, so
// the comparison can be exact on every machine.
func kpegasosReference(K [][]float64, y []int, lambda float64, T int, seed uint64) kpegasosRun {
	r := rand.New(rand.NewPCG(seed, 0))
	n := len(K)
	var run kpegasosRun
	beta := make([]float64, n) // beta[i][1] ← initial zero for i from 1,...,n
	for t := 1; t <= T; t++ {  // for (t = 1,...,T)
		alpha := make([]float64, n) // alpha[i][t] ← beta[i][t]/(2*lambda*t)
		for i := range alpha {
			alpha[i] = beta[i] / (2 * lambda * float64(t))
		}
		j := r.IntN(n)             // Choose j uniformly at random from 1,...,n
		next := slices.Clone(beta) // beta[i][t+1] ← beta[i][t] # for i not equal j
		var sum float64
		for i := range n { // sum( alpha[i][t]*K[i,j], i from 1,...,n )
			sum += float64(alpha[i] * K[i][j])
		}
		m := float64(y[j]) * sum
		if m < 1 { // if (y[j]*sum(...) < 1)
			next[j] = beta[j] + float64(y[j]) // beta[j][t+1] ← beta[j][t] + y[j]
		} // else beta[j][t+1] ← beta[j][t]
		beta = next
		run.alpha = append(run.alpha, alpha)
		run.beta = append(run.beta, slices.Clone(beta))
		run.j = append(run.j, j)
		run.margin = append(run.margin, m)
	}
	run.avg = make([]float64, n) // return average (alpha[i][1], ..., alpha[i][T])
	for _, a := range run.alpha {
		for i := range run.avg {
			run.avg[i] += a[i]
		}
	}
	for i := range run.avg {
		run.avg[i] /= float64(T)
	}
	return run
}

func fullGram(k svm.Kernel, x [][]float64) [][]float64 {
	K := make([][]float64, len(x))
	for i := range x {
		K[i] = make([]float64, len(x))
		for j := range x {
			K[i][j] = k.Eval(x[i], x[j])
		}
	}
	return K
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
}

var kpegasosCases = []struct {
	n      int
	seed   uint64
	k      svm.Kernel
	lambda float64
	T      int
}{
	{30, 1, svm.Kernel{Kind: svm.RBF, Gamma: 1}, 0.01, 500},
	{25, 2, svm.Kernel{Kind: svm.Linear}, 0.05, 400},
	{40, 3, svm.Kernel{Kind: svm.Poly, Gamma: 0.5, Coef0: 1, Degree: 3}, 0.02, 500},
	{20, 4, svm.Kernel{Kind: svm.Laplace, Gamma: 0.7}, 0.1, 300},
	{12, 5, svm.Kernel{Kind: svm.RBF, Gamma: 5}, 1e-4, 500},
	{fullGramMax + 50, 6, svm.Kernel{Kind: svm.RBF, Gamma: 2}, 0.001, 300}, // columns on demand
}

// TestKernelPegasosMatchesProcedure: every iteration of Step and Advance
// is the transcribed procedure's, bit for bit, with and without the
// Gram matrix, and Step leaves its argument alone.
func TestKernelPegasosMatchesProcedure(t *testing.T) {
	for _, tc := range kpegasosCases {
		name := fmt.Sprintf("n %d seed %d %v λ %v", tc.n, tc.seed, tc.k, tc.lambda)
		x, y := svm.NoisyData(tc.n, tc.seed)
		kp, s0, err := NewKernelPegasos(x, y, KernelPegasosParams{Kernel: tc.k, Lambda: tc.lambda, T: tc.T, Seed: tc.seed})
		if err != nil {
			t.Fatal(err)
		}
		if (kp.gram == nil) != (tc.n > fullGramMax) {
			t.Fatalf("%s: Gram matrix kept = %v", name, kp.gram != nil)
		}
		ref := kpegasosReference(fullGram(tc.k, x), y, tc.lambda, tc.T, tc.seed)
		s, adv := s0, kp.Clone(s0)
		for t1 := 1; t1 <= tc.T; t1++ {
			prev := kp.Clone(s)
			s = kp.Step(s)
			kp.Advance(&adv)
			k := t1 - 1
			if s.T != t1 || s.I != ref.j[k] || math.Float64bits(s.Margin) != math.Float64bits(ref.margin[k]) || s.Violated != (ref.margin[k] < 1) ||
				!sameBits(s.Alpha, ref.alpha[k]) || !sameBits(s.Beta, ref.beta[k]) {
				t.Fatalf("%s: iteration %d: j %d margin %v differs from the procedure's j %d margin %v (or α, β)", name, t1, s.I, s.Margin, ref.j[k], ref.margin[k])
			}
			if adv.I != s.I || adv.Margin != s.Margin || !sameBits(adv.Beta, s.Beta) || !sameBits(adv.Avg, s.Avg) {
				t.Fatalf("%s: iteration %d: Advance differs from Step", name, t1)
			}
			if prev.T != t1-1 || (t1 > 1 && !sameBits(prev.Beta, ref.beta[k-1])) {
				t.Fatalf("%s: iteration %d: Step modified its argument", name, t1)
			}
		}
		if s.Status != algos.IterationLimit || !sameBits(s.Avg, ref.avg) {
			t.Errorf("%s: after T: %v, Avg differs from the procedure's average", name, s.Status)
		}
		if again := kp.Step(s); again.T != s.T {
			t.Errorf("%s: Step after T moved to %d", name, again.T)
		}
	}
}

// TestKernelPegasosReplay: two replays agree bit for bit, and stepping a
// clone of a middle state continues the same run (the generator is part
// of the state).
func TestKernelPegasosReplay(t *testing.T) {
	x, y := svm.NoisyData(50, 7)
	p := KernelPegasosParams{Kernel: svm.Kernel{Kind: svm.RBF, Gamma: 1.5}, Lambda: 0.01, T: 400, Seed: 11}
	kp, s0, err := NewKernelPegasos(x, y, p)
	if err != nil {
		t.Fatal(err)
	}
	a, ka, _ := algos.Replay[KernelPegasosState](kp, s0, 1000)
	b, kb, _ := algos.Replay[KernelPegasosState](kp, s0, 1000)
	if ka != p.T || kb != p.T || !sameBits(a.Avg, b.Avg) || !sameBits(a.Beta, b.Beta) {
		t.Fatalf("replays: %d and %d steps, averages differ: %v", ka, kb, !sameBits(a.Avg, b.Avg))
	}
	mid, _, _ := algos.Replay[KernelPegasosState](kp, s0, 137)
	c := kp.Clone(mid)
	for !c.Status.Done() {
		c = kp.Step(c)
	}
	if c.T != a.T || !sameBits(c.Avg, a.Avg) || !sameBits(c.Beta, a.Beta) || c.I != a.I {
		t.Errorf("continuing from state 137 ends at T %d with another model than the replay", c.T)
	}
	if mid.T != 137 {
		t.Errorf("stepping the clone moved the state it came from to T %d", mid.T)
	}
}

// TestKernelPegasosModel: Score is the expansion of Avg with no bias,
// Margins and Objective follow their definitions, and the objective of
// α = 0 is the mean hinge of 0, which is 1.
func TestKernelPegasosModel(t *testing.T) {
	x, y := svm.NoisyData(40, 8)
	k := svm.Kernel{Kind: svm.Poly, Gamma: 0.5, Coef0: 1, Degree: 2}
	kp, s, err := NewKernelPegasos(x, y, KernelPegasosParams{Kernel: k, Lambda: 0.05, T: 200, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := kp.Objective(s.Avg); got != 1 {
		t.Errorf("Objective(0) = %v, want 1", got)
	}
	s, _, _ = algos.Replay[KernelPegasosState](kp, s, 200)
	e := kp.Expansion(s)
	if e.B != 0 {
		t.Errorf("Expansion B = %v, want 0", e.B)
	}
	K := fullGram(k, x)
	var quad, hinge float64
	margins := kp.Margins(s.Avg)
	for i := range x {
		var ka float64
		for j := range x {
			ka += K[i][j] * s.Avg[j]
		}
		if want := float64(y[i]) * ka; !near(margins[i], want, 1e-12*math.Max(1, math.Abs(want))) {
			t.Errorf("Margins[%d] = %v, want %v", i, margins[i], want)
		}
		quad += s.Avg[i] * ka
		hinge += math.Max(0, 1-float64(y[i])*ka)
		if got, want := kp.Score(s, x[i]), e.Eval(x[i]); got != want || !near(got, ka, 1e-12*math.Max(1, math.Abs(ka))) {
			t.Errorf("Score(x%d) = %v, Expansion %v, Σ ᾱK %v", i, got, want, ka)
		}
	}
	if got, want := kp.Objective(s.Avg), 0.05*quad+hinge/40; !near(got, want, 1e-12) {
		t.Errorf("Objective(ᾱ) = %v, want %v", got, want)
	}
}

func TestKernelPegasosValidation(t *testing.T) {
	x, y := svm.NoisyData(6, 1)
	rbf := svm.Kernel{Kind: svm.RBF, Gamma: 1}
	cases := []struct {
		name string
		x    [][]float64
		y    []int
		p    KernelPegasosParams
		want error
	}{
		{"λ = 0", x, y, KernelPegasosParams{Kernel: rbf, Lambda: 0, T: 1}, svm.ErrParameters},
		{"λ = ∞", x, y, KernelPegasosParams{Kernel: rbf, Lambda: math.Inf(1), T: 1}, svm.ErrParameters},
		{"T = 0", x, y, KernelPegasosParams{Kernel: rbf, Lambda: 1, T: 0}, svm.ErrParameters},
		{"γ = 0", x, y, KernelPegasosParams{Kernel: svm.Kernel{Kind: svm.RBF}, Lambda: 1, T: 1}, svm.ErrParameters},
		{"sigmoid", x, y, KernelPegasosParams{Kernel: svm.Kernel{Kind: svm.Sigmoid, Gamma: 1}, Lambda: 1, T: 1}, svm.ErrParameters},
		{"one class", x, []int{1, 1, 1, 1, 1, 1}, KernelPegasosParams{Kernel: rbf, Lambda: 1, T: 1}, svm.ErrLabel},
		{"no data", nil, nil, KernelPegasosParams{Kernel: rbf, Lambda: 1, T: 1}, svm.ErrNoData},
		{"overflow", [][]float64{{1e200, 0}, {0, 1}}, []int{1, -1}, KernelPegasosParams{Kernel: svm.Kernel{Kind: svm.Poly, Gamma: 1, Degree: 2}, Lambda: 1, T: 1}, svm.ErrNotFinite},
	}
	for _, tc := range cases {
		if _, _, err := NewKernelPegasos(tc.x, tc.y, tc.p); !errors.Is(err, tc.want) {
			t.Errorf("%s: NewKernelPegasos error %v, want %v", tc.name, err, tc.want)
		}
	}
}

// benchKernelPegasos times Advance on n points with RBF: with the Gram
// matrix (n ≤ fullGramMax) or with kernels over the βᵢ ≠ 0 on demand.
func benchKernelPegasos(b *testing.B, n int) {
	x, y := svm.NoisyData(n, 1)
	kp, s0, err := NewKernelPegasos(x, y, KernelPegasosParams{Kernel: svm.Kernel{Kind: svm.RBF, Gamma: 1}, Lambda: 1e-3, T: 20000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	s := kp.Clone(s0)
	for b.Loop() {
		if s.Status.Done() {
			s = kp.Clone(s0)
		}
		kp.Advance(&s)
	}
}

func BenchmarkKernelPegasosStep500(b *testing.B)  { benchKernelPegasos(b, 500) }
func BenchmarkKernelPegasosStep5000(b *testing.B) { benchKernelPegasos(b, 5000) }

// TestKernelPegasosColumn: Column gives K(xᵢ, xⱼ) from the kept Gram
// matrix and, past fullGramMax, computed, the same values either way.
func TestKernelPegasosColumn(t *testing.T) {
	for _, n := range []int{40, fullGramMax + 1} {
		x, y := svm.NoisyData(n, 5)
		k := svm.Kernel{Kind: svm.RBF, Gamma: 0.7}
		kp, _, err := NewKernelPegasos(x, y, KernelPegasosParams{Kernel: k, Lambda: 0.1, T: 1, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range []int{0, n / 2, n - 1} {
			col := kp.Column(j, nil)
			for i := range x {
				if col[i] != k.Eval(x[i], x[j]) {
					t.Fatalf("n = %d: Column(%d)[%d] = %v, want K = %v", n, j, i, col[i], k.Eval(x[i], x[j]))
				}
			}
		}
	}
}

// TestKernelPegasosRefusesNonKernels: NewKernelPegasos refuses what is not
// a kernel with ErrParameters saying so, as svm.New does.
func TestKernelPegasosRefusesNonKernels(t *testing.T) {
	x, y := [][]float64{{0, 0}, {1, 1}}, []int{-1, 1}
	for _, k := range []svm.Kernel{{Kind: svm.Sigmoid, Gamma: 1, Coef0: 0}, {Kind: svm.NegSqDist}} {
		_, _, err := NewKernelPegasos(x, y, KernelPegasosParams{Kernel: k, Lambda: 1, T: 1})
		if !errors.Is(err, svm.ErrParameters) || !strings.Contains(err.Error(), "not a kernel") {
			t.Errorf("NewKernelPegasos with %v: %v, want ErrParameters saying it is not a kernel", k, err)
		}
	}
}
