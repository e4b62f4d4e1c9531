package graphs

import (
	"errors"
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/render"
)

// Observations draws regression data (x, y) as filled dark discs in the
// house marker size (ClassPoints' size for as many points), with a thin
// white edge so neighbours stay apart. Hollow[i] draws point i as a ring
// instead, white inside: a held-out point, which the fit never saw.
// Marked[i] adds a larger black ring around point i: the outlier a learner
// drags to watch the fit follow it. Hollow and Marked may be nil or
// shorter than XY (the rest are plain).
//
// Observations has no DataRange: the figure chooses the view (DataView of
// the points), and points outside it are not drawn.
type Observations struct {
	XY             [][2]float64
	Hollow, Marked []bool

	scale float64 // of the marks; 0 means 1
}

// obsInk is the fill of a data point: near black, so any GraphStyle
// line, drawn under the points, stays distinct from them.
var obsInk = color.RGBA{0x22, 0x22, 0x22, 0xFF}

// NewObservations returns the points xy, none hollow or marked. No points
// is not an error (a learner's own data start empty). It returns
// ErrNotFinite for a NaN or infinite coordinate.
func NewObservations(xy [][2]float64) (*Observations, error) {
	for i, q := range xy {
		if err := render.Finite(q[0], q[1]); err != nil {
			return nil, fmt.Errorf("observation %d: %w", i, err)
		}
	}
	return &Observations{XY: append([][2]float64(nil), xy...)}, nil
}

func (o *Observations) s() float64 {
	if o.scale == 0 {
		return 1
	}
	return o.scale
}

// radius is the marker radius for this many points, as ClassPoints has it.
func (o *Observations) radius() vg.Length { return vg.Points(render.MarkerRadius(len(o.XY)) * o.s()) }

// ringRadius is the radius of a marked point's ring.
func (o *Observations) ringRadius() vg.Length { return o.radius()*1.9 + vg.Points(2*o.s()) }

func isSet(fs []bool, i int) bool { return i < len(fs) && fs[i] }

// Plot implements plot.Plotter: discs, then rings, then the marks, so a
// held-out point on top of a training point is still seen as a ring.
func (o *Observations) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	r := o.radius()
	for pass := range 3 {
		for i, q := range o.XY {
			at := vg.Point{X: trX(q[0]), Y: trY(q[1])}
			if !c.Contains(at) {
				continue
			}
			switch {
			case pass == 0 && !isSet(o.Hollow, i):
				o.disc(&c, at, r)
			case pass == 1 && isSet(o.Hollow, i):
				o.ring(&c, at, r)
			case pass == 2 && isSet(o.Marked, i):
				render.StrokeCircle(&c, at, o.ringRadius(), o.markStyle())
			}
		}
	}
}

func (o *Observations) disc(c *draw.Canvas, at vg.Point, r vg.Length) {
	c.SetColor(obsInk)
	c.Fill(render.Circle(at, r))
	c.SetLineStyle(draw.LineStyle{Color: render.White, Width: vg.Points(0.75 * o.s())})
	c.Stroke(render.Circle(at, r))
}

// ring is a held-out point: white inside, so a line under it does not
// run through it, with a dark edge a little inside the disc's outline.
func (o *Observations) ring(c *draw.Canvas, at vg.Point, r vg.Length) {
	w := vg.Points(1.75 * o.s())
	c.SetColor(render.White)
	c.Fill(render.Circle(at, r))
	c.SetLineStyle(draw.LineStyle{Color: obsInk, Width: w})
	c.Stroke(render.Circle(at, r-w/2))
}

func (o *Observations) markStyle() draw.LineStyle {
	return draw.LineStyle{Color: render.Black, Width: vg.Points(2.25 * o.s())}
}

// Thumb returns a legend swatch for the points: a disc ("training"), or a
// ring when hollow ("held-out").
func (o *Observations) Thumb(hollow bool) plot.Thumbnailer { return obsThumb{o, hollow, false} }

// MarkedThumb returns a legend swatch for a marked point: a disc in its
// ring, shrunk to fit a legend row.
func (o *Observations) MarkedThumb() plot.Thumbnailer { return obsThumb{o, false, true} }

type obsThumb struct {
	o              *Observations
	hollow, marked bool
}

func (t obsThumb) Thumbnail(c *draw.Canvas) {
	half := (c.Max.Y - c.Min.Y) / 2
	r := min(t.o.radius(), half)
	switch {
	case t.marked:
		ring := min(t.o.ringRadius(), half+vg.Points(2*t.o.s()))
		r = min(r, ring*0.5)
		t.o.disc(c, c.Center(), r)
		render.StrokeCircle(c, c.Center(), ring, t.o.markStyle())
	case t.hollow:
		t.o.ring(c, c.Center(), r)
	default:
		t.o.disc(c, c.Center(), r)
	}
}

func (o *Observations) Scaled(s float64) any {
	q := *o
	q.scale = o.s() * s
	return &q
}

func (t obsThumb) Scaled(s float64) any {
	t.o = t.o.Scaled(s).(*Observations)
	return t
}

// Residuals draws a thin vertical segment from each point (xᵢ, yᵢ) to the
// fitted curve, (xᵢ, F(xᵢ)): least squares minimises the sum of their
// squared lengths. Add it under the points and over the curve. A point
// whose F(xᵢ) is NaN or infinite gets no segment; segments are clipped to
// the view.
type Residuals struct {
	XY [][2]float64
	F  func(float64) float64

	scale float64 // of the line width; 0 means 1
}

