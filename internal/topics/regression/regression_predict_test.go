package regression

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// predictRuns runs spec's question at each step of each base state and
// calls check with it and the panels of steps t and t+1; it returns the
// right answers seen, by the kind check names.
func predictRuns(t *testing.T, spec demo.Spec, bases []string, steps int, check func(q string, ask *demo.Question, now, next demo.Panel) string) map[string]bool {
	t.Helper()
	seen := map[string]bool{}
	for _, base := range bases {
		for k := 0; k <= steps; k++ {
			q := strings.TrimPrefix(base+fmt.Sprintf("&predict=1&step=%d", k), "&")
			r := demotest.Run(t, spec, q)
			ask := r.Quiz.Ask
			if ask == nil {
				if !r.Done {
					t.Errorf("%s: no question, but the run goes on", q)
				}
				break
			}
			if ask.None != "" {
				seen["none"] = true
				continue
			}
			next := demotest.Run(t, spec, strings.TrimPrefix(base+fmt.Sprintf("&step=%d", k+1), "&"))
			seen[check(q, ask, r.Panel(), next.Panel())+"-"+ask.Right] = true
		}
	}
	return seen
}

func wantSeen(t *testing.T, seen map[string]bool, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if !seen[k] {
			t.Errorf("no question %s over the states tried: %v", k, seen)
		}
	}
}

// fact is the value of the model fact id in p.
func fact(t *testing.T, p demo.Panel, id string) float64 {
	t.Helper()
	for _, l := range p.Model {
		for _, f := range l.Facts {
			if f.TestID == id {
				return demotest.ParseSig(t, f.Value)
			}
		}
	}
	t.Fatalf("no fact %s", id)
	return 0
}

func near(a, b float64) bool { return math.Abs(a-b) <= 6e-3*(1+math.Abs(b)) }

// TestPredictLSGD checks ls-gd's answers against its own next iteration:
// J's counter, and (w, b) of step t+1.
func TestPredictLSGD(t *testing.T) {
	seen := predictRuns(t, LSGDSpec(), []string{"", "eta=0.05", "eta=0.6", "data=sine&eta=0.3", "data=cubic&lambda=0.5", "eta=0.1&seed=2", "eta=0.4&seed=5", "data=sine&eta=0.15&seed=7", "eta=0.9&seed=4"}, 20,
		func(q string, ask *demo.Question, now, next demo.Panel) string {
			if strings.HasSuffix(ask.Prompt, "Will J go down?") {
				j0, j1 := demotest.ParseSig(t, demotest.Counter(now, "objective")), demotest.ParseSig(t, demotest.Counter(next, "objective"))
				if j0 != j1 && (j1 < j0) != (ask.Right == "yes") {
					t.Errorf("%s: J goes %v → %v, but the answer is %s", q, j0, j1, ask.Right)
				}
				return "down"
			}
			w, b := fact(t, next, "w"), fact(t, next, "b")
			best, bestD := "", math.Inf(1)
			for _, c := range ask.Choices {
				var cw, cb float64
				if _, err := fmt.Sscanf(strings.NewReplacer("−", "-").Replace(c.Label[3:]), "w = %g, b = %g", &cw, &cb); err != nil {
					t.Fatalf("%s: choice %q: %v", q, c.Label, err)
				}
				if d := math.Hypot(cw-w, cb-b); d < bestD {
					best, bestD = c.Value, d
				}
			}
			if best != ask.Right || bestD > 6e-3*(1+math.Hypot(w, b)) {
				t.Errorf("%s: the choice nearest step t+1's (w, b) = (%v, %v) is %s, %v away; right is %s", q, w, b, best, bestD, ask.Right)
			}
			return "where"
		})
	wantSeen(t, seen, "down-yes", "where-a", "where-b", "where-c")
}

// TestPredictLasso checks the lasso's answers against its own next step:
// the coordinate's value in the panel of step t+1.
func TestPredictLasso(t *testing.T) {
	seen := predictRuns(t, LassoSpec(), []string{"", "alpha=0.1&corr=0.9", "alpha=0.5&seed=3", "alpha=2", "alpha=0.02&n=20&noise=1"}, 12,
		func(q string, ask *demo.Question, now, next demo.Panel) string {
			j := "w1"
			if strings.Contains(ask.Prompt, "updates w₂") {
				j = "w2"
			}
			v := fact(t, next, j)
			if len(ask.Marks) == 0 {
				if (v == 0) != (ask.Right == "yes") {
					t.Errorf("%s: %s = %v at step t+1, but the answer is %s", q, j, v, ask.Right)
				}
				return "zero"
			}
			for _, m := range ask.Marks {
				x := m.X1
				if j == "w2" {
					x = m.X2
				}
				if near(x, v) != (m.Label == ask.Right) {
					t.Errorf("%s: mark %s at %v, right %s, but %s = %v at step t+1", q, m.Label, x, ask.Right, j, v)
				}
			}
			return "value"
		})
	wantSeen(t, seen, "zero-yes", "zero-no", "value-a", "value-b", "value-c")
}
