package render

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Arrow draws a vector from From to To (data coordinates) as a shaft and
// a filled head, with an optional label beyond the tip, or beside the
// middle of the shaft when LabelBeside is set: to its left, or to its
// right when LabelRight is also set. It is how w is drawn.
type Arrow struct {
	From, To    [2]float64
	Head        vg.Length // length of the head
	Label       string
	LabelStyle  text.Style
	LabelBeside bool
	LabelRight  bool
	draw.LineStyle
}

// NewArrow returns a 2 pt black arrow from `from` to `to` with a bold
// label.
func NewArrow(from, to [2]float64, label string) (*Arrow, error) {
	if err := Finite(from[0], from[1], to[0], to[1]); err != nil {
		return nil, err
	}
	sty := text.Style{Color: color.Black, Font: (Theme{scale: 1}).Font(14, true), Handler: plot.DefaultTextHandler,
		XAlign: draw.XCenter, YAlign: draw.YCenter}
	return &Arrow{From: from, To: to, Head: vg.Points(10), Label: label, LabelStyle: sty,
		LineStyle: draw.LineStyle{Color: color.Black, Width: vg.Points(2)}}, nil
}

// Plot implements plot.Plotter.
func (a *Arrow) Plot(c draw.Canvas, p *plot.Plot) {
	from, to := a.Ends(&c, p)
	a.draw(&c, from, to)
	if at, ok := a.LabelAt(from, to, 0, false); ok {
		HaloText(&c, a.LabelStyle, at, a.Label)
	}
}

// Thumbnail implements plot.Thumbnailer: a left-to-right arrow.
func (a *Arrow) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	a.draw(c, vg.Point{X: c.Min.X, Y: y}, vg.Point{X: c.Max.X, Y: y})
}

// Ends returns where the arrow starts and ends on c, in p's coordinates.
func (a *Arrow) Ends(c *draw.Canvas, p *plot.Plot) (from, to vg.Point) {
	trX, trY := p.Transforms(c)
	return vg.Point{X: trX(a.From[0]), Y: trY(a.From[1])}, vg.Point{X: trX(a.To[0]), Y: trY(a.To[1])}
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

// LabelAt returns where the label's centre goes for an arrow drawn from
// `from` to `to`, pushed out by push more than it needs to clear the
// arrow; flip puts a beside-label on the other side. ok is false when there
// is no label or no arrow.
func (a *Arrow) LabelAt(from, to vg.Point, push vg.Length, flip bool) (at vg.Point, ok bool) {
	d := to.Sub(from)
	n := vg.Length(math.Hypot(float64(d.X), float64(d.Y)))
	if a.Label == "" || n == 0 {
		return vg.Point{}, false
	}
	u := d.Scale(1 / n)
	if !a.LabelBeside {
		return to.Add(u.Scale(labelClearance(a.LabelStyle, a.Label, u) + push)), true
	}
	side := vg.Point{X: -u.Y, Y: u.X}
	if a.LabelRight != flip {
		side = side.Scale(-1)
	}
	return from.Add(d.Scale(0.5)).Add(side.Scale(labelClearance(a.LabelStyle, a.Label, side) + push)), true
}

// labelClearance is how far from a point, in direction u, the centre of a
// label must sit for the label's box to clear the point by a little.
func labelClearance(sty text.Style, label string, u vg.Point) vg.Length {
	r := sty.Rectangle(label)
	w, h := r.Size().X/2, r.Size().Y/2
	return vg.Length(math.Abs(float64(u.X*w))+math.Abs(float64(u.Y*h))) + sty.Font.Size/4
}

// HaloText draws txt with a white halo, so a label stays readable over
// lines, points and tints alike. A PNG gets the text first drawn in white,
// shifted a little in eight directions. An SVG gets the label once: a
// marked white copy that writeSVG folds into the label's own style as a
// white stroke painted under the fill, so a screen reader or a text
// extraction reads each label once, not nine times.
func HaloText(c *draw.Canvas, sty text.Style, at vg.Point, txt string) {
	halo := sty
	halo.Color = White
	d := sty.Font.Size / 10
	if isSVG(c.Canvas) {
		c.FillText(halo, at, haloMark+strconv.FormatFloat(2*d.Points(), 'f', 2, 64)+haloEnd+txt)
		c.FillText(sty, at, txt)
		return
	}
	for _, o := range [8][2]vg.Length{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}} {
		c.FillText(halo, vg.Point{X: at.X + o[0]*d, Y: at.Y + o[1]*d}, txt)
	}
	c.FillText(sty, at, txt)
}

// UpdateArrow draws a perceptron update as vector addition: the old w
// (grey, optional), the update from the old tip to the new one, and the
// new w. It is one plotter rather than three so that it can keep the
// labels apart: when the update is short its label would sit on w's, so
// it is pushed further out, or to the other side, until the two clear.
type UpdateArrow struct {
	W, Old, Delta *Arrow
}

// Plot implements plot.Plotter.
func (u *UpdateArrow) Plot(c draw.Canvas, p *plot.Plot) {
	for _, a := range []*Arrow{u.Old, u.Delta, u.W} {
		if a != nil {
			from, to := a.Ends(&c, p)
			a.draw(&c, from, to)
		}
	}
	var taken []vg.Rectangle
	wFrom, wTo := u.W.Ends(&c, p)
	if at, ok := u.W.LabelAt(wFrom, wTo, 0, false); ok {
		HaloText(&c, u.W.LabelStyle, at, u.W.Label)
		taken = append(taken, u.W.LabelStyle.Rectangle(u.W.Label).Add(at))
	}
	if u.Delta == nil {
		return
	}
	d, em := u.Delta, u.Delta.LabelStyle.Font.Size
	from, to := d.Ends(&c, p)
	var best vg.Point
	found := false
	for _, flip := range []bool{false, true} {
		for push := vg.Length(0); push <= 2*em && !found; push += em / 2 {
			at, ok := d.LabelAt(from, to, push, flip)
			if !ok {
				return
			}
			if push == 0 && !flip {
				best = at
			}
			if !OverlapsAny(d.LabelStyle.Rectangle(d.Label).Add(at), taken) {
				best, found = at, true
			}
		}
	}
	HaloText(&c, d.LabelStyle, best, d.Label)
}

// OverlapsAny reports whether r overlaps any of rs.
func OverlapsAny(r vg.Rectangle, rs []vg.Rectangle) bool {
	for _, q := range rs {
		if r.Min.X < q.Max.X && q.Min.X < r.Max.X && r.Min.Y < q.Max.Y && q.Min.Y < r.Max.Y {
			return true
		}
	}
	return false
}
