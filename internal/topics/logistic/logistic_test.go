package logistic

import (
	"fmt"
	"math"
	"math/big"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/bigmath"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/textfmt"
)

// logisticProblem builds, apart from the demo, the problem the run r
// solves and replays its method to r's step from scratch: the route the
// demo's cached track must agree with.
func logisticProblem(t *testing.T, r *demo.Run) (*logistic.Problem, algos.Method[logistic.State], logistic.State) {
	t.Helper()
	x, yf := demo.Columns(r.Points)
	pr, err := logistic.New(x, pointset.FloatLabels(pointset.SignLabels(yf)), logisticLambda.Get(r.State))
	if err != nil {
		t.Fatal(err)
	}
	var m algos.Method[logistic.State] = logistic.Newton{P: pr}
	if usesGD(r.State) {
		m = logistic.GD{P: pr, Eta: logisticEta.Get(r.State)}
	}
	s, _, err := algos.Replay(m, pr.Start(), r.Step)
	if err != nil {
		t.Fatal(err)
	}
	return pr, m, s
}

// TestLogisticPanelIsTheAlgorithm: the panel's numbers are those of the
// state a plain replay reaches, evaluated by the problem itself.
func TestLogisticPanelIsTheAlgorithm(t *testing.T) {
	for _, q := range []string{"step=0", "step=25", "method=newton&step=3", "data=separable&lambda=0.05&eta=0.5&step=40", "data=moons&step=7"} {
		r := demotest.Run(t, LogisticSpec(), q)
		pr, _, s := logisticProblem(t, r)
		p := r.Panel()
		wrong := 0
		for i, x := range pr.X {
			// The course's rule: ŷ = +1 when f > 0, else −1 (sgn 0 = −1).
			if f := s.Model.Score(x); (f > 0) != (pr.Y[i] > 0) {
				wrong++
			}
		}
		for id, want := range map[string]string{
			"objective": textfmt.Sig(pr.Objective(s.Model)),
			"grad":      textfmt.Sig(s.GradNorm),
			"wnorm":     textfmt.Sig(floats.Norm(s.Model.W, 2)),
			"error":     fmt.Sprintf("%.1f %%", 100*float64(wrong)/float64(len(pr.X))),
		} {
			if got := demotest.Counter(p, id); got != want {
				t.Errorf("%s: counter %s = %q, want %q", q, id, got, want)
			}
		}
		if got := p.Model[0].Facts[0].Value; got != textfmt.Vec(s.Model.W) {
			t.Errorf("%s: w = %s, want %s", q, got, textfmt.Vec(s.Model.W))
		}
	}
}

// TestLogisticFirstStepByHand: from w = 0 every point has σ(−yᵢf) = ½,
// so J = log 2 and one gradient step gives w = (η/2n) Σ yᵢxᵢ and
// b = (η/2n) Σ yᵢ; on these three points (1/6, 1/6) and 1/6.
func TestLogisticFirstStepByHand(t *testing.T) {
	const pts = "add=0,0,-1~1,0,1~0,1,1&data=custom"
	p0 := demotest.Run(t, LogisticSpec(), pts+"&step=0").Panel()
	if got := demotest.Counter(p0, "objective"); got != textfmt.Sig(math.Ln2) {
		t.Errorf("J at w = 0 = %s, want log 2 = %s", got, textfmt.Sig(math.Ln2))
	}
	p1 := demotest.Run(t, LogisticSpec(), pts+"&step=1").Panel()
	if w, b := p1.Model[0].Facts[0].Value, p1.Model[0].Facts[1].Value; w != "(0.1667, 0.1667)" || b != "0.1667" {
		t.Errorf("after one step w = %s, b = %s; want (1/6, 1/6) and 1/6", w, b)
	}
}

