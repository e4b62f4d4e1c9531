package render

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ErrNotFinite is returned by the plotter constructors for NaN or
// infinite input, which would draw nothing or garbage.
var ErrNotFinite = errors.New("render: NaN or infinite value")

func finite(vs ...float64) error {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %v", ErrNotFinite, v)
		}
	}
	return nil
}

// view returns the data rectangle p shows; plotters read it at draw time,
// after the figure has fixed the axes, so they need no DataRange and never
// widen the axes.
func view(p *plot.Plot) View { return View{p.X.Min, p.X.Max, p.Y.Min, p.Y.Max} }

// Region fills the part of the view where every half-plane holds: a convex
// decision region. It is one filled polygon, not a heat map, so its edge
// is exact and crisp and it costs a few dozen bytes of SVG. With no
// half-planes it fills the whole view.
type Region struct {
	Planes []HalfPlane
	Color  color.Color
}

// NewRegion returns the region of the view inside all of planes, filled
// with fill.
func NewRegion(fill color.Color, planes ...HalfPlane) (*Region, error) {
	for _, h := range planes {
		if err := finite(h.A[0], h.A[1], h.B); err != nil {
			return nil, err
		}
	}
	return &Region{Planes: planes, Color: fill}, nil
}

// Plot implements plot.Plotter.
func (r *Region) Plot(c draw.Canvas, p *plot.Plot) {
	poly := clipAll(view(p).corners(), r.Planes)
	if len(poly) < 3 {
		return
	}
	trX, trY := p.Transforms(&c)
	pts := make([]vg.Point, len(poly))
	for i, q := range poly {
		pts[i] = vg.Point{X: trX(q.X), Y: trY(q.Y)}
	}
	c.FillPolygon(r.Color, pts)
}

// Thumbnail implements plot.Thumbnailer: a swatch of the tint.
func (r *Region) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(r.Color, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
}

// DefaultBoundaryStyle is a hyperplane as the house style draws it: solid
// black, about 2 pt.
var DefaultBoundaryStyle = draw.LineStyle{Color: color.Black, Width: vg.Points(2)}

// Boundary draws the line w·x + b = Level across the view: a decision
// boundary (Level 0) or one side of a margin. With w = 0 there is no line
// and it draws nothing.
type Boundary struct {
	W     [2]float64
	B     float64
	Level float64
	draw.LineStyle
}

// NewBoundary returns the boundary w·x + b = 0 of a two-dimensional linear
// classifier, in DefaultBoundaryStyle.
func NewBoundary(w []float64, b float64) (*Boundary, error) {
	if len(w) != 2 {
		return nil, fmt.Errorf("render: boundary needs a 2-D w, got %d-D", len(w))
	}
	if err := finite(w[0], w[1], b); err != nil {
		return nil, err
	}
	return &Boundary{W: [2]float64{w[0], w[1]}, B: b, LineStyle: DefaultBoundaryStyle}, nil
}

// Plot implements plot.Plotter.
func (l *Boundary) Plot(c draw.Canvas, p *plot.Plot) {
	strokeLine(c, p, l.LineStyle, vec{l.W[0], l.W[1]}, l.B-l.Level)
}

// Thumbnail implements plot.Thumbnailer.
func (l *Boundary) Thumbnail(c *draw.Canvas) { thumbLine(c, l.LineStyle) }

func strokeLine(c draw.Canvas, p *plot.Plot, sty draw.LineStyle, a vec, b float64) {
	q0, q1, ok := lineInView(a, b, view(p))
	if !ok {
		return
	}
	trX, trY := p.Transforms(&c)
	c.StrokeLine2(sty, trX(q0.X), trY(q0.Y), trX(q1.X), trY(q1.Y))
}

func thumbLine(c *draw.Canvas, sty draw.LineStyle) {
	y := c.Center().Y
	c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
}

// MarginBand draws the two lines w·x + b = ±Gamma, dashed: the band inside
// which the margin perceptron still updates (and an SVM's margin).
type MarginBand struct {
	W     [2]float64
	B     float64
	Gamma float64
	draw.LineStyle
}

// NewMarginBand returns the band |w·x + b| ≤ gamma around a 2-D boundary,
// drawn as two 1.25 pt dashed black lines.
func NewMarginBand(w []float64, b, gamma float64) (*MarginBand, error) {
	if len(w) != 2 {
		return nil, fmt.Errorf("render: margin band needs a 2-D w, got %d-D", len(w))
	}
	if err := finite(w[0], w[1], b, gamma); err != nil {
		return nil, err
	}
	sty := draw.LineStyle{Color: color.Black, Width: vg.Points(1.25), Dashes: []vg.Length{vg.Points(6), vg.Points(4)}}
	return &MarginBand{W: [2]float64{w[0], w[1]}, B: b, Gamma: gamma, LineStyle: sty}, nil
}

