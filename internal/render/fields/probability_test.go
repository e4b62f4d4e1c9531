package fields

import (
	"image/color"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/goldentest"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/rendertest"
	"github.com/margin-edu/margin/internal/textfmt"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestProbabilityFill compares with the tints worked by hand: a tint of
// amount a maps each channel v to 255 − a·(255 − v), and P = 1 and 0 get
// a = 0.35 of blue #0072B2 and vermillion #D55E00.
func TestProbabilityFill(t *testing.T) {
	tests := []struct {
		p    float64
		want color.RGBA
	}{
		{0.5, render.White},
		{math.NaN(), render.White},
		{1, color.RGBA{166, 206, 228, 255}},    // 255 − 0.35·(255, 141, 77)
		{2, color.RGBA{166, 206, 228, 255}},    // clamped
		{0, color.RGBA{240, 199, 166, 255}},    // 255 − 0.35·(42, 161, 255)
		{0.75, color.RGBA{210, 230, 242, 255}}, // half as deep: 255 − 0.175·(255, 141, 77)
	}
	for _, tt := range tests {
		if got := color.RGBAModel.Convert(ProbabilityFill(tt.p)); got != tt.want {
			t.Errorf("ProbabilityFill(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
}

func TestProbabilityLevels(t *testing.T) {
	ls := ProbabilityLevels()
	want := []float64{0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9, 0.5}
	labels := []string{"0.1", "0.2", "0.3", "0.4", "0.6", "0.7", "0.8", "0.9", "0.5"}
	if len(ls) != len(want) {
		t.Fatalf("%d levels, want %d", len(ls), len(want))
	}
	for i, l := range ls {
		if !near(l.Value, want[i], 1e-12) || l.Label != labels[i] {
			t.Errorf("level %d = %v labelled %q, want %v labelled %q", i, l.Value, l.Label, want[i], labels[i])
		}
		boundary := i == len(ls)-1
		if boundary != (l.Width == render.DefaultBoundaryStyle.Width && l.Color == render.DefaultBoundaryStyle.Color) {
			t.Errorf("level %v has style %+v; only the last, 0.5, is the boundary", l.Value, l.LineStyle)
		}
		if !boundary && l.Width >= render.DefaultBoundaryStyle.Width/2 {
			t.Errorf("level %v is %v wide, want thin", l.Value, l.Width)
		}
	}
	lg := ProbabilityLegend()
	if len(lg) != 2 || !strings.Contains(lg[0].Label, "0.5") || len(lg[0].Thumbs) != 1 || len(lg[1].Thumbs) != 1 {
		t.Errorf("ProbabilityLegend() = %+v, want the boundary and the other levels", lg)
	}
}

// TestTagOverlaps checks the separating-axis test on hand-drawn patches.
func TestTagOverlaps(t *testing.T) {
	d := vg.Point{X: math.Sqrt2 / 2, Y: math.Sqrt2 / 2}
	sq := tag{at: vg.Point{}, u: vg.Point{X: 1}, hw: 1, hh: 1}
	tests := []struct {
		name string
		a, b tag
		want bool
	}{
		{"apart", sq, tag{at: vg.Point{X: 3}, u: vg.Point{X: 1}, hw: 1, hh: 1}, false},
		{"overlapping", sq, tag{at: vg.Point{X: 1.5, Y: 1.5}, u: vg.Point{X: 1}, hw: 1, hh: 1}, true},
		// A square turned 45° about (c, c) is the diamond with vertices √2
		// from c along the axes; its edge facing the origin is
		// x + y = 2c − √2. The corner (1, 1) of sq, on x + y = 2, is
		// beyond it for c = 1.8 (2.19 > 2), though the bounding boxes
		// meet, and inside it for c = 1.6 (1.79 < 2).
		{"diamond off a corner", sq, tag{at: vg.Point{X: 1.8, Y: 1.8}, u: d, hw: 1, hh: 1}, false},
		{"diamond on a corner", sq, tag{at: vg.Point{X: 1.6, Y: 1.6}, u: d, hw: 1, hh: 1}, true},
		{"thin crossing bars", tag{u: vg.Point{X: 1}, hw: 5, hh: 0.1}, tag{u: vg.Point{Y: 1}, hw: 5, hh: 0.1}, true},
	}
	for _, tt := range tests {
		if got := tt.a.overlaps(tt.b); got != tt.want || tt.b.overlaps(tt.a) != tt.want {
			t.Errorf("%s: overlaps = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// slanted returns n parallel lines y = 2(x − x₀ₖ) across a 400 × 300
// area, gap points apart across, labelled "k", each ending where it
// leaves the area, as a contour line does.
func slanted(n int, gap vg.Length) []levelLine {
	var lines []levelLine
	for k := range n {
		x0 := 60 + vg.Length(k)*gap
		var pts []vg.Point
		for y := vg.Length(0); y <= 300 && x0+y/2 <= 400; y += 3 {
			pts = append(pts, vg.Point{X: x0 + y/2, Y: y})
		}
		lines = append(lines, levelLine{label: textfmt.SigN(float64(k), 1), value: float64(k), pts: pts})
	}
	return lines
}

// TestPlaceLabels: well spaced lines all get a label at the top edge,
// along the line; crowded ones get fewer, and no two labels overlap or
// cover another line.
func TestPlaceLabels(t *testing.T) {
	area := vg.Rectangle{Max: vg.Point{X: 400, Y: 300}}
	th := render.DefaultTheme()
	sty := th.Text(12*labelTickScale, false, draw.XCenter, draw.YCenter)
	for _, tt := range []struct {
		gap      vg.Length
		min, max int
	}{{40, 6, 6}, {12, 1, 6}, {5, 0, 0}} {
		lines := slanted(6, tt.gap)
		placed := placeLabels(area, lines, sty, th)
		if len(placed) < tt.min || len(placed) > tt.max {
			t.Errorf("gap %v: %d labels placed, want %d to %d", tt.gap, len(placed), tt.min, tt.max)
		}
		for i, a := range placed {
			for _, q := range a.corners() {
				if !inside(q, area) {
					t.Errorf("gap %v: label %d corner %v off the area", tt.gap, i, q)
				}
			}
			if crossesOther(a.tag, lines, a.line) {
				t.Errorf("gap %v: label of line %d covers another line", tt.gap, a.line)
			}
			// On the line x = x₀ + y/2, along its direction (1, 2)/√5.
			x0 := lines[a.line].pts[0].X
			if !near(float64(a.at.X-x0-a.at.Y/2), 0, 1e-6) || !near(float64(a.u.Y/a.u.X), 2, 1e-6) {
				t.Errorf("gap %v: label %d at %v along %v, not on its line", tt.gap, i, a.at, a.u)
			}
			if tt.gap == 40 && a.at.Y < 200 {
				t.Errorf("label %d at %v, want it near the top or right edge", i, a.at)
			}
			for _, b := range placed[:i] {
				if a.overlaps(b.tag) {
					t.Errorf("gap %v: labels %v and %v overlap", tt.gap, a, b)
				}
			}
		}
	}
}

// probabilityFigure is a linear logistic model's P(y = +1 | x) over two
// Gaussian clouds of 30 points each.
func probabilityFigure(t testing.TB) render.DataFigure {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	var x [][]float64
	var y []int
	for i := range 60 {
		c := 1 - 2*(i%2)
		x = append(x, []float64{float64(c)*0.9 + 1.1*r.NormFloat64(), float64(c)*0.6 + 1.1*r.NormFloat64()})
		y = append(y, c)
	}
	p := func(a, b float64) float64 { return 1 / (1 + math.Exp(-(1.2*a + 0.8*b - 0.2))) }
	fl, err := NewField(p, ProbabilityFill, ProbabilityLevels()...)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := render.NewClassPoints(x, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	return render.DataFigure{
		Title:  "logistic regression · P(y = +1 | x)\nw = (1.2, 0.8), b = −0.2",
		View:   render.DataView(x),
		Layers: []plot.Plotter{fl, ps},
		Legend: append(ps.Legend(), ProbabilityLegend()...),
	}
}

// TestProbabilityGolden compares the figure with
// testdata/probability_linear_golden.svg, and checks that its contours
// are labelled at the default size and not on a thumbnail.
func TestProbabilityGolden(t *testing.T) {
	f := probabilityFigure(t)
	a := rendertest.SVG(t, f, render.Options{})
	if b := rendertest.SVG(t, probabilityFigure(t), render.Options{}); string(a) != string(b) {
		t.Fatal("two renderings of one figure differ")
	}
	if len(a) >= 100<<10 {
		t.Errorf("SVG is %d bytes, want < 100 KB", len(a))
	}
	for _, want := range []string{">0.1<", ">0.9<", ">boundary P = 0.5<"} {
		if !strings.Contains(string(a), want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	if small := rendertest.SVG(t, f, render.Options{Width: 300, Height: 300}); strings.Contains(string(small), ">0.9<") {
		t.Error("a 300 px thumbnail has contour labels")
	}
	goldentest.CheckTextAlternative(t, string(a))
	goldentest.Check(t, "probability_linear", a)
	if *rendertest.Look != "" {
		rendertest.WriteLook(t, "probability_linear", f)
	}
}

// BenchmarkProbabilityFigure: a logistic model's probability field with
// its nine labelled contours under 60 points, at the default size.
func BenchmarkProbabilityFigure(b *testing.B) {
	f := probabilityFigure(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.WriteSVG(io.Discard, render.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rendertest.SVG(b, f, render.Options{}))), "svg-bytes")
}