// TestLogisticTrackConcurrent: requests for one run at several steps at
// once share its track and each gets the state a replay gives.
func TestLogisticTrackConcurrent(t *testing.T) {
	const q = "data=separable&seed=99&n=60&step="
	d, _ := demo.NewDemo(LogisticSpec())
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, _ := url.ParseQuery(q + strconv.Itoa(40*i+3))
			st, _ := d.Parse(v)
			st.Step = 40*i + 3
			r, err := demotest.Execute(d, st)
			if err != nil {
				got[i] = err.Error()
				return
			}
			got[i] = r.Panel().Model[0].Facts[0].Value
		}()
	}
	wg.Wait()
	for i, g := range got {
		r := demotest.Run(t, LogisticSpec(), q+strconv.Itoa(40*i+3))
		if _, _, s := logisticProblem(t, r); g != textfmt.Vec(s.Model.W) {
			t.Errorf("step %d: w = %s concurrently, %s by replay", 40*i+3, g, textfmt.Vec(s.Model.W))
		}
	}
}

// TestLogisticNoMinimiserNote: the overconfidence note shows exactly when
// the data are separable (Problem.Separable, decided apart from Solve),
// λ = 0 and ‖w‖ grew in the step shown.
func TestLogisticNoMinimiserNote(t *testing.T) {
	seen := map[bool]bool{}
	for _, q := range []string{
		"data=separable&step=50", "data=separable&step=0", "data=separable&lambda=0.1&step=50", "step=50",
		"data=separable&method=newton&step=5", "add=0,0,-1~1,0,1~0,1,1&data=custom&step=1", "data=separable&lambda=0.1&step=end",
	} {
		r := demotest.Run(t, LogisticSpec(), q)
		pr, m, s := logisticProblem(t, r)
		sep, err := pr.Separable()
		if err != nil {
			t.Fatal(err)
		}
		grows := false
		if r.Step > 0 {
			prev, _, _ := algos.Replay(m, pr.Start(), r.Step-1)
			grows = floats.Norm(s.Model.W, 2) > floats.Norm(prev.Model.W, 2)
		}
		want := sep && pr.Lambda == 0 && grows
		n := demotest.Note(r.Panel(), "no-minimiser")
		if (n != nil) != want {
			t.Errorf("%s: no-minimiser note shown = %v, want %v (separable %v, λ = %v, ‖w‖ grows %v)", q, n != nil, want, sep, pr.Lambda, grows)
		}
		if n != nil && (!n.Alert || !strings.Contains(n.Text, "‖w‖ = "+textfmt.Sig(floats.Norm(s.Model.W, 2))+" and growing")) {
			t.Errorf("%s: note %q should alert and give ‖w‖", q, n.Text)
		}
		if pr.Lambda > 0 {
			if mn := demotest.Note(r.Panel(), "minimiser"); mn == nil || !strings.Contains(mn.Text, "‖w*‖") {
				t.Errorf("%s: with λ > 0 the panel should give the finite ‖w*‖", q)
			}
		}
		seen[want] = true
	}
	if !seen[true] || !seen[false] {
		t.Errorf("cases cover note shown %v and not shown %v; want both", seen[true], seen[false])
	}
}

// TestLogisticStepSizeNote checks L against an eigendecomposition of
// X̃ᵀX̃ and the alert for a step beyond 2/L that makes J rise.
func TestLogisticStepSizeNote(t *testing.T) {
	r := demotest.Run(t, LogisticSpec(), "eta=30&step=200")
	x, _ := demo.Columns(r.Points)
	L := lambdaMaxByEigen(t, x) / (4 * float64(len(x)))
	n := demotest.Note(r.Panel(), "smooth")
	if n == nil || !n.Alert || !strings.Contains(n.Text, "L = λ_max(X̃ᵀX̃)/(4n) + λ = "+textfmt.Sig(L)) || !strings.Contains(n.Text, "rose") {
		t.Errorf("smooth note = %+v; want an alert giving L = %s and the steps where J rose", n, textfmt.Sig(L))
	}
	if n := demotest.Note(demotest.Run(t, LogisticSpec(), "eta=0.5&step=200").Panel(), "smooth"); n == nil || n.Alert {
		t.Errorf("η = 0.5 < 1/L: note %+v should not alert", n)
	}
}

