package perceptron

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// exactRunGrid is perceptronGrid plus runs whose scores land within
// rounding of γ or of 0: η = 0.1 on OR with γ = 0.3 (0.1 + 0.1 + 0.1 is
// not 0.3 in float64) and decimal points with γ = 0.1.
func exactRunGrid() []string {
	return append(perceptronGrid(),
		"data=or&eta=0.1&variant=margin&gamma=0.3",
		"add=0.1,0.2,1~0.3,0.1,-1~0.2,0.3,1~0.3,0.3,-1&data=custom&eta=0.1&variant=margin&gamma=0.1",
		"add=0.1,0.2,1~0.3,0.1,-1~0.2,0.3,1~0.3,0.3,-1&data=custom&eta=0.1",
		"data=separable&eta=0.3&seed=5", "data=noisy&eta=0.7&variant=margin&gamma=0.2&order=random")
}

// rat is v exactly.
func rat(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }

// TestPredictExactReplay replays the step after each question from the
// float64 state the demo holds at step t in exact arithmetic (math/big
// Rat: the scores y(⟨w, x⟩ + b) and the update w + ηyx of the weights as
// stored) and checks the graded answer against it wherever a question is
// asked: whether any classifier updates, the (w, b) after the step, and
// the verdict the reveal gives each task. Where no question is asked, a
// score must lie within rounding of γ or of 0 and the float64 score must
// differ from the exact one; where one is asked, none may (issue 27 §5).
func TestPredictExactReplay(t *testing.T) {
	d, err := demo.NewDemo(PerceptronSpec())
	if err != nil {
		t.Fatal(err)
	}
	asked, none := 0, 0
	for _, raw := range exactRunGrid() {
		v, err := url.ParseQuery(raw)
		if err != nil {
			t.Fatal(err)
		}
		s, probs := d.Parse(v)
		if len(probs) > 0 {
			t.Fatalf("%s: %v", raw, probs)
		}
		pts, err := s.Points()
		if err != nil {
			t.Fatal(err)
		}
		x, yf := demo.Columns(pts)
		y := make([]int, len(yf))
		for i, c := range yf {
			y[i] = int(c)
		}
		p := perceptronParams(s)
		pr, states, err := perceptron.Trajectory(perceptron.Data{X: x, Y: y}, p, 400)
		if err != nil {
			t.Fatal(err)
		}
		steps := []int{}
		for k := 0; k < len(states)-1 && k < 60; k++ {
			steps = append(steps, k)
		}
		for k := 60; k < len(states)-1; k += 17 {
			steps = append(steps, k)
		}
		for _, k := range steps {
			q, err := predictPerceptron(context.Background(), demo.Input{State: s, Points: pts, Step: k})
			if err != nil {
				t.Fatalf("%s step %d: %v", raw, k, err)
			}
			where := fmt.Sprintf("%s&predict=1&step=%d", raw, k)
			if q == nil {
				t.Errorf("%s: no question, but the run goes on to step %d", where, len(states)-1)
				continue
			}
			now, i := states[k], states[k+1].Event.I
			// near: within four times the classical error bound
			// (d + 1)·2⁻⁵³·(|b| + Σ|wⱼxⱼ|) of a threshold, where no
			// question may be left out without; tight: within the bound
			// itself, where none may be asked.
			update, near, tight := false, false, false
			var verdicts []string
			var after [][]float64
			for kk, task := range pr.Tasks {
				yv, ok := task.Label(y[i])
				m := now.Models[kk]
				nw := append(append([]float64{}, m.W...), m.B)
				if !ok {
					after = append(after, nw)
					continue
				}
				// y(⟨w, x⟩ + b), exactly, and the float64 computation's
				// scale for a loose rounding bound.
				e := rat(m.B)
				scale := math.Abs(m.B)
				for j, w := range m.W {
					e.Add(e, new(big.Rat).Mul(rat(w), rat(x[i][j])))
					scale += math.Abs(w * x[i][j])
				}
				e.Mul(e, rat(yv))
				computed := rat(states[k+1].Event.Margin[kk])
				thr := []float64{p.Margin}
				if p.Margin > 0 {
					thr = append(thr, 0)
				}
				for _, th := range thr {
					dist, _ := new(big.Rat).Sub(e, rat(th)).Float64()
					bound := float64(len(m.W)+1) * 0x1p-53 * scale
					if computed.Cmp(e) != 0 && math.Abs(dist) <= 4*bound {
						near = true
					}
					if computed.Cmp(e) != 0 && math.Abs(dist) <= bound {
						tight = true
					}
				}
				up := e.Cmp(rat(p.Margin)) <= 0
				verdict := "no update"
				if up {
					update = true
					verdict = "a mistake"
					if e.Sign() > 0 {
						verdict = "a margin violation"
					}
					// w + ηyx and b + ηy, exactly, rounded once.
					ey := new(big.Rat).Mul(rat(p.Eta), rat(yv))
					for j := range m.W {
						nw[j], _ = new(big.Rat).Add(rat(m.W[j]), new(big.Rat).Mul(ey, rat(x[i][j]))).Float64()
					}
					nw[len(m.W)], _ = new(big.Rat).Add(rat(m.B), ey).Float64()
				}
				verdicts = append(verdicts, verdict)
				after = append(after, nw)
			}
			if q.None != "" {
				none++
				if !near {
					t.Errorf("%s: no question (%s), but every score is clear of γ and 0 in exact arithmetic", where, q.None)
				}
				continue
			}
			asked++
			if tight {
				t.Errorf("%s: asked %q, whose answer a score within rounding of its threshold decides", where, q.Prompt)
			}
			switch {
			case strings.HasSuffix(q.Prompt, "What are w and b after it?"):
				right, _ := q.Choice(q.Right)
				w := after[0]
				want := "w = " + textfmt.Vec(w[:len(w)-1]) + ", b = " + textfmt.Num(w[len(w)-1])
				if got := right.Label[len("a: "):]; got != want {
					t.Errorf("%s: right choice %q, exact replay %q", where, got, want)
				}
			case q.Right != map[bool]string{true: "yes", false: "no"}[update]:
				t.Errorf("%s: %q graded %s, but in exact arithmetic the step updates: %v", where, q.Prompt, q.Right, update)
			}
			for _, v := range verdicts {
				if !strings.Contains(q.Why, v) {
					t.Errorf("%s: the reveal %q lacks the exact verdict %q", where, q.Why, v)
				}
			}
		}
	}
	if asked < 1000 || none < 3 {
		t.Errorf("%d questions asked and %d steps without one: want the grid to ask many and to meet rounding at least 3 times", asked, none)
	}
	t.Logf("%d questions replayed exactly, %d steps left unasked", asked, none)
}
