package render

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

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
