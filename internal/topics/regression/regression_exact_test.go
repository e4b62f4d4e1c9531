package regression

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

func rat(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }

// askAll asks spec's question at every step 0…maxSteps of the state q
// until the run stops, with one cache, so the kept run grows as a page's
// would, and calls check with each question and its step.
func askAll(t *testing.T, spec demo.Spec, q string, maxSteps int, check func(k int, ask *demo.Question)) {
	t.Helper()
	d := mustDemo(t, spec)
	s := demotest.MustParse(t, d, q)
	pts, err := s.Points()
	if err != nil {
		t.Fatal(err)
	}
	cache := demo.NewCache(1 << 26)
	for k := 0; k <= maxSteps; k++ {
		ask, err := spec.Predict(context.Background(), demo.Input{State: s, Points: pts, Step: k, Cache: cache})
		if err != nil {
			t.Fatalf("%s?%s step %d: %v", spec.ID, q, k, err)
		}
		if ask == nil {
			return
		}
		check(k, ask)
	}
}

// TestPredictExactReplayLSGD replays every ls-gd question's step t+1
// from the float64 state at step t in exact rational arithmetic (issue 27
// §5) and requires the graded answer to be the exact one wherever a
// question is asked: J(θ') < J(θ) for "will J go down?", the candidate
// nearest the exact θ' for "where is θ after it?". Steps whose change of
// J is within its rounding get no question, and the runs to the end
// meet some.
func TestPredictExactReplayLSGD(t *testing.T) {
	seen := map[string]int{}
	for _, q := range []string{"", "eta=0.05", "eta=0.6", "data=sine&eta=0.3", "data=cubic&lambda=0.5", "eta=0.1&seed=2",
		"eta=0.95", "eta=1", "eta=1.05", "data=sine&eta=0.15&seed=7&n=60", "eta=0.9&seed=4&lambda=0.1"} {
		d := mustDemo(t, LSGDSpec())
		st := demotest.MustParse(t, d, q)
		pts, _ := st.Points()
		_, xs, ys := graphXY(pts)
		g, s, err := linreg.NewGD(linreg.PolyRows(xs, 1), ys, lsgdLambda.Get(st), lsgdEta.Get(st), true)
		if err != nil {
			t.Fatal(err)
		}
		states := []linreg.GDState{s}
		askAll(t, LSGDSpec(), q, 1300, func(k int, ask *demo.Question) {
			for len(states) <= k {
				states = append(states, g.Step(states[len(states)-1]))
			}
			s := states[k]
			if ask.None != "" {
				seen["none"]++
				// No question only where rounding could decide: the float
				// change of J is within its rounding bound.
				if next := g.Step(s); math.Abs(next.Objective-s.Objective) > lsgdRounding(g, s, next) {
					t.Errorf("ls-gd?%s step %d: no question (%s), though J changes by %v", q, k, ask.None, next.Objective-s.Objective)
				}
				return
			}
			if k > 200 && k%25 != 0 {
				return // long runs: every step to 200, then every 25th
			}
			n, lambda, eta := rat(float64(len(xs))), rat(g.Lambda), rat(g.Eta)
			// J, ∇_w J and ∇_b J at (w, b), exactly.
			eval := func(w, b *big.Rat) (j, gw, gb *big.Rat) {
				j, gw, gb = new(big.Rat), new(big.Rat), new(big.Rat)
				for i, x := range xs {
					r := new(big.Rat).Mul(w, rat(x))
					r.Add(r, b).Sub(r, rat(ys[i]))
					j.Add(j, new(big.Rat).Mul(r, r))
					gw.Add(gw, new(big.Rat).Mul(r, rat(x)))
					gb.Add(gb, r)
				}
				two := big.NewRat(2, 1)
				j.Quo(j, n).Add(j, new(big.Rat).Mul(lambda, new(big.Rat).Mul(w, w)))
				gw.Mul(gw, two).Quo(gw, n).Add(gw, new(big.Rat).Mul(two, new(big.Rat).Mul(lambda, w)))
				gb.Mul(gb, two).Quo(gb, n)
				return j, gw, gb
			}
			w, b := rat(s.W[0]), rat(s.B)
			j0, gw, gb := eval(w, b)
			w1 := new(big.Rat).Sub(w, new(big.Rat).Mul(eta, gw))
			b1 := new(big.Rat).Sub(b, new(big.Rat).Mul(eta, gb))
			j1, _, _ := eval(w1, b1)
			where := fmt.Sprintf("ls-gd?%s step %d", q, k)
			switch {
			case strings.HasSuffix(ask.Prompt, "Will J go down?"):
				seen["down-"+ask.Right]++
				if exact := demo.YesOrNo(j1.Cmp(j0) < 0); exact != ask.Right {
					jf0, _ := j0.Float64()
					jf1, _ := j1.Float64()
					t.Errorf("%s: graded %s, but exactly J goes %v → %v", where, ask.Right, jf0, jf1)
				}
			default:
				seen["where"]++
				ew, _ := w1.Float64()
				eb, _ := b1.Float64()
				best, bestD := "", math.Inf(1)
				for _, c := range ask.Choices {
					var cw, cb float64
					if _, err := fmt.Sscanf(strings.NewReplacer("−", "-", "·10", "e").Replace(supToASCII(c.Label[3:])), "w = %g, b = %g", &cw, &cb); err != nil {
						t.Fatalf("%s: choice %q: %v", where, c.Label, err)
					}
					if dd := math.Hypot(cw-ew, cb-eb); dd < bestD {
						best, bestD = c.Value, dd
					}
				}
				if best != ask.Right {
					t.Errorf("%s: the exact step reaches (%v, %v), nearest choice %s, graded %s", where, ew, eb, best, ask.Right)
				}
			}
		})
	}
	for _, k := range []string{"none", "down-yes", "down-no", "where"} {
		if seen[k] == 0 {
			t.Errorf("no %s question over the runs: %v", k, seen)
		}
	}
	t.Logf("questions: %v", seen)
}

