package gd

import (
	"bytes"
	"context"
	"errors"
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/textfmt"
)

func gdDemo(t *testing.T, spec demo.Spec) *demo.Demo {
	t.Helper()
	d, err := demo.NewDemo(spec)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// gdExec parses query and runs the demo to its step.
func gdExec(t *testing.T, d *demo.Demo, query string) *demo.Run {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	s, probs := d.Parse(q)
	if len(probs) > 0 {
		t.Fatalf("%s: %v", query, probs)
	}
	r, err := demotest.Execute(d, s)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return r
}

// eig2Max is the larger eigenvalue of the symmetric [[a, b], [b, c]],
// by the closed form: an independent route to L.
func eig2Max(a, b, c float64) float64 {
	return (a+c)/2 + math.Sqrt((a-c)*(a-c)/4+b*b)
}

// gram returns Σ x², Σ x and n of a 1-D set: X̃ᵀX̃ = [[Σx², Σx], [Σx, n]].
func gram(xs []float64) (sxx, sx, n float64) {
	for _, x := range xs {
		sxx, sx = sxx+x*x, sx+x
	}
	return sxx, sx, float64(len(xs))
}

// lsOptimum solves the 2×2 normal equations of the least-squares set by
// Cramer's rule, and returns (w*, b*) and f* = mean squared residual.
func lsOptimum() (w, b, f float64) {
	sxx, sx, n := gram(gdLSX)
	var sxy, sy float64
	for i, x := range gdLSX {
		sxy, sy = sxy+x*gdLSY[i], sy+gdLSY[i]
	}
	det := sxx*n - sx*sx
	w, b = (sxy*n-sx*sy)/det, (sxx*sy-sx*sxy)/det
	for i, x := range gdLSX {
		r := w*x + b - gdLSY[i]
		f += r * r / n
	}
	return w, b, f
}

// TestGDBoundAboveGap: with t = 1/L, Theorem 1.8.5's bound
// ‖x⁽⁰⁾ − x*‖²/(2tk), computed here from an independent L and x*, is
// above the gap the history records on every iteration, and the history's
// dashed curve is that bound.
func TestGDBoundAboveGap(t *testing.T) {
	d := gdDemo(t, GDSpec())
	lsW, lsB, _ := lsOptimum()
	sxx, sx, n := gram(gdLSX)
	lxx, lx, ln := gram(gdLogX)
	logL := eig2Max(lxx, lx, ln)/(4*ln) + gdLogisticLambda
	tests := []struct {
		name, query string
		L           float64    // t = 1/L
		xstar       [2]float64 // NaN: check ∇f(x*) = 0 instead (logistic)
	}{
		{"quadratic κ=1", "kappa=1&theta=30", 3, [2]float64{0, 0}}, // t = 1/3 < 1/L = 1, so it takes steps
		{"quadratic κ=10", "kappa=10&theta=-45", 10, [2]float64{0, 0}},
		{"quadratic κ=100", "kappa=100&theta=30&x0=4&y0=-3", 100, [2]float64{0, 0}},
		{"least squares", "objective=least-squares", eig2Max(2*sxx/n, 2*sx/n, 2), [2]float64{lsW, lsB}},
		{"logistic", "objective=logistic&x0=-4&y0=3", logL, [2]float64{math.NaN(), 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			step := 1 / tc.L
			r := gdExec(t, d, tc.query+"&step=3000&t="+demo.FmtNum(step))
			if r.History == nil || r.History.Series[0].Compare == nil {
				t.Fatal("no history with a bound")
			}
			x0 := [2]float64{startX1.Get(r.State), startX2.Get(r.State)}
			xs := tc.xstar
			if math.IsNaN(xs[0]) {
				run, _ := runGD(context.Background(), nil, r.State, 0, false)
				xs = [2]float64{run.obj.xstar[0], run.obj.xstar[1]}
				g := make([]float64, 2)
				run.obj.f.Grad(g, run.obj.xstar)
				if math.Hypot(g[0], g[1]) > 1e-9 {
					t.Fatalf("∇f(x*) = %v, want 0", g)
				}
			}
			d0 := (x0[0]-xs[0])*(x0[0]-xs[0]) + (x0[1]-xs[1])*(x0[1]-xs[1])
			gap, bound := r.History.Series[0], r.History.Series[0].Compare
			if len(gap.T) != r.Step+1 || len(bound.T) != r.Step || r.Step < 10 {
				t.Fatalf("%d gap and %d bound samples for %d steps", len(gap.T), len(bound.T), r.Step)
			}
			for i, k := range bound.T {
				want := d0 / (2 * step * k)
				if math.Abs(bound.Y[i]-want) > 1e-9*want {
					t.Fatalf("bound(%v) = %v, want %v", k, bound.Y[i], want)
				}
				if g := gap.Y[int(k)]; g > want*(1+1e-12) {
					t.Fatalf("k = %v: gap %v above the bound %v", k, g, want)
				}
			}
		})
	}
}

// TestGDDiverges: t = 2.1/L on a quadratic diverges; the run stops with
// the status Diverged and only finite numbers on the panel and the plot.
func TestGDDiverges(t *testing.T) {
	d := gdDemo(t, GDSpec())
	r := gdExec(t, d, "kappa=10&t=0.21&step=end")
	if !r.Done || r.Step == 0 || r.Step >= demo.MaxStep {
		t.Fatalf("step %d, done %v", r.Step, r.Done)
	}
	p := r.Panel()
	if p.Status != algos.Diverged.String() || !p.Bad {
		t.Errorf("status %q, bad %v; want diverged", p.Status, p.Bad)
	}
	var diverged bool
	for _, n := range p.Notes {
		diverged = diverged || n.TestID == "diverged" && strings.Contains(n.Text, "2/L = 0.2")
	}
	if !diverged {
		t.Errorf("no note naming 2/L = 0.2: %+v", p.Notes)
	}
	for _, c := range p.Counters {
		if strings.Contains(c.Value, "NaN") || strings.Contains(c.Value, "Inf") {
			t.Errorf("counter %s = %s", c.Label, c.Value)
		}
	}
	var b bytes.Buffer
	if _, err := r.Plot(&b, false, r.PlotOptions()); err != nil {
		t.Fatal(err)
	}
	if svg := b.String(); strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") || !strings.Contains(svg, "diverged") {
		t.Error("the plot of a diverged run should say so and hold no NaN")
	}
	if err := chart.HistorySVG(&b, *r.History, render.Options{}); err != nil {
		t.Errorf("history of a diverged run: %v", err)
	}
}