// TestLogisticHistory: J − J* against ‖w‖ and ‖w*‖ when the minimiser
// exists; J itself, with nothing to compare, when it does not.
func TestLogisticHistory(t *testing.T) {
	for _, tt := range []struct {
		q, label string
		compare  bool
	}{{"step=30", "J − J*", true}, {"data=separable&step=30", "J (log scale)", false}} {
		r := demotest.Run(t, LogisticSpec(), tt.q)
		h := r.History
		if h == nil || len(h.Series) != 2 || h.Now != 30 {
			t.Fatalf("%s: history %+v, want two series to 30", tt.q, h)
		}
		if h.Series[0].Label != tt.label || (h.Series[1].Compare != nil) != tt.compare || !h.Series[0].Log {
			t.Errorf("%s: series %q (log %v), ‖w*‖ compared %v; want %q on a log scale, compared %v",
				tt.q, h.Series[0].Label, h.Series[0].Log, h.Series[1].Compare != nil, tt.label, tt.compare)
		}
		if n := len(h.Series[1].T); n != 31 || h.Series[1].Y[n-1] != floats.Norm(mustReplay(t, r).Model.W, 2) {
			t.Errorf("%s: ‖w‖ series ends %v after %d samples", tt.q, h.Series[1].Y[n-1], n)
		}
	}
}

func mustReplay(t *testing.T, r *demo.Run) logistic.State {
	_, _, s := logisticProblem(t, r)
	return s
}

func TestCertainty(t *testing.T) {
	for _, tt := range []struct {
		doubt       float64
		want, rough string
	}{
		{0.25, "75.00 %", "75.00 %"}, {0.24313, "75.68 %", "75.68 %"}, {3e-4, "99.97 %", "99.97 %"}, {0.001, "99.90 %", "99.90 %"},
		{1.4876e-5, "99.998 %", "1 − 1.49·10⁻⁵"}, {2.15e-6, "99.9997 %", "1 − 2.16·10⁻⁶"}, {9.94e-6, "99.9990 %", "1 − 9.95·10⁻⁶"},
		{3.1876e-9, "1 − 3.19·10⁻⁹", "1 − 3.19·10⁻⁹"}, {3.4321e-21, "1 − 3.44·10⁻²¹", "1 − 3.44·10⁻²¹"}, {3.4e-21, "1 − 3.41·10⁻²¹", "1 − 3.41·10⁻²¹"},
		{0, "1 − 2.23·10⁻³⁰⁸", "1 − 2.23·10⁻³⁰⁸"}, {1e-320, "1 − 2.23·10⁻³⁰⁸", "1 − 2.23·10⁻³⁰⁸"},
	} {
		if got, rough := certainty(tt.doubt), roughCertainty(tt.doubt); got != tt.want || rough != tt.rough {
			t.Errorf("certainty(%v) = %q, %q; want %q, %q", tt.doubt, got, rough, tt.want, tt.rough)
		}
	}
}

// shownConfidence reads a confidence certainty or roughCertainty wrote,
// exactly: "99.97 %" is 9997/10000, "1 − 2.2·10⁻⁶" is 1 − 22/10⁷.
func shownConfidence(t *testing.T, s string) *big.Rat {
	t.Helper()
	if pct, ok := strings.CutSuffix(s, " %"); ok {
		r, ok := new(big.Rat).SetString(pct)
		if !ok {
			t.Fatalf("confidence %q", s)
		}
		return r.Quo(r, big.NewRat(100, 1))
	}
	d, ok := strings.CutPrefix(s, "1 − ")
	if !ok {
		t.Fatalf("confidence %q is neither a percentage nor 1 − d", s)
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(demotest.ParseSig(t, d), 'e', -1, 64))
	if !ok {
		t.Fatalf("confidence %q", s)
	}
	return r.Sub(big.NewRat(1, 1), r)
}

