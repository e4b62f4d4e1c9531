package fields

import (
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/render"
)

// Contour labels. A Level with a Label has it written on each of its
// lines that is long enough, the way a map labels its height lines: in
// small type along the line, on a patch of the fill's colour at that
// level, so the line seems to break for the label and the label reads
// over any tint. A line that leaves the data area is labelled just inside
// the edge where it leaves (the top edge first, then the right, bottom
// and left), so the labels of parallel lines line up like a ruler's; a
// closed line is labelled near its middle. A place where the label would
// cover another contour line or an earlier label is passed over for the
// next one along the line; when none is free the label is left out (lines
// closer together than the type is high get none). The order is fixed,
// so the same field gives the same bytes.

// levelLine is one contour line of a level, in canvas points.
type levelLine struct {
	label string
	value float64
	pts   []vg.Point
}

// labelTickScale is the contour labels' type size relative to the plot's
// tick labels, so that labels grow with the figure as its type does.
const labelTickScale = 0.8

// labelLevels writes the labels of lines, after all of them are drawn.
// Labels are left out on a thumbnail, where they would be unreadable.
func labelLevels(c *draw.Canvas, p *plot.Plot, fill func(float64) color.Color, lines []levelLine) {
	labelled := false
	for _, l := range lines {
		labelled = labelled || l.label != ""
	}
	tick := p.X.Tick.Label.Font.Size
	if !labelled || tick < vg.Points(12*render.CompactScale) {
		return
	}
	th := render.DefaultTheme().Scaled(float64(tick) / 12)
	sty := th.Text(12*labelTickScale, false, draw.XCenter, draw.YCenter)
	sty.Color = color.RGBA{0x30, 0x30, 0x30, 0xFF}
	for _, pl := range placeLabels(c.Rectangle, lines, sty, th) {
		l := lines[pl.line]
		c.FillPolygon(patchColor(fill, l.value), pl.corners())
		ls := sty
		ls.Rotation = math.Atan2(float64(pl.u.Y), float64(pl.u.X))
		c.FillText(ls, pl.at, l.label)
	}
}

// placedLabel is where the label of lines[line] goes.
type placedLabel struct {
	tag
	line int
}

// placeLabels places the labels of lines in order, each clear of those
// placed before it, inside area.
func placeLabels(area vg.Rectangle, lines []levelLine, sty text.Style, th render.Theme) []placedLabel {
	var placed []placedLabel
	var taken []tag
	for i, l := range lines {
		if l.label == "" {
			continue
		}
		size := sty.Rectangle(l.label).Size()
		t, ok := placeLabel(area, lines, i, size.X/2+th.Pt(2), size.Y/2+th.Pt(0.5), taken, th.Pt(3))
		if ok {
			taken = append(taken, t)
			placed = append(placed, placedLabel{t, i})
		}
	}
	return placed
}

// patchColor is the fill at a level's value, white where there is none.
func patchColor(fill func(float64) color.Color, v float64) color.Color {
	if fill != nil {
		if col := fill(v); col != nil {
			return col
		}
	}
	return render.White
}

// tag is a label's patch: a rectangle centred at at, its long side along
// the unit vector u (pointing rightwards, so the text reads left to
// right), hw and hh its half width and half height.
type tag struct {
	at, u  vg.Point
	hw, hh vg.Length
}

func (t tag) n() vg.Point { return vg.Point{X: -t.u.Y, Y: t.u.X} }

func (t tag) corners() []vg.Point {
	a, b := t.u.Scale(t.hw), t.n().Scale(t.hh)
	return []vg.Point{t.at.Sub(a).Sub(b), t.at.Add(a).Sub(b), t.at.Add(a).Add(b), t.at.Sub(a).Add(b)}
}

func (t tag) contains(q vg.Point) bool {
	d := q.Sub(t.at)
	return vg.Length(math.Abs(float64(d.Dot(t.u)))) <= t.hw && vg.Length(math.Abs(float64(d.Dot(t.n())))) <= t.hh
}

// overlaps reports whether two patches meet, by the separating axis
// theorem: two rectangles are apart exactly when the projections on one
// of their four side directions are.
func (t tag) overlaps(o tag) bool {
	tc, oc := t.corners(), o.corners()
	for _, axis := range [4]vg.Point{t.u, t.n(), o.u, o.n()} {
		tlo, thi := project(tc, axis)
		olo, ohi := project(oc, axis)
		if thi < olo || ohi < tlo {
			return false
		}
	}
	return true
}

func project(pts []vg.Point, axis vg.Point) (lo, hi vg.Length) {
	lo, hi = pts[0].Dot(axis), pts[0].Dot(axis)
	for _, q := range pts[1:] {
		d := q.Dot(axis)
		lo, hi = min(lo, d), max(hi, d)
	}
	return lo, hi
}