// TestGDNewtonOneStep: on a quadratic, Newton's first step lands on x* =
// 0 and the run stops there; on least squares on the normal equations'
// answer.
func TestGDNewtonOneStep(t *testing.T) {
	d := gdDemo(t, GDSpec())
	lsW, lsB, _ := lsOptimum()
	for _, tc := range []struct {
		query string
		want  [2]float64
	}{
		{"kappa=100&theta=17&x0=3&y0=-4", [2]float64{0, 0}},
		{"objective=least-squares&x0=5&y0=5", [2]float64{lsW, lsB}},
	} {
		r := gdExec(t, d, tc.query+"&method=newton&step=end")
		run, err := runGD(context.Background(), nil, r.State, 1, false)
		if err != nil {
			t.Fatal(err)
		}
		if r.Step != 1 || !r.Done {
			t.Errorf("%s: stopped at step %d, want 1", tc.query, r.Step)
		}
		if x := run.s.X; math.Abs(x[0]-tc.want[0]) > 1e-12 || math.Abs(x[1]-tc.want[1]) > 1e-12 {
			t.Errorf("%s: x⁽¹⁾ = %v, want %v", tc.query, x, tc.want)
		}
	}
}

// TestGDClick: a click on the plot (op=add px py) sets the start.
func TestGDClick(t *testing.T) {
	d := gdDemo(t, GDSpec())
	q, _ := url.ParseQuery("objective=double-well&op=add&px=0.75&py=-1.5&step=4")
	e, rest, ok, probs := d.SplitEdit(q)
	if !ok || len(probs) > 0 {
		t.Fatalf("SplitEdit = %v, %v", ok, probs)
	}
	s, _ := d.Parse(rest)
	s, err := s.Apply(e)
	if err != nil || startX1.Get(s) != 0.75 || startX2.Get(s) != -1.5 || s.Step != 0 {
		t.Errorf("after a click: x0 = %v, y0 = %v, step %d, %v", startX1.Get(s), startX2.Get(s), s.Step, err)
	}
}

// TestGDDoubleWell: a start on the saddle's line x₁ = 0 stalls at the
// saddle; starts either side pick their own valley.
func TestGDDoubleWell(t *testing.T) {
	d := gdDemo(t, GDSpec())
	for _, tc := range []struct{ x0, want string }{{"0", "saddle"}, {"0.3", "right valley"}, {"-0.3", "left valley"}} {
		r := gdExec(t, d, "objective=double-well&y0=1&x0="+tc.x0)
		var text string
		for _, n := range r.Panel().Notes {
			if n.TestID == "basin" {
				text = n.Text
			}
		}
		if !strings.Contains(text, tc.want) {
			t.Errorf("x0 = %s: basin note %q, want %q", tc.x0, text, tc.want)
		}
	}
}

// TestGDMiniBatch: a mini-batch run differs from full batch, follows its
// seed, and full batch is the plain gradient run.
func TestGDMiniBatch(t *testing.T) {
	d := gdDemo(t, GDSpec())
	x := func(q string) [2]float64 {
		r := gdExec(t, d, "objective=least-squares&step=30&"+q)
		run, err := runGD(context.Background(), nil, r.State, 30, false)
		if err != nil {
			t.Fatal(err)
		}
		return [2]float64{run.s.X[0], run.s.X[1]}
	}
	full, b2, b2again, b2other := x("batch=8"), x("batch=2&seed=1"), x("batch=2&seed=1"), x("batch=2&seed=2")
	if full == b2 || b2 != b2again || b2 == b2other {
		t.Errorf("full %v, batch 2 seed 1 %v and %v, seed 2 %v", full, b2, b2again, b2other)
	}
}

