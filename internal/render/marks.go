package render

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ClassPoints draws labelled data as filled markers whose colour and
// shape both give the class, in the Okabe–Ito palette (+1 blue circles,
// −1 vermillion squares; classes 0, 1, 2, … blue, vermillion, bluish
// green, …), with a thin white edge so neighbours stay apart, or a thick
// black one for the points in bold (the ones a classifier gets wrong).
// Bold points are drawn last so their edge is whole. It is the
// perceptron's point layer, for any demo that shows labelled points.
//
// Radius and the edge widths are for a figure of the default size; a
// DataFigure scales them with its type. ClassPoints has no DataRange: the
// figure chooses the view (DataView), and points outside it are clipped.
type ClassPoints struct {
	// XY, Slot and Bold are each point's place, palette slot and
	// whether it is in bold: NewClassPoints sets them from the data; a
	// scene that has its own slots (the perceptron's) fills them itself.
	XY   []Vec
	Slot []int
	Bold []bool
	// classes lists the labels in legend order (+1 before −1).
	classes []int
	binary  bool

	Radius   vg.Length
	Edge     draw.LineStyle // the edge of a plain point
	BoldEdge draw.LineStyle // the edge of a bold point
}

// NewClassPoints returns the points x (rows of at least two coordinates;
// the first two are drawn) with labels class: ±1 for two classes, or
// classes 0…k, coloured and shaped as the perceptron plot does. class may
// be nil (every point blue, as a regression demo's); bold may be nil (no
// point in bold). No points is not an error: a demo's custom data start
// empty, and the layer then draws nothing.
//
// It returns ErrShape when class or bold has another length than x or a
// label is negative other than −1, ErrDimension for a row of fewer than
// two coordinates and ErrNotFinite for a NaN or infinite coordinate.
func NewClassPoints(x [][]float64, class []int, bold []bool) (*ClassPoints, error) {
	n := len(x)
	if class != nil && len(class) != n || bold != nil && len(bold) != n {
		return nil, fmt.Errorf("%w: %d points, %d labels, %d bold flags", ErrShape, n, len(class), len(bold))
	}
	binary := IsBinary(class)
	ps := &ClassPoints{XY: make([]Vec, n), Slot: ClassSlots(class, n), Bold: make([]bool, n),
		classes: ClassOrder(class), binary: binary,
		Radius:   vg.Points(MarkerRadius(n)),
		Edge:     draw.LineStyle{Color: White, Width: vg.Points(0.75)},
		BoldEdge: draw.LineStyle{Color: Black, Width: vg.Points(2)},
	}
	copy(ps.Bold, bold)
	for i, row := range x {
		if len(row) < 2 {
			return nil, fmt.Errorf("%w: point %d has %d coordinates", ErrDimension, i, len(row))
		}
		if err := Finite(row[0], row[1]); err != nil {
			return nil, fmt.Errorf("point %d: %w", i, err)
		}
		if !binary && class[i] < 0 {
			return nil, fmt.Errorf("%w: point %d has label %d; labels are ±1 or 0, 1, 2, …", ErrShape, i, class[i])
		}
		ps.XY[i] = Vec2(row)
	}
	if class == nil {
		ps.classes = nil
	}
	return ps, nil
}

// Legend returns a legend item for each class present, in the order the
// notes name them (y = +1 before y = −1, then class 0, 1, …): the
// entries a plot of labelled points needs. Points with no labels get none.
func (ps *ClassPoints) Legend() []LegendItem {
	var items []LegendItem
	for _, c := range ps.classes {
		items = append(items, LegendItem{Label: ClassName(c, ps.binary),
			Thumbs: []plot.Thumbnailer{ClassThumb{Points: ps, Slot: SlotOf(c, ps.binary)}}})
	}
	return items
}

// BoldThumb returns the legend swatch for the points in bold: a light
// grey marker with the bold edge, suggesting no class.
func (ps *ClassPoints) BoldThumb() plot.Thumbnailer { return boldThumb{ps} }

// Plot implements plot.Plotter.
func (ps *ClassPoints) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, pass := range []bool{false, true} {
		for i, q := range ps.XY {
			if ps.Bold[i] != pass {
				continue
			}
			at := vg.Point{X: trX(q.X), Y: trY(q.Y)}
			if !c.Contains(at) {
				continue
			}
			ps.Mark(&c, ps.Slot[i], at, ps.Radius, pass)
		}
	}
}

