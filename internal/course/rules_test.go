package course

import (
	"fmt"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/topics/logistic"
	"github.com/margin-edu/margin/internal/topics/perceptron"
)

// TestPredictionRule: every demo of the lesson and the perceptron's
// predict with sgn 0 = −1 and argmax ties to the lowest class, and say so
// in small print. At w = 0 that makes the training error the share of the
// points that are not −1 (not class 0); the perceptron's mistakes keep
// Algorithm 1's y·f ≤ 0, so its first step on OR, a point predicted
// right at score 0, is still a mistake.
func TestPredictionRule(t *testing.T) {
	share := func(r *demo.Run, not float64) string {
		n := 0
		for _, p := range r.Points {
			if p.Y != not {
				n++
			}
		}
		return fmt.Sprintf("%.1f %%", 100*float64(n)/float64(len(r.Points)))
	}
	for _, tt := range []struct {
		spec    demo.Spec
		q       string
		not     float64 // the label a score of 0 predicts
		heldOut bool
	}{
		{logistic.LogisticSpec(), "step=0", -1, true},
		{logistic.LogisticSpec(), "data=moons&step=0", -1, true},
		{logistic.SoftmaxSpec(), "step=0", 0, false},
		{perceptron.PerceptronSpec(), "step=0", -1, false},
		{perceptron.PerceptronSpec(), "data=separable&step=0", -1, false},
		{perceptron.PerceptronSpec(), "data=blobs&step=0", 0, false},
	} {
		r := demotest.Run(t, tt.spec, tt.q)
		p := r.Panel()
		if got, want := demotest.Counter(p, "error"), share(r, tt.not); got != want {
			t.Errorf("%s %s: training error at w = 0 = %s, want %s (every point predicted %v)", tt.spec.ID, tt.q, got, want, tt.not)
		}
		if tt.heldOut {
			tx, ty, _ := pointset.HeldOut(r.State)
			n := 0
			for _, y := range ty {
				if y != -1 {
					n++
				}
			}
			if got, want := demotest.Counter(p, "heldout"), demo.HeldOutCounter(float64(n)/float64(len(tx)), len(tx)).Value; got != want {
				t.Errorf("%s %s: held-out error at w = 0 = %s, want %s", tt.spec.ID, tt.q, got, want)
			}
		}
		n := demotest.Note(p, "prediction-rule")
		if n == nil || !(strings.Contains(n.Fine, "sgn(0) = −1") || strings.Contains(n.Fine, "a tie going to the lowest class") ||
			strings.Contains(n.Fine, "a tie goes to the lowest class")) {
			t.Errorf("%s %s: no small print stating the prediction rule: %+v", tt.spec.ID, tt.q, n)
		}
	}
	p := demotest.Run(t, perceptron.PerceptronSpec(), "step=1").Panel()
	if demotest.Counter(p, "mistakes") != "1" || !strings.Contains(strings.Join(p.Lines, " "), "= 0 ≤ 0: a mistake") {
		t.Errorf("perceptron step 1 on OR: mistakes %s, lines %q; want Algorithm 1's mistake at score 0", demotest.Counter(p, "mistakes"), p.Lines)
	}
	if n := demotest.Note(p, "prediction-rule"); n == nil || !strings.Contains(n.Fine, "y(⟨w, x⟩ + b) ≤ 0") {
		t.Errorf("perceptron: the small print should contrast Algorithm 1's mistake test: %+v", n)
	}
	if n := demotest.Note(demotest.Run(t, perceptron.PerceptronSpec(), "step=3&variant=averaged").Panel(), "prediction-rule"); n == nil || !strings.Contains(n.Fine, "w̄ and b̄") {
		t.Errorf("averaged perceptron: the small print should say the prediction uses w̄, b̄: %+v", n)
	}
}
