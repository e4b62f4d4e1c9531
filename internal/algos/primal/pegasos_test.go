package primal

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/algos/svm/svmtest"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// pegasosReference is 001's "procedure for SGD on SVM" transcribed line
// by line, with the draws the package documents (IntN(n) from
// rand.New(rand.NewPCG(seed, 0)), 0-based). It returns W[1..T] and the
// average. Products are rounded before they are added, as the package
// does, so that the comparison can be exact on every machine.
func pegasosReference(x [][]float64, y []int, lambda float64, T int, seed uint64) (ws [][]float64, avg []float64) {
	r := rand.New(rand.NewPCG(seed, 0))
	n, d := len(x), len(x[0])
	theta := make([]float64, d+1) // theta[1] ← initial array of d+1 zeros
	X := make([][]float64, n)     // X ← (x,1) # 1's in last column
	for i := range x {
		X[i] = append(slices.Clone(x[i]), 1)
	}
	for t := 1; t <= T; t++ { // for (t = 1, ..., T)
		W := make([]float64, d+1) // W[t] ← theta[t]/(2*lambda*t)
		for k := range W {
			W[k] = theta[k] / (2 * lambda * float64(t))
		}
		i := r.IntN(n) // Choose i uniformly at random from 1, ..., n
		var dot float64
		for k := range W {
			dot += float64(W[k] * X[i][k])
		}
		if float64(y[i])*dot < 1 { // if (y[i]*dot(W[t], X[i]) < 1)
			for k := range theta { // theta[t+1] ← theta[t] + y[i]*X[i]
				theta[k] += float64(y[i]) * X[i][k]
			}
		} // else theta[t+1] ← theta[t]
		ws = append(ws, W)
	}
	avg = make([]float64, d+1) // return average of W[1], ..., W[T]
	for _, W := range ws {
		for k := range avg {
			avg[k] += W[k]
		}
	}
	for k := range avg {
		avg[k] /= float64(T)
	}
	return ws, avg
}

func TestPegasosMatchesProcedure(t *testing.T) {
	x, y := svm.NoisyData(40, 3)
	p := PegasosParams{Lambda: 0.05, T: 500, Seed: 7}
	pg, s0, err := NewPegasos(x, y, p)
	if err != nil {
		t.Fatal(err)
	}
	ws, avg := pegasosReference(x, y, p.Lambda, p.T, p.Seed)
	s := s0
	adv := pg.Clone(s0)
	for t1 := 1; t1 <= p.T; t1++ {
		prev := pg.Clone(s)
		s = pg.Step(s)
		pg.Advance(&adv)
		if !slices.Equal(s.W, ws[t1-1]) || s.T != t1 {
			t.Fatalf("t = %d: W = %v, procedure %v", t1, s.W, ws[t1-1])
		}
		if !slices.Equal(adv.W, s.W) || !slices.Equal(adv.Theta, s.Theta) || !slices.Equal(adv.Avg, s.Avg) || adv.I != s.I {
			t.Fatalf("t = %d: Advance differs from Step", t1)
		}
		want := slices.Clone(prev.Theta)
		if s.Violated {
			for k := range want {
				want[k] += float64(y[s.I]) * append(slices.Clone(x[s.I]), 1)[k]
			}
		}
		if !slices.Equal(s.Theta, want) || s.Violated != (float64(y[s.I])*dot(s.W, append(slices.Clone(x[s.I]), 1)) < 1) {
			t.Fatalf("t = %d: θ or Violated inconsistent with i = %d", t1, s.I)
		}
	}
	if s.Status != algos.IterationLimit || !slices.Equal(s.Avg, avg) {
		t.Errorf("after T: %v, Avg = %v; procedure returns %v", s.Status, s.Avg, avg)
	}
	if again := pg.Step(s); again.T != s.T {
		t.Errorf("Step after T moved to %d", again.T)
	}
	got, k, _ := algos.Replay[PegasosState](pg, s0, 1000)
	if k != p.T || !slices.Equal(got.Avg, avg) {
		t.Errorf("Replay: %d steps, Avg %v", k, got.Avg)
	}
}