// Mark draws one point's marker, of palette slot slot and radius r, at
// at, with the bold edge when bold.
func (ps *ClassPoints) Mark(c *draw.Canvas, slot int, at vg.Point, r vg.Length, bold bool) {
	path := MarkerPath(slot, at, r)
	c.SetColor(ClassColor(slot))
	c.Fill(path)
	sty := ps.Edge
	if bold {
		sty = ps.BoldEdge
	}
	c.SetLineStyle(sty)
	c.Stroke(path)
}

// ClassThumb is the legend swatch of one class.
type ClassThumb struct {
	Points *ClassPoints
	Slot   int
	Bold   bool
}

func (t ClassThumb) Thumbnail(c *draw.Canvas) {
	r := min(t.Points.Radius, (c.Max.Y-c.Min.Y)/2)
	t.Points.Mark(c, t.Slot, c.Center(), r, t.Bold)
}

// boldThumb is the legend swatch for "misclassified": a light grey marker
// with the bold outline, so it suggests no class and no ring.
type boldThumb struct{ ps *ClassPoints }

func (t boldThumb) Thumbnail(c *draw.Canvas) {
	r := min(t.ps.Radius, (c.Max.Y-c.Min.Y)/2)
	path := MarkerPath(0, c.Center(), r)
	c.SetColor(color.RGBA{0xC8, 0xC8, 0xC8, 0xFF})
	c.Fill(path)
	c.SetLineStyle(t.ps.BoldEdge)
	c.Stroke(path)
}

// MarkerPath returns the outline of the marker of palette slot k centred
// at `at`: circle, square, triangle, diamond, then other polygons, each
// sized to about the area of a circle of radius r.
func MarkerPath(k int, at vg.Point, r vg.Length) vg.Path {
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

// Ring circles one point: the point the current step examined.
type Ring struct {
	At     Vec
	Radius vg.Length
	draw.LineStyle
}

func (r *Ring) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	r.draw(&c, vg.Point{X: trX(r.At.X), Y: trY(r.At.Y)}, r.Radius)
}

func (r *Ring) draw(c *draw.Canvas, at vg.Point, radius vg.Length) {
	var path vg.Path
	path.Move(vg.Point{X: at.X + radius, Y: at.Y})
	path.Arc(at, radius, 0, 2*math.Pi)
	path.Close()
	c.SetLineStyle(r.LineStyle)
	c.Stroke(path)
}

func (r *Ring) Thumbnail(c *draw.Canvas) {
	r.draw(c, c.Center(), min(r.Radius, (c.Max.Y-c.Min.Y)/2))
}

// MarkerRadius shrinks markers as the data grow, from 6 pt for the four
// points of a truth table to 3.5 pt for a few hundred.
func MarkerRadius(n int) float64 {
	return math.Max(3.5, math.Min(6, 6.3-0.0125*float64(n)))
}

// StrokeCircle strokes a circle of radius r around at.
func StrokeCircle(c *draw.Canvas, at vg.Point, r vg.Length, sty draw.LineStyle) {
	c.SetLineStyle(sty)
	c.Stroke(Circle(at, r))
}

// IsBinary reports whether labels are a two-class problem's ±1 (or
// empty), which the figures colour +1 blue and −1 vermillion.
func IsBinary(class []int) bool {
	for _, c := range class {
		if c != 1 && c != -1 {
			return false
		}
	}
	return true
}

// SlotOf is the palette slot of class c, as the perceptron plot colours
// it: with binary labels +1 is slot 0 (blue) and −1 slot 1 (vermillion);
// otherwise class k is slot k, so a class keeps its colour across figures.
func SlotOf(c int, binary bool) int {
	switch {
	case !binary:
		return c
	case c == 1:
		return 0
	}
	return 1
}

// ClassSlots returns the palette slot of each of n points; with no labels
// every point is slot 0.
func ClassSlots(class []int, n int) []int {
	slots := make([]int, n)
	if class == nil {
		return slots
	}
	binary := IsBinary(class)
	for i, c := range class {
		slots[i] = SlotOf(c, binary)
	}
	return slots
}

// ClassOrder lists the distinct labels in the order a legend names them:
// +1 before −1, as the notes do, and other classes ascending.
func ClassOrder(class []int) []int {
	var out []int
	for _, c := range class {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	if IsBinary(class) {
		slices.Reverse(out)
	}
	return out
}
