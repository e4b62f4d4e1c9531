package render

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotView returns the data rectangle p shows; plotters read it at draw time,
// after the figure has fixed the axes, so they need no DataRange and never
// widen the axes.
func PlotView(p *plot.Plot) View { return View{p.X.Min, p.X.Max, p.Y.Min, p.Y.Max} }

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
		if err := Finite(h.A[0], h.A[1], h.B); err != nil {
			return nil, err
		}
	}
	return &Region{Planes: planes, Color: fill}, nil
}

// Plot implements plot.Plotter.
func (r *Region) Plot(c draw.Canvas, p *plot.Plot) {
	poly := ClipAll(PlotView(p).corners(), r.Planes)
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
	if err := Finite(w[0], w[1], b); err != nil {
		return nil, err
	}
	return &Boundary{W: [2]float64{w[0], w[1]}, B: b, LineStyle: DefaultBoundaryStyle}, nil
}

// Plot implements plot.Plotter.
func (l *Boundary) Plot(c draw.Canvas, p *plot.Plot) {
	strokeLine(c, p, l.LineStyle, Vec{l.W[0], l.W[1]}, l.B-l.Level)
}

// Thumbnail implements plot.Thumbnailer.
func (l *Boundary) Thumbnail(c *draw.Canvas) { ThumbLine(c, l.LineStyle) }

func strokeLine(c draw.Canvas, p *plot.Plot, sty draw.LineStyle, a Vec, b float64) {
	q0, q1, ok := LineInView(a, b, PlotView(p))
	if !ok {
		return
	}
	trX, trY := p.Transforms(&c)
	c.StrokeLine2(sty, trX(q0.X), trY(q0.Y), trX(q1.X), trY(q1.Y))
}

// ThumbLine draws a legend swatch of a line of style sty.
func ThumbLine(c *draw.Canvas, sty draw.LineStyle) {
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
	if err := Finite(w[0], w[1], b, gamma); err != nil {
		return nil, err
	}
	sty := draw.LineStyle{Color: color.Black, Width: vg.Points(1.25), Dashes: []vg.Length{vg.Points(6), vg.Points(4)}}
	return &MarginBand{W: [2]float64{w[0], w[1]}, B: b, Gamma: gamma, LineStyle: sty}, nil
}

// Plot implements plot.Plotter.
func (m *MarginBand) Plot(c draw.Canvas, p *plot.Plot) {
	a := Vec{m.W[0], m.W[1]}
	strokeLine(c, p, m.LineStyle, a, m.B-m.Gamma)
	strokeLine(c, p, m.LineStyle, a, m.B+m.Gamma)
}

// Thumbnail implements plot.Thumbnailer.
func (m *MarginBand) Thumbnail(c *draw.Canvas) { ThumbLine(c, m.LineStyle) }

// Margins keeps the data area off the right and top edges of the canvas
// by claiming a glyph box there: gonum's layout shrinks the data area to
// fit glyph boxes, so the plot stays self-contained (no outer crop that a
// caller drawing it would have to repeat).
type Margins struct{ Right, Top vg.Length }

func (Margins) Plot(draw.Canvas, *plot.Plot) {}

func (m Margins) GlyphBoxes(*plot.Plot) []plot.GlyphBox {
	return []plot.GlyphBox{
		{X: 1, Y: 0.5, Rectangle: vg.Rectangle{Max: vg.Point{X: m.Right, Y: 0}}},
		{X: 0.5, Y: 1, Rectangle: vg.Rectangle{Max: vg.Point{X: 0, Y: m.Top}}},
	}
}

// LineThumb is a legend swatch of a line style.
type LineThumb draw.LineStyle

func (l *LineThumb) Thumbnail(c *draw.Canvas) { ThumbLine(c, draw.LineStyle(*l)) }

// Errors returned (wrapped, so test with errors.Is) for input a figure
// cannot show. The figures never panic on user input: they return one of
// these instead, and write nothing.
var (
	ErrNoData    = errors.New("render: no data to draw")
	ErrNoState   = errors.New("render: no state to draw")
	ErrDimension = errors.New("render: data are not two-dimensional")
	// ErrNotFinite is returned for NaN or infinite input, which would
	// draw nothing or garbage.
	ErrNotFinite = errors.New("render: NaN or infinite value")
	// ErrShape is returned for inputs whose parts do not fit together:
	// series of different lengths, ragged matrices, indices out of range.
	ErrShape = errors.New("render: inconsistent input")
)

// Finite returns ErrNotFinite when any of vs is NaN or ±Inf.
func Finite(vs ...float64) error {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %v", ErrNotFinite, v)
		}
	}
	return nil
}
