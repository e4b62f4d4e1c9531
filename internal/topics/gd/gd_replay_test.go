package gd

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/gd"
	"github.com/margin-edu/margin/internal/bigmath"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// vec is a point of the plane in 200-bit floats.
type vec = [2]*big.Float

func bigVec(x []float64) vec { return vec{bigmath.New(x[0]), bigmath.New(x[1])} }

// exactObjective is the demo's objective in 200-bit arithmetic, from its
// definition (the data, A, λ), not from gd's code: f, the gradient over
// the rows of batch (nil: all), and the Hessian.
type exactObjective struct{ o *objective }

func (e exactObjective) rows(batch []int) []int {
	if batch != nil {
		return batch
	}
	all := make([]int, gdRows)
	for i := range all {
		all[i] = i
	}
	return all
}

func (e exactObjective) f(x vec) *big.Float {
	B := bigmath.New
	add, mul := bigmath.Add, bigmath.Mul
	sum := bigmath.Int(0)
	switch e.o.kind {
	case objQuadratic:
		a := e.o.f.(*gd.Quadratic).A
		for i := range 2 {
			for j := range 2 {
				sum = add(sum, mul(B(a[i][j]), mul(x[i], x[j])))
			}
		}
		return bigmath.Quo(sum, bigmath.Int(2))
	case objLeastSq:
		for i := range gdRows {
			r := bigmath.Sub(add(mul(x[0], B(gdLSX[i])), x[1]), B(gdLSY[i]))
			sum = add(sum, mul(r, r))
		}
		return bigmath.Quo(sum, bigmath.Int(gdRows))
	case objLogistic:
		for i := range gdRows {
			m := mul(B(gdLogY[i]), add(mul(x[0], B(gdLogX[i])), x[1]))
			sum = add(sum, bigmath.Log1pExp(bigmath.Neg(m)))
		}
		return add(bigmath.Quo(sum, bigmath.Int(gdRows)), mul(B(gdLogisticLambda/2), mul(x[0], x[0])))
	}
	u := bigmath.Sub(mul(x[0], x[0]), bigmath.Int(1))
	return add(mul(u, u), mul(x[1], x[1]))
}

func (e exactObjective) grad(x vec, batch []int) vec {
	B := bigmath.New
	add, mul := bigmath.Add, bigmath.Mul
	g := vec{bigmath.Int(0), bigmath.Int(0)}
	switch e.o.kind {
	case objQuadratic:
		a := e.o.f.(*gd.Quadratic).A
		for i := range 2 {
			g[i] = add(mul(B(a[i][0]), x[0]), mul(B(a[i][1]), x[1]))
		}
		return g
	case objLeastSq, objLogistic:
		rows := e.rows(batch)
		for _, i := range rows {
			var c *big.Float // ∂ℓᵢ/∂z
			xi := B(gdLSX[i])
			if e.o.kind == objLeastSq {
				c = mul(bigmath.Int(2), bigmath.Sub(add(mul(x[0], xi), x[1]), B(gdLSY[i])))
			} else {
				xi = B(gdLogX[i])
				y := B(gdLogY[i])
				m := mul(y, add(mul(x[0], xi), x[1]))
				c = bigmath.Neg(mul(y, bigmath.Sigmoid(bigmath.Neg(m))))
			}
			g[0], g[1] = add(g[0], mul(c, xi)), add(g[1], c)
		}
		n := bigmath.Int(int64(len(rows)))
		g[0], g[1] = bigmath.Quo(g[0], n), bigmath.Quo(g[1], n)
		if e.o.kind == objLogistic {
			g[0] = add(g[0], mul(B(gdLogisticLambda), x[0]))
		}
		return g
	}
	u := bigmath.Sub(mul(x[0], x[0]), bigmath.Int(1))
	return vec{mul(bigmath.Int(4), mul(x[0], u)), mul(bigmath.Int(2), x[1])}
}