// TestGDFiguresDeterministic: the same URL draws the same bytes.
func TestGDFiguresDeterministic(t *testing.T) {
	for _, tc := range []struct {
		spec  demo.Spec
		query string
	}{
		{GDSpec(), "step=40"}, {GDSpec(), "objective=logistic&batch=3&step=25"}, {GDSpec(), "objective=double-well&step=7"},
		{LossGallerySpec(), ""},
	} {
		d := gdDemo(t, tc.spec)
		draw := func() []byte {
			r := gdExec(t, d, tc.query)
			var b bytes.Buffer
			if _, err := r.Plot(&b, false, r.PlotOptions()); err != nil {
				t.Fatal(err)
			}
			if r.History != nil {
				if err := chart.HistorySVG(&b, *r.History, render.Options{}); err != nil {
					t.Fatal(err)
				}
			}
			return b.Bytes()
		}
		if !bytes.Equal(draw(), draw()) {
			t.Errorf("%s?%s: two draws differ", tc.spec.ID, tc.query)
		}
	}
}

// TestGDBadParams: a bad value is a problem naming its key.
func TestGDBadParams(t *testing.T) {
	d := gdDemo(t, GDSpec())
	for _, tc := range []struct{ query, key string }{
		{"objective=cubic", "objective"}, {"schedule=warmup-linear&iters=0", "iters"}, {"kappa=0.5", "kappa"}, {"t=0", "t"}, {"t=NaN", "t"},
		{"x0=11", "x0"}, {"objective=logistic&batch=9", "batch"}, {"method=bfgs", "method"},
	} {
		q, _ := url.ParseQuery(tc.query)
		if _, probs := d.Parse(q); probs[tc.key] == "" {
			t.Errorf("%s: no problem for %s: %v", tc.query, tc.key, probs)
		}
	}
	q, _ := url.ParseQuery("schedule=warmup-linear&warmup=50&iters=20")
	s, probs := d.Parse(q)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	_, err := demotest.Execute(d, s)
	var list demo.Problems
	if !errors.As(err, &list) || !strings.Contains(list["warmup"], "iters") {
		t.Errorf("warm-up longer than the run: %v", err)
	}
}

// TestLossGalleryTable: the table's convexity and calibration follow
// Theorem 1.6.3 from one-sided difference quotients of each loss at 0.
func TestLossGalleryTable(t *testing.T) {
	loss := map[string]func(z float64) float64{
		"0-1":        func(z float64) float64 { return map[bool]float64{true: 1}[z <= 0] },
		"perceptron": func(z float64) float64 { return math.Max(0, -z) },
		"hinge":      func(z float64) float64 { return math.Max(0, 1-z) },
		"logistic":   func(z float64) float64 { return math.Log2(1 + math.Exp(-z)) },
		"squared":    func(z float64) float64 { return (1 - z) * (1 - z) },
	}
	d := gdDemo(t, LossGallerySpec())
	p := gdExec(t, d, "").Panel()
	if len(p.Tables) != 1 || len(p.Tables[0].Rows) != 5 {
		t.Fatalf("tables %+v", p.Tables)
	}
	const h = 1e-6
	for _, row := range p.Tables[0].Rows {
		f := loss[row[0]]
		left, right := (f(0)-f(-h))/h, (f(h)-f(0))/h
		smooth := math.Abs(left-right) < 1e-4
		if row[0] == "0-1" {
			if row[2] != "no" || !strings.HasPrefix(row[3], "none") {
				t.Errorf("0-1 row %v", row)
			}
			continue
		}
		if row[2] != "yes" {
			t.Errorf("%s: convex? %q", row[0], row[2])
		}
		wantCal := smooth && right < 0
		if gotCal := row[4] == "yes"; gotCal != wantCal {
			t.Errorf("%s: calibrated? %q, want %v (ℓ'(0−) = %.4g, ℓ'(0+) = %.4g)", row[0], row[4], wantCal, left, right)
		}
		if smooth && !strings.HasSuffix(row[3], textfmt.Sig(right)) {
			t.Errorf("%s: ℓ'(0) %q, numerically %.4g", row[0], row[3], right)
		}
		if !smooth && !strings.Contains(row[3], "none") {
			t.Errorf("%s: ℓ'(0) %q, but it has a kink", row[0], row[3])
		}
	}
	if rows := gdExec(t, d, "losses=calibrated").Panel().Tables[0].Rows; len(rows) != 3 {
		t.Errorf("losses=calibrated: %d rows", len(rows))
	}
}