// TestPegasosApproachesOptimum: the averaged iterate's objective falls
// towards PegasosOptimum's, and never below it.
func TestPegasosApproachesOptimum(t *testing.T) {
	x, y := svm.NoisyData(200, 5)
	const lambda = 0.01
	_, opt, err := PegasosOptimum(context.Background(), x, y, lambda)
	if err != nil {
		t.Fatal(err)
	}
	pg, s, err := NewPegasos(x, y, PegasosParams{Lambda: lambda, T: 100000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var gaps []float64
	for _, until := range []int{100, 1000, 10000, 100000} {
		for s.T < until {
			pg.Advance(&s)
		}
		f := pg.Objective(s.Avg)
		if f < opt-1e-9 {
			t.Fatalf("T = %d: objective %v below the optimum %v", s.T, f, opt)
		}
		gaps = append(gaps, f-opt)
	}
	if !(gaps[3] < gaps[0]/10 && gaps[3] < 0.01*opt) {
		t.Errorf("objective − optimum after 1e2…1e5 iterations: %v; want a tenfold fall to < 1%% of %v", gaps, opt)
	}
}

// TestPegasosOptimumExact compares the mirrored SMO with the exhaustive
// active-set search of the no-intercept dual, min ½αᵀQα − Σα over
// 0 ≤ α ≤ 1/(2λn) on the points (x, 1) with no equality constraint, whose
// θ = Σαᵢyᵢx̃ᵢ minimises the objective divided by 2λ.
func TestPegasosOptimumExact(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		x, y := svm.NoisyData(7, seed)
		for _, lambda := range []float64{0.01, 0.3} {
			theta, obj, err := PegasosOptimum(context.Background(), x, y, lambda)
			if err != nil {
				t.Fatal(err)
			}
			aug := augment(x)
			yf := labels(y)
			alpha, _ := svmtest.BruteQP(svmtest.Q(svm.Kernel{Kind: svm.Linear}.Eval, aug, yf), yf, 1/(2*lambda*7), false)
			want := make([]float64, 3)
			for i, a := range alpha {
				for k := range want {
					want[k] += a * yf[i] * aug[i][k]
				}
			}
			pg, _, _ := NewPegasos(x, y, PegasosParams{Lambda: lambda, T: 1})
			for k := range want {
				if !near(theta[k], want[k], 1e-6*math.Max(1, math.Abs(want[k]))) {
					t.Errorf("seed %d λ %v: θ = %v, brute force %v", seed, lambda, theta, want)
					break
				}
			}
			if wantObj := pg.Objective(want); !near(obj, wantObj, 1e-10+1e-9*wantObj) {
				t.Errorf("seed %d λ %v: objective %v, brute force %v", seed, lambda, obj, wantObj)
			}
		}
	}
}

func TestTrainerValidation(t *testing.T) {
	x, y := svm.NoisyData(4, 1)
	if _, _, err := NewPegasos(x, y, PegasosParams{Lambda: 0, T: 1}); !errors.Is(err, svm.ErrParameters) {
		t.Errorf("λ = 0: %v", err)
	}
	if _, _, err := NewPegasos(x, y, PegasosParams{Lambda: 1, T: 0}); !errors.Is(err, svm.ErrParameters) {
		t.Errorf("T = 0: %v", err)
	}
	if _, _, err := NewPegasos(x, []int{1, 1, 1, 1}, PegasosParams{Lambda: 1, T: 1}); !errors.Is(err, svm.ErrLabel) {
		t.Errorf("one class: %v", err)
	}
	if _, _, err := PegasosOptimum(context.Background(), x, y, math.Inf(1)); !errors.Is(err, svm.ErrParameters) {
		t.Errorf("PegasosOptimum λ = ∞: %v", err)
	}
	for _, p := range []SubgradientParams{{C: 0, Eta: 1, T: 1}, {C: 1, Eta: 0, T: 1}, {C: 1, Eta: 1, T: 0}} {
		if _, _, err := NewSubgradient(x, y, p); !errors.Is(err, svm.ErrParameters) {
			t.Errorf("NewSubgradient(%+v) = %v", p, err)
		}
	}
}

// TestSubgradientFirstStep: from w = 0, b = 0 every point has yf = 0 ≤ 1,
// so the step is w = ηCΣyᵢxᵢ, b = ηCΣyᵢ, worked here on three points.
func TestSubgradientFirstStep(t *testing.T) {
	x := [][]float64{{1, 0}, {0, 2}, {-1, -1}}
	y := []int{1, 1, -1}
	sg, s, err := NewSubgradient(x, y, SubgradientParams{C: 0.5, Eta: 0.1, T: 10})
	if err != nil {
		t.Fatal(err)
	}
	if s.Objective != 1.5 || s.Violators != 3 { // C·Σ1 = 0.5·3
		t.Errorf("state 0: objective %v, %d violators; want 1.5, 3", s.Objective, s.Violators)
	}
	s = sg.Step(s)
	// Σyx = (1,0) + (0,2) + (1,1) = (2, 3), Σy = 1; ηC = 0.05.
	if !near(s.W[0], 0.1, 1e-15) || !near(s.W[1], 0.15, 1e-15) || !near(s.B, 0.05, 1e-15) {
		t.Errorf("step 1: w = %v, b = %v; want (0.1, 0.15), 0.05", s.W, s.B)
	}
}

// TestSubgradientApproachesSMO: with η/√t the best objective approaches
// the SVM primal optimum Primal(α*), the same objective, from above.
func TestSubgradientApproachesSMO(t *testing.T) {
	x, y := svm.NoisyData(100, 6)
	const c = 0.1
	pr, s0, err := svm.New(x, y, svm.Params{C: c, Kernel: svm.Kernel{Kind: svm.Linear}, Tol: 1e-10, MaxIter: 100000})
	if err != nil {
		t.Fatal(err)
	}
	for !s0.Status.Done() {
		s0 = pr.Step(s0)
	}
	opt := pr.Primal(s0)
	sg, s, err := NewSubgradient(x, y, SubgradientParams{C: c, Eta: 0.5, Decay: true, T: 20000})
	if err != nil {
		t.Fatal(err)
	}
	first := s.Objective
	for !s.Status.Done() {
		s = sg.Step(s)
	}
	if s.Status != algos.IterationLimit || s.Best < opt-1e-9 || s.Best-opt > 1e-3*(first-opt) {
		t.Errorf("%v: best %v, optimum %v, start %v", s.Status, s.Best, opt, first)
	}
}

func TestSubgradientDiverges(t *testing.T) {
	x, y := svm.NoisyData(20, 2)
	sg, s, _ := NewSubgradient(x, y, SubgradientParams{C: 1, Eta: 5, T: 100000})
	for !s.Status.Done() {
		s = sg.Step(s)
	}
	if s.Status != algos.Diverged || math.IsInf(s.Objective, 0) || s.T >= 100000 {
		t.Errorf("η = 5: %v at T = %d, objective %v; want diverged with a finite last state", s.Status, s.T, s.Objective)
	}
}

// TestPegasosOptimumBudget: SMO given the work of a few iterations stops
// with an *ApproxError whose gap bounds how far its objective is above the
// exact optimum.
func TestPegasosOptimumBudget(t *testing.T) {
	x, y := svm.NoisyData(100, 3)
	ctx := context.Background()
	_, obj, err := pegasosOptimum(ctx, x, y, 1e-3, (4*100*3+passOverhead)*5)
	var ae *ApproxError
	if !errors.As(err, &ae) || !errors.Is(err, algos.ErrIterationLimit) || ae.Steps != 5 {
		t.Fatalf("the work of 5 iterations: %v; want an *ApproxError after 5 iterations", err)
	}
	_, opt, err := PegasosOptimum(ctx, x, y, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if !(ae.Lower <= opt+1e-12 && opt <= ae.Upper+1e-12 && ae.Upper <= obj) {
		t.Errorf("stopped at objective %v with bounds [%v, %v]; the optimum %v should lie between them", obj, ae.Lower, ae.Upper, opt)
	}
}
