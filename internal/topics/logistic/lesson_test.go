package logistic

import (
	"bytes"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// Tests over both of the lesson's demos: figures, bad values, the step-size
// note and the numbers the lesson's prose quotes.

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
			algos.Replay[logistic.SoftmaxState](logistic.SoftmaxGD{S: sm, Eta: eta.Get(r.State)}, sm.Start(), r.Step,
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
		if conv := strings.Contains(note.Text, "every such η converges to it"); conv != tt.hasMin {
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
	demotest.CheckClaims(t, demotest.MustCourse(t, func() (*demo.Course, error) { return demo.NewCourse(Topic()) }), []demotest.Claim{
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
				bound := math.Sqrt(2 * math.Log(2) / logisticLambda.Get(r.State))
				if !r.Done || floats.Norm(s.Model.W, 2) > bound {
					t.Errorf("‖w*‖ = %g is not a minimiser inside the bound %g (done %v)", floats.Norm(s.Model.W, 2), bound, r.Done)
				}
				return []float64{bound}
			}},
		// With λ = 1 the surest prediction, σ(max |f(xᵢ)|) = 75.687 %, to
		// the digits quoted; the counter rounds it down to two decimals.
		{Slug: slug, Query: "lambda=1&method=newton&step=3", From: "where the surest prediction is down to", To: "and the band",
			Want: func(t *testing.T, r *demo.Run) []float64 {
				pr, _, s := logisticProblem(t, r)
				top := 0.0
				for _, x := range pr.X {
					top = math.Max(top, math.Abs(s.Model.Score(x)))
				}
				p := 100 * logistic.Sigmoid(top)
				if shown := demotest.Counter(r.Panel(), "confidence"); shown != strconv.FormatFloat(math.Floor(100*p)/100, 'f', 2, 64)+" %" || !r.Done {
					t.Errorf("the counter shows %q for %v %% (done %v); want it rounded down, at the minimiser", shown, p, r.Done)
				}
				return []float64{p}
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
				if p := probe(r.State); math.Abs(p[0]-q.AtVec(0)) > 5e-4 || math.Abs(p[1]-q.AtVec(1)) > 5e-4 {
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
				if !floats.EqualApprox(want, m.Proba(probeSlice(r.State)), 5e-5) {
					t.Errorf("the panel's probabilities %v are not P(c | q)", want)
				}
				return want
			}},
		{Slug: slug, Query: "demo=softmax&q1=-0.166&q2=-0.543&step=2154", From: "puts that point at about", To: ". Move the probe",
			Want: func(t *testing.T, r *demo.Run) []float64 {
				return probeSlice(r.State)
			}},
	})
}

// TestOneStepIsSingular: after one iteration the figures and the
// step-size note count it in the singular ("after 1 iteration", "the one
// step so far"), not "1 iterations" or "1 of the 1 steps".
func TestOneStepIsSingular(t *testing.T) {
	for _, tt := range []struct {
		spec demo.Spec
		q    string
	}{{LogisticSpec(), "step=1"}, {LogisticSpec(), "step=1&method=newton"}, {SoftmaxSpec(), "step=1"}, {LogisticSpec(), "step=0"}} {
		r := demotest.Run(t, tt.spec, tt.q)
		_, desc := demotest.FigureText(t, r, demo.PlotFigure)
		want := map[int]string{0: "after 0 iterations of", 1: "after 1 iteration of"}[r.Step]
		if !strings.Contains(desc, want) || strings.Contains(desc, "1 iterations") {
			t.Errorf("%s?%s: figure description %q, want %q", tt.spec.ID, tt.q, desc, want)
		}
	}
	for _, tt := range []struct {
		rises, steps int
		want         string
	}{{1, 1, "the one step so far"}, {1, 2, "1 of the 2 steps so far"}, {3, 20, "3 of the 20 steps so far"}} {
		if got := risesOf(tt.rises, tt.steps); got != tt.want {
			t.Errorf("risesOf(%d, %d) = %q, want %q", tt.rises, tt.steps, got, tt.want)
		}
	}
	// η far above 2/L makes the first step overshoot.
	n := demotest.Note(demotest.Run(t, LogisticSpec(), "eta=100&step=1").Panel(), "smooth")
	if n == nil || !strings.Contains(n.Text, "J rose at the one step so far.") {
		t.Errorf("η = 100, step 1: note %+v", n)
	}
}