// Plot implements plot.Plotter.
func (m *MarginBand) Plot(c draw.Canvas, p *plot.Plot) {
	a := vec{m.W[0], m.W[1]}
	strokeLine(c, p, m.LineStyle, a, m.B-m.Gamma)
	strokeLine(c, p, m.LineStyle, a, m.B+m.Gamma)
}

// Thumbnail implements plot.Thumbnailer.
func (m *MarginBand) Thumbnail(c *draw.Canvas) { thumbLine(c, m.LineStyle) }

// Arrow draws a vector from From to To (data coordinates) as a shaft and
// a filled head, with an optional label beyond the tip, or beside the
// middle of the shaft when LabelBeside is set: to its left, or to its
// right when LabelRight is also set. It is how w and an update Δw are
// drawn.
type Arrow struct {
	From, To    [2]float64
	Head        vg.Length // length of the head
	Label       string
	LabelStyle  text.Style
	LabelBeside bool
	LabelRight  bool
	draw.LineStyle
}

// NewArrow returns a 2 pt black arrow from `from` to `to`.
func NewArrow(from, to [2]float64, label string) (*Arrow, error) {
	if err := finite(from[0], from[1], to[0], to[1]); err != nil {
		return nil, err
	}
	sty := text.Style{Color: color.Black, Font: (theme{scale: 1}).font(14, true), Handler: plot.DefaultTextHandler,
		XAlign: draw.XCenter, YAlign: draw.YCenter}
	return &Arrow{From: from, To: to, Head: vg.Points(10), Label: label, LabelStyle: sty,
		LineStyle: draw.LineStyle{Color: color.Black, Width: vg.Points(2)}}, nil
}

// Plot implements plot.Plotter.
func (a *Arrow) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	from := vg.Point{X: trX(a.From[0]), Y: trY(a.From[1])}
	to := vg.Point{X: trX(a.To[0]), Y: trY(a.To[1])}
	a.draw(&c, from, to)
	if a.Label == "" {
		return
	}
	d := to.Sub(from)
	n := vg.Length(math.Hypot(float64(d.X), float64(d.Y)))
	if n == 0 {
		return
	}
	u := d.Scale(1 / n)
	var at vg.Point
	if a.LabelBeside {
		side := vg.Point{X: -u.Y, Y: u.X}
		if a.LabelRight {
			side = side.Scale(-1)
		}
		at = from.Add(d.Scale(0.5)).Add(side.Scale(labelClearance(a.LabelStyle, a.Label, side)))
	} else {
		at = to.Add(u.Scale(labelClearance(a.LabelStyle, a.Label, u)))
	}
	haloText(&c, a.LabelStyle, at, a.Label)
}

// haloText draws txt with a white halo, so a label stays readable over
// lines, points and tints alike: the text is first drawn in white,
// shifted a little in eight directions.
func haloText(c *draw.Canvas, sty text.Style, at vg.Point, txt string) {
	halo := sty
	halo.Color = white
	d := sty.Font.Size / 10
	for _, o := range [8][2]vg.Length{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}} {
		c.FillText(halo, vg.Point{X: at.X + o[0]*d, Y: at.Y + o[1]*d}, txt)
	}
	c.FillText(sty, at, txt)
}

// labelClearance is how far from a point, in direction u, the centre of a
// label must sit for the label's box to clear the point by a little.
func labelClearance(sty text.Style, label string, u vg.Point) vg.Length {
	r := sty.Rectangle(label)
	w, h := r.Size().X/2, r.Size().Y/2
	return vg.Length(math.Abs(float64(u.X*w))+math.Abs(float64(u.Y*h))) + sty.Font.Size/4
}

func (a *Arrow) draw(c *draw.Canvas, from, to vg.Point) {
	d := to.Sub(from)
	n := vg.Length(math.Hypot(float64(d.X), float64(d.Y)))
	if n < vg.Points(0.5) {
		return
	}
	u := d.Scale(1 / n)
	head := min(a.Head, n*0.6)
	base := to.Sub(u.Scale(head))
	// The shaft stops inside the head so its butt end does not blunt the tip.
	c.StrokeLines(a.LineStyle, []vg.Point{from, to.Sub(u.Scale(head * 0.8))})
	side := vg.Point{X: -u.Y, Y: u.X}.Scale(head * 0.42)
	c.FillPolygon(a.Color, []vg.Point{to, base.Add(side), base.Sub(side)})
}

// Thumbnail implements plot.Thumbnailer: a left-to-right arrow.
func (a *Arrow) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	a.draw(c, vg.Point{X: c.Min.X, Y: y}, vg.Point{X: c.Max.X, Y: y})
}

// points draws labelled data as filled markers whose colour and shape
// both give the class (palette slot), with a thin white outline so
// neighbours stay apart, or a thick black one for the points in bold
// (misclassified). Bold points are drawn last so their outline is whole.
type points struct {
	xy     []vec
	slot   []int
	bold   []bool
	radius vg.Length
	thin   draw.LineStyle
	thick  draw.LineStyle
}

