package svm

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/primal"
	"github.com/margin-edu/margin/internal/bigmath"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
)

// bigDot is Σₖ aₖbₖ in 200 bits.
func bigDot(a []*big.Float, b []float64) *big.Float {
	s := bigmath.Int(0)
	for k, v := range b {
		s = bigmath.Add(s, bigmath.Mul(a[k], bigmath.New(v)))
	}
	return s
}

func bigVec(x []float64) []*big.Float {
	out := make([]*big.Float, len(x))
	for k, v := range x {
		out[k] = bigmath.New(v)
	}
	return out
}

// TestPredictSGDReplay200 replays step t+1 of svm-sgd's and
// kernel-pegasos's questions from the float64 state at t in 200-bit
// arithmetic and checks the graded answer wherever one is asked (issue
// 27 §5): Pegasos' y·W_t·X̃ < 1, subgradient descent's "does (1.6.a) go
// down" with η_t = η/√t and the step's sum over yᵢf(xᵢ) ≤ 1, kernel
// Pegasos' yⱼ Σ αᵢK(xᵢ, xⱼ) < 1 and the sign of f(q) after the average
// takes in α⁽ᵗ⁺¹⁾.
func TestPredictSGDReplay200(t *testing.T) {
	asked := map[string]int{}
	for _, c := range []struct {
		spec  demo.Spec
		query string
	}{
		{SGDSpec(), ""}, {SGDSpec(), "data=separable&seed=3"}, {SGDSpec(), "data=or&lambda=0.1&T=30"}, {SGDSpec(), "data=xor&lambda=0.001"},
		{SGDSpec(), "method=subgradient"}, {SGDSpec(), "method=subgradient&eta=1&decay=constant"}, {SGDSpec(), "method=subgradient&data=xor&C=10&eta=0.1"},
		{KernelPegasosSpec(), ""}, {KernelPegasosSpec(), "data=xor"}, {KernelPegasosSpec(), "kernel=poly&degree=2"},
	} {
		for step := 0; step < 30; step++ {
			a := demotest.AskAt(t, c.spec, c.query, step)
			if a.Q == nil {
				break
			}
			if a.Q.None != "" {
				asked["none"]++
				continue
			}
			where := fmt.Sprintf("%s?%s step %d", c.spec.ID, c.query, step)
			x, yf := demo.Columns(a.In.Points)
			y := pointset.SignLabels(yf)
			st := a.In.State
			var got, kind string
			switch {
			case c.spec.ID == "kernel-pegasos":
				got, kind = kernelPegasosExact(t, x, y, st, step)
			case strings.Contains(c.query, "subgradient"):
				got, kind = subgradientExact(t, x, y, st, step), "subgradient"
			default:
				got, kind = pegasosExact(t, x, y, st, step), "pegasos"
			}
			if got != a.Q.Right {
				t.Errorf("%s: the 200-bit step answers %q, the question grades %q (%s)", where, got, a.Q.Right, a.Q.Prompt)
			}
			asked[kind]++
		}
	}
	t.Logf("questions replayed: %v", asked)
	for _, k := range []string{"pegasos", "subgradient", "kernel margin", "kernel sign"} {
		if asked[k] < 10 {
			t.Errorf("only %d %s questions replayed (%v)", asked[k], k, asked)
		}
	}
}

func pegasosExact(t *testing.T, x [][]float64, y []int, st demo.State, step int) string {
	t.Helper()
	p := primal.PegasosParams{Lambda: demo.Lambda.Get(st), T: demo.Iterations.Get(st), Seed: uint64(demo.Aseed.Get(st))}
	pg, s0, err := primal.NewPegasos(x, y, p)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := algos.Replay(pg, s0, step)
	if err != nil {
		t.Fatal(err)
	}
	i := pg.Step(s).I // the draw is the seed's, not arithmetic
	// W_{t+1} = θ_t/(2λ(t+1)), scored on X̃ᵢ = (xᵢ, 1).
	den := bigmath.Mul(bigmath.Mul(bigmath.Int(2), bigmath.New(p.Lambda)), bigmath.Int(int64(s.T+1)))
	m := bigmath.Int(0)
	for k, v := range append(append([]float64(nil), x[i]...), 1) {
		m = bigmath.Add(m, bigmath.Mul(bigmath.Quo(bigmath.New(s.Theta[k]), den), bigmath.New(v)))
	}
	m = bigmath.Mul(bigmath.New(float64(y[i])), m)
	return demo.YesOrNo(m.Cmp(bigmath.Int(1)) < 0)
}

