package primal

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/algos/svm/svmtest"
)

// TestKernelPegasosOptimumBruteForce: on tiny sets the optimum is the
// exhaustive active-set search's (bruteQP without intercept, box
// C = 1/(2λn), α = y∘β), to 1e-6 in objective and margins; and no small
// move of α lowers the objective, a check made on the primal alone
// (convex, so a local minimum is the global one).
func TestKernelPegasosOptimumBruteForce(t *testing.T) {
	kernels := []svm.Kernel{{Kind: svm.Linear}, {Kind: svm.RBF, Gamma: 0.7}, {Kind: svm.Poly, Gamma: 0.5, Coef0: 1, Degree: 2}, {Kind: svm.Laplace, Gamma: 1}}
	for seed := uint64(1); seed <= 4; seed++ {
		n := 3 + int(seed)%4 // 4…6
		x, y := svm.NoisyData(n, seed)
		yf := labels(y)
		for _, k := range kernels {
			for _, lambda := range []float64{0.01, 0.3} {
				name := fmt.Sprintf("seed %d n %d %v λ %v", seed, n, k, lambda)
				alpha, obj, err := KernelPegasosOptimum(context.Background(), x, y, k, lambda)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				beta, _ := svmtest.BruteQP(svmtest.Q(k.Eval, x, yf), yf, 1/(2*lambda*float64(n)), false)
				want := make([]float64, n)
				for i, b := range beta {
					want[i] = b * yf[i]
				}
				kp, _, _ := NewKernelPegasos(x, y, KernelPegasosParams{Kernel: k, Lambda: lambda, T: 1})
				if wantObj := kp.Objective(want); !near(obj, wantObj, 1e-6*math.Max(1, wantObj)) {
					t.Errorf("%s: objective %.12g, brute force %.12g", name, obj, wantObj)
				}
				got, wm := kp.Margins(alpha), kp.Margins(want)
				for i := range got {
					if !near(got[i], wm[i], 1e-6*math.Max(1, math.Abs(wm[i]))) {
						t.Errorf("%s: margins %v, brute force %v", name, got, wm)
						break
					}
				}
				checkLocalMin(t, name, kp, alpha, obj)
			}
		}
	}
}

// checkLocalMin fails when some of 200 random moves of α, of sizes 1e-4
// to 1e-1, lowers the objective by more than rounding.
func checkLocalMin(t *testing.T, name string, kp *KernelPegasos, alpha []float64, obj float64) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(len(alpha)), 9))
	a := make([]float64, len(alpha))
	for try := range 200 {
		eps := math.Pow(10, -1-float64(try%4))
		for i := range a {
			a[i] = alpha[i] + eps*r.NormFloat64()
		}
		if f := kp.Objective(a); f < obj-1e-12 {
			t.Errorf("%s: α + move of size %g has objective %.15g < optimum %.15g", name, eps, f, obj)
			return
		}
	}
}

// TestKernelPegasosOptimumLinear: with the linear kernel on the points
// (x, 1) the objective is Pegasos' (the bias is the last weight,
// regularised with the rest), so the optimum is PegasosOptimum's, which
// SMO finds on svm.Mirror'ed points: an unrelated solver.
func TestKernelPegasosOptimumLinear(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		x, y := svm.NoisyData(80, seed)
		for _, lambda := range []float64{0.001, 0.05} {
			theta, want, err := PegasosOptimum(context.Background(), x, y, lambda)
			if err != nil {
				t.Fatal(err)
			}
			aug := augment(x)
			alpha, got, err := KernelPegasosOptimum(context.Background(), aug, y, svm.Kernel{Kind: svm.Linear}, lambda)
			if err != nil {
				t.Fatal(err)
			}
			if !near(got, want, 1e-8*math.Max(1, want)) {
				t.Errorf("seed %d λ %v: objective %.12g, PegasosOptimum %.12g", seed, lambda, got, want)
			}
			w := make([]float64, 3)
			for i, a := range alpha {
				for k, v := range aug[i] {
					w[k] += a * v
				}
			}
			for k := range w {
				if !near(w[k], theta[k], 1e-5*math.Max(1, math.Abs(theta[k]))) {
					t.Errorf("seed %d λ %v: w = Σαᵢx̃ᵢ = %v, PegasosOptimum θ = %v", seed, lambda, w, theta)
					break
				}
			}
		}
	}
}

