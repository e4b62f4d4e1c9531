package gd

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestPredictAgreesWithNextStep checks each question's Right against the
// demo's own next iteration: f's counter at t+1 against t's, and the
// iterate x⁽ᵗ⁺¹⁾ of the panel against the marks.
func TestPredictAgreesWithNextStep(t *testing.T) {
	seen := map[string]bool{}
	for _, base := range []string{"", "t=0.19", "t=0.25&kappa=3", "objective=double-well&t=0.05", "objective=least-squares&batch=2",
		"objective=logistic&t=1", "method=newton", "schedule=exp-decay&decay=0.9", "x0=-3&y0=2&t=0.5"} {
		for k := 0; k <= 24; k++ {
			q := strings.TrimPrefix(base+fmt.Sprintf("&predict=1&step=%d", k), "&")
			r := demotest.Run(t, GDSpec(), q)
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
			now := r.Panel()
			next := demotest.Run(t, GDSpec(), strings.TrimPrefix(base+fmt.Sprintf("&step=%d", k+1), "&")).Panel()
			if len(ask.Marks) > 0 {
				checkMarks(t, q, ask, next)
				seen["where-"+ask.Right] = true
				continue
			}
			f0, f1 := demotest.ParseSig(t, demotest.Counter(now, "objective")), demotest.ParseSig(t, demotest.Counter(next, "objective"))
			if f0 != f1 && (f1 < f0) != (ask.Right == "yes") {
				t.Errorf("%s: f goes %v → %v, but the answer is %s", q, f0, f1, ask.Right)
			}
			seen["down-"+ask.Right] = true
		}
	}
	for _, k := range []string{"down-yes", "down-no", "where-a", "where-b", "where-c"} {
		if !seen[k] {
			t.Errorf("no question %s over the states tried: %v", k, seen)
		}
	}
}

// checkMarks finds the iterate of step t+1 at the right mark, and the
// other marks away from it.
func checkMarks(t *testing.T, q string, ask *demo.Question, next demo.Panel) {
	t.Helper()
	x1, x2 := demotest.ParseSig(t, next.Model[0].Facts[0].Value), demotest.ParseSig(t, next.Model[0].Facts[1].Value)
	for _, m := range ask.Marks {
		d := math.Hypot(m.X1-x1, m.X2-x2)
		near := d <= 6e-3*(1+math.Hypot(x1, x2)) // the panel prints 4 decimals or 4 significant digits
		if near != (m.Label == ask.Right) {
			t.Errorf("%s: mark %s at (%v, %v) is %v from x⁽ᵗ⁺¹⁾ = (%v, %v); right is %s", q, m.Label, m.X1, m.X2, d, x1, x2, ask.Right)
		}
	}
}
