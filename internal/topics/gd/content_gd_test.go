package gd

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/gd"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestProseGDNumbers checks the numbers the gradient descent prose quotes
// from the states it links (issue 16): each is computed here from that
// state and must appear in the prose as printed.
func TestProseGDNumbers(t *testing.T) {
	all := demotest.Prose(t, Topic().Prose, "gradient-descent")
	d := gdDemo(t, GDSpec())
	at := func(q string) *gdRun {
		t.Helper()
		r := gdExec(t, d, q)
		if !strings.Contains(all, `href="/lessons/gradient-descent?`+strings.ReplaceAll(q, "&", "&amp;")+`#demo-gd"`) {
			t.Errorf("the prose has no link to ?%s", q)
		}
		run, err := runGD(context.Background(), nil, r.State, r.Step, false)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	has := func(what, s string) {
		t.Helper()
		if !strings.Contains(all, s) {
			t.Errorf("%s: the prose does not say %q", what, s)
		}
	}
	// t = 2/L: f stays at ½L c², c the start's component along the steep axis.
	edge := at("step=500&t=0.2")
	c, _ := edge.topComponent()
	has("t = 2/L", fmt.Sprintf("%.3f", math.Abs(c)))
	has("t = 2/L", fmt.Sprintf("%.4f", edge.s.F))
	has("t = 2/L", fmt.Sprintf(`\frac12 \cdot 10 \cdot %.3f^2 = %.4f`, math.Abs(c), edge.s.F))
	// The warm-up: the rise, the plateau, the step at which it converges.
	if w := at("schedule=warmup-linear&step=20&t=0.19"); fmt.Sprintf("f = %.2g", w.s.F) != "f = 0.043" {
		t.Errorf("warm-up at step 20: f = %v, the prose says 0.043", w.s.F)
	}
	if w := at("schedule=warmup-linear&step=100&t=0.19"); math.Round(math.Log10(w.s.F)) != -16 || w.s.Eta != 0.19 {
		t.Errorf("end of the plateau: f = %v with t_k = %v, the prose says 10⁻¹⁶ at 0.19", w.s.F, w.s.Eta)
	}
	w := at("schedule=warmup-linear&step=128&t=0.19")
	if w.k != 128 || w.s.Status != algos.Converged {
		t.Errorf("warm-up: %v at step %d, the prose says converged at 128", w.s.Status, w.k)
	}
	has("warm-up", fmt.Sprintf(`x-tex">%.3f</annotation>`, w.s.Eta))
	// Newton on the logistic loss stalls.
	n := at("method=newton&objective=logistic&step=9")
	if n.k != 9 || n.s.Status != algos.Stalled || n.s.X[0] != 7.5 || math.Abs(n.s.GradNorm-0.5) > 1e-12 {
		t.Errorf("Newton, logistic: %v at step %d, %v with ‖∇f‖ = %v; the prose says stalled at step 9", n.s.Status, n.k, n.s.X, n.s.GradNorm)
	}
	has("Newton stall", fmt.Sprintf("%.1f \\cdot 10^{12}", n.s.X[1]/1e12))
	// The double well's default run: step 1 jumps past the saddle, the run
	// ends in the left valley, and the prose says the step has a say.
	if w1 := at("objective=double-well&step=1"); math.Abs(w1.s.X[0]+0.4) > 1e-12 {
		t.Errorf("double well, step 1: x₁ = %v, the prose says −0.4", w1.s.X[0])
	}
	// t = 0.2 on the double well stops at step 4: step 5 passes the cap.
	if dw := at("objective=double-well&step=4&t=0.2"); dw.k != 4 || dw.s.Status != algos.Diverged || !(math.Abs(dw.s.NextF) > gd.Blowup) {
		t.Errorf("double well, t = 0.2: %v at step %d, next f = %v; the prose says diverged at step 4", dw.s.Status, dw.k, dw.s.NextF)
	} else {
		has("double well, t = 0.2", fmt.Sprintf(`f = %.1f \cdot 10^{%d}`, dw.s.F/math.Pow(10, math.Floor(math.Log10(dw.s.F))), int(math.Floor(math.Log10(dw.s.F)))))
	}
	end, _ := runGD(context.Background(), nil, gdExec(t, d, "objective=double-well").State, demo.MaxStep, false)
	if math.Abs(end.s.X[0]+1) > 1e-9 {
		t.Errorf("double well: the default run ends at %v, the prose says the left valley", end.s.X)
	}
	if strings.Contains(all, "Which valley a run ends in depends only on where it starts") {
		t.Error("the prose says the valley depends only on the start")
	}
	has("double well", "With small steps, which valley a run ends in depends only on where it starts")
}
