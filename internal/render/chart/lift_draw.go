package chart

import (
	"cmp"
	"image/color"
	"math"
	"slices"

	"github.com/margin-edu/margin/internal/render"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The lift is laid out in two steps: every mark is a point q of the
// projected cube (cube units) plus a rectangle in points around it (a
// label beside its tick, a marker's radius); liftScene.fit finds the
// largest scale at which all of them fit the data area, so the labels
// never leave the figure, and centres the lot.

// liftMark is a rectangle r (points) placed at projected point q.
type liftMark struct {
	q vg.Point // cube units
	r vg.Rectangle
}

// liftAxis is one labelled edge of the box: its ends projected, the
// direction (on the page) away from the box, its ticks and name.
type liftAxis struct {
	a, b  vg.Point // the edge's ends, projected (cube units)
	out   vg.Point // unit vector away from the box
	ticks []plot.Tick
	at    []float64 // each tick's place along the edge, 0…1
	name  string
}

// Box colours: the back walls, their grid lines and the edges.
var (
	paneFill  = color.RGBA{0xF3, 0xF3, 0xF3, 0xFF}
	gridColor = color.RGBA{0xDA, 0xDA, 0xDA, 0xFF}
	edgeColor = color.RGBA{0x9A, 0x9A, 0x9A, 0xFF}
)

func (s *liftScene) proj(u [3]float64) vg.Point {
	x, y, _ := s.project(u)
	return vg.Point{X: vg.Length(x), Y: vg.Length(y)}
}

// axes chooses the edge each axis is labelled on: the lowest on the page
// for the two horizontal axes (the front bottom edges, seen from above),
// the leftmost for the vertical one, ties going to the nearer edge. An
// axis seen end on (shorter on the page than 0.3 of the cube's side of
// 2) has no name and no ticks.
func (s *liftScene) axes() [3]liftAxis {
	var out [3]liftAxis
	es := cubeEdges()
	for k := range 3 {
		score := func(e [2][3]float64) (float64, float64) {
			mx, my, d := s.project([3]float64{(e[0][0] + e[1][0]) / 2, (e[0][1] + e[1][1]) / 2, (e[0][2] + e[1][2]) / 2})
			if k == 2 {
				return mx, -d
			}
			return my, -d
		}
		best := es[4*k]
		for _, e := range es[4*k+1 : 4*k+4] {
			p1, p2 := score(e)
			q1, q2 := score(best)
			if p1 < q1-1e-9 || math.Abs(p1-q1) <= 1e-9 && p2 < q2 {
				best = e
			}
		}
		ax := liftAxis{a: s.proj(best[0]), b: s.proj(best[1])}
		d := ax.b.Sub(ax.a)
		if math.Hypot(float64(d.X), float64(d.Y)) < 0.3 {
			out[k] = ax // seen end on: too short to label
			continue
		}
		mid := ax.a.Add(d.Scale(0.5))
		ax.name, ax.out = s.axisName(k), render.Unit(vg.Point{X: -d.Y, Y: d.X})
		if ax.out.Dot(mid) < 0 {
			ax.out = ax.out.Scale(-1)
		}
		for _, t := range (render.NiceTicks{N: 3}).Ticks(s.lo[k], s.hi[k]) {
			if t.Label != "" {
				ax.ticks = append(ax.ticks, t)
				ax.at = append(ax.at, (t.Value-s.lo[k])/(s.hi[k]-s.lo[k]))
			}
		}
		out[k] = ax
	}
	return out
}

// Plot implements plot.Plotter: the walls, the edges and axes, the
// points hidden by the plane, the plane, and the rest of the points.
func (s *liftScene) Plot(c draw.Canvas, _ *plot.Plot) {
	th := s.th
	tickLen, gap := th.Pt(5), th.Pt(3)
	tickSty := th.Text(11, false, draw.XCenter, draw.YCenter)
	nameSty := th.Text(14, false, draw.XCenter, draw.YCenter)
	axes := s.axes()

	// The marks that must fit: the corners with a marker's room, each
	// tick label and each axis name.
	var marks []liftMark
	for k := range 8 {
		r := vg.Rectangle{Min: vg.Point{X: -s.ptR, Y: -s.ptR}, Max: vg.Point{X: s.ptR, Y: s.ptR}}
		marks = append(marks, liftMark{s.proj(cubeCorner(k)), r})
	}
	type label struct {
		q    vg.Point
		off  vg.Point // from q, in points
		sty  text.Style
		txt  string
		name bool // an axis name, drawn whatever it meets
	}
	var labels []label
	for _, ax := range axes {
		if ax.name == "" {
			continue
		}
		ext := vg.Length(0)
		for i, t := range ax.ticks {
			box := tickSty.Rectangle(t.Label)
			off := ax.out.Scale(tickLen + gap + render.Clearance(box, tickSty, ax.out))
			labels = append(labels, label{ax.a.Add(ax.b.Sub(ax.a).Scale(vg.Length(ax.at[i]))), off, tickSty, t.Label, false})
			sz := box.Size()
			ext = max(ext, vg.Length(math.Abs(float64(ax.out.X*sz.X))+math.Abs(float64(ax.out.Y*sz.Y))))
		}
		box := nameSty.Rectangle(ax.name)
		off := ax.out.Scale(tickLen + 2*gap + ext + render.Clearance(box, nameSty, ax.out))
		labels = append([]label{{ax.a.Add(ax.b.Sub(ax.a).Scale(0.5)), off, nameSty, ax.name, true}}, labels...)
	}
	for _, l := range labels {
		marks = append(marks, liftMark{l.q, l.sty.Rectangle(l.txt).Add(l.off)})
	}
	scale, origin := fitMarks(marks, c.Rectangle)
	at := func(q vg.Point) vg.Point { return origin.Add(q.Scale(scale)) }
	atU := func(u [3]float64) vg.Point { return at(s.proj(u)) }

	// The three walls behind, meeting at the corner farthest away.
	far, farD := 0, math.Inf(1)
	for k := range 8 {
		if _, _, d := s.project(cubeCorner(k)); d < farD {
			far, farD = k, d
		}
	}
	grid := draw.LineStyle{Color: gridColor, Width: th.Pt(0.75)}
	for m := range 3 {
		a, b := (m+1)%3, (m+2)%3
		var wall []vg.Point
		for _, k := range [4]int{0, 1 << a, 1<<a | 1<<b, 1 << b} {
			wall = append(wall, atU(cubeCorner(k|far&(1<<m))))
		}
		c.FillPolygon(paneFill, wall)
		for _, ax := range [2][2]int{{a, b}, {b, a}} { // grid lines across the wall at ax[0]'s ticks
			for _, f := range axes[ax[0]].at {
				var u, v [3]float64
				u[m], v[m] = cubeCorner(far)[m], cubeCorner(far)[m]
				u[ax[0]], v[ax[0]] = 2*f-1, 2*f-1
				u[ax[1]], v[ax[1]] = -1, 1
				c.StrokeLine2(grid, atU(u).X, atU(u).Y, atU(v).X, atU(v).Y)
			}
		}
	}
	edge := draw.LineStyle{Color: edgeColor, Width: th.Pt(0.75)}
	for _, e := range cubeEdges() {
		c.StrokeLines(edge, []vg.Point{atU(e[0]), atU(e[1])})
	}
	axis := draw.LineStyle{Color: render.Black, Width: th.Pt(1)}
	var names, ticks []vg.Rectangle
	for _, ax := range axes {
		if ax.name == "" {
			continue
		}
		c.StrokeLines(axis, []vg.Point{at(ax.a), at(ax.b)})
		for _, f := range ax.at {
			p := at(ax.a.Add(ax.b.Sub(ax.a).Scale(vg.Length(f))))
			c.StrokeLines(axis, []vg.Point{p, p.Add(ax.out.Scale(tickLen))})
		}
	}
	// The names first, then the tick values that keep clear of them and,
	// by an em across and half an em up, of each other: where two axes meet at a corner, their
	// end values would otherwise read as one.
	for _, l := range labels {
		p := at(l.q).Add(l.off)
		r := l.sty.Rectangle(l.txt).Add(p)
		pad := vg.Point{X: l.sty.Font.Size, Y: l.sty.Font.Size / 2}
		switch {
		case l.name:
			names = append(names, r)
		case render.OverlapsAny(r, names) || render.OverlapsAny(vg.Rectangle{Min: r.Min.Sub(pad), Max: r.Max.Add(pad)}, ticks):
			continue
		default:
			ticks = append(ticks, r)
		}
		c.FillText(l.sty, p, l.txt)
	}

	// The points, far to near: those the plane hides first, under it.
	order := make([]int, len(s.u))
	depth := make([]float64, len(s.u))
	for i, u := range s.u {
		order[i] = i
		_, _, depth[i] = s.project(u)
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(depth[i], depth[j]) })
	points := func(hidden bool) {
		for _, i := range order {
			if s.cover[i] == hidden {
				drawMarker(&c, th, render.SlotOf(s.l.Y[i], true), atU(s.u[i]), s.ptR, hidden)
			}
		}
	}
	points(true)
	if len(s.poly) >= 3 {
		var poly []vg.Point
		for _, u := range s.poly {
			poly = append(poly, atU(u))
		}
		c.FillPolygon(planeFill, poly)
		c.StrokeLines(draw.LineStyle{Color: planeEdge, Width: th.Pt(1.5)}, append(poly, poly[0]))
	}
	points(false)
}