// NewResiduals returns the residuals of the points xy from f. It returns
// an error when f is nil and ErrNotFinite for a NaN or infinite
// coordinate.
func NewResiduals(xy [][2]float64, f func(float64) float64) (*Residuals, error) {
	if f == nil {
		return nil, errors.New("render: residuals need the fitted function y = f(x); got nil")
	}
	for i, q := range xy {
		if err := render.Finite(q[0], q[1]); err != nil {
			return nil, fmt.Errorf("residual %d: %w", i, err)
		}
	}
	return &Residuals{XY: append([][2]float64(nil), xy...), F: f}, nil
}

// residualGrey is darker than a fan's grey: a residual is read one by one.
var residualGrey = color.RGBA{0x6E, 0x6E, 0x6E, 0xFF}

func (r *Residuals) style() draw.LineStyle {
	s := r.scale
	if s == 0 {
		s = 1
	}
	return draw.LineStyle{Color: residualGrey, Width: vg.Points(1.5 * s)}
}

// Plot implements plot.Plotter.
func (r *Residuals) Plot(c draw.Canvas, p *plot.Plot) {
	if r.F == nil {
		return
	}
	v := render.PlotView(p)
	trX, trY := p.Transforms(&c)
	sty := r.style()
	for _, q := range r.XY {
		fx := r.F(q[0])
		if !isFinite(fx) {
			continue
		}
		a, b, ok := clipSegment(render.Vec{q[0], q[1]}, render.Vec{q[0], fx}, v)
		if !ok {
			continue
		}
		c.StrokeLine2(sty, trX(a.X), trY(a.Y), trX(b.X), trY(b.Y))
	}
}

// Thumbnail implements plot.Thumbnailer: a vertical segment.
func (r *Residuals) Thumbnail(c *draw.Canvas) {
	x := c.Center().X
	c.StrokeLine2(r.style(), x, c.Min.Y, x, c.Max.Y)
}

func (r *Residuals) Scaled(s float64) any {
	q := *r
	if q.scale == 0 {
		q.scale = 1
	}
	q.scale *= s
	return &q
}

// Tube shades the band F(x) − Eps ≤ y ≤ F(x) + Eps lightly: the tube of
// an ε-insensitive loss, inside which a point costs nothing. It is an
// opaque fill, so add it first, under the curves and the points. The band
// is broken where F is NaN, infinite or has a pole, and clipped to the
// view.
type Tube struct {
	F     func(float64) float64
	Eps   float64
	Color color.Color
}

// NewTube returns the tube of half-height eps around f, in a light tint
// of the first GraphStyle's blue. It returns an error when f is nil and
// when eps is negative, NaN or infinite.
func NewTube(f func(float64) float64, eps float64) (*Tube, error) {
	if f == nil {
		return nil, errors.New("render: a tube needs the fitted function y = f(x); got nil")
	}
	if err := render.Finite(eps); err != nil {
		return nil, fmt.Errorf("tube half-height ε: %w", err)
	}
	if eps < 0 {
		return nil, fmt.Errorf("%w: tube half-height ε = %v; want ε ≥ 0", render.ErrShape, eps)
	}
	return &Tube{F: f, Eps: eps, Color: render.Tint(render.Blue, 0.16)}, nil
}

// Plot implements plot.Plotter: one polygon per continuous run of F,
// its upper edge left to right and its lower edge back, clipped to the
// view.
func (t *Tube) Plot(c draw.Canvas, p *plot.Plot) {
	v := render.PlotView(p)
	if t.F == nil || !(t.Eps >= 0) || !(v.XMax > v.XMin && v.YMax > v.YMin) {
		return
	}
	trX, trY := p.Transforms(&c)
	n := graphSamples(0, c.Max.X-c.Min.X)
	for _, run := range sampleRuns(t.F, v, v.YMin-t.Eps, v.YMax+t.Eps, n) {
		poly := make([]render.Vec, 0, 2*len(run))
		for _, q := range run {
			poly = append(poly, render.Vec{q.X, q.Y + t.Eps})
		}
		for i := len(run) - 1; i >= 0; i-- {
			poly = append(poly, render.Vec{run[i].X, run[i].Y - t.Eps})
		}
		poly = render.ClipAll(poly, viewPlanes(v))
		if len(poly) < 3 {
			continue
		}
		pts := make([]vg.Point, len(poly))
		for i, q := range poly {
			pts[i] = vg.Point{X: trX(q.X), Y: trY(q.Y)}
		}
		c.FillPolygon(t.fill(), simplify(pts, simplifyTol))
	}
}

func (t *Tube) fill() color.Color {
	if t.Color == nil {
		return render.Tint(render.Blue, 0.16)
	}
	return t.Color
}

// viewPlanes are the four half-planes whose intersection is v.
func viewPlanes(v render.View) []render.HalfPlane {
	return []render.HalfPlane{{A: [2]float64{1, 0}, B: -v.XMin}, {A: [2]float64{-1, 0}, B: v.XMax},
		{A: [2]float64{0, 1}, B: -v.YMin}, {A: [2]float64{0, -1}, B: v.YMax}}
}

// Thumbnail implements plot.Thumbnailer: a swatch of the tint.
func (t *Tube) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(t.fill(), []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
}