func subgradientExact(t *testing.T, x [][]float64, y []int, st demo.State, step int) string {
	t.Helper()
	p := primal.SubgradientParams{C: subC.Get(st), Eta: subEta.Get(st), Decay: subDecay.Is(st, "sqrt"), T: demo.Iterations.Get(st)}
	sg, s0, err := primal.NewSubgradient(x, y, p)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := algos.Replay(sg, s0, step)
	if err != nil {
		t.Fatal(err)
	}
	c := bigmath.New(p.C)
	eta := bigmath.New(p.Eta)
	if p.Decay {
		eta = bigmath.Quo(eta, bigmath.Sqrt(bigmath.Int(int64(s.T+1))))
	}
	w, b := bigVec(s.W), bigmath.New(s.B)
	gw, gb := bigVec(s.W), bigmath.Int(0)
	for i, xi := range x {
		yi := bigmath.New(float64(y[i]))
		if bigmath.Mul(yi, bigmath.Add(bigDot(w, xi), b)).Cmp(bigmath.Int(1)) <= 0 {
			for k, v := range xi {
				gw[k] = bigmath.Sub(gw[k], bigmath.Mul(bigmath.Mul(c, yi), bigmath.New(v)))
			}
			gb = bigmath.Sub(gb, bigmath.Mul(c, yi))
		}
	}
	nw := make([]*big.Float, len(w))
	for k := range w {
		nw[k] = bigmath.Sub(w[k], bigmath.Mul(eta, gw[k]))
	}
	nb := bigmath.Sub(b, bigmath.Mul(eta, gb))
	obj := func(w []*big.Float, b *big.Float) *big.Float {
		o := bigmath.Int(0)
		for _, v := range w {
			o = bigmath.Add(o, bigmath.Mul(bigmath.New(0.5), bigmath.Mul(v, v)))
		}
		for i, xi := range x {
			h := bigmath.Sub(bigmath.Int(1), bigmath.Mul(bigmath.New(float64(y[i])), bigmath.Add(bigDot(w, xi), b)))
			if h.Sign() > 0 {
				o = bigmath.Add(o, bigmath.Mul(c, h))
			}
		}
		return o
	}
	return demo.YesOrNo(obj(nw, nb).Cmp(obj(w, b)) < 0)
}

func kernelPegasosExact(t *testing.T, x [][]float64, y []int, st demo.State, step int) (string, string) {
	t.Helper()
	p := primal.KernelPegasosParams{Kernel: kernelOf(st), Lambda: demo.Lambda.Get(st), T: demo.Iterations.Get(st), Seed: uint64(demo.Aseed.Get(st))}
	kp, s0, err := primal.NewKernelPegasos(x, y, p)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := algos.Replay(kp, s0, step)
	if err != nil {
		t.Fatal(err)
	}
	next := kp.Step(s)
	t1 := bigmath.Int(int64(s.T + 1))
	// α⁽ᵗ⁺¹⁾ = β/(2λ(t+1)), from the state's integer β.
	den := bigmath.Mul(bigmath.Mul(bigmath.Int(2), bigmath.New(p.Lambda)), t1)
	alpha := make([]*big.Float, len(x))
	for i, b := range s.Beta {
		alpha[i] = bigmath.Quo(bigmath.New(b), den)
	}
	sum := func(a []*big.Float, q []float64) *big.Float {
		f := bigmath.Int(0)
		for i, xi := range x {
			if a[i].Sign() != 0 {
				f = bigmath.Add(f, bigmath.Mul(a[i], bigKernel(t, p.Kernel, xi, q)))
			}
		}
		return f
	}
	if s.T%2 == 0 {
		j := next.I
		m := bigmath.Mul(bigmath.New(float64(y[j])), sum(alpha, x[j]))
		return demo.YesOrNo(m.Cmp(bigmath.Int(1)) < 0), "kernel margin"
	}
	// ᾱ⁽ᵗ⁺¹⁾ = (t·ᾱ⁽ᵗ⁾ + α⁽ᵗ⁺¹⁾)/(t+1), at the q the question names.
	qi, _ := nearestBoundary(kp.X, func(v []float64) float64 { return kp.Score(s, v) })
	avg := make([]*big.Float, len(x))
	for i := range x {
		avg[i] = bigmath.Quo(bigmath.Add(bigmath.Mul(bigmath.New(s.Avg[i]), bigmath.Int(int64(s.T))), alpha[i]), t1)
	}
	f := sum(avg, x[qi])
	return map[int]string{1: "pos", 0: "zero", -1: "neg"}[f.Sign()], "kernel sign"
}
