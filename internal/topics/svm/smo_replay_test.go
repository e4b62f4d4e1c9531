package svm

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/bigmath"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// bigKernel is k(x, z) in 200-bit arithmetic, for the kernels the SMO
// demos offer (the exponentials cut to 0 past e^−230, as the solver's).
func bigKernel(t *testing.T, k svm.Kernel, x, z []float64) *big.Float {
	t.Helper()
	dot, sq := bigmath.Int(0), bigmath.Int(0)
	for i := range x {
		a, b := bigmath.New(x[i]), bigmath.New(z[i])
		dot = bigmath.Add(dot, bigmath.Mul(a, b))
		d := bigmath.Sub(a, b)
		sq = bigmath.Add(sq, bigmath.Mul(d, d))
	}
	g := bigmath.New(k.Gamma)
	expNeg := func(a *big.Float) *big.Float {
		if a.Cmp(bigmath.Int(230)) > 0 {
			return bigmath.Int(0)
		}
		return bigmath.Exp(bigmath.Neg(a))
	}
	switch k.Kind {
	case svm.Linear:
		return dot
	case svm.RBF:
		return expNeg(bigmath.Mul(g, sq))
	case svm.Laplace:
		return expNeg(bigmath.Mul(g, bigmath.Sqrt(sq)))
	case svm.Poly:
		base, p := bigmath.Add(bigmath.New(k.Coef0), bigmath.Mul(g, dot)), bigmath.Int(1)
		for range k.Degree {
			p = bigmath.Mul(p, base)
		}
		return p
	}
	t.Fatalf("no 200-bit kernel of kind %v", k.Kind)
	return nil
}

// exactSMO is the demo's SMO step from a state's α, in 200-bit
// arithmetic: the gradient rebuilt from α (not the float64 one the solver
// carried along), the pair by the solver's rule (the stated tie rule with
// Params.Ties, LIBSVM's scan without), and the clipped update of a pair.
type exactSMO struct {
	y     []float64
	alpha []*big.Float
	v     []*big.Float // vₜ = −yₜGₜ
	k     [][]*big.Float
	c     *big.Float // nil for the hard margin
	ties  bool
}

func newExactSMO(t *testing.T, pr *svm.Problem, s svm.State) *exactSMO {
	t.Helper()
	n := len(pr.X)
	e := &exactSMO{y: pr.Y, ties: pr.P.Ties}
	if !pr.P.Hard {
		e.c = bigmath.New(pr.P.C)
	}
	e.k = make([][]*big.Float, n)
	for i := range n {
		e.k[i] = make([]*big.Float, n)
		for j := range i + 1 {
			e.k[i][j] = bigKernel(t, pr.P.Kernel, pr.X[i], pr.X[j])
			e.k[j][i] = e.k[i][j]
		}
	}
	for i := range n {
		e.alpha = append(e.alpha, bigmath.New(s.Alpha[i]))
	}
	for i := range n {
		// Gᵢ = Σⱼ αⱼyᵢyⱼK(xᵢ, xⱼ) − 1, so vᵢ = yᵢ − Σⱼ αⱼyⱼK(xᵢ, xⱼ).
		v := bigmath.New(pr.Y[i])
		for j := range n {
			v = bigmath.Sub(v, bigmath.Mul(bigmath.Mul(e.alpha[j], bigmath.New(pr.Y[j])), e.k[i][j]))
		}
		e.v = append(e.v, v)
	}
	return e
}

func (e *exactSMO) up(t int) bool {
	if e.y[t] > 0 {
		return e.c == nil || e.alpha[t].Cmp(e.c) < 0
	}
	return e.alpha[t].Sign() > 0
}

func (e *exactSMO) low(t int) bool {
	if e.y[t] > 0 {
		return e.alpha[t].Sign() > 0
	}
	return e.c == nil || e.alpha[t].Cmp(e.c) < 0
}

// tieTol is svm.TieTol(scale) in 200 bits.
func tieTol(scale *big.Float) *big.Float {
	return bigmath.Mul(bigmath.New(svm.TieULPs*0x1p-52), new(big.Float).Abs(scale))
}

// pick is the rule on candidates cand with values val: the last index
// within the tie tolerance of the best (ties) or the last of the largest.
func (e *exactSMO) pick(cand []int, val []*big.Float, scale *big.Float) int {
	if len(cand) == 0 {
		return -1
	}
	best := val[0]
	for _, x := range val {
		if x.Cmp(best) > 0 {
			best = x
		}
	}
	floor := best
	if e.ties {
		floor = bigmath.Sub(best, tieTol(scale))
	}
	w := -1
	for k, x := range val {
		if x.Cmp(floor) >= 0 {
			w = cand[k]
		}
	}
	return w
}