// fitMarks returns the largest scale (points per cube unit) at which
// every mark fits in r, and the origin that centres them there.
func fitMarks(marks []liftMark, r vg.Rectangle) (scale vg.Length, origin vg.Point) {
	bounds := func(s vg.Length) vg.Rectangle {
		b := vg.Rectangle{Min: vg.Point{X: vg.Length(math.Inf(1)), Y: vg.Length(math.Inf(1))},
			Max: vg.Point{X: vg.Length(math.Inf(-1)), Y: vg.Length(math.Inf(-1))}}
		for _, m := range marks {
			q := m.r.Add(m.q.Scale(s))
			b.Min.X, b.Min.Y = min(b.Min.X, q.Min.X), min(b.Min.Y, q.Min.Y)
			b.Max.X, b.Max.Y = max(b.Max.X, q.Max.X), max(b.Max.Y, q.Max.Y)
		}
		return b
	}
	size := r.Size()
	lo, hi := vg.Length(0), 2*(size.X+size.Y)
	for range 50 {
		mid := (lo + hi) / 2
		if b := bounds(mid).Size(); b.X <= size.X && b.Y <= size.Y {
			lo = mid
		} else {
			hi = mid
		}
	}
	scale = max(lo, 1)
	b := bounds(scale)
	origin = vg.Point{X: r.Min.X + (size.X-b.Size().X)/2 - b.Min.X, Y: r.Min.Y + (size.Y-b.Size().Y)/2 - b.Min.Y}
	return scale, origin
}
