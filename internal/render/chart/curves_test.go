package chart

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/graphs"
)

// sweep is an RBF SVM's training and held-out error against γ from 10⁻²
// to 10³: training error falls to 0 as γ grows, held-out error is
// U-shaped, lowest near γ = 1, the current setting.
func sweep() Curves {
	c := Curves{Title: "RBF SVM, C = 1: error against γ", XLabel: "γ", YLabel: "error", LogX: true, Percent: true, Mark: 1}
	train := Curve{Name: "training"}
	held := Curve{Name: "held-out", Dashed: true}
	for k := -4; k <= 6; k++ {
		g := math.Pow(10, float64(k)/2)
		l := math.Log10(g)
		train.X, train.Y = append(train.X, g), append(train.Y, math.Round(1000*0.42/(1+math.Exp(2.2*(l+0.3))))/1000)
		held.X, held.Y = append(held.X, g), append(held.Y, math.Round(1000*(0.1+0.03*l*l+0.3/(1+math.Exp(3*(l+1.2)))))/1000)
	}
	c.Series = []Curve{train, held}
	return c
}

func curvesSVG(t *testing.T, c Curves, opt render.Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := CurvesSVG(&b, c, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestCurvesGolden(t *testing.T) {
	a, b := curvesSVG(t, sweep(), render.Options{}), curvesSVG(t, sweep(), render.Options{})
	if a != b {
		t.Fatal("two renderings of one chart differ")
	}
	checkTextAlternative(t, a)
	checkGolden(t, "curves_gamma", []byte(a))
	if *look != "" {
		writeSVGLook(t, "curves_gamma", []byte(a))
	}
}

func TestCurvesDesc(t *testing.T) {
	svg := curvesSVG(t, sweep(), render.Options{})
	desc := svg[strings.Index(svg, "<desc>"):strings.Index(svg, "</desc>")]
	for _, want := range []string{"A line chart of error against γ (log scale).", "held-out: from 49.5% at γ = 0.01 to 37% at γ = 1000",
		"lowest 10.8% at γ = 1.", "A vertical line marks the current setting, γ = 1."} {
		if !strings.Contains(desc, want) {
			t.Errorf("desc = %q\nwant it to contain %q", desc, want)
		}
	}
	for _, want := range []string{">0%<", ">50%<", ">0.01<", ">1000<", ">γ = 1<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no label %s", want)
		}
	}
}

// TestCurvesLinear: on a linear axis, points given out of order are
// joined in order of x, a mark at 0 is a mark, and no mark is NaN.
func TestCurvesLinear(t *testing.T) {
	c := Curves{XLabel: "degree d", YLabel: "error", Mark: 0,
		Series: []Curve{{Name: "a", X: []float64{3, 1, 2}, Y: []float64{0.3, 0.1, 0.2}}, {Name: "empty"}}}
	svg := curvesSVG(t, c, render.Options{})
	if !strings.Contains(svg, ">current setting<") {
		t.Error("a mark at x = 0 is not drawn")
	}
	c.Mark = math.NaN()
	if svg := curvesSVG(t, c, render.Options{}); strings.Contains(svg, "current setting") {
		t.Error("Mark = NaN draws a mark")
	}
	pts := c.Series[0].sorted()
	for i := 1; i < len(pts); i++ {
		if pts[i].X < pts[i-1].X {
			t.Errorf("sorted() = %v, not in order of x", pts)
		}
	}
}

func TestPercentTicks(t *testing.T) {
	var got []string
	for _, tk := range (percentTicks{render.NiceTicks{N: 4}}).Ticks(-0.003, 0.055) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if want := "0% 1% 2% 3% 4% 5%"; strings.Join(got, " ") != want {
		t.Errorf("percent labels on [−0.003, 0.055] = %q, want %q", strings.Join(got, " "), want)
	}
}

