package graphs

import (
	"math"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/margin-edu/margin/internal/render"
)

// record draws one plotter on a 400 × 300 pt data area showing v and
// returns what it drew, with the plot, for its transforms.
func record(t testing.TB, pl plot.Plotter, v render.View) ([]recorder.Action, draw.Canvas, *plot.Plot) {
	t.Helper()
	rec := &recorder.Canvas{}
	c := draw.Canvas{Canvas: rec, Rectangle: vg.Rectangle{Max: vg.Point{X: 400, Y: 300}}}
	p := plot.New()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = v.XMin, v.XMax, v.YMin, v.YMax
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
	v := render.View{-1, 1, -2, 2}
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
				if q.X < v.XMin || q.X > v.XMax || q.Y < v.YMin || q.Y > v.YMax {
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
	v := render.View{-1, 1, -1, 1}
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
	v := render.View{-1, 1, -2, 2}
	runs := sampleRuns(math.Sqrt, v, v.YMin, v.YMax, 101)
	if len(runs) != 1 || runs[0][0].X != 0 || len(runs[0]) != 51 {
		t.Fatalf("√x: runs %v, want one run of 51 samples from x = 0", runs)
	}
}

func TestClipSegment(t *testing.T) {
	v := render.View{-1, 1, -1, 1}
	tests := []struct {
		name   string
		p, q   render.Vec
		a, b   render.Vec
		inside bool
	}{
		{"inside", render.Vec{0, 0}, render.Vec{0.5, 0.5}, render.Vec{0, 0}, render.Vec{0.5, 0.5}, true},
		{"leaves the top", render.Vec{0, 0}, render.Vec{0, 4}, render.Vec{0, 0}, render.Vec{0, 1}, true},
		{"crosses", render.Vec{-2, 0}, render.Vec{2, 0}, render.Vec{-1, 0}, render.Vec{1, 0}, true},
		{"diagonal", render.Vec{-3, -3}, render.Vec{3, 3}, render.Vec{-1, -1}, render.Vec{1, 1}, true},
		{"beside", render.Vec{2, 0}, render.Vec{2, 1}, render.Vec{}, render.Vec{}, false},
		{"above", render.Vec{-2, 2}, render.Vec{2, 3}, render.Vec{}, render.Vec{}, false},
		{"towards 10³⁰⁰", render.Vec{0, 0}, render.Vec{0.001, 1e300}, render.Vec{0, 0}, render.Vec{1e-303, 1}, true},
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
			d = min(d, vg.Length(math.Sqrt(segDist2(got[k-1], got[k], q))))
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
		acts, c, _ := record(t, g, render.View{-1.2, 1.2, -0.5, 1.5})
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
	acts, _, p := record(t, g, render.View{-1, 1, -3, 3})
	trX, _ := p.Transforms(&draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: 400, Y: 300}}})
	x0 := trX(0)
	for _, pts := range paths(acts, false) {
		if pts[0].X < x0 != (pts[len(pts)-1].X < x0) {
			t.Errorf("a stroke from %v to %v crosses the pole at x = %v", pts[0], pts[len(pts)-1], x0)
		}
	}
}