func (e exactObjective) hess(x vec) [2][2]*big.Float {
	B := bigmath.New
	add, mul := bigmath.Add, bigmath.Mul
	zero := bigmath.Int(0)
	h := [2][2]*big.Float{{zero, zero}, {zero, zero}}
	switch e.o.kind {
	case objQuadratic:
		a := e.o.f.(*gd.Quadratic).A
		for i := range 2 {
			for j := range 2 {
				h[i][j] = B(a[i][j])
			}
		}
		return h
	case objLeastSq, objLogistic:
		for i := range gdRows {
			c, xi := bigmath.Int(2), B(gdLSX[i])
			if e.o.kind == objLogistic {
				xi = B(gdLogX[i])
				z := add(mul(x[0], xi), x[1])
				c = mul(bigmath.Sigmoid(z), bigmath.Sigmoid(bigmath.Neg(z)))
			}
			h[0][0] = add(h[0][0], mul(c, mul(xi, xi)))
			h[0][1] = add(h[0][1], mul(c, xi))
			h[1][1] = add(h[1][1], c)
		}
		n := bigmath.Int(gdRows)
		for _, p := range [][2]int{{0, 0}, {0, 1}, {1, 1}} {
			h[p[0]][p[1]] = bigmath.Quo(h[p[0]][p[1]], n)
		}
		if e.o.kind == objLogistic {
			h[0][0] = add(h[0][0], B(gdLogisticLambda))
		}
		h[1][0] = h[0][1]
		return h
	}
	return [2][2]*big.Float{{bigmath.Sub(mul(bigmath.Int(12), mul(x[0], x[0])), bigmath.Int(4)), zero}, {zero, bigmath.Int(2)}}
}

// exactStep is step k+1 from the float64 state s in 200-bit arithmetic:
// x − H⁻¹∇f (Cramer's rule) for Newton, else x − tₖ₊₁·ĝ with the step
// size and the rows of the batch the float64 run drew (the schedule's
// and the seed's, not rounding's).
func exactStep(e exactObjective, newton bool, s, next gd.State) vec {
	x := bigVec(s.X)
	sub, mul := bigmath.Sub, bigmath.Mul
	if newton {
		g, h := e.grad(x, nil), e.hess(x)
		det := sub(mul(h[0][0], h[1][1]), mul(h[0][1], h[1][0]))
		d0 := bigmath.Quo(sub(mul(h[1][1], g[0]), mul(h[0][1], g[1])), det)
		d1 := bigmath.Quo(sub(mul(h[0][0], g[1]), mul(h[1][0], g[0])), det)
		return vec{sub(x[0], d0), sub(x[1], d1)}
	}
	var batch []int
	if next.Batch != nil {
		batch = next.Batch
	}
	g := e.grad(x, batch)
	eta := bigmath.New(next.Eta)
	return vec{sub(x[0], mul(eta, g[0])), sub(x[1], mul(eta, g[1]))}
}

