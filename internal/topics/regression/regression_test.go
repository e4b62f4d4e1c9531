package regression

import (
	"bytes"
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestGraphDataKit: graph demos write points as x,y in URLs and CSV and
// take a click's (x, y) as an observation.
func TestGraphDataKit(t *testing.T) {
	d := mustDemo(t, InterpolationSpec())
	s := demotest.MustParse(t, d, "data=custom&add=0.5,1.25~-1,2")
	if len(s.Add) != 2 || s.Add[0] != (demo.Point{0.5, 0, 1.25}) {
		t.Fatalf("add = %v", s.Add)
	}
	if q := s.Encode(demo.ForPage); !strings.Contains(q, "add=0.5%2C1.25~-1%2C2") && !strings.Contains(q, "add=0.5,1.25~-1,2") {
		t.Errorf("encoded %q", q)
	}
	if _, probs := d.Parse(url.Values{"data": {"custom"}, "add": {"0.5,0,1.25"}}); probs["add"] == "" {
		t.Error("three fields accepted for graph data")
	}
	var b strings.Builder
	if err := d.WriteCSV(&b, s.Add); err != nil || b.String() != "x,y\n0.5,1.25\n-1,2\n" {
		t.Errorf("CSV %q, %v", b.String(), err)
	}
	pts, err := d.ParseCSV(strings.NewReader(b.String()))
	if err != nil || len(pts) != 2 || pts[1] != (demo.Point{-1, 0, 2}) {
		t.Errorf("CSV round trip %v, %v", pts, err)
	}
	e, _, ok, probs := d.SplitEdit(url.Values{"op": {"add"}, "px": {"0.25"}, "pl": {"-0.7504"}})
	if !ok || len(probs) > 0 {
		t.Fatalf("edit: %v", probs)
	}
	c, err := s.Apply(e)
	if err != nil || c.Add[2] != (demo.Point{0.25, 0, -0.75}) {
		t.Errorf("click (0.25, −0.7504) added %v, %v", c.Add, err)
	}
	run, err := demotest.Execute(d, c)
	if err != nil {
		t.Fatal(err)
	}
	v, err := demo.NewView(run, d.PresentPath())
	if err != nil || v.Click != "graph" || !strings.Contains(v.FrameJSON, "[0.25,0,-0.75]") && !strings.Contains(v.FrameJSON, "[0.25,-0.75,-0.75]") {
		t.Errorf("view: click %q, frame %s, %v", v.Click, v.FrameJSON, err)
	}
}

// TestRegressionDeterministic: every figure of every regression demo
// draws the same bytes twice.
func TestRegressionDeterministic(t *testing.T) {
	for _, spec := range []demo.Spec{InterpolationSpec(), RidgeSpec(), RegLossesSpec(), LSGDSpec(), BiasVarianceSpec()} {
		var a, b bytes.Buffer
		for _, buf := range []*bytes.Buffer{&a, &b} {
			r := demotest.Run(t, spec, "")
			if _, err := r.Plot(buf, false, r.PlotOptions()); err != nil {
				t.Fatalf("%s: %v", spec.ID, err)
			}
			for _, name := range spec.Panels {
				if _, err := r.WriteFigure(buf, name, false); err != nil {
					t.Fatalf("%s %s: %v", spec.ID, name, err)
				}
			}
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) || bytes.Contains(a.Bytes(), []byte("NaN")) {
			t.Errorf("%s: figures differ between two runs or hold NaN", spec.ID)
		}
	}
}

func mustDemo(t *testing.T, spec demo.Spec) *demo.Demo {
	t.Helper()
	d, err := demo.NewDemo(spec)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestHorner: Horner's rule gives the model's own prediction.
func TestHorner(t *testing.T) {
	m := linreg.Model{W: []float64{0.5, -2, 0, 3}, B: 1.25}
	for _, x := range []float64{-1.5, -0.3, 0, 0.7, 2} {
		if got, want := horner(m, x), m.Predict(linreg.Poly(x, 4)); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("x = %v: Horner %v, Predict %v", x, got, want)
		}
	}
}

// TestRegressionFloorsAndNames: a sweep that draws values at the 10⁻⁶
// floor says so in its title, and only then; a fit with λ > 0 is called
// ridge, not least squares, in the interpolation figure.
func TestRegressionFloorsAndNames(t *testing.T) {
	for _, c := range []struct {
		spec   demo.Spec
		q, fig string
		floor  bool
	}{
		{InterpolationSpec(), "", "degree", true}, {InterpolationSpec(), "n=30", "degree", false},
		{BiasVarianceSpec(), "", "degree", true}, {BiasVarianceSpec(), "", "lambda", false},
	} {
		r := demotest.Run(t, c.spec, c.q)
		var b bytes.Buffer
		if _, err := r.WriteFigure(&b, c.fig, false); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		drawn := strings.Contains(s, "1·10⁻⁶ at")
		said := strings.Contains(s, "values below 10⁻⁶ are drawn at 10⁻⁶")
		if said != c.floor || drawn != c.floor {
			t.Errorf("%s %q %s: floor drawn %v, said %v, want %v", c.spec.ID, c.q, c.fig, drawn, said, c.floor)
		}
	}
	for _, c := range []struct{ q, want, not string }{
		{"degree=9", "10 points, least squares", "ridge"},
		{"degree=9&lambda=0.001", "10 points, ridge regression (λ = 0.001)", "least squares"},
	} {
		r := demotest.Run(t, InterpolationSpec(), c.q)
		var b bytes.Buffer
		if _, err := r.Plot(&b, false, r.PlotOptions()); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		if !strings.Contains(s, c.want) || strings.Contains(s, c.not) {
			t.Errorf("%s: plot title and desc %.400s", c.q, s[strings.Index(s, "<title>"):])
		}
	}
}