// polyline is a contour line measured along its length.
type polyline struct {
	pts []vg.Point
	cum []vg.Length // cum[k] is the length from pts[0] to pts[k]
}

func measure(pts []vg.Point) polyline {
	cum := make([]vg.Length, len(pts))
	for k := 1; k < len(pts); k++ {
		d := pts[k].Sub(pts[k-1])
		cum[k] = cum[k-1] + vg.Length(math.Hypot(float64(d.X), float64(d.Y)))
	}
	return polyline{pts, cum}
}

func (pl polyline) length() vg.Length { return pl.cum[len(pl.cum)-1] }

// at returns the point at length s along the line, clamped to its ends.
func (pl polyline) at(s vg.Length) vg.Point {
	k := sort.Search(len(pl.cum), func(k int) bool { return pl.cum[k] >= s })
	switch {
	case k == 0:
		return pl.pts[0]
	case k == len(pl.cum):
		return pl.pts[len(pl.pts)-1]
	}
	seg := pl.cum[k] - pl.cum[k-1]
	if seg == 0 {
		return pl.pts[k]
	}
	return pl.pts[k-1].Add(pl.pts[k].Sub(pl.pts[k-1]).Scale((s - pl.cum[k-1]) / seg))
}

// tagAt is the patch centred at length s along the line, along the chord
// across it.
func (pl polyline) tagAt(s, hw, hh vg.Length) tag {
	u := render.Unit(pl.at(s + hw).Sub(pl.at(s - hw)))
	if u.X < 0 || u.X == 0 && u.Y < 0 {
		u = u.Scale(-1)
	}
	if u == (vg.Point{}) {
		u = vg.Point{X: 1}
	}
	return tag{at: pl.at(s), u: u, hw: hw, hh: hh}
}

// placeLabel returns the first free patch of half size hw × hh on line i:
// stepping in from each end that lies on the data area's edge, in edge
// order, then at points along the line.
func placeLabel(area vg.Rectangle, lines []levelLine, i int, hw, hh vg.Length, taken []tag, step vg.Length) (tag, bool) {
	pl := measure(lines[i].pts)
	n := pl.length()
	if n < 3*2*hw {
		return tag{}, false // a stub at an edge or a small ring: no room
	}
	free := func(s vg.Length) (tag, bool) {
		t := pl.tagAt(s, hw, hh)
		for _, q := range t.corners() {
			if !inside(q, area) {
				return t, false
			}
		}
		for _, o := range taken {
			if t.overlaps(o) {
				return t, false
			}
		}
		return t, !crossesOther(t, lines, i)
	}
	for _, end := range edgeEnds(area, pl.pts) {
		for k := vg.Length(0); k <= 4*hw; k += step {
			s := hw + k
			if end != 0 {
				s = n - hw - k
			}
			if t, ok := free(s); ok {
				return t, true
			}
		}
	}
	for _, frac := range [...]vg.Length{0.5, 0.25, 0.75, 0.125, 0.375, 0.625, 0.875} {
		if t, ok := free(frac * n); ok {
			return t, true
		}
	}
	return tag{}, false
}

// edgeEnds returns the ends of an open line (0 and len−1) that lie on the
// canvas edge, the one on the preferred edge first: top, right, bottom,
// left.
func edgeEnds(c vg.Rectangle, pts []vg.Point) []int {
	rank := func(q vg.Point) int {
		const eps = 0.5
		switch {
		case q.Y >= c.Max.Y-eps:
			return 0
		case q.X >= c.Max.X-eps:
			return 1
		case q.Y <= c.Min.Y+eps:
			return 2
		case q.X <= c.Min.X+eps:
			return 3
		}
		return 4
	}
	last := len(pts) - 1
	a, b := rank(pts[0]), rank(pts[last])
	switch {
	case a < 4 && b < 4 && b < a:
		return []int{last, 0}
	case a < 4 && b < 4:
		return []int{0, last}
	case a < 4:
		return []int{0}
	case b < 4:
		return []int{last}
	}
	return nil
}

func inside(q vg.Point, r vg.Rectangle) bool {
	return q.X >= r.Min.X && q.X <= r.Max.X && q.Y >= r.Min.Y && q.Y <= r.Max.Y
}

// crossesOther reports whether another level's line passes through the
// patch. Lines have a vertex in every grid cell they cross, a few points
// apart, so testing vertices and segment midpoints is enough for a patch
// the size of a label.
func crossesOther(t tag, lines []levelLine, i int) bool {
	r := t.hw + t.hh
	for j, l := range lines {
		if j == i || l.value == lines[i].value {
			continue
		}
		for k, q := range l.pts {
			if d := q.Sub(t.at); math.Abs(float64(d.X)) > float64(r) || math.Abs(float64(d.Y)) > float64(r) {
				continue
			}
			if t.contains(q) || k > 0 && t.contains(q.Add(l.pts[k-1]).Scale(0.5)) {
				return true
			}
		}
	}
	return false
}
