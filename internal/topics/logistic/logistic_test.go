package logistic

import (
	"bytes"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// logisticProblem builds, apart from the demo, the problem the run r
// solves and replays its method to r's step from scratch: the route the
// demo's cached track must agree with.
func logisticProblem(t *testing.T, r *demo.Run) (*logistic.Problem, algos.Method[logistic.State], logistic.State) {
	t.Helper()
	x, yf := demo.Columns(r.Points)
	pr, err := logistic.New(x, pointset.FloatLabels(pointset.SignLabels(yf)), r.State.Float("lambda"))
	if err != nil {
		t.Fatal(err)
	}
	var m algos.Method[logistic.State] = logistic.Newton{P: pr}
	if r.State.Is("method", "gd") {
		m = logistic.GD{P: pr, Eta: r.State.Float("eta")}
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
	var g mat.SymDense
	xt := mat.NewDense(len(x), 3, nil)
	for i, row := range x {
		xt.SetRow(i, []float64{row[0], row[1], 1})
	}
	g.SymOuterK(1, xt.T())
	var eig mat.EigenSym
	if !eig.Factorize(&g, false) {
		t.Fatal("eigendecomposition failed")
	}
	vals := eig.Values(nil)
	L := vals[len(vals)-1] / (4 * float64(len(x)))
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

// softmaxReplay replays the softmax demo's run from scratch.
func softmaxReplay(t *testing.T, r *demo.Run) (*logistic.Softmax, logistic.SoftmaxState) {
	t.Helper()
	x, yf := demo.Columns(r.Points)
	y, c, _ := softmaxClasses(yf)
	sm, err := logistic.NewSoftmax(x, y, c, r.State.Float("lambda"))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := algos.Replay(logistic.SoftmaxGD{S: sm, Eta: r.State.Float("eta")}, sm.Start(), r.Step)
	if err != nil {
		t.Fatal(err)
	}
	return sm, s
}

// TestSoftmaxProbe: the probe table is SoftmaxModel's probabilities and
// scores at q, which sum to 1, with the arg max marked; the panel's J is
// the problem's objective.
func TestSoftmaxProbe(t *testing.T) {
	for _, q := range []string{"step=30&q1=0.5&q2=-1", "step=0", "step=400&q1=-9&q2=9.5&lambda=0.001"} {
		r := demotest.Run(t, SoftmaxSpec(), q)
		sm, s := softmaxReplay(t, r)
		p := r.Panel()
		if got := demotest.Counter(p, "objective"); got != textfmt.Sig(sm.Objective(s.Model)) {
			t.Errorf("%s: J = %s, want %s", q, got, textfmt.Sig(sm.Objective(s.Model)))
		}
		pt := []float64{r.State.Float("q1"), r.State.Float("q2")}
		probs, scores, pred := s.Model.Proba(pt), s.Model.Scores(pt), s.Model.Predict(pt)
		if sum := floats.Sum(probs); math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s: P(c | q) sums to %v", q, sum)
		}
		rows := p.Tables[0].Rows
		if len(rows) != len(probs) {
			t.Fatalf("%s: %d rows for %d classes", q, len(rows), len(probs))
		}
		for c, row := range rows {
			if row[1] != textfmt.Sig(scores[c]) || row[2] != textfmt.Sig(probs[c]) || (row[3] != "") != (c == pred) {
				t.Errorf("%s: row %d = %q, want score %s, P %s, marked %v", q, c, row, textfmt.Sig(scores[c]), textfmt.Sig(probs[c]), c == pred)
			}
		}
	}
	if got := demotest.Counter(demotest.Run(t, SoftmaxSpec(), "step=0").Panel(), "objective"); got != textfmt.Sig(math.Log(3)) {
		t.Errorf("J at W = 0 = %s, want log 3", got)
	}
}

// TestSoftmaxRegionsArePredict: the tinted regions, painted in order,
// put every point of the plane in the class Predict gives it.
func TestSoftmaxRegionsArePredict(t *testing.T) {
	r := demotest.Run(t, SoftmaxSpec(), "step=15")
	sm, s := softmaxReplay(t, r)
	run := &softmaxRun{sm: sm, s: s}
	layers, err := run.regions()
	if err != nil || len(layers) != 3 {
		t.Fatalf("regions = %d layers, %v", len(layers), err)
	}
	for i := -40; i <= 40; i++ {
		for j := -40; j <= 40; j++ {
			x := []float64{float64(i) / 8, float64(j) / 8}
			shown := -1
			for c, l := range layers {
				if inside(l.(*render.Region), x) {
					shown = c
				}
			}
			if want := s.Model.Predict(x); shown != want {
				t.Fatalf("at %v the figure shows class %d, Predict says %d", x, shown, want)
			}
		}
	}
}

func inside(r *render.Region, x []float64) bool {
	for _, h := range r.Planes {
		v := h.A[0]*x[0] + h.A[1]*x[1] + h.B
		if v < 0 || h.Strict && v == 0 {
			return false
		}
	}
	return true
}

func TestSoftmaxClasses(t *testing.T) {
	for _, tt := range []struct {
		y       []float64
		want    []int
		c, miss int
	}{
		{[]float64{0, 1, 2, 1}, []int{0, 1, 2, 1}, 3, -1},
		{[]float64{1, -1, 1}, []int{0, 1, 0}, 2, -1}, // +1 is blue, class 0
		{[]float64{-1, 2, 2}, []int{0, 2, 2}, 3, 1},
		{[]float64{1, 1}, []int{0, 0}, 1, -1},
	} {
		y, c, miss := softmaxClasses(tt.y)
		if !slices.Equal(y, tt.want) || c != tt.c || miss != tt.miss {
			t.Errorf("softmaxClasses(%v) = %v, %d, %d; want %v, %d, %d", tt.y, y, c, miss, tt.want, tt.c, tt.miss)
		}
	}
}

// TestSoftmaxMissingClass: softmax needs every class up to the largest.
func TestSoftmaxMissingClass(t *testing.T) {
	for q, want := range map[string]string{
		"data=custom&add=0,0,0~1,1,2~2,0,2": "class 1 has no points",
		"data=custom&add=0,0,2~1,1,2~2,2,1": "class 0 has no points",
		"data=custom&add=0,0,0~1,1,0":       "one class only",
	} {
		r := demotest.Run(t, SoftmaxSpec(), q)
		var buf bytes.Buffer
		if _, err := r.WriteFigure(&buf, demo.PlotFigure, false); err != nil || !strings.Contains(buf.String(), want) {
			t.Errorf("%s: figure (%v) should say %q", q, err, want)
		}
		if p := r.Panel(); !p.Bad || demotest.Note(p, "one-class") == nil {
			t.Errorf("%s: panel %+v should ask for the missing class", q, p)
		}
	}
}

// TestRegressionFiguresDeterministic: a state's figures are the same
// bytes drawn cold and drawn again after its track has run further.
func TestRegressionFiguresDeterministic(t *testing.T) {
	for _, tt := range []struct {
		spec demo.Spec
		q    string
	}{{LogisticSpec(), "data=separable&seed=4242"}, {LogisticSpec(), "seed=4242&method=newton"}, {SoftmaxSpec(), "seed=4242&q1=1"}} {
		draw := func(step string) [2][]byte {
			r := demotest.Run(t, tt.spec, tt.q+"&step="+step)
			var out [2][]byte
			for i, fig := range []string{demo.PlotFigure, "history"} {
				var buf bytes.Buffer
				if _, err := r.WriteFigure(&buf, fig, false); err != nil {
					t.Fatal(err)
				}
				out[i] = buf.Bytes()
			}
			return out
		}
		cold := draw("40")
		draw("300")
		if warm := draw("40"); !bytes.Equal(cold[0], warm[0]) || !bytes.Equal(cold[1], warm[1]) {
			t.Errorf("%s: step 40 drew different bytes before and after the run went on", tt.q)
		}
	}
}

// TestRegressionBadParams: each bad value is a problem naming its key.
func TestRegressionBadParams(t *testing.T) {
	for _, tt := range []struct {
		spec demo.Spec
		q    string
	}{
		{LogisticSpec(), "lambda=-1"}, {LogisticSpec(), "lambda=NaN"}, {LogisticSpec(), "method=foo"}, {LogisticSpec(), "eta=0"},
		{LogisticSpec(), "eta=1000"}, {SoftmaxSpec(), "q1=NaN"}, {SoftmaxSpec(), "q2=11"}, {SoftmaxSpec(), "lambda=0"},
		{SoftmaxSpec(), "eta=-1"},
	} {
		d, err := demo.NewDemo(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := url.ParseQuery(tt.q)
		key := tt.q[:strings.Index(tt.q, "=")]
		if _, probs := d.Parse(v); probs[key] == "" {
			t.Errorf("%s %s: problems %v, want one for %s", d.ID, tt.q, probs, key)
		}
	}
	d, _ := demo.NewDemo(LogisticSpec())
	if _, probs := d.Parse(url.Values{"lambda": {"0"}}); len(probs) > 0 {
		t.Errorf("logistic λ = 0 refused: %v", probs)
	}
}

func TestCertainty(t *testing.T) {
	for _, tt := range []struct {
		doubt       float64
		want, rough string
	}{
		{0.25, "75.0 %", "75.0 %"}, {3e-4, "99.97 %", "99.97 %"}, {1.5e-5, "99.998 %", "1 − 10⁻⁵"}, {0.001, "99.9 %", "99.9 %"},
		{3.2e-9, "1 − 3.2·10⁻⁹", "1 − 10⁻⁸"}, {0, "1 (to double precision)", "1"},
	} {
		if got, rough := certainty(tt.doubt), roughCertainty(tt.doubt); got != tt.want || rough != tt.rough {
			t.Errorf("certainty(%v) = %q, %q; want %q, %q", tt.doubt, got, rough, tt.want, tt.rough)
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

// TestSmoothNoteRounding: the step-size note counts as rises only those
// beyond the rounding of a mean of n losses (and says how many rounding
// wobbles it left out), and claims convergence only when J has a
// minimiser.
func TestSmoothNoteRounding(t *testing.T) {
	for _, tt := range []struct {
		spec   demo.Spec
		q      string
		hasMin bool
	}{
		{LogisticSpec(), "step=153", true},
		{LogisticSpec(), "eta=10&step=300", true},
		{LogisticSpec(), "data=separable&step=20000", false},
		{SoftmaxSpec(), "step=2154", true},
	} {
		r := demotest.Run(t, tt.spec, tt.q)
		var j []float64
		n := len(r.Points)
		if tt.spec.ID == "softmax" {
			sm, _ := softmaxReplay(t, r)
			algos.Replay[logistic.SoftmaxState](logistic.SoftmaxGD{S: sm, Eta: r.State.Float("eta")}, sm.Start(), r.Step,
				algos.RecorderFunc[logistic.SoftmaxState](func(_ int, s logistic.SoftmaxState) error { j = append(j, s.Objective); return nil }))
		} else {
			pr, m, _ := logisticProblem(t, r)
			algos.Replay(m, pr.Start(), r.Step, algos.RecorderFunc[logistic.State](func(_ int, s logistic.State) error { j = append(j, s.Objective); return nil }))
		}
		real, tiny := 0, 0
		for i := 1; i < len(j); i++ {
			switch d := j[i] - j[i-1]; {
			case d > float64(n)*0x1p-52*math.Max(j[i], j[i-1]):
				real++
			case d > 0:
				tiny++
			}
		}
		note := demotest.Note(r.Panel(), "smooth")
		if note == nil {
			t.Fatalf("%s: no smooth note", tt.q)
		}
		if rose := strings.Contains(note.Text, "J rose at "); rose != (real > 0) || rose && !strings.Contains(note.Text, "J rose at "+strconv.Itoa(real)+" of") {
			t.Errorf("%s: %d rises beyond rounding; note %q", tt.q, real, note.Text)
		}
		if rounding := strings.Contains(note.Fine, textfmt.Plural(tiny, "steps")+" at which J went up by less than the rounding error"); rounding != (tiny > 0) {
			t.Errorf("%s: %d rounding rises; small print %q", tt.q, tiny, note.Fine)
		}
		if conv := strings.Contains(note.Text, "converges for η < 2/L"); conv != tt.hasMin {
			t.Errorf("%s: J has a minimiser %v, but the note %q", tt.q, tt.hasMin, note.Text)
		}
	}
}

// TestProseLogisticClaims checks numbers the logistic regression lesson
// quotes from the states it links to: where Newton stops on separable
// data and why, and the softmax probe at the triple point, whose place
// it also solves for from the weights.
func TestProseLogisticClaims(t *testing.T) {
	const slug = "logistic-regression"
	demotest.CheckClaims(t, demotest.MustCourse(t, func() (*demo.Course, error) { return demo.NewCourse(LogisticSpec(), SoftmaxSpec()) }), []demotest.Claim{
		{Slug: slug, Query: "data=separable&method=newton&step=24", From: "stops after 24 iterations</a> with", To: "has fallen below",
			Want: func(t *testing.T, r *demo.Run) []float64 {
				_, _, s := logisticProblem(t, r)
				if !r.Done || s.GradNorm >= logistic.Tol || s.Trials != 1 {
					t.Errorf("the run should stop here on ‖∇J‖ < 10⁻¹⁰ after a full step: done %v, ‖∇J‖ %g, trials %d", r.Done, s.GradNorm, s.Trials)
				}
				return []float64{s.Objective, floats.Norm(s.Model.W, 2), s.GradNorm}
			}},
		// Past its tolerance Newton's method would go on taking full
		// steps, each adding the same to ‖w‖ and dividing J by the same
		// factor (about e): run five more and compare them.
		{Slug: slug, Query: "data=separable&method=newton&step=24", From: "each adding about", To: ", as the last one did",
			Want: func(t *testing.T, r *demo.Run) []float64 {
				_, m, s := logisticProblem(t, r)
				var grow, fall []float64
				for range 5 {
					prev := s
					s.Status = algos.Running
					if s = m.Step(s); s.Trials != 1 {
						t.Fatalf("step %d is not a full step (%d trials)", s.T, s.Trials)
					}
					grow = append(grow, floats.Norm(s.Model.W, 2)-floats.Norm(prev.Model.W, 2))
					fall = append(fall, prev.Objective/s.Objective)
				}
				for k := range grow {
					if math.Abs(grow[k]-grow[0]) > 0.01*grow[0] || math.Abs(fall[k]-fall[0]) > 0.01*fall[0] {
						t.Errorf("the steps past 24 differ: ‖w‖ grows by %v, J falls by %v", grow, fall)
					}
				}
				return []float64{floats.Sum(grow) / 5, floats.Sum(fall) / 5}
			}},
		// The bound √(2 log 2/λ) on ‖w*‖, and the minimiser inside it.
		{Slug: slug, Query: "data=separable&lambda=0.01&method=newton&step=8", From: "well inside the bound", To: "; gradient",
			Want: func(t *testing.T, r *demo.Run) []float64 {
				_, _, s := logisticProblem(t, r)
				bound := math.Sqrt(2 * math.Log(2) / r.State.Float("lambda"))
				if !r.Done || floats.Norm(s.Model.W, 2) > bound {
					t.Errorf("‖w*‖ = %g is not a minimiser inside the bound %g (done %v)", floats.Norm(s.Model.W, 2), bound, r.Done)
				}
				return []float64{bound}
			}},
		// The weights as the panel rounds them, and their sum.
		{Slug: slug, Query: "demo=softmax&step=2154", From: "weight vectors the panel lists:", To: "as promised",
			Want: func(t *testing.T, r *demo.Run) []float64 {
				_, s := softmaxReplay(t, r)
				round := func(v float64) float64 { return math.Round(v*1e4) / 1e4 }
				var ws, sum []float64
				sum = make([]float64, 2)
				for _, w := range s.Model.W {
					for k, v := range w {
						ws = append(ws, round(v))
						sum[k] += round(v)
					}
				}
				var bs []float64
				for _, b := range s.Model.B {
					bs = append(bs, round(b))
				}
				if math.Abs(floats.Sum(s.Model.B)) > 1e-9 || math.Abs(sum[0]) > 2e-4 || math.Abs(sum[1]) > 2e-4 {
					t.Errorf("the weights do not add up to 0: Σw %v, Σb %g", sum, floats.Sum(s.Model.B))
				}
				return append(append(append(ws, sum...), bs...), 0)
			}},
		{Slug: slug, Query: "demo=softmax&q1=-0.166&q2=-0.543&step=2154", From: "the probabilities read", To: ": equal",
			Want: func(t *testing.T, r *demo.Run) []float64 {
				_, s := softmaxReplay(t, r)
				m := s.Model
				// The scores tie where (w₀ − w₁)·q = b₁ − b₀ and (w₁ − w₂)·q = b₂ − b₁.
				a := mat.NewDense(2, 2, []float64{m.W[0][0] - m.W[1][0], m.W[0][1] - m.W[1][1], m.W[1][0] - m.W[2][0], m.W[1][1] - m.W[2][1]})
				var q mat.VecDense
				if err := q.SolveVec(a, mat.NewVecDense(2, []float64{m.B[1] - m.B[0], m.B[2] - m.B[1]})); err != nil {
					t.Fatal(err)
				}
				if p := [2]float64{r.State.Float("q1"), r.State.Float("q2")}; math.Abs(p[0]-q.AtVec(0)) > 5e-4 || math.Abs(p[1]-q.AtVec(1)) > 5e-4 {
					t.Errorf("the probe %v is not the triple point (%.4f, %.4f) to three decimals", p, q.AtVec(0), q.AtVec(1))
				}
				var want []float64
				for _, row := range r.Panel().Tables[0].Rows {
					v, err := strconv.ParseFloat(row[2], 64)
					if err != nil {
						t.Fatal(err)
					}
					want = append(want, v)
				}
				if !floats.EqualApprox(want, m.Proba([]float64{r.State.Float("q1"), r.State.Float("q2")}), 5e-5) {
					t.Errorf("the panel's probabilities %v are not P(c | q)", want)
				}
				return want
			}},
		{Slug: slug, Query: "demo=softmax&q1=-0.166&q2=-0.543&step=2154", From: "puts that point at about", To: ". Move the probe",
			Want: func(t *testing.T, r *demo.Run) []float64 {
				return []float64{r.State.Float("q1"), r.State.Float("q2")}
			}},
	})
}
