package graphs

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/render"
)

// Graph draws y = F(x) across the view's whole x range: the curve of a
// fitted regression model over its data. The curve is clipped to the data
// area and broken where F is NaN or infinite or jumps across the view with
// nothing in between (a pole), so a degree-15 polynomial that explodes
// between two points leaves the figure at its edge instead of writing
// coordinates a million points off the canvas.
//
// Samples is how many x it evaluates F at, evenly spaced; 0 means one per
// 2 px of the data area's width, enough for a smooth curve. The polyline
// is then thinned to the points a reader can tell apart, so a smooth fit
// costs a few hundred bytes of SVG. Graph has no DataRange: the figure
// chooses the view (DataView of the data).
type Graph struct {
	F         func(x float64) float64
	LineStyle draw.LineStyle
	Samples   int
}

// NewGraph returns the graph of f drawn in style (GraphStyle(i, dashed)
// for model i, TruthStyle for the true function). It returns an error
// when f is nil.
func NewGraph(f func(x float64) float64, style draw.LineStyle) (*Graph, error) {
	if f == nil {
		return nil, errors.New("render: a graph needs a function y = f(x); got nil")
	}
	return &Graph{F: f, LineStyle: style}, nil
}

// GraphStyle is the line of series i in the house palette, the order
// Curves uses (0 blue, 1 vermillion, 2 bluish green, 3 reddish purple,
// then orange, sky blue, yellow, black), 2.5 pt at the default size, and
// dashed when dashed, so two models stay apart in grey print too.
func GraphStyle(i int, dashed bool) draw.LineStyle {
	sty := draw.LineStyle{Color: render.ClassColor(max(i, 0)), Width: vg.Points(2.5)}
	if dashed {
		sty.Dashes = []vg.Length{vg.Points(8), vg.Points(5)}
	}
	return sty
}

// TruthStyle is the line of the true function a synthetic data set was
// drawn from: thin, black and dashed, so it reads as a reference under
// the fitted curves rather than as one of them.
var TruthStyle = draw.LineStyle{Color: color.Black, Width: vg.Points(1.25),
	Dashes: []vg.Length{vg.Points(5), vg.Points(3.5)}}

// Plot implements plot.Plotter.
func (g *Graph) Plot(c draw.Canvas, p *plot.Plot) {
	if g.F == nil {
		return
	}
	strokeGraph(&c, p, g.F, g.Samples, g.LineStyle)
}

// Thumbnail implements plot.Thumbnailer: a short line in the graph's style.
func (g *Graph) Thumbnail(c *draw.Canvas) { render.ThumbLine(c, g.LineStyle) }

func (g *Graph) Scaled(s float64) any {
	q := *g
	q.LineStyle = render.ScaleLine(g.LineStyle, s)
	return &q
}

// strokeGraph draws y = f(x) across p's view in sty, sampled at n points
// (0 for one per 2 px of the data area, −1 for one per 4 px).
func strokeGraph(c *draw.Canvas, p *plot.Plot, f func(float64) float64, n int, sty draw.LineStyle) {
	v := render.PlotView(p)
	if !(v.XMax > v.XMin && v.YMax > v.YMin) {
		return
	}
	trX, trY := p.Transforms(c)
	if n < 0 {
		n = graphSamples(0, c.Max.X-c.Min.X) / 2
	}
	n = graphSamples(n, c.Max.X-c.Min.X)
	var pts []vg.Point
	for _, run := range sampleRuns(f, v, v.YMin, v.YMax, n) {
		for _, piece := range clipPolyline(run, v) {
			pts = pts[:0]
			for _, q := range piece {
				pts = append(pts, vg.Point{X: trX(q.X), Y: trY(q.Y)})
			}
			c.StrokeLines(sty, simplify(pts, simplifyTol))
		}
	}
}

// Fan draws many fitted curves at once, thin and light grey: one per
// noisy resample of the training set, so the spread of the fan is the
// variance of the learner and its centre's distance from the truth its
// bias. Add it first, under everything else. The lines are translucent,
// so where many curves agree the fan is darker.
type Fan struct {
	Fs    []func(x float64) float64
	Color color.Color

	scale float64 // of the line width; 0 means 1
}

// fanWidth is the width of a fan's lines at the default size.
const fanWidth = 0.8