func (ps *points) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, pass := range []bool{false, true} {
		for i, q := range ps.xy {
			if ps.bold[i] != pass {
				continue
			}
			ps.mark(&c, ps.slot[i], vg.Point{X: trX(q.X), Y: trY(q.Y)}, ps.radius, pass)
		}
	}
}

func (ps *points) mark(c *draw.Canvas, slot int, at vg.Point, r vg.Length, bold bool) {
	path := markerPath(slot, at, r)
	c.SetColor(classColor(slot))
	c.Fill(path)
	sty := ps.thin
	if bold {
		sty = ps.thick
	}
	c.SetLineStyle(sty)
	c.Stroke(path)
}

// classThumb is the legend swatch of one class.
type classThumb struct {
	ps   *points
	slot int
	bold bool
}

func (t classThumb) Thumbnail(c *draw.Canvas) {
	r := min(t.ps.radius, (c.Max.Y-c.Min.Y)/2)
	t.ps.mark(c, t.slot, c.Center(), r, t.bold)
}

// boldThumb is the legend swatch for "misclassified": a light grey marker
// with the bold outline, so it suggests no class and no ring.
type boldThumb struct{ ps *points }

func (t boldThumb) Thumbnail(c *draw.Canvas) {
	r := min(t.ps.radius, (c.Max.Y-c.Min.Y)/2)
	path := markerPath(0, c.Center(), r)
	c.SetColor(color.RGBA{0xC8, 0xC8, 0xC8, 0xFF})
	c.Fill(path)
	c.SetLineStyle(t.ps.thick)
	c.Stroke(path)
}

// markerPath returns the outline of the marker of palette slot k centred
// at `at`: circle, square, triangle, diamond, then other polygons, each
// sized to about the area of a circle of radius r.
func markerPath(k int, at vg.Point, r vg.Length) vg.Path {
	var p vg.Path
	if k%10 == 0 {
		p.Move(vg.Point{X: at.X + r, Y: at.Y})
		p.Arc(at, r, 0, 2*math.Pi)
		p.Close()
		return p
	}
	shape := [10]struct {
		n      int
		rot    float64 // angle of the first vertex, in degrees
		radius float64
		star   bool
	}{
		1: {4, 45, 1.2533, false}, // square
		2: {3, 90, 1.5, false},    // triangle
		3: {4, 0, 1.3, false},     // diamond
		4: {3, -90, 1.5, false},   // triangle down
		5: {5, 90, 1.15, false},   // pentagon
		6: {6, 0, 1.1, false},     // hexagon
		7: {5, 90, 1.5, true},     // star
		8: {3, 0, 1.5, false},     // triangle right
		9: {3, 180, 1.5, false},   // triangle left
	}[k%10]
	steps := shape.n
	if shape.star {
		steps *= 2
	}
	for i := range steps {
		ang := (shape.rot + 360*float64(i)/float64(steps)) * math.Pi / 180
		rad := r * vg.Length(shape.radius)
		if shape.star && i%2 == 1 {
			rad *= 0.45
		}
		q := vg.Point{X: at.X + rad*vg.Length(math.Cos(ang)), Y: at.Y + rad*vg.Length(math.Sin(ang))}
		if i == 0 {
			p.Move(q)
		} else {
			p.Line(q)
		}
	}
	p.Close()
	return p
}

// ring circles one point: the point the current step examined.
type ring struct {
	at     vec
	radius vg.Length
	draw.LineStyle
}

func (r *ring) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	r.draw(&c, vg.Point{X: trX(r.at.X), Y: trY(r.at.Y)}, r.radius)
}

func (r *ring) draw(c *draw.Canvas, at vg.Point, radius vg.Length) {
	var path vg.Path
	path.Move(vg.Point{X: at.X + radius, Y: at.Y})
	path.Arc(at, radius, 0, 2*math.Pi)
	path.Close()
	c.SetLineStyle(r.LineStyle)
	c.Stroke(path)
}

func (r *ring) Thumbnail(c *draw.Canvas) {
	r.draw(c, c.Center(), min(r.radius, (c.Max.Y-c.Min.Y)/2))
}

// margins keeps the data area off the right and top edges of the canvas
// by claiming a glyph box there: gonum's layout shrinks the data area to
// fit glyph boxes, so the plot stays self-contained (no outer crop that a
// caller drawing it would have to repeat).
type margins struct{ right, top vg.Length }

func (margins) Plot(draw.Canvas, *plot.Plot) {}

func (m margins) GlyphBoxes(*plot.Plot) []plot.GlyphBox {
	return []plot.GlyphBox{
		{X: 1, Y: 0.5, Rectangle: vg.Rectangle{Max: vg.Point{X: m.right, Y: 0}}},
		{X: 0.5, Y: 1, Rectangle: vg.Rectangle{Max: vg.Point{X: 0, Y: m.top}}},
	}
}