func TestCurvesErrors(t *testing.T) {
	one := []Curve{{X: []float64{1, 2}, Y: []float64{0, 1}}}
	tests := []struct {
		name string
		c    Curves
		want error
	}{
		{"no series", Curves{Mark: math.NaN()}, render.ErrNoData},
		{"lengths differ", Curves{Series: []Curve{{X: []float64{1}, Y: nil}}, Mark: math.NaN()}, render.ErrShape},
		{"too many series", Curves{Series: make([]Curve, maxCurves+1), Mark: math.NaN()}, render.ErrShape},
		{"x = 0 on a log axis", Curves{LogX: true, Series: []Curve{{X: []float64{0, 1}, Y: []float64{1, 1}}}, Mark: math.NaN()}, render.ErrShape},
		{"mark 0 on a log axis", Curves{LogX: true, Series: one}, render.ErrShape},
		{"NaN y", Curves{Series: []Curve{{X: []float64{1}, Y: []float64{math.NaN()}}}, Mark: math.NaN()}, render.ErrNotFinite},
		{"infinite mark", Curves{Series: one, Mark: math.Inf(1)}, render.ErrNotFinite},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := CurvesSVG(&b, tt.c, render.Options{}); !errors.Is(err, tt.want) {
			t.Errorf("CurvesSVG(%s) error = %v, want %v", tt.name, err, tt.want)
		}
		if b.Len() != 0 {
			t.Errorf("CurvesSVG(%s) wrote %d bytes before failing", tt.name, b.Len())
		}
	}
}

// degreeSweep is a polynomial's training and held-out MSE against its
// degree on 16 points: training MSE falls to exactly 0 at degree 15, the
// interpolant, where a log axis cannot show it, and held-out MSE grows by
// five orders of magnitude.
func degreeSweep() Curves {
	c := Curves{Title: "mean squared error against the degree", XLabel: "degree p", YLabel: "MSE", LogY: true, Mark: 3}
	train := Curve{Name: "training"}
	held := Curve{Name: "held-out", Dashed: true}
	for d := 0; d <= 15; d++ {
		p := float64(d)
		tr := 0.6 * math.Exp(-0.45*p)
		if d == 15 {
			tr = 0
		}
		train.X, train.Y = append(train.X, p), append(train.Y, tr)
		held.X, held.Y = append(held.X, p), append(held.Y, 0.08+0.6*math.Exp(-0.8*p)+1e-4*math.Pow(2.4, p))
	}
	c.Series = []Curve{train, held}
	return c
}

// lossSweep is four losses of a residual at 200 points, lines only.
func lossSweep() Curves {
	c := Curves{Title: "loss of a residual r", XLabel: "residual r", YLabel: "ℓ(r)", NoMarkers: true, Mark: math.NaN()}
	losses := []struct {
		name string
		f    func(r float64) float64
	}{
		{"squared", func(r float64) float64 { return r * r }},
		{"absolute", math.Abs},
		{"Huber, δ = 1", func(r float64) float64 {
			if math.Abs(r) <= 1 {
				return r * r / 2
			}
			return math.Abs(r) - 0.5
		}},
		{"ε-insensitive, ε = 0.5", func(r float64) float64 { return math.Max(0, math.Abs(r)-0.5) }},
	}
	for i, l := range losses {
		s := Curve{Name: l.name, Dashed: i%2 == 1}
		for k := range 200 {
			r := -3 + 6*float64(k)/199
			s.X, s.Y = append(s.X, r), append(s.Y, l.f(r))
		}
		c.Series = append(c.Series, s)
	}
	return c
}

func TestCurvesLogYGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    Curves
	}{{"curves_logy", degreeSweep()}, {"curves_nomarkers", lossSweep()}} {
		a := curvesSVG(t, tt.c, render.Options{})
		if b := curvesSVG(t, tt.c, render.Options{}); a != b {
			t.Fatalf("%s: two renderings differ", tt.name)
		}
		checkTextAlternative(t, a)
		checkGolden(t, tt.name, []byte(a))
		if *look != "" {
			writeSVGLook(t, tt.name, []byte(a))
		}
	}
}