// TestKernelPegasosOptimumColumns: beyond fullGramMax the solver reads
// cached kernel columns instead of the Gram matrix; the columns hold the
// same values, so the answer is the same bit for bit.
func TestKernelPegasosOptimumColumns(t *testing.T) {
	x, y := svm.NoisyData(fullGramMax+100, 4)
	k := svm.Kernel{Kind: svm.RBF, Gamma: 1}
	alpha, _, err := KernelPegasosOptimum(context.Background(), x, y, k, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	kp := &KernelPegasos{X: x, Y: labels(y), P: KernelPegasosParams{Kernel: k, Lambda: 0.01}}
	n := len(x)
	kp.gram = make([]float64, n*n)
	for j := range x {
		for i := range x {
			kp.gram[j*n+i] = k.Eval(x[i], x[j])
		}
	}
	d := newDualCD(kp)
	if _, _, ok, _ := d.solve(context.Background(), KernelOptWork); !ok || !sameBits(d.alpha(), alpha) {
		t.Errorf("with the Gram matrix: converged %v, same α %v", ok, sameBits(d.alpha(), alpha))
	}
}

// TestKernelPegasosApproachesOptimum: the averaged iterate's objective
// falls towards the optimum as T grows, and never below it.
//
// The bound on the last gap is Pegasos' (Shalev-Shwartz et al., 2011,
// Thm 1 with Jensen for the average): in expectation the gap after T
// steps is at most G²(1 + ln T)/(2λ′T), where λ′ = 2λ (our objective is
// λ‖w‖² = (λ′/2)‖w‖²) and G bounds the subgradients λ′w − yφ(x). With RBF
// ‖φ(x)‖² = K(x, x) = 1 and ‖w_t‖ ≤ 1/λ′, so G ≤ 2 and the bound is
// (1 + ln T)/(λT) ≈ 0.10 at T = 10⁴, λ = 0.01.
func TestKernelPegasosApproachesOptimum(t *testing.T) {
	x, y := svm.NoisyData(100, 5)
	const lambda = 0.01
	k := svm.Kernel{Kind: svm.RBF, Gamma: 1}
	_, opt, err := KernelPegasosOptimum(context.Background(), x, y, k, lambda)
	if err != nil {
		t.Fatal(err)
	}
	kp, s, err := NewKernelPegasos(x, y, KernelPegasosParams{Kernel: k, Lambda: lambda, T: 10000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var gaps []float64
	for _, until := range []int{100, 1000, 10000} {
		for s.T < until {
			kp.Advance(&s)
		}
		f := kp.Objective(s.Avg)
		if f < opt-1e-9 {
			t.Fatalf("T = %d: objective %v below the optimum %v", s.T, f, opt)
		}
		gaps = append(gaps, f-opt)
	}
	bound := (1 + math.Log(10000)) / (lambda * 10000)
	if !(gaps[0] > gaps[1] && gaps[1] > gaps[2] && gaps[2] < bound) {
		t.Errorf("objective − optimum %v after 1e2, 1e3, 1e4 iterations; want strictly decreasing to < %.3g (optimum %v)", gaps, bound, opt)
	}
	t.Logf("optimum %.6g, gaps %.3g, bound %.3g", opt, gaps, bound)
}

func TestKernelPegasosOptimumValidation(t *testing.T) {
	x, y := svm.NoisyData(5, 1)
	for _, tc := range []struct {
		name   string
		k      svm.Kernel
		lambda float64
		want   error
	}{
		{"λ = 0", svm.Kernel{Kind: svm.Linear}, 0, svm.ErrParameters},
		{"λ = NaN", svm.Kernel{Kind: svm.Linear}, math.NaN(), svm.ErrParameters},
		{"neg-sqdist", svm.Kernel{Kind: svm.NegSqDist}, 1, svm.ErrParameters},
		{"poly degree 0", svm.Kernel{Kind: svm.Poly, Gamma: 1}, 1, svm.ErrParameters},
	} {
		if _, _, err := KernelPegasosOptimum(context.Background(), x, y, tc.k, tc.lambda); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, _, err := KernelPegasosOptimum(context.Background(), x, y[:4], svm.Kernel{Kind: svm.Linear}, 1); !errors.Is(err, svm.ErrShape) {
		t.Errorf("4 labels for 5 points: %v, want %v", err, svm.ErrShape)
	}
}

// TestKernelPegasosOptimumBudget: a problem that needs many passes, given
// the work of a few, returns the α reached with an *ApproxError wrapping
// ErrIterationLimit, whose gap bounds how far its objective is above the
// true optimum.
func TestKernelPegasosOptimumBudget(t *testing.T) {
	x, y := svm.NoisyData(100, 2)
	kp, _, err := NewKernelPegasos(x, y, KernelPegasosParams{Kernel: svm.Kernel{Kind: svm.RBF, Gamma: 1}, Lambda: 1e-4, T: 1})
	if err != nil {
		t.Fatal(err)
	}
	alpha, obj, err := kernelOptimum(context.Background(), kp, 3e4)
	var ae *ApproxError
	if !errors.Is(err, algos.ErrIterationLimit) || !errors.As(err, &ae) || len(alpha) != 100 || !(obj < 1) {
		t.Fatalf("3·10⁴ units: %v, %d coefficients, objective %v; want the iteration limit with the α reached", err, len(alpha), obj)
	}
	if ae.Steps < 1 || ae.Steps > 30 {
		t.Errorf("%d passes in 3·10⁴ units of work on 100 points (a pass costs 200 to 10 200); want 1 to 30", ae.Steps)
	}
	_, opt, err := kernelOptimum(context.Background(), kp, KernelOptWork)
	if err != nil {
		t.Fatal(err)
	}
	if !(ae.Lower <= opt+1e-12 && opt <= ae.Upper+1e-12 && ae.Upper <= obj) {
		t.Errorf("stopped at objective %v with bounds [%v, %v]; the optimum %v should lie between them", obj, ae.Lower, ae.Upper, opt)
	}
	t.Log(err)
}
