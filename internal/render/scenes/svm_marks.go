package scenes

import (
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/render"
)

// svmUnder draws what lies under the points: the certificate's hulls,
// the slack segments and the SMO pair's discs.
type svmUnder struct {
	th    render.Theme
	halos []disc // the pair's points and their rings' radii
	hulls []hullPoly
	slack [][2]render.Vec
}

// hullPoly is one class's hull under the certificate, in palette slot
// slot's darker hue.
type hullPoly struct {
	pts  []render.Vec
	slot int
}

func (u *svmUnder) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	at := func(q render.Vec) vg.Point { return vg.Point{X: trX(q.X), Y: trY(q.Y)} }
	for _, h := range u.hulls {
		if len(h.pts) < 2 {
			continue
		}
		var line []vg.Point
		for _, q := range h.pts {
			line = append(line, at(q))
		}
		if len(line) > 2 {
			line = append(line, line[0])
		}
		c.StrokeLines(draw.LineStyle{Color: render.Darker(render.ClassColor(h.slot)), Width: u.th.Pt(2)}, c.ClipLinesXY(line)...)
	}
	width := 2.25
	if len(u.slack) > 20 {
		width = 1.5
	}
	// One path for all: a few hundred segments cost one style attribute.
	var path vg.Path
	for _, sg := range u.slack {
		for _, l := range c.ClipLinesXY([]vg.Point{at(sg[0]), at(sg[1])}) {
			path.Move(l[0])
			path.Line(l[len(l)-1])
		}
	}
	if len(path) > 0 {
		c.SetLineStyle(draw.LineStyle{Color: render.Purple, Width: u.th.Pt(width)})
		c.Stroke(path)
	}
	for _, q := range u.halos {
		drawHalo(&c, u.th, at(q.at), u.th.Pt(q.r+5), true)
	}
}

// disc is a point and a radius at the default size: a marker's, or its
// ring's.
type disc struct {
	at render.Vec
	r  float64
}

// drawHalo marks a point of the SMO pair: a yellow disc under the points
// (disc) and a thick black ring over them (!disc), so that the mark shows
// among a few hundred points.
func drawHalo(c *draw.Canvas, th render.Theme, at vg.Point, r vg.Length, disc bool) {
	path := render.Circle(at, r)
	if disc {
		c.SetColor(render.Yellow)
		c.Fill(path)
		return
	}
	c.SetLineStyle(draw.LineStyle{Color: render.Black, Width: th.Pt(2.25)})
	c.Stroke(path)
}

// drawSVRings rings support vectors by kind: on the margin a solid ring,
// inside the margin a dashed one, misclassified a double one; the ring
// around ats[k] has radius rs[k].
// The lines are thinner around smaller markers (ptR is the normal
// marker's radius), so a few hundred points are not all ink. Solid rings
// are stroked as one path, each dashed ring on its own, so that its
// dashes start afresh.
func drawSVRings(c *draw.Canvas, th render.Theme, ats []vg.Point, rs []vg.Length, kind int, ptR float64) {
	if len(ats) == 0 {
		return
	}
	sty := draw.LineStyle{Color: render.Black, Width: th.Pt(0.75 + ptR/6)}
	var path vg.Path
	switch kind {
	case kindMargin:
		for k, at := range ats {
			path = append(path, render.Circle(at, rs[k])...)
		}
	case kindInside:
		sty.Dashes = []vg.Length{th.Pt(0.6 * ptR), th.Pt(0.4 * ptR)}
		for k, at := range ats {
			render.StrokeCircle(c, at, rs[k], sty)
		}
		return
	case kindWrong:
		sty.Width *= 0.7
		for k, at := range ats {
			path = append(append(path, render.Circle(at, rs[k])...), render.Circle(at, rs[k]+th.Pt(0.4*ptR+0.5))...)
		}
	}
	c.SetLineStyle(sty)
	c.Stroke(path)
}

// svmOver draws what lies over the points: the rings, the certificate's
// marks, w, the band's width and the labels, which it places where they
// cover the fewest points and each other.
type svmOver struct {
	th     render.Theme
	ptR    float64 // the normal marker radius
	pts    []disc  // the points and their markers' radii
	halos  []disc  // the pair's points and their rings' radii
	rings  []svRing
	lambda []disc // the certificate's points and their rings' radii
	common *render.Vec
	arrow  *render.Arrow
	dim    *render.DimSpec
	labels []render.NoteLabel
}

