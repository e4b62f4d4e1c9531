package render

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Path draws the iterates x⁰, x¹, …, xᵏ of an optimiser (gradient descent
// on a 2-D objective) over a Field's contours: a polyline through them
// with a small dot at each, so the step lengths show; the start as an
// open circle; and the current iterate as a large dot with a ring, the
// way the perceptron plot rings the point a step examined.
//
// A long run is drawn with its dots thinned (every iterate still joins
// the line, up to maxPathPoints), so the cost stays bounded. Path has no
// DataRange: the figure chooses the view, and iterates that leave it are
// clipped.
type Path struct {
	XY      [][2]float64
	Current int // index of the iterate to emphasise; −1 for none
	draw.LineStyle
	Dot    vg.Length   // radius of the iterate dots; 0 hides them
	Radius vg.Length   // radius of the start and current marks
	Mark   color.Color // fill of the current iterate
}

// maxPathPoints bounds the iterates a Path draws; beyond it they are
// thinned evenly, keeping the first and the last. maxPathDots bounds the
// dots, which past that many merge into a thick line anyway.
const (
	maxPathPoints = 4000
	maxPathDots   = 300
)

// NewPath returns a Path through xy in the house style: a 1.5 pt black
// line, 2 pt dots, and the last iterate emphasised in orange. It returns
// ErrNoData for no iterates and ErrNotFinite for a NaN or infinite one
// (an iterate that diverged: stop the run before it).
func NewPath(xy [][2]float64) (*Path, error) {
	if len(xy) == 0 {
		return nil, fmt.Errorf("%w: a path needs at least its start", ErrNoData)
	}
	for i, q := range xy {
		if err := Finite(q[0], q[1]); err != nil {
			return nil, fmt.Errorf("iterate %d: %w", i, err)
		}
	}
	return &Path{
		XY:        append([][2]float64(nil), xy...),
		Current:   len(xy) - 1,
		LineStyle: draw.LineStyle{Color: color.Black, Width: vg.Points(1.5)},
		Dot:       vg.Points(2),
		Radius:    vg.Points(5),
		Mark:      Orange,
	}, nil
}

// Plot implements plot.Plotter.
func (pa *Path) Plot(c draw.Canvas, p *plot.Plot) {
	if len(pa.XY) == 0 {
		return
	}
	pa = pa.styled()
	trX, trY := p.Transforms(&c)
	at := func(i int) vg.Point { return vg.Point{X: trX(pa.XY[i][0]), Y: trY(pa.XY[i][1])} }
	idx := SampleIndices(len(pa.XY), maxPathPoints)
	pts := make([]vg.Point, len(idx))
	for j, i := range idx {
		pts[j] = at(i)
	}
	if len(pts) > 1 {
		c.StrokeLines(pa.LineStyle, c.ClipLinesXY(pts)...)
	}
	if pa.Dot > 0 {
		for _, i := range SampleIndices(len(pa.XY), maxPathDots) {
			if q := at(i); c.Contains(q) {
				c.DrawGlyphNoClip(draw.GlyphStyle{Color: pa.Color, Radius: pa.Dot, Shape: draw.CircleGlyph{}}, q)
			}
		}
	}
	if q := at(0); c.Contains(q) {
		pa.start(&c, q)
	}
	if pa.Current >= 0 && pa.Current < len(pa.XY) {
		if q := at(pa.Current); c.Contains(q) {
			pa.current(&c, q)
		}
	}
}

// styled returns pa, or a copy in black when a Path built without NewPath
// has no colour.
func (pa *Path) styled() *Path {
	if pa.Color != nil {
		return pa
	}
	q := *pa
	q.Color = Black
	return &q
}

// start is an open circle: white inside, in the path's colour.
func (pa *Path) start(c *draw.Canvas, at vg.Point) {
	c.DrawGlyphNoClip(draw.GlyphStyle{Color: White, Radius: pa.Radius, Shape: draw.CircleGlyph{}}, at)
	c.SetLineStyle(draw.LineStyle{Color: pa.Color, Width: max(pa.Width, vg.Points(1))})
	c.Stroke(Circle(at, pa.Radius))
}

// current is a filled dot with a white edge inside a ring twice its size.
func (pa *Path) current(c *draw.Canvas, at vg.Point) {
	mark := pa.Mark
	if mark == nil {
		mark = pa.Color
	}
	c.SetColor(mark)
	c.Fill(Circle(at, pa.Radius))
	c.SetLineStyle(draw.LineStyle{Color: White, Width: pa.Radius / 4})
	c.Stroke(Circle(at, pa.Radius))
	c.SetLineStyle(draw.LineStyle{Color: pa.Color, Width: max(pa.Width*1.5, vg.Points(1.5))})
	c.Stroke(Circle(at, pa.Radius*2+pa.Width))
}

// Circle is the closed path of a circle of radius r about at.
func Circle(at vg.Point, r vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: at.X + r, Y: at.Y})
	p.Arc(at, r, 0, 2*math.Pi)
	p.Close()
	return p
}

// Thumbnail implements plot.Thumbnailer: a short line with dots.
func (pa *Path) Thumbnail(c *draw.Canvas) {
	pa = pa.styled()
	y := c.Center().Y
	c.StrokeLine2(pa.LineStyle, c.Min.X, y, c.Max.X, y)
	if pa.Dot > 0 {
		for _, x := range []vg.Length{c.Min.X + pa.Dot, c.Center().X, c.Max.X - pa.Dot} {
			c.DrawGlyphNoClip(draw.GlyphStyle{Color: pa.Color, Radius: pa.Dot, Shape: draw.CircleGlyph{}}, vg.Point{X: x, Y: y})
		}
	}
}

// StartThumb returns a legend swatch of the path's start mark.
func (pa *Path) StartThumb() plot.Thumbnailer { return pathThumb{pa, false} }

// CurrentThumb returns a legend swatch of the current iterate's mark,
// without its ring, which would not fit a legend row.
func (pa *Path) CurrentThumb() plot.Thumbnailer { return pathThumb{pa, true} }

type pathThumb struct {
	pa      *Path
	current bool
}

func (t pathThumb) Thumbnail(c *draw.Canvas) {
	q := *t.pa.styled()
	q.Radius = min(q.Radius, (c.Max.Y-c.Min.Y)/2)
	if t.current {
		mark := q.Mark
		if mark == nil {
			mark = q.Color
		}
		c.SetColor(mark)
		c.Fill(Circle(c.Center(), q.Radius))
		c.SetLineStyle(draw.LineStyle{Color: q.Color, Width: max(q.Width, vg.Points(1))})
		c.Stroke(Circle(c.Center(), q.Radius))
		return
	}
	q.start(c, c.Center())
}

// SampleIndices returns min(n, m) indices spread evenly over 0…n−1,
// always including both ends.
func SampleIndices(n, m int) []int {
	if n <= m {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	idx := make([]int, m)
	for j := range idx {
		idx[j] = int(math.Round(float64(j) * float64(n-1) / float64(m-1)))
	}
	return idx
}