// NewFan returns a fan of the curves fs in translucent grey. It returns
// an error when one of them is nil. No curves is not an error: the layer
// then draws nothing.
func NewFan(fs []func(x float64) float64) (*Fan, error) {
	for i, f := range fs {
		if f == nil {
			return nil, fmt.Errorf("render: fan curve %d is nil; every curve needs a function y = f(x)", i)
		}
	}
	return &Fan{Fs: append([]func(float64) float64(nil), fs...), Color: fanGrey}, nil
}

// fanGrey is a mid grey at 30 % opacity: fifty curves over one another
// build up to a dark band where they agree, and stay light where they
// spread.
var fanGrey = color.NRGBA{0x50, 0x50, 0x50, 0x4D}

func (fa *Fan) style() draw.LineStyle {
	col := fa.Color
	if col == nil {
		col = fanGrey
	}
	s := fa.scale
	if s == 0 {
		s = 1
	}
	return draw.LineStyle{Color: col, Width: vg.Points(fanWidth * s)}
}

// Plot implements plot.Plotter.
func (fa *Fan) Plot(c draw.Canvas, p *plot.Plot) {
	sty := fa.style()
	for _, f := range fa.Fs {
		if f != nil {
			// Half the samples of a Graph: fifty thin lines in the
			// background need no more, and cost half as much.
			strokeGraph(&c, p, f, -1, sty)
		}
	}
}

// Thumbnail implements plot.Thumbnailer: a short line, opaque and a
// little heavier than one of the fan's, so the swatch shows the band's
// colour rather than a faint hairline.
func (fa *Fan) Thumbnail(c *draw.Canvas) {
	sty := fa.style()
	sty.Width *= 2
	render.ThumbLine(c, sty)
}

func (fa *Fan) Scaled(s float64) any {
	q := *fa
	if q.scale == 0 {
		q.scale = 1
	}
	q.scale *= s
	return &q
}

// Graph sampling: at most maxGraphSamples points, and by default one per
// 2 px of the data area (1.5 pt), but at least minGraphSamples.
const (
	minGraphSamples = 50
	maxGraphSamples = 4000
	// simplifyTol is how far, in points, a thinned polyline may stray
	// from the sampled one: a quarter of a pixel, which no one sees.
	simplifyTol = 0.2
	// poleSteps bounds the bisection that tells a steep curve from a pole.
	poleSteps = 40
)

func graphSamples(n int, width vg.Length) int {
	if n <= 0 {
		n = int(width / 1.5)
	}
	return max(minGraphSamples, min(n, maxGraphSamples))
}

// sampleRuns samples f at n evenly spaced x across v's x range and
// returns the runs of samples along which the curve is continuous, in
// data coordinates. A run breaks where f is NaN or infinite, and where two
// neighbours lie on opposite sides of the band lo ≤ y ≤ hi with no x
// between them (found by bisection) at which f is inside it: a pole, not
// a steep stretch. Where there is such an x it joins the run, so the
// drawn curve crosses the band where f does.
func sampleRuns(f func(float64) float64, v render.View, lo, hi float64, n int) [][]render.Vec {
	var runs [][]render.Vec
	cur := make([]render.Vec, 0, n) // the runs share one array
	flush := func() {
		if len(cur) > 1 {
			runs = append(runs, cur[:len(cur):len(cur)])
		}
		cur = cur[len(cur):]
	}
	dx := (v.XMax - v.XMin) / float64(n-1)
	for k := range n {
		x := v.XMin + float64(k)*dx
		if k == n-1 {
			x = v.XMax
		}
		q := render.Vec{x, f(x)}
		if !isFinite(q.Y) {
			flush()
			continue
		}
		if len(cur) > 0 {
			prev := cur[len(cur)-1]
			if side(prev.Y, lo, hi)*side(q.Y, lo, hi) < 0 {
				m, ok := crossing(f, prev, q, lo, hi)
				if !ok {
					flush()
				} else {
					cur = append(cur, m)
				}
			}
		}
		cur = append(cur, q)
	}
	flush()
	return runs
}

func isFinite(v float64) bool { return render.Finite(v) == nil }

// side is −1 below the band [lo, hi], +1 above it and 0 inside.
func side(y, lo, hi float64) int {
	switch {
	case y < lo:
		return -1
	case y > hi:
		return 1
	}
	return 0
}

