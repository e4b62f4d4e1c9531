package graphs

import (
	"errors"
	"image/color"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/margin-edu/margin/internal/goldentest"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/rendertest"
)

// TestResiduals: each segment is vertical at xᵢ, from yᵢ to f(xᵢ), in the
// plot's own coordinates; the point whose f is NaN has none.
func TestResiduals(t *testing.T) {
	xy := [][2]float64{{-0.5, 1}, {0, -0.2}, {0.5, 0.1}, {0.9, 2}}
	f := func(x float64) float64 {
		if x == 0.9 {
			return math.NaN()
		}
		return 2*x + 0.1
	}
	r, err := NewResiduals(xy, f)
	if err != nil {
		t.Fatal(err)
	}
	acts, c, p := record(t, r, render.View{-1, 1, -1, 1.5})
	trX, trY := p.Transforms(&c)
	got := paths(acts, false)
	if len(got) != 3 {
		t.Fatalf("%d segments, want 3", len(got))
	}
	for i, seg := range got {
		x, y := xy[i][0], xy[i][1]
		want := [2]vg.Point{{X: trX(x), Y: trY(y)}, {X: trX(x), Y: trY(f(x))}}
		if len(seg) != 2 || seg[0].Sub(want[0]).Dot(seg[0].Sub(want[0])) > 1e-12 || seg[1].Sub(want[1]).Dot(seg[1].Sub(want[1])) > 1e-12 {
			t.Errorf("residual %d drawn as %v, want %v", i, seg, want)
		}
	}
}

// area is a polygon's area by the shoelace formula.
func area(pts []vg.Point) float64 {
	s := 0.0
	for i, a := range pts {
		b := pts[(i+1)%len(pts)]
		s += float64(a.X*b.Y - b.X*a.Y)
	}
	return math.Abs(s) / 2
}

// TestTubeArea: the band |y − f(x)| ≤ ε of a line inside the view has
// area 2ε times the view's width; a band wider than the view fills it.
func TestTubeArea(t *testing.T) {
	v := render.View{-1, 1, -1, 1}
	ptsPerUnit := 400.0 / 2 * 300.0 / 2 // pt² per data unit² on the 400 × 300 area
	for _, tt := range []struct {
		eps, want float64
	}{{0.25, 2 * 0.25 * 2}, {5, 4}, {0, 0}} {
		tube, err := NewTube(func(x float64) float64 { return 0.5 * x }, tt.eps)
		if err != nil {
			t.Fatal(err)
		}
		acts, _, _ := record(t, tube, v)
		got := 0.0
		for _, poly := range paths(acts, true) {
			got += area(poly) / ptsPerUnit
		}
		if !near(got, tt.want, 1e-6) {
			t.Errorf("tube of ε = %v: area %v, want %v", tt.eps, got, tt.want)
		}
	}
}

// TestObservations: discs first, then the held-out rings, then the mark's
// ring around its point, larger than the disc.
func TestObservations(t *testing.T) {
	o, err := NewObservations([][2]float64{{0, 0}, {0.5, 0.5}, {-0.5, 0.2}, {9, 9}})
	if err != nil {
		t.Fatal(err)
	}
	o.Hollow = []bool{false, true}
	o.Marked = []bool{false, false, true, true} // the last one is out of view
	acts, c, p := record(t, o, render.View{-1, 1, -1, 1})
	var fills []color.Color
	var arcs []vg.PathComp
	var col color.Color
	for _, a := range acts {
		switch a := a.(type) {
		case *recorder.SetColor:
			col = a.Color
		case *recorder.Fill:
			fills = append(fills, col)
		case *recorder.Stroke:
			arcs = append(arcs, a.Path[1])
		}
	}
	want := []color.Color{obsInk, obsInk, render.White}
	if len(fills) != len(want) {
		t.Fatalf("fill colours %v, want %v", fills, want)
	}
	for i := range want {
		if fills[i] != want[i] {
			t.Errorf("fill %d is %v, want %v (discs before rings)", i, fills[i], want[i])
		}
	}
	if len(arcs) != 4 {
		t.Fatalf("%d strokes, want 4 (two disc edges, a ring, a mark)", len(arcs))
	}
	trX, trY := p.Transforms(&c)
	mark := arcs[3]
	if mark.Pos != (vg.Point{X: trX(-0.5), Y: trY(0.2)}) || mark.Radius <= 2*o.radius() {
		t.Errorf("mark %+v, want a ring of radius > %v around point 2", mark, 2*o.radius())
	}
}