// pair is the working pair of the state, or −1, −1.
func (e *exactSMO) pair() (int, int) {
	scale := bigmath.Int(0)
	for _, v := range e.v {
		if a := new(big.Float).Abs(v); a.Cmp(scale) > 0 {
			scale = a
		}
	}
	var cand []int
	var val []*big.Float
	for t := range e.v {
		if e.up(t) {
			cand, val = append(cand, t), append(val, e.v[t])
		}
	}
	i := e.pick(cand, val, scale)
	if i < 0 {
		return -1, -1
	}
	tol := bigmath.Int(0)
	if e.ties {
		tol = tieTol(scale)
	}
	cand, val = nil, nil
	gmax := bigmath.Int(0)
	for t := range e.v {
		d := bigmath.Sub(e.v[i], e.v[t])
		if !e.low(t) || d.Cmp(tol) <= 0 {
			continue
		}
		g := bigmath.Quo(bigmath.Mul(d, d), e.curv(i, t))
		cand, val = append(cand, t), append(val, g)
		if g.Cmp(gmax) > 0 {
			gmax = g
		}
	}
	return i, e.pick(cand, val, gmax)
}

// curv is aᵢⱼ = Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ, or τ = 10⁻¹² where it is not positive.
func (e *exactSMO) curv(i, j int) *big.Float {
	a := bigmath.Sub(bigmath.Add(e.k[i][i], e.k[j][j]), bigmath.Mul(bigmath.Int(2), e.k[i][j]))
	if a.Sign() <= 0 {
		return bigmath.New(1e-12)
	}
	return a
}

// atBound is how many of αᵢ and αⱼ the step on (i, j) leaves at 0 or C:
// the full step τ* = (vᵢ − vⱼ)/aᵢⱼ, cut back to the box.
func (e *exactSMO) atBound(i, j int) int {
	n, _, _ := e.step(i, j)
	return n
}

// step is atBound with the new αᵢ and αⱼ.
func (e *exactSMO) step(i, j int) (int, *big.Float, *big.Float) {
	tau := bigmath.Quo(bigmath.Sub(e.v[i], e.v[j]), e.curv(i, j))
	// αᵢ moves by yᵢτ and αⱼ by −yⱼτ; each limits τ through its bounds.
	lo, hi := new(big.Float).SetInf(true), new(big.Float).SetInf(false)
	limit := func(a *big.Float, dir float64) {
		// a + dir·τ ∈ [0, C].
		if dir > 0 {
			lo = maxF(lo, bigmath.Neg(a))
			if e.c != nil {
				hi = minF(hi, bigmath.Sub(e.c, a))
			}
		} else {
			hi = minF(hi, a)
			if e.c != nil {
				lo = maxF(lo, bigmath.Sub(a, e.c))
			}
		}
	}
	limit(e.alpha[i], e.y[i])
	limit(e.alpha[j], -e.y[j])
	tau = minF(maxF(tau, lo), hi)
	n := 0
	ai := bigmath.Add(e.alpha[i], bigmath.Mul(bigmath.New(e.y[i]), tau))
	aj := bigmath.Sub(e.alpha[j], bigmath.Mul(bigmath.New(e.y[j]), tau))
	for _, u := range []*big.Float{ai, aj} {
		if u.Sign() <= 0 || e.c != nil && u.Cmp(e.c) >= 0 {
			n++
		}
	}
	return n, ai, aj
}

func maxF(a, b *big.Float) *big.Float {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

func minF(a, b *big.Float) *big.Float {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

// TestPredictSMOReplay200 replays step t+1 of every SMO question (svm-hard,
// svm-soft and kernel-svm in several settings, the first 30 steps) from
// the float64 state at step t in 200-bit arithmetic, with the gradient
// rebuilt from α, and checks that the graded answer is the exact step's
// wherever a question is asked (issue 27 §5): rounding decides none.
func TestPredictSMOReplay200(t *testing.T) {
	asked := map[string]int{}
	for _, c := range smoCases() {
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
			pr, s := replayTo(t, a.In, c.params, step)
			e := newExactSMO(t, pr, s)
			if strings.HasPrefix(a.Q.Prompt, "After step") {
				i, j := e.pair()
				if got := fmt.Sprintf("%d-%d", i+1, j+1); got != a.Q.Right {
					t.Errorf("%s: the 200-bit step takes the pair %s, the question grades %s right", where, got, a.Q.Right)
				}
				if want := "v = m(α) = " + textfmt.Sig(bigmath.Float64(e.v[i])); i >= 0 && !strings.Contains(a.Q.Why, want) {
					t.Errorf("%s: the reveal %q lacks the 200-bit %q", where, a.Q.Why, want)
				}
				asked["pair"]++
				continue
			}
			next := pr.Step(s)
			n, ai, aj := e.step(next.I, next.J)
			if got := []string{"none", "one", "both"}[n]; got != a.Q.Right {
				t.Errorf("%s: the 200-bit step leaves %s of (α%d, α%d) at a bound, the question grades %q right", where, got, next.I+1, next.J+1, a.Q.Right)
			}
			// The reveal's new multipliers are the 200-bit step's, to the
			// digits it prints.
			if want := fmt.Sprintf("αᵢ = %s, αⱼ = %s.", textfmt.Sig(bigmath.Float64(ai)), textfmt.Sig(bigmath.Float64(aj))); !strings.Contains(a.Q.Why, want) {
				t.Errorf("%s: the reveal %q lacks the 200-bit step's %q", where, a.Q.Why, want)
			}
			asked["clip"]++
		}
	}
	t.Logf("questions replayed: %v", asked)
	if asked["pair"] < 50 || asked["clip"] < 50 {
		t.Errorf("only %v questions replayed", asked)
	}
}