// TestLogisticConfidenceNeverOverstated: over a grid of states (each data
// set, λ, method, early, mid and end of the run) the largest confidence
// the counter shows, and the confidences of the overconfidence note, are
// at most the model's own, σ(max |f(xᵢ)|) and σ(min yᵢf(xᵢ)) computed in
// 200 bits from the scores.
func TestLogisticConfidenceNeverOverstated(t *testing.T) {
	checked := map[string]int{}
	for _, data := range []string{"noisy", "separable", "moons"} {
		for _, lam := range []string{"0", "0.01", "1"} {
			for _, m := range []string{"gd", "newton"} {
				for _, step := range []string{"0", "1", "8", "50", "600", "end"} {
					q := "data=" + data + "&lambda=" + lam + "&method=" + m + "&step=" + step
					r := demotest.Run(t, LogisticSpec(), q)
					pr, _, s := logisticProblem(t, r)
					top, worst := big.NewFloat(0).SetPrec(bigmath.Prec), (*big.Float)(nil)
					for i, x := range pr.X {
						f := bigmath.New(s.Model.Score(x))
						if a := new(big.Float).Abs(f); a.Cmp(top) > 0 {
							top = a
						}
						if yf := bigmath.Mul(bigmath.New(pr.Y[i]), f); worst == nil || yf.Cmp(worst) < 0 {
							worst = yf
						}
					}
					check := func(what, shown string, p *big.Float) {
						t.Helper()
						truth, _ := p.Rat(nil)
						if got := shownConfidence(t, shown); got.Cmp(truth) > 0 {
							t.Errorf("%s: %s %q is above the model's %s", q, what, shown, p.Text('g', 8))
						}
						checked[what]++
					}
					p := r.Panel()
					check("largest confidence", demotest.Counter(p, "confidence"), bigmath.Sigmoid(top))
					if n := demotest.Note(p, "no-minimiser"); n != nil {
						shown := n.Text[strings.Index(n.Text, "has P ≥ ")+len("has P ≥ "):]
						check("surest P", shown[:strings.Index(shown, ",")], bigmath.Sigmoid(top))
						if i := strings.Index(n.Text, "with P ≥ "); i >= 0 {
							shown := n.Text[i+len("with P ≥ "):]
							check("every point's P", shown[:strings.Index(shown, ",")], bigmath.Sigmoid(worst))
						}
					}
				}
			}
		}
	}
	t.Logf("confidences checked: %v", checked)
	for _, what := range []string{"largest confidence", "surest P", "every point's P"} {
		if checked[what] == 0 {
			t.Errorf("no state shows %s", what)
		}
	}
}

// TestLogisticStopReason: Newton on separable data with λ = 0 stops
// because ‖∇J‖ fell below the tolerance, with every step a full one; the
// status says that, with the state's numbers, and not that double
// precision ran out.
func TestLogisticStopReason(t *testing.T) {
	r := demotest.Run(t, LogisticSpec(), "data=separable&method=newton&step=end")
	_, m, s := logisticProblem(t, r)
	p := r.Panel()
	if s.GradNorm >= logistic.Tol || !p.Done {
		t.Fatalf("the run should stop with ‖∇J‖ < 10⁻¹⁰: %v, done %v", s.GradNorm, p.Done)
	}
	if want := "‖∇J‖ = " + textfmt.Sig(s.GradNorm) + " is below the tolerance 10⁻¹⁰"; !strings.Contains(p.Status, want) || !strings.Contains(p.Status, "no minimiser") {
		t.Errorf("status %q, want it to say %q and that J has no minimiser", p.Status, want)
	}
	// Every step of the run is a full one, and so would the next be.
	st := logistic.Newton{P: m.(logistic.Newton).P}
	cur := m.(logistic.Newton).P.Start()
	for k := 1; k <= r.Step+1; k++ {
		cur.Status = algos.Running
		cur = st.Step(cur)
		if cur.Trials != 1 {
			t.Errorf("Newton step %d took %d trial step sizes, want the full step", k, cur.Trials)
		}
	}
	if s.Trials == 1 && !strings.Contains(p.Examined, "the full step, t = 1") {
		t.Errorf("step %d: %q should say the line search took the full step", r.Step, p.Examined)
	}
	if h := demotest.Run(t, LogisticSpec(), "method=newton&step=1").Panel(); !strings.Contains(h.Examined, "t = ") {
		t.Errorf("Newton step 1: %q should give the step size taken", h.Examined)
	}
}