func TestRegressionErrors(t *testing.T) {
	line := func(x float64) float64 { return x }
	nan := [][2]float64{{0, math.NaN()}}
	tests := []struct {
		name string
		err  error
		want error // nil: any error
	}{
		{"graph of nil", second(NewGraph(nil, TruthStyle)), nil},
		{"fan with a nil curve", second(NewFan([]func(float64) float64{line, nil})), nil},
		{"NaN observation", second(NewObservations(nan)), render.ErrNotFinite},
		{"residuals of nil", second(NewResiduals(nil, nil)), nil},
		{"NaN residual", second(NewResiduals(nan, line)), render.ErrNotFinite},
		{"tube of nil", second(NewTube(nil, 1)), nil},
		{"negative ε", second(NewTube(line, -1)), render.ErrShape},
		{"NaN ε", second(NewTube(line, math.NaN())), render.ErrNotFinite},
	}
	for _, tt := range tests {
		if tt.err == nil || tt.want != nil && !errors.Is(tt.err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.name, tt.err, tt.want)
		}
	}
	for _, ok := range []error{second(NewFan(nil)), second(NewObservations(nil)), second(NewTube(line, 0))} {
		if ok != nil {
			t.Errorf("unexpected error %v", ok)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// polyfit fits a polynomial of degree deg to (xs, ys) by least squares
// (gonum's QR), in powers of x − 1.5 to keep the system well conditioned.
func polyfit(t testing.TB, xs, ys []float64, deg int) func(float64) float64 {
	t.Helper()
	a := mat.NewDense(len(xs), deg+1, nil)
	for i, x := range xs {
		for j := 0; j <= deg; j++ {
			a.Set(i, j, math.Pow(x-1.5, float64(j)))
		}
	}
	var c mat.VecDense
	if err := c.SolveVec(a, mat.NewVecDense(len(ys), ys)); err != nil {
		t.Fatal(err)
	}
	coef := c.RawVector().Data
	return func(x float64) float64 {
		s := 0.0
		for j := len(coef) - 1; j >= 0; j-- {
			s = s*(x-1.5) + coef[j]
		}
		return s
	}
}

// regressionFigure is the regression lesson's figure: twelve noisy
// samples of sin 2x + 0.3x (four more held out, one dragged), the truth,
// fits of degree 1, 3 and 11 (which explodes between points), the
// residuals and ε-tube of the cubic, and a fan of 50 cubics fitted to
// fresh noise.
func regressionFigure(t testing.TB) render.DataFigure {
	t.Helper()
	truth := func(x float64) float64 { return math.Sin(2*x) + 0.3*x }
	r := rand.New(rand.NewPCG(9, 1))
	var xs, ys []float64
	var xy [][2]float64
	var rows [][]float64
	for i := range 16 {
		x := 0.1 + 2.8*float64(i)/15 + 0.05*r.NormFloat64()
		y := truth(x) + 0.25*r.NormFloat64()
		if i%4 != 1 {
			xs, ys = append(xs, x), append(ys, y)
		}
		xy = append(xy, [2]float64{x, y})
		rows = append(rows, []float64{x, y})
	}
	var fan []func(float64) float64
	for range 50 {
		noisy := make([]float64, len(xs))
		for i, x := range xs {
			noisy[i] = truth(x) + 0.25*r.NormFloat64()
		}
		fan = append(fan, polyfit(t, xs, noisy, 3))
	}
	cubic := polyfit(t, xs, ys, 3)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	fa, err := NewFan(fan)
	must(err)
	tube, err := NewTube(cubic, 0.3)
	must(err)
	var train [][2]float64
	for i := range xs {
		train = append(train, [2]float64{xs[i], ys[i]})
	}
	res, err := NewResiduals(train, cubic)
	must(err)
	obs, err := NewObservations(xy)
	must(err)
	obs.Hollow = []bool{false, true, false, false, false, true, false, false, false, true, false, false, false, true}
	obs.Marked = make([]bool, len(xy))
	obs.Marked[10] = true
	graphs := []*Graph{}
	for i, g := range []struct {
		f      func(float64) float64
		dashed bool
	}{{polyfit(t, xs, ys, 1), false}, {cubic, true}, {polyfit(t, xs, ys, 11), false}} {
		gr, err := NewGraph(g.f, GraphStyle(i, g.dashed))
		must(err)
		graphs = append(graphs, gr)
	}
	tr, err := NewGraph(truth, TruthStyle)
	must(err)
	return render.DataFigure{
		Title: "polynomial fits of degree 1, 3 and 11\n12 training points, 4 held out", XLabel: "x", YLabel: "y",
		View:   render.DataView(rows),
		Layers: []plot.Plotter{tube, fa, tr, res, graphs[0], graphs[1], graphs[2], obs},
		Legend: []render.LegendItem{
			{Label: "training", Thumbs: []plot.Thumbnailer{obs.Thumb(false)}},
			{Label: "held-out", Thumbs: []plot.Thumbnailer{obs.Thumb(true)}},
			{Label: "dragged", Thumbs: []plot.Thumbnailer{obs.MarkedThumb()}},
			{Label: "truth", Thumbs: []plot.Thumbnailer{tr}},
			{Label: "degree 1", Thumbs: []plot.Thumbnailer{graphs[0]}},
			{Label: "degree 3", Thumbs: []plot.Thumbnailer{graphs[1]}},
			{Label: "degree 11", Thumbs: []plot.Thumbnailer{graphs[2]}},
			{Label: "50 cubic fits", Thumbs: []plot.Thumbnailer{fa}},
			{Label: "residuals", Thumbs: []plot.Thumbnailer{res}},
			{Label: "ε-tube, ε = 0.3", Thumbs: []plot.Thumbnailer{tube}},
		},
	}
}

// TestRegressionGolden draws the figure twice, at the default size with
// one at 1200 px in between (scaling must not change the layers), and
// compares it with testdata/regression_fits_golden.svg.
func TestRegressionGolden(t *testing.T) {
	f := regressionFigure(t)
	a := rendertest.SVG(t, f, render.Options{})
	rendertest.SVG(t, f, render.Options{Width: 1200, Height: 1200})
	if b := rendertest.SVG(t, regressionFigure(t), render.Options{}); string(a) != string(b) {
		t.Fatal("two renderings of one figure differ")
	}
	if len(a) >= 100<<10 {
		t.Errorf("SVG is %d bytes, want < 100 KB", len(a))
	}
	goldentest.CheckTextAlternative(t, string(a))
	goldentest.Check(t, "regression_fits", a)
	if *rendertest.Look != "" {
		rendertest.WriteLook(t, "regression_fits", f)
	}
}

// BenchmarkRegressionFigure: a regression figure with a fan of 50 cubics,
// at the default size.
func BenchmarkRegressionFigure(b *testing.B) {
	f := regressionFigure(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.WriteSVG(io.Discard, render.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rendertest.SVG(b, f, render.Options{}))), "svg-bytes")
}
