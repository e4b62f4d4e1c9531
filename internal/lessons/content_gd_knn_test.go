package lessons

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"

	"gonum.org/v1/gonum/stat/distuv"
)

// The gradient descent and knn-bayes lessons are checked with the others
// (courseLessons in content_regression_test.go); this file holds what is
// particular to them.

// TestProseBayesTable checks the prose's table of Bayes errors of two
// equally likely Gaussian clouds against Φ(−Δ/2σ) computed here by gonum:
// each value the table prints must be the closed form rounded to the
// digits shown, so a typo in the hand-copied numbers fails.
func TestProseBayesTable(t *testing.T) {
	parts, err := Prose("knn-bayes")
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(toStrings(parts), "")
	for _, tt := range []struct {
		ratio  float64 // Δ/σ
		format string  // the digits the table shows
	}{
		{0, "%.1f"}, {1, "%.4f"}, {2, "%.4f"}, {3, "%.4f"}, {4, "%.4f"}, {6, "%.5f"},
	} {
		want := fmt.Sprintf(tt.format, distuv.UnitNormal.CDF(-tt.ratio/2))
		// KaTeX keeps the TeX source in an annotation: the cell reads
		// <td>$0.1587$</td> in the source.
		if !strings.Contains(all, `<annotation encoding="application/x-tex">`+want+`</annotation>`) {
			t.Errorf("Δ/σ = %v: the table has no cell %s = Φ(−%v/2)", tt.ratio, want, tt.ratio)
		}
	}
}

// proseOf is a lesson's prose as one string (KaTeX keeps each formula's
// TeX source in an annotation, so "$f = 0.043$" is found as "f = 0.043").
func proseOf(t *testing.T, slug string) string {
	t.Helper()
	parts, err := Prose(slug)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(toStrings(parts), "")
}