// crossing looks between a and b, which lie on opposite sides of the band
// [lo, hi], for a point of the graph of f inside it, halving the interval
// towards the half whose ends still lie on opposite sides.
func crossing(f func(float64) float64, a, b render.Vec, lo, hi float64) (render.Vec, bool) {
	sa := side(a.Y, lo, hi)
	for range poleSteps {
		x := (a.X + b.X) / 2
		if x == a.X || x == b.X {
			break
		}
		m := render.Vec{x, f(x)}
		if !isFinite(m.Y) {
			return render.Vec{}, false
		}
		switch side(m.Y, lo, hi) {
		case 0:
			return m, true
		case sa:
			a = m
		default:
			b = m
		}
	}
	return render.Vec{}, false
}

// clipPolyline returns the pieces of the polyline run inside v.
func clipPolyline(run []render.Vec, v render.View) [][]render.Vec {
	var pieces [][]render.Vec
	buf := make([]render.Vec, 0, len(run)+8) // the pieces share one array
	start := -1                              // where the current piece starts in buf
	end := func() {
		if start >= 0 && len(buf)-start > 1 {
			pieces = append(pieces, buf[start:len(buf):len(buf)])
		}
		start = -1
	}
	for i := 1; i < len(run); i++ {
		a, b, ok := clipSegment(run[i-1], run[i], v)
		if !ok {
			end()
			continue
		}
		if start < 0 || buf[len(buf)-1] != a {
			end()
			start = len(buf)
			buf = append(buf, a)
		}
		buf = append(buf, b)
	}
	end()
	return pieces
}

// clipSegment returns the part of the segment pq inside v (Liang–Barsky);
// ok is false when there is none.
func clipSegment(p, q render.Vec, v render.View) (render.Vec, render.Vec, bool) {
	t0, t1 := 0.0, 1.0
	d := q.Sub(p)
	for _, e := range [4]struct{ num, den float64 }{
		{p.X - v.XMin, -d.X}, {v.XMax - p.X, d.X}, {p.Y - v.YMin, -d.Y}, {v.YMax - p.Y, d.Y},
	} {
		switch {
		case e.den == 0:
			if e.num < 0 {
				return render.Vec{}, render.Vec{}, false
			}
		case e.den < 0: // entering across this edge
			t0 = max(t0, e.num/e.den)
		default: // leaving across it
			t1 = min(t1, e.num/e.den)
		}
	}
	if !(t0 < t1) {
		return render.Vec{}, render.Vec{}, false
	}
	a, b := p, q
	if t0 > 0 {
		a = p.Lerp(q, t0)
	}
	if t1 < 1 {
		b = p.Lerp(q, t1)
	}
	return a, b, true
}

// simplify thins a polyline to the points that keep it within tol of the
// original (Ramer–Douglas–Peucker), keeping both ends, so a smooth curve
// sampled every 2 px costs tens of points instead of hundreds.
func simplify(pts []vg.Point, tol vg.Length) []vg.Point {
	if len(pts) < 3 {
		return pts
	}
	keep := make([]bool, len(pts))
	keep[0], keep[len(pts)-1] = true, true
	stack := [][2]int{{0, len(pts) - 1}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		far, at := 0.0, -1
		for i := s[0] + 1; i < s[1]; i++ {
			if d := segDist2(pts[s[0]], pts[s[1]], pts[i]); d > far {
				far, at = d, i
			}
		}
		if at >= 0 && far > float64(tol*tol) {
			keep[at] = true
			stack = append(stack, [2]int{s[0], at}, [2]int{at, s[1]})
		}
	}
	out := make([]vg.Point, 0, len(pts))
	for i, q := range pts {
		if keep[i] {
			out = append(out, q)
		}
	}
	return out
}

// segDist2 is the squared distance from q to the segment from a to b
// (segDist without its square root, which simplify calls most).
func segDist2(a, b, q vg.Point) float64 {
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	qx, qy := float64(q.X-a.X), float64(q.Y-a.Y)
	t := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t = math.Max(0, math.Min(1, (qx*dx+qy*dy)/l2))
	}
	ex, ey := qx-t*dx, qy-t*dy
	return ex*ex + ey*ey
}
