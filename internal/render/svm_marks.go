package render

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// svmUnder draws what lies under the points: the certificate's hulls,
// the slack segments and the SMO pair's discs.
type svmUnder struct {
	th    theme
	haloR float64
	halos []vec
	hulls []hullPoly
	slack [][2]vec
}

// hullPoly is one class's hull under the certificate, in palette slot
// slot's darker hue.
type hullPoly struct {
	pts  []vec
	slot int
}

func (u *svmUnder) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	at := func(q vec) vg.Point { return vg.Point{X: trX(q.X), Y: trY(q.Y)} }
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
		c.StrokeLines(draw.LineStyle{Color: darker(classColor(h.slot)), Width: u.th.pt(2)}, c.ClipLinesXY(line)...)
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
		c.SetLineStyle(draw.LineStyle{Color: purple, Width: u.th.pt(width)})
		c.Stroke(path)
	}
	for _, q := range u.halos {
		drawHalo(&c, u.th, at(q), u.th.pt(u.haloR), true)
	}
}

// drawHalo marks a point of the SMO pair: a yellow disc under the points
// (disc) and a thick black ring over them (!disc), so that the mark shows
// among a few hundred points.
func drawHalo(c *draw.Canvas, th theme, at vg.Point, r vg.Length, disc bool) {
	path := circle(at, r)
	if disc {
		c.SetColor(yellow)
		c.Fill(path)
		return
	}
	c.SetLineStyle(draw.LineStyle{Color: black, Width: th.pt(2.25)})
	c.Stroke(path)
}

// strokeCircle strokes a circle of radius r around at.
func strokeCircle(c *draw.Canvas, at vg.Point, r vg.Length, sty draw.LineStyle) {
	c.SetLineStyle(sty)
	c.Stroke(circle(at, r))
}

// drawSVRings rings support vectors by kind: on the margin a solid ring,
// inside the margin a dashed one, misclassified a double one.
// The lines are thinner around smaller markers, so a few hundred points
// are not all ink. Solid rings are stroked as one path, each dashed ring
// on its own, so that its dashes start afresh.
func drawSVRings(c *draw.Canvas, th theme, ats []vg.Point, r vg.Length, kind int, ptR float64) {
	if len(ats) == 0 {
		return
	}
	sty := draw.LineStyle{Color: black, Width: th.pt(0.75 + ptR/6)}
	var path vg.Path
	switch kind {
	case kindMargin:
		for _, at := range ats {
			path = append(path, circle(at, r)...)
		}
	case kindInside:
		sty.Dashes = []vg.Length{th.pt(0.6 * ptR), th.pt(0.4 * ptR)}
		for _, at := range ats {
			strokeCircle(c, at, r, sty)
		}
		return
	case kindWrong:
		sty.Width *= 0.7
		for _, at := range ats {
			path = append(append(path, circle(at, r)...), circle(at, r+th.pt(0.4*ptR+0.5))...)
		}
	}
	c.SetLineStyle(sty)
	c.Stroke(path)
}

// svmOver draws what lies over the points: the rings, the certificate's
// marks, w, the band's width and the labels, which it places where they
// cover the fewest points and each other.
type svmOver struct {
	th         theme
	ptR, ringR float64
	pts        []vec
	halos      []vec
	rings      []svRing
	lambda     []vec
	common     *vec
	arrow      *Arrow
	dim        *dimSpec
	labels     []noteLabel
}

// svRing is a support vector's ring: its point and kind.
type svRing struct {
	at   vec
	kind int
}

// Plot draws the marks, then w and the band's width, then the labels,
// each clear of what was drawn before it.
func (o *svmOver) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	at := func(q vec) vg.Point { return vg.Point{X: trX(q.X), Y: trY(q.Y)} }
	th := o.th
	var obs []obstacle
	for _, q := range o.pts {
		if pt := at(q); c.Contains(pt) {
			obs = append(obs, obstacle{pt, th.pt(o.ptR + 1)})
		}
	}
	var rings [4][]vg.Point
	for _, r := range o.rings {
		pt := at(r.at)
		if c.Contains(pt) {
			rings[r.kind] = append(rings[r.kind], pt)
			obs = append(obs, obstacle{pt, th.pt(o.ringR + 1)})
		}
	}
	for k, pts := range rings {
		drawSVRings(&c, th, pts, th.pt(o.ringR), k, o.ptR)
	}
	for _, q := range o.halos {
		pt := at(q)
		drawHalo(&c, th, pt, th.pt(o.ringR+5), false)
		obs = append(obs, obstacle{pt, th.pt(o.ringR + 6)})
	}
	for _, q := range o.lambda {
		strokeCircle(&c, at(q), th.pt(o.ringR+1.5), draw.LineStyle{Color: green, Width: th.pt(2.5)})
	}
	if o.common != nil {
		pt := at(*o.common)
		drawStar(&c, th, pt, th.pt(1.6*o.ptR+1.5))
		obs = append(obs, obstacle{pt, th.pt(1.6*o.ptR + 2)})
	}
	var taken []vg.Rectangle
	if a := o.arrow; a != nil {
		a = a.scaled(th.scale).(*Arrow)
		a.Plot(c, p)
		from, to := a.ends(&c, p)
		taken = append(taken, shaftBoxes(from, to, th.pt(3))...)
		if l, ok := a.labelAt(from, to, 0, false); ok {
			taken = append(taken, a.LabelStyle.Rectangle(a.Label).Add(l))
		}
	}
	if o.dim != nil {
		var avoid []vg.Point // w's foot
		if a := o.arrow; a != nil {
			avoid = append(avoid, at(vec{a.From[0], a.From[1]}))
		}
		taken = drawDim(&c, p, th, o.dim, at, avoid, obs, taken)
	}
	drawLabels(&c, th, o.labels, at, obs, taken)
}