// svRing is a support vector's ring: its point, radius and kind.
type svRing struct {
	disc
	kind int
}

// Plot draws the marks, then w and the band's width, then the labels,
// each clear of what was drawn before it.
func (o *svmOver) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	at := func(q render.Vec) vg.Point { return vg.Point{X: trX(q.X), Y: trY(q.Y)} }
	th := o.th
	var obs []render.Obstacle
	for _, q := range o.pts {
		if pt := at(q.at); c.Contains(pt) {
			obs = append(obs, render.Obstacle{pt, th.Pt(q.r + 1)})
		}
	}
	var rings [4][]vg.Point
	var radii [4][]vg.Length
	for _, r := range o.rings {
		pt := at(r.at)
		if c.Contains(pt) {
			rings[r.kind] = append(rings[r.kind], pt)
			radii[r.kind] = append(radii[r.kind], th.Pt(r.r))
			obs = append(obs, render.Obstacle{pt, th.Pt(r.r + 1)})
		}
	}
	for k, pts := range rings {
		drawSVRings(&c, th, pts, radii[k], k, o.ptR)
	}
	for _, q := range o.halos {
		pt := at(q.at)
		drawHalo(&c, th, pt, th.Pt(q.r+5), false)
		obs = append(obs, render.Obstacle{pt, th.Pt(q.r + 6)})
	}
	for _, q := range o.lambda {
		render.StrokeCircle(&c, at(q.at), th.Pt(q.r+1.5), draw.LineStyle{Color: render.Green, Width: th.Pt(2.5)})
	}
	if o.common != nil {
		pt := at(*o.common)
		drawStar(&c, th, pt, th.Pt(1.6*o.ptR+1.5))
		obs = append(obs, render.Obstacle{pt, th.Pt(1.6*o.ptR + 2)})
	}
	var taken []vg.Rectangle
	if a := o.arrow; a != nil {
		a = a.Scaled(th.Scale()).(*render.Arrow)
		a.Plot(c, p)
		from, to := a.Ends(&c, p)
		taken = append(taken, render.ShaftBoxes(from, to, th.Pt(3))...)
		if l, ok := a.LabelAt(from, to, 0, false); ok {
			taken = append(taken, a.LabelStyle.Rectangle(a.Label).Add(l))
		}
	}
	if o.dim != nil {
		var avoid []vg.Point // w's foot
		if a := o.arrow; a != nil {
			avoid = append(avoid, at(render.Vec{a.From[0], a.From[1]}))
		}
		taken = render.DrawDim(&c, p, th, o.dim, at, avoid, obs, taken)
	}
	render.DrawLabels(&c, th, o.labels, at, obs, taken)
}

// drawStar marks the point where the certificate's hulls meet: a black
// star outlined in white.
func drawStar(c *draw.Canvas, th render.Theme, at vg.Point, r vg.Length) {
	path := render.MarkerPath(7, at, r)
	c.SetColor(render.Black)
	c.Fill(path)
	c.SetLineStyle(draw.LineStyle{Color: render.White, Width: th.Pt(1)})
	c.Stroke(path)
}

// Legend swatches of the SVM figure.
const (
	thumbRing = iota // + a kind: the ring of that kind of support vector
	thumbHalo = iota + kindWrong
	thumbBand
	thumbDim
	thumbSlack
	thumbLambda
	thumbCommon
)

// svmThumb draws the legend swatch what, one of the thumb constants.
type svmThumb struct {
	what  int
	r, pr float64 // ring and marker radii at the default size
	th    render.Theme
}