// TestCurvesLogY: the axis spans the positive values, padded in decades
// (6 % below, 15 % above), the 0 at degree 15 is skipped, and the <desc>
// says the scale.
func TestCurvesLogY(t *testing.T) {
	c := Curves{LogY: true, Series: []Curve{{X: []float64{1, 2, 3}, Y: []float64{0.01, 0, 10}}}}
	lo, hi := c.yRange()
	if !near(lo, math.Pow(10, -2-0.06*3), 1e-12) || !near(hi, math.Pow(10, 1+0.15*3), 1e-9) {
		t.Errorf("y range of 0.01…10 = [%v, %v], want [10^−2.18, 10^1.45]", lo, hi)
	}
	c.Series[0].Y = []float64{1, 1, -1}
	if lo, hi := c.yRange(); !near(lo, math.Pow(10, -0.5-0.06), 1e-12) || !near(hi, math.Pow(10, 0.5+0.15), 1e-12) {
		t.Errorf("y range of a single value 1 = [%v, %v], want [10^−0.56, 10^0.65]", lo, hi)
	}
	runs := c.runs([]vec{{0, 1}, {1, 0}, {2, 2}, {3, 3}, {4, -1}, {5, 4}})
	if len(runs) != 3 || len(runs[0]) != 1 || len(runs[1]) != 2 || runs[1][0].X != 2 || len(runs[2]) != 1 || runs[2][0].X != 5 {
		t.Errorf("runs split at y ≤ 0 = %v, want [(0,1)] [(2,2) (3,3)] [(5,4)]", runs)
	}
	svg := curvesSVG(t, degreeSweep(), render.Options{})
	for _, want := range []string{"A line chart of MSE (log scale) against degree p.", ">0.01<", ">100<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the log-y chart lacks %q", want)
		}
	}
	var got []string
	for _, tk := range (logYTicks{}).Ticks(0.15, 1.5) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if strings.Join(got, " ") != "0.2 0.5 1" {
		t.Errorf("log ticks on [0.15, 1.5] labelled %q, want \"0.2 0.5 1\" (a decade alone does not give the scale)", got)
	}
}

// TestCurvesNoMarkers: without markers the chart loses exactly the two
// paths (fill and edge) of each point's marker and of each legend
// swatch's, and nothing else.
func TestCurvesNoMarkers(t *testing.T) {
	c := lossSweep()
	without := curvesSVG(t, c, render.Options{})
	c.NoMarkers = false
	with := curvesSVG(t, c, render.Options{})
	markers := 4*200 + 4
	if d := strings.Count(with, "<path") - strings.Count(without, "<path"); d != 2*markers {
		t.Errorf("NoMarkers removed %d paths, want %d (2 for each of %d markers)", d, 2*markers, markers)
	}
}

// TestLogTicksLongAxis: a 100-decade axis (a diverging run's history)
// marks only its labelled decades, while a short one keeps every decade
// and the 2…9 marks.
func TestLogTicksLongAxis(t *testing.T) {
	long := render.LogTicks{N: 5}.Ticks(1e-50, 1e50)
	for _, tk := range long {
		if tk.Label == "" {
			t.Fatalf("unlabelled mark at %g on a 100-decade axis", tk.Value)
		}
	}
	if len(long) < 4 || len(long) > 8 {
		t.Errorf("%d marks on a 100-decade axis, want about 5", len(long))
	}
	if short := (render.LogTicks{N: 5}).Ticks(1, 1000); len(short) != 4+3*8 {
		t.Errorf("%d marks on 1…1000, want 4 decades and 8 minor marks in each of 3", len(short))
	}
}

// TestGraphStyle: graphs.GraphStyle, which the lessons' own plots use,
// draws series i as Curves does.
func TestGraphStyle(t *testing.T) {
	cl := &curveLines{c: Curves{Series: make([]Curve, 4)}, th: render.NewTheme(render.DefaultSize*0.75, render.DefaultSize*0.75)}
	for i := range 4 {
		s := graphs.GraphStyle(i, i%2 == 1)
		if s.Color != cl.style(i).Color {
			t.Errorf("GraphStyle(%d) is %v, Curves draws series %d in %v", i, s.Color, i, cl.style(i).Color)
		}
		if (len(s.Dashes) > 0) != (i%2 == 1) {
			t.Errorf("GraphStyle(%d, %v) dashes %v", i, i%2 == 1, s.Dashes)
		}
	}
	if graphs.TruthStyle.Width >= graphs.GraphStyle(0, false).Width || len(graphs.TruthStyle.Dashes) == 0 {
		t.Errorf("TruthStyle %+v is not thinner than a fit and dashed", graphs.TruthStyle)
	}
}