// supToASCII turns superscript digits and minus into ASCII, for "10⁴⁶".
func supToASCII(s string) string {
	return strings.NewReplacer("⁰", "0", "¹", "1", "²", "2", "³", "3", "⁴", "4", "⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9", "⁻", "-").Replace(s)
}

// TestPredictExactReplayLasso replays every lasso question's coordinate
// step from the float64 weights at step t in exact rational arithmetic:
// the data centred exactly, the residual ỹ − X̃w, ρⱼ and zⱼ, and
// S(ρⱼ, α)/zⱼ. The graded answer must be the exact one wherever a
// question is asked, over seeds 1–20, ρ and α in and around the band
// 1–1.5 where the first step on w₁ can leave 0 while w₁* = 0.
func TestPredictExactReplayLasso(t *testing.T) {
	seen := map[string]int{}
	for seed := 1; seed <= 20; seed++ {
		for _, corr := range []float64{0.6, 0.9} {
			for _, alpha := range []float64{0.1, 1, 1.5} {
				q := fmt.Sprintf("alpha=%v&corr=%v&seed=%d", alpha, corr, seed)
				x, y := lassoData(40, corr, 0.5, uint64(seed))
				l, s, err := linreg.NewLasso(x, y, alpha, demo.MaxStep)
				if err != nil {
					t.Fatal(err)
				}
				n := rat(40)
				xbar := [2]*big.Rat{new(big.Rat), new(big.Rat)}
				ybar := new(big.Rat)
				for i, row := range x {
					xbar[0].Add(xbar[0], rat(row[0]))
					xbar[1].Add(xbar[1], rat(row[1]))
					ybar.Add(ybar, rat(y[i]))
				}
				xbar[0].Quo(xbar[0], n)
				xbar[1].Quo(xbar[1], n)
				ybar.Quo(ybar, n)
				states := []linreg.LassoState{s}
				askAll(t, LassoSpec(), q, 40, func(k int, ask *demo.Question) {
					for len(states) <= k {
						states = append(states, l.Step(states[len(states)-1]))
					}
					s := states[k]
					j := k % 2
					w := [2]*big.Rat{rat(s.W[0]), rat(s.W[1])}
					rho, z := new(big.Rat), new(big.Rat)
					for i, row := range x {
						xc := [2]*big.Rat{new(big.Rat).Sub(rat(row[0]), xbar[0]), new(big.Rat).Sub(rat(row[1]), xbar[1])}
						r := new(big.Rat).Sub(rat(y[i]), ybar)
						r.Sub(r, new(big.Rat).Mul(xc[0], w[0])).Sub(r, new(big.Rat).Mul(xc[1], w[1]))
						r.Add(r, new(big.Rat).Mul(xc[j], w[j]))
						rho.Add(rho, new(big.Rat).Mul(xc[j], r))
						z.Add(z, new(big.Rat).Mul(xc[j], xc[j]))
					}
					rho.Quo(rho, n)
					z.Quo(z, n)
					a := rat(alpha)
					soft := new(big.Rat)
					switch {
					case rho.Cmp(a) > 0:
						soft.Sub(rho, a)
					case rho.Cmp(new(big.Rat).Neg(a)) < 0:
						soft.Add(rho, a)
					}
					exact, _ := new(big.Rat).Quo(soft, z).Float64()
					where := fmt.Sprintf("lasso?%s step %d", q, k)
					switch {
					case ask.None != "":
						seen["none"]++
					case len(ask.Marks) == 0:
						seen["zero-"+ask.Right]++
						if want := demo.YesOrNo(soft.Sign() == 0); want != ask.Right {
							t.Errorf("%s: graded %s, but exactly ρ%s = %s against α = %v", where, ask.Right, sub(j), rho.FloatString(20), alpha)
						}
					default:
						seen["value"]++
						best, bestD := "", math.Inf(1)
						for _, m := range ask.Marks {
							v := m.X1
							if j == 1 {
								v = m.X2
							}
							if dd := math.Abs(v - exact); dd < bestD {
								best, bestD = m.Label, dd
							}
						}
						if best != ask.Right {
							t.Errorf("%s: exactly w%s = %v, nearest mark %s, graded %s", where, sub(j), exact, best, ask.Right)
						}
					}
				})
			}
		}
	}
	for _, k := range []string{"zero-yes", "zero-no", "value"} {
		if seen[k] == 0 {
			t.Errorf("no %s question over the runs: %v", k, seen)
		}
	}
	t.Logf("questions: %v", seen)
}