// TestPredictGDReplays200Bit replays the step each gd question asks
// about from the float64 state at step t in 200-bit arithmetic, from the
// objectives' definitions, and holds every graded answer to it: "will f
// go down" to the exact sign of f(x⁽ᵗ⁺¹⁾) − f(x⁽ᵗ⁾), "where does x⁽ᵗ⁺¹⁾
// land" to the mark nearest the exact iterate. Steps whose f change is
// within rounding get no question (demo.NoQuestion); the test counts
// both, over the first steps, the middle and the last steps of each run.
func TestPredictGDReplays200Bit(t *testing.T) {
	if testing.Short() {
		t.Skip("200-bit replays of some 1000 questions")
	}
	d := gdDemo(t, GDSpec())
	cache := demo.NewCache(64 << 20) // keeps each run, as the course does
	asked, none := 0, 0
	for _, base := range []string{"", "t=0.19", "t=0.25&kappa=3", "t=0.21", "kappa=100&t=0.0199", "x0=-3&y0=2&t=0.5",
		"objective=double-well&t=0.05", "objective=double-well", "objective=double-well&t=0.2",
		"objective=least-squares", "objective=least-squares&batch=2", "objective=least-squares&batch=1&schedule=exp-decay",
		"objective=logistic&t=1", "objective=logistic&t=2", "objective=logistic&batch=3",
		"method=newton", "method=newton&objective=logistic", "method=newton&objective=logistic&x0=0&y0=0",
		"method=newton&objective=double-well&x0=0.3", "method=newton&objective=least-squares",
		"schedule=exp-decay&decay=0.9", "schedule=warmup-linear&t=0.19"} {
		q, _ := url.ParseQuery(base)
		st, probs := d.Parse(q)
		if len(probs) > 0 {
			t.Fatal(probs)
		}
		end := gdExec(t, d, base+"&step=end").Step
		steps := map[int]bool{}
		for k := range min(end, 30) {
			steps[k] = true
		}
		for k := max(end-30, 0); k < end; k++ {
			steps[k] = true
		}
		for k := 0; k < end; k += max(end/20, 1) {
			steps[k] = true
		}
		for k := range steps {
			in := demo.Input{State: st, Step: k, Cache: cache}
			ask, err := predictGD(context.Background(), in)
			if err != nil || ask == nil {
				t.Fatalf("%s step %d: no question (%v) before the run's end at %d", base, k, err, end)
			}
			if ask.None != "" {
				none++
				continue
			}
			asked++
			r, err := runGD(context.Background(), cache, st, k, false)
			if err != nil {
				t.Fatal(err)
			}
			next := r.m.Step(r.s)
			e := exactObjective{r.obj}
			x1 := exactStep(e, isNewton(st), r.s, next)
			if len(ask.Marks) > 0 {
				best, bestD := "", math.Inf(1)
				for _, m := range ask.Marks {
					dd := math.Hypot(m.X1-bigmath.Float64(x1[0]), m.X2-bigmath.Float64(x1[1]))
					if dd < bestD {
						best, bestD = m.Label, dd
					}
				}
				if !strings.Contains(ask.Why, "x⁽"+textfmt.Sup(k+1)+"⁾ = "+vec2(next.X)+";") {
					t.Errorf("%s step %d: the reveal %q does not give x⁽ᵗ⁺¹⁾ = %s", base, k, ask.Why, vec2(next.X))
				}
				if best != ask.Right {
					t.Errorf("%s step %d: the exact x⁽ᵗ⁺¹⁾ (%v, %v) is nearest mark %s, graded %s", base, k, bigmath.Float64(x1[0]), bigmath.Float64(x1[1]), best, ask.Right)
				}
				continue
			}
			f0, f1 := e.f(bigVec(r.s.X)), e.f(x1)
			rel := map[bool]string{true: "<", false: "≥"}[f1.Cmp(f0) < 0]
			if want := fmt.Sprintf("f(x⁽%s⁾) = %s %s f(x⁽%s⁾) = %s.", textfmt.Sup(k+1), textfmt.Sig(bigmath.Float64(f1)), rel, textfmt.Sup(k), textfmt.Sig(bigmath.Float64(f0))); !strings.Contains(ask.Why, want) {
				t.Errorf("%s step %d: the reveal %q, by the exact step %q", base, k, ask.Why, want)
			}
			if down := f1.Cmp(f0) < 0; down != (ask.Right == "yes") {
				t.Errorf("%s step %d: exactly f goes %v → %v (down %v), graded %s; float64 %v → %v",
					base, k, bigmath.Float64(f0), bigmath.Float64(f1), down, ask.Right, r.s.F, next.F)
			}
		}
	}
	t.Logf("%d questions replayed, %d steps without one", asked, none)
	if asked < 600 || none == 0 {
		t.Errorf("%d questions and %d steps without one: the grid should have both", asked, none)
	}
}