// drawStar marks the point where the certificate's hulls meet: a black
// star outlined in white.
func drawStar(c *draw.Canvas, th theme, at vg.Point, r vg.Length) {
	path := markerPath(7, at, r)
	c.SetColor(black)
	c.Fill(path)
	c.SetLineStyle(draw.LineStyle{Color: white, Width: th.pt(1)})
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
	th    theme
}

func (t *svmThumb) Thumbnail(c *draw.Canvas) {
	th, ctr := t.th, c.Center()
	h := (c.Max.Y - c.Min.Y) / 2
	r := min(th.pt(t.r), h)
	switch t.what {
	case thumbRing + kindMargin, thumbRing + kindInside, thumbRing + kindWrong:
		if t.what == thumbRing+kindWrong {
			r = min(th.pt(t.r), h-th.pt(0.4*t.pr+0.5))
		}
		c.SetColor(color.RGBA{0xC8, 0xC8, 0xC8, 0xFF})
		c.Fill(circle(ctr, r*0.5))
		drawSVRings(c, th, []vg.Point{ctr}, r, t.what-thumbRing, t.pr)
	case thumbHalo:
		drawHalo(c, th, ctr, h, true)
		drawHalo(c, th, ctr, h, false)
	case thumbBand:
		l, rt := c.Min.X, c.Max.X
		c.FillPolygon(bandTint(0), []vg.Point{{X: l, Y: ctr.Y}, {X: rt, Y: ctr.Y}, {X: rt, Y: c.Max.Y}, {X: l, Y: c.Max.Y}})
		c.FillPolygon(bandTint(1), []vg.Point{{X: l, Y: c.Min.Y}, {X: rt, Y: c.Min.Y}, {X: rt, Y: ctr.Y}, {X: l, Y: ctr.Y}})
		dash := []vg.Length{th.pt(4), th.pt(3)}
		c.StrokeLine2(draw.LineStyle{Color: blue, Width: th.pt(1.5), Dashes: dash}, l, c.Max.Y, rt, c.Max.Y)
		c.StrokeLine2(draw.LineStyle{Color: vermillion, Width: th.pt(1.5), Dashes: dash}, l, c.Min.Y, rt, c.Min.Y)
	case thumbDim:
		head := th.pt(6)
		c.StrokeLine2(draw.LineStyle{Color: black, Width: th.pt(1.25)}, c.Min.X+head, ctr.Y, c.Max.X-head, ctr.Y)
		arrowHead(c, vg.Point{X: c.Min.X, Y: ctr.Y}, vg.Point{X: -1}, head)
		arrowHead(c, vg.Point{X: c.Max.X, Y: ctr.Y}, vg.Point{X: 1}, head)
	case thumbSlack:
		c.StrokeLine2(draw.LineStyle{Color: purple, Width: th.pt(2.25)}, c.Min.X, ctr.Y, c.Max.X, ctr.Y)
	case thumbLambda:
		c.StrokeLine2(draw.LineStyle{Color: darker(blue), Width: th.pt(2)}, c.Min.X, ctr.Y, ctr.X, ctr.Y)
		c.StrokeLine2(draw.LineStyle{Color: darker(vermillion), Width: th.pt(2)}, ctr.X, ctr.Y, c.Max.X, ctr.Y)
		strokeCircle(c, ctr, min(th.pt(t.r+1.5), h-th.pt(1)), draw.LineStyle{Color: green, Width: th.pt(2.5)})
	case thumbCommon:
		drawStar(c, th, ctr, min(th.pt(1.6*t.pr+1.5), h))
	}
}

// The scaled methods make the SVM layers and swatches scalable, like
// those in scale.go: a copy with the type scale multiplied by s.

func (t *svmThumb) scaled(s float64) any {
	q := *t
	q.th.scale *= s
	return &q
}

func (u *svmUnder) scaled(s float64) any {
	q := *u
	q.th.scale *= s
	return &q
}

func (o *svmOver) scaled(s float64) any {
	q := *o
	q.th.scale *= s
	return &q
}