// TestProseGDNumbers checks the numbers the gradient descent prose quotes
// from the states it links (issue 16): each is computed here from that
// state and must appear in the prose as printed.
func TestProseGDNumbers(t *testing.T) {
	all := proseOf(t, "gradient-descent")
	d := gdDemo(t, GDSpec())
	at := func(q string) *gdRun {
		t.Helper()
		r := gdExec(t, d, q)
		if !strings.Contains(all, `href="/lessons/gradient-descent?`+strings.ReplaceAll(q, "&", "&amp;")+`#demo-gd"`) {
			t.Errorf("the prose has no link to ?%s", q)
		}
		run, err := runGD(r.State, r.Step, false)
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
	n := at("method=newton&objective=logistic&step=10")
	if n.s.Status != algos.Stalled || n.s.X[0] != 7.5 || math.Abs(n.s.GradNorm-0.5) > 1e-12 {
		t.Errorf("Newton, logistic: %v at %v with ‖∇f‖ = %v", n.s.Status, n.s.X, n.s.GradNorm)
	}
	has("Newton stall", fmt.Sprintf("%.1f \\cdot 10^{12}", n.s.X[1]/1e12))
	// The double well's default run: step 1 jumps past the saddle, the run
	// ends in the left valley, and the prose says the step has a say.
	if w1 := at("objective=double-well&step=1"); math.Abs(w1.s.X[0]+0.4) > 1e-12 {
		t.Errorf("double well, step 1: x₁ = %v, the prose says −0.4", w1.s.X[0])
	}
	end, _ := runGD(gdExec(t, d, "objective=double-well").State, MaxStep, false)
	if math.Abs(end.s.X[0]+1) > 1e-9 {
		t.Errorf("double well: the default run ends at %v, the prose says the left valley", end.s.X)
	}
	if strings.Contains(all, "Which valley a run ends in depends only on where it starts") {
		t.Error("the prose says the valley depends only on the start")
	}
	has("double well", "With small steps, which valley a run ends in depends only on where it starts")
}

// TestProseCurseSpread: the spread of distances the prose quotes is the
// spread of distances, not of squared distances (issue 16): the exact
// 2-D value and the large-D approximation 0.5916/√D, computed here, and
// the demo's measured values on its default state, read from its table.
func TestProseCurseSpread(t *testing.T) {
	all := proseOf(t, "knn-bayes")
	has := func(what, s string) {
		t.Helper()
		if !strings.Contains(all, s) {
			t.Errorf("%s: the prose does not say %q", what, s)
		}
	}
	tex := func(s string) string { return `<annotation encoding="application/x-tex">` + s + `</annotation>` }
	const meanDist = 0.5214054331647207 // (2 + √2 + 5 ln(1 + √2))/15
	has("exact 2-D", tex(fmt.Sprintf(`%.0f\%%`, 100*math.Sqrt(1.0/3-meanDist*meanDist)/meanDist)))
	has("D = 100", tex(fmt.Sprintf(`%.1f\%%`, 100*3*math.Sqrt(7.0/180)/10)))
	for _, wrong := range []string{tex(`84\%`), tex(`12\%`)} {
		if strings.Contains(all, wrong) {
			t.Errorf("the prose still quotes the spread of squared distances, %s", wrong)
		}
	}
	run := runKNNDemo(t, CurseSpec(), nil)
	rows := run.Panel().Tables[0].Rows
	col := len(rows[0]) - 1
	for _, d := range []string{"2", "100", "1000"} {
		for _, r := range rows {
			if r[0] == d {
				has("measured at D = "+d, tex(strings.TrimSuffix(r[col], " %")+`\%`))
			}
		}
	}
}

// TestProseKNNNumbers checks the training errors and risks the kNN prose
// quotes against the states it links, and what the prose says of the
// curve: on the default sample no k's risk is below the Bayes error, the
// risk falls from k = 1 and rises again at k = n.
func TestProseKNNNumbers(t *testing.T) {
	t.Parallel()
	all := proseOf(t, "knn-bayes")
	tex := func(s string) string { return `<annotation encoding="application/x-tex">` + s + `</annotation>` }
	num := func(r float64) string { return strings.TrimSuffix(pct(r), " %") + `\%` }
	for _, tt := range []struct {
		query string
		train bool // the prose quotes the training error too
	}{
		{"k=1", true}, {"k=3", true}, {"", true}, {"k=15", true}, {"k=101", false}, {"k=151", false}, {"k=200", true},
		{"k=1&n=500", false}, {"k=25&n=500", true}, {"k=1&metric=manhattan", false}, {"metric=manhattan", false},
	} {
		q, err := url.ParseQuery(tt.query)
		if err != nil {
			t.Fatal(err)
		}
		kr := knnOf(t, runKNNDemo(t, KNNSpec(), q))
		if !strings.Contains(all, tex(num(kr.heldErr))) {
			t.Errorf("?%s: the prose does not quote its risk %s", tt.query, num(kr.heldErr))
		}
		if tr := fraction(kr.wrong); tt.train && !strings.Contains(all, tex(num(tr))) {
			t.Errorf("?%s: the prose does not quote its training error %s", tt.query, num(tr))
		}
	}
	kr := knnOf(t, runKNNDemo(t, KNNSpec(), nil))
	sw, err := kr.sweep()
	if err != nil {
		t.Fatal(err)
	}
	low := slices.Min(sw.held)
	for i, k := range sw.ks {
		if sw.held[i] < kr.bayesErr {
			t.Errorf("k = %d: risk %v below the Bayes error %v", k, sw.held[i], kr.bayesErr)
		}
	}
	if first, last := sw.held[0], sw.held[len(sw.held)-1]; !(first > low+0.05 && last > low+0.2) || sw.ks[len(sw.ks)-1] != len(kr.x) {
		t.Errorf("risk against k %v: want a U from k = 1 to k = n", sw.held)
	}
	k151 := knnOf(t, runKNNDemo(t, KNNSpec(), url.Values{"k": {"151"}}))
	if !strings.Contains(all, tex(fmt.Sprintf("%.2f", 100*(k151.heldErr-k151.bayesErr)))) {
		t.Errorf("k = 151: the prose does not give its excess risk %.2f", 100*(k151.heldErr-k151.bayesErr))
	}
}