func (t *svmThumb) Thumbnail(c *draw.Canvas) {
	th, ctr := t.th, c.Center()
	h := (c.Max.Y - c.Min.Y) / 2
	r := min(th.Pt(t.r), h)
	switch t.what {
	case thumbRing + kindMargin, thumbRing + kindInside, thumbRing + kindWrong:
		if t.what == thumbRing+kindWrong {
			r = min(th.Pt(t.r), h-th.Pt(0.4*t.pr+0.5))
		}
		c.SetColor(color.RGBA{0xC8, 0xC8, 0xC8, 0xFF})
		c.Fill(render.Circle(ctr, r*0.5))
		drawSVRings(c, th, []vg.Point{ctr}, []vg.Length{r}, t.what-thumbRing, t.pr)
	case thumbHalo:
		drawHalo(c, th, ctr, h, true)
		drawHalo(c, th, ctr, h, false)
	case thumbBand:
		l, rt := c.Min.X, c.Max.X
		c.FillPolygon(bandTint(0), []vg.Point{{X: l, Y: ctr.Y}, {X: rt, Y: ctr.Y}, {X: rt, Y: c.Max.Y}, {X: l, Y: c.Max.Y}})
		c.FillPolygon(bandTint(1), []vg.Point{{X: l, Y: c.Min.Y}, {X: rt, Y: c.Min.Y}, {X: rt, Y: ctr.Y}, {X: l, Y: ctr.Y}})
		dash := []vg.Length{th.Pt(4), th.Pt(3)}
		c.StrokeLine2(draw.LineStyle{Color: render.Blue, Width: th.Pt(1.5), Dashes: dash}, l, c.Max.Y, rt, c.Max.Y)
		c.StrokeLine2(draw.LineStyle{Color: render.Vermillion, Width: th.Pt(1.5), Dashes: dash}, l, c.Min.Y, rt, c.Min.Y)
	case thumbDim:
		head := th.Pt(6)
		c.StrokeLine2(draw.LineStyle{Color: render.Black, Width: th.Pt(1.25)}, c.Min.X+head, ctr.Y, c.Max.X-head, ctr.Y)
		render.ArrowHead(c, vg.Point{X: c.Min.X, Y: ctr.Y}, vg.Point{X: -1}, head)
		render.ArrowHead(c, vg.Point{X: c.Max.X, Y: ctr.Y}, vg.Point{X: 1}, head)
	case thumbSlack:
		c.StrokeLine2(draw.LineStyle{Color: render.Purple, Width: th.Pt(2.25)}, c.Min.X, ctr.Y, c.Max.X, ctr.Y)
	case thumbLambda:
		c.StrokeLine2(draw.LineStyle{Color: render.Darker(render.Blue), Width: th.Pt(2)}, c.Min.X, ctr.Y, ctr.X, ctr.Y)
		c.StrokeLine2(draw.LineStyle{Color: render.Darker(render.Vermillion), Width: th.Pt(2)}, ctr.X, ctr.Y, c.Max.X, ctr.Y)
		render.StrokeCircle(c, ctr, min(th.Pt(t.r+1.5), h-th.Pt(1)), draw.LineStyle{Color: render.Green, Width: th.Pt(2.5)})
	case thumbCommon:
		drawStar(c, th, ctr, min(th.Pt(1.6*t.pr+1.5), h))
	}
}

// The Scaled methods make the SVM layers and swatches render.Scalers,
// like the core's in its scale.go: a copy with the type scale multiplied
// by s.

func (t *svmThumb) Scaled(s float64) any {
	q := *t
	q.th = q.th.Scaled(s)
	return &q
}

func (u *svmUnder) Scaled(s float64) any {
	q := *u
	q.th = q.th.Scaled(s)
	return &q
}

func (o *svmOver) Scaled(s float64) any {
	q := *o
	q.th = q.th.Scaled(s)
	return &q
}

// sizedPoints draws ClassPoints with each marker's radius multiplied by
// grow (≥ 1), largest first, so a small marker is never hidden under a
// large one.
type sizedPoints struct {
	ps   *render.ClassPoints
	grow []float64
}

func (sp *sizedPoints) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	order := make([]int, len(sp.grow))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpF(sp.grow[b], sp.grow[a]) })
	for _, i := range order {
		q := sp.ps.XY[i]
		at := vg.Point{X: trX(q.X), Y: trY(q.Y)}
		if c.Contains(at) {
			sp.ps.Mark(&c, sp.ps.Slot[i], at, sp.ps.Radius*vg.Length(sp.grow[i]), false)
		}
	}
}

func (sp *sizedPoints) Scaled(s float64) any {
	return &sizedPoints{ps: sp.ps.Scaled(s).(*render.ClassPoints), grow: sp.grow}
}
