package render

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
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/margin-edu/margin/internal/goldentest"
)

// record draws one plotter on a 400 × 300 pt data area showing v and
// returns what it drew, with the plot, for its transforms.
func record(t testing.TB, pl plot.Plotter, v View) ([]recorder.Action, draw.Canvas, *plot.Plot) {
	t.Helper()
	rec := &recorder.Canvas{}
	c := draw.Canvas{Canvas: rec, Rectangle: vg.Rectangle{Max: vg.Point{X: 400, Y: 300}}}
	p := plot.New()
	setView(p, v)
	pl.Plot(c, p)
	return rec.Actions, c, p
}

// paths returns the stroked (or, with fill, the filled) paths' vertices.
func paths(acts []recorder.Action, fill bool) [][]vg.Point {
	var out [][]vg.Point
	for _, a := range acts {
		var path vg.Path
		switch a := a.(type) {
		case *recorder.Stroke:
			if fill {
				continue
			}
			path = a.Path
		case *recorder.Fill:
			if !fill {
				continue
			}
			path = a.Path
		default:
			continue
		}
		var pts []vg.Point
		for _, comp := range path {
			if comp.Type == vg.MoveComp || comp.Type == vg.LineComp {
				pts = append(pts, comp.Pos)
			}
		}
		out = append(out, pts)
	}
	return out
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestSampleRunsPole: 1/x has a pole at 0 that no sample lands on; the
// curve must break there, not join −50 to +50 with a vertical line.
func TestSampleRunsPole(t *testing.T) {
	v := View{-1, 1, -2, 2}
	runs := sampleRuns(func(x float64) float64 { return 1 / x }, v, v.YMin, v.YMax, 100)
	if len(runs) != 2 {
		t.Fatalf("1/x on [−1, 1]: %d runs, want 2 (broken at the pole)", len(runs))
	}
	for k, run := range runs {
		for _, q := range run {
			if (k == 0) != (q.X < 0) {
				t.Errorf("run %d has x = %v on the wrong side of the pole", k, q.X)
			}
		}
		for _, piece := range clipPolyline(run, v) {
			for _, q := range piece {
				if !v.contains(q) {
					t.Errorf("clipped point %v outside the view %v", q, v)
				}
			}
		}
	}
}

// TestSampleRunsSteep: a continuous line of slope 10⁶ crosses the view
// between two samples; bisection must find it, so the drawn piece runs
// from the bottom edge to the top edge at x = 0.0123 ± 10⁻⁶.
func TestSampleRunsSteep(t *testing.T) {
	v := View{-1, 1, -1, 1}
	f := func(x float64) float64 { return 1e6 * (x - 0.0123) }
	runs := sampleRuns(f, v, v.YMin, v.YMax, 100)
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	pieces := clipPolyline(runs[0], v)
	if len(pieces) != 1 {
		t.Fatalf("%d pieces in view, want 1: %v", len(pieces), pieces)
	}
	a, b := pieces[0][0], pieces[0][len(pieces[0])-1]
	if !near(a.Y, -1, 1e-9) || !near(b.Y, 1, 1e-9) || !near(a.X, 0.0123-1e-6, 1e-9) || !near(b.X, 0.0123+1e-6, 1e-9) {
		t.Errorf("piece from %v to %v, want from (0.0123−10⁻⁶, −1) to (0.0123+10⁻⁶, 1)", a, b)
	}
}

// TestSampleRunsNaN: √x is NaN for x < 0, so its graph starts at the
// first sample with x ≥ 0.
func TestSampleRunsNaN(t *testing.T) {
	v := View{-1, 1, -2, 2}
	runs := sampleRuns(math.Sqrt, v, v.YMin, v.YMax, 101)
	if len(runs) != 1 || runs[0][0].X != 0 || len(runs[0]) != 51 {
		t.Fatalf("√x: runs %v, want one run of 51 samples from x = 0", runs)
	}
}

func TestClipSegment(t *testing.T) {
	v := View{-1, 1, -1, 1}
	tests := []struct {
		name   string
		p, q   Vec
		a, b   Vec
		inside bool
	}{
		{"inside", Vec{0, 0}, Vec{0.5, 0.5}, Vec{0, 0}, Vec{0.5, 0.5}, true},
		{"leaves the top", Vec{0, 0}, Vec{0, 4}, Vec{0, 0}, Vec{0, 1}, true},
		{"crosses", Vec{-2, 0}, Vec{2, 0}, Vec{-1, 0}, Vec{1, 0}, true},
		{"diagonal", Vec{-3, -3}, Vec{3, 3}, Vec{-1, -1}, Vec{1, 1}, true},
		{"beside", Vec{2, 0}, Vec{2, 1}, Vec{}, Vec{}, false},
		{"above", Vec{-2, 2}, Vec{2, 3}, Vec{}, Vec{}, false},
		{"towards 10³⁰⁰", Vec{0, 0}, Vec{0.001, 1e300}, Vec{0, 0}, Vec{1e-303, 1}, true},
	}
	for _, tt := range tests {
		a, b, ok := clipSegment(tt.p, tt.q, v)
		if ok != tt.inside || ok && (!near(a.X, tt.a.X, 1e-12) || !near(a.Y, tt.a.Y, 1e-12) || !near(b.X, tt.b.X, 1e-12) || !near(b.Y, tt.b.Y, 1e-12)) {
			t.Errorf("clipSegment(%s: %v, %v) = %v, %v, %v, want %v, %v, %v", tt.name, tt.p, tt.q, a, b, ok, tt.a, tt.b, tt.inside)
		}
	}
}

// TestSimplify: the thinned polyline keeps both ends and stays within the
// tolerance of every sampled point; a straight line keeps only its ends.
func TestSimplify(t *testing.T) {
	var wave, line []vg.Point
	for i := range 500 {
		x := vg.Length(i)
		wave = append(wave, vg.Point{X: x, Y: vg.Length(40 * math.Sin(float64(i)/30))})
		line = append(line, vg.Point{X: x, Y: 0.5 * x})
	}
	if got := simplify(line, 0.2); len(got) != 2 {
		t.Errorf("a straight line thins to %d points, want 2", len(got))
	}
	got := simplify(wave, 0.2)
	if got[0] != wave[0] || got[len(got)-1] != wave[len(wave)-1] {
		t.Errorf("the ends moved")
	}
	if len(got) >= len(wave)/2 {
		t.Errorf("a smooth wave kept %d of %d points", len(got), len(wave))
	}
	for _, q := range wave {
		d := vg.Length(math.Inf(1))
		for k := 1; k < len(got); k++ {
			d = min(d, segDist(got[k-1], got[k], q))
		}
		if d > 0.2+1e-9 {
			t.Fatalf("point %v is %v from the thinned line, want ≤ 0.2", q, d)
		}
	}
}

// runge is the degree-14 polynomial through fifteen points of a bump,
// which swings far outside any sensible view between its end nodes.
func runge(x float64) float64 {
	const n = 15
	s := 0.0
	for i := range n {
		xi := -1 + 2*float64(i)/(n-1)
		li := 1 / (1 + 25*xi*xi)
		for j := range n {
			if j != i {
				xj := -1 + 2*float64(j)/(n-1)
				li *= (x - xj) / (xi - xj)
			}
		}
		s += li
	}
	return s
}

// TestGraphStaysOnCanvas: every vertex drawn lies on the data area, for
// an exploding polynomial, 1/x and a function that is mostly NaN, and the
// explosions are drawn (the curve reaches the edges).
func TestGraphStaysOnCanvas(t *testing.T) {
	fs := map[string]func(float64) float64{
		"runge":   runge,
		"1/x":     func(x float64) float64 { return 1 / x },
		"partial": func(x float64) float64 { return math.Sqrt(0.04 - x*x) },
		"x¹⁵·10⁹": func(x float64) float64 { return 1e9 * math.Pow(x, 15) },
	}
	for name, f := range fs {
		g, err := NewGraph(f, GraphStyle(0, false))
		if err != nil {
			t.Fatal(err)
		}
		acts, c, _ := record(t, g, View{-1.2, 1.2, -0.5, 1.5})
		ps := paths(acts, false)
		if len(ps) == 0 {
			t.Errorf("%s: nothing drawn", name)
		}
		for _, pts := range ps {
			for _, q := range pts {
				if q.X < c.Min.X-1e-9 || q.X > c.Max.X+1e-9 || q.Y < c.Min.Y-1e-9 || q.Y > c.Max.Y+1e-9 {
					t.Errorf("%s: vertex %v off the data area %v", name, q, c.Rectangle)
				}
			}
		}
	}
}

// TestGraphBreaksAtPole: no stroke of 1/x crosses x = 0.
func TestGraphBreaksAtPole(t *testing.T) {
	g, _ := NewGraph(func(x float64) float64 { return 1 / x }, TruthStyle)
	acts, _, p := record(t, g, View{-1, 1, -3, 3})
	trX, _ := p.Transforms(&draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: 400, Y: 300}}})
	x0 := trX(0)
	for _, pts := range paths(acts, false) {
		if pts[0].X < x0 != (pts[len(pts)-1].X < x0) {
			t.Errorf("a stroke from %v to %v crosses the pole at x = %v", pts[0], pts[len(pts)-1], x0)
		}
	}
}

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
	acts, c, p := record(t, r, View{-1, 1, -1, 1.5})
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
	v := View{-1, 1, -1, 1}
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
	acts, c, p := record(t, o, View{-1, 1, -1, 1})
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
	want := []color.Color{obsInk, obsInk, White}
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
		{"NaN observation", second(NewObservations(nan)), ErrNotFinite},
		{"residuals of nil", second(NewResiduals(nil, nil)), nil},
		{"NaN residual", second(NewResiduals(nan, line)), ErrNotFinite},
		{"tube of nil", second(NewTube(nil, 1)), nil},
		{"negative ε", second(NewTube(line, -1)), ErrShape},
		{"NaN ε", second(NewTube(line, math.NaN())), ErrNotFinite},
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
func regressionFigure(t testing.TB) DataFigure {
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
	return DataFigure{
		Title: "polynomial fits of degree 1, 3 and 11\n12 training points, 4 held out", XLabel: "x", YLabel: "y",
		View:   DataView(rows),
		Layers: []plot.Plotter{tube, fa, tr, res, graphs[0], graphs[1], graphs[2], obs},
		Legend: []LegendItem{
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
	a := dataFigureSVG(t, f, Options{})
	dataFigureSVG(t, f, Options{Width: 1200, Height: 1200})
	if b := dataFigureSVG(t, regressionFigure(t), Options{}); string(a) != string(b) {
		t.Fatal("two renderings of one figure differ")
	}
	if len(a) >= 100<<10 {
		t.Errorf("SVG is %d bytes, want < 100 KB", len(a))
	}
	goldentest.CheckTextAlternative(t, string(a))
	goldentest.Check(t, "regression_fits", a)
	if *look != "" {
		writeDataFigureLook(t, "regression_fits", f)
	}
}

// BenchmarkRegressionFigure: a regression figure with a fan of 50 cubics,
// at the default size.
func BenchmarkRegressionFigure(b *testing.B) {
	f := regressionFigure(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.WriteSVG(io.Discard, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(dataFigureSVG(b, f, Options{}))), "svg-bytes")
}
