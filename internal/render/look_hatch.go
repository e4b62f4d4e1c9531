package render

import (
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot/vg"
)

// hatch draws a light tint (a region, a band, and their legend swatches)
// in print as a hatch of thin grey lines at the angle of its hue (blue
// 45°, vermillion −45°, green level, …), so regions stay apart without
// spending toner; a large grey fill becomes a pale grey and a large white
// one stays white. It reports false for a fill it leaves to Fill, which
// gives a strong colour (a point, a bar) a grey of its hue (printGrey).
func (c *lookCanvas) hatch(p vg.Path) bool {
	span := pathSpan(p)
	h, s, li, a := hsl(c.st.col)
	tint := s >= 0.15 && li >= 0.7 && li <= 0.97
	if a == 0 || (!tint && span <= 30) || (tint && span <= 4) || (!tint && s >= 0.15) {
		return false
	}
	base := c.CanvasSizer
	switch {
	case li > 0.97:
		base.SetColor(color.White)
		base.Fill(p)
	case !tint:
		base.SetColor(grey(math.Max(li, 0.93), 0xFF))
		base.Fill(p)
	default:
		base.SetColor(grey(0.55, 0xFF))
		base.SetLineWidth(vg.Points(0.5))
		base.SetLineDash(nil, 0)
		gap := vg.Points(6)
		if span < 40 {
			gap = vg.Points(3) // a swatch: enough lines to show the angle
		}
		for _, seg := range hatchLines(flatten(p), hatchAngle(h), gap) {
			var l vg.Path
			l.Move(seg[0])
			l.Line(seg[1])
			base.Stroke(l)
		}
	}
	base.SetColor(c.look.ink(c.st.col))
	base.SetLineWidth(c.st.width)
	base.SetLineDash(c.st.dashes, c.st.offs)
	return true
}

// hatchAngle is the hatch direction of a hue, in radians.
func hatchAngle(h float64) float64 {
	switch hueSlot(h) {
	case 1:
		return -math.Pi / 4
	case 2:
		return 0
	case 3:
		return math.Pi / 2
	case 4:
		return math.Pi / 8
	case 5:
		return -math.Pi / 8
	}
	return math.Pi / 4
}

// flatten turns a path into closed polygons, arcs as short chords.
func flatten(p vg.Path) [][]vg.Point {
	var polys [][]vg.Point
	var cur []vg.Point
	end := func() {
		if len(cur) > 2 {
			polys = append(polys, cur)
		}
		cur = nil
	}
	for _, c := range p {
		switch c.Type {
		case vg.MoveComp:
			end()
			cur = []vg.Point{c.Pos}
		case vg.LineComp, vg.CurveComp:
			cur = append(cur, c.Pos)
		case vg.ArcComp:
			for i := 0; i <= 16; i++ {
				t := c.Start + c.Angle*float64(i)/16
				cur = append(cur, vg.Point{X: c.Pos.X + c.Radius*vg.Length(math.Cos(t)), Y: c.Pos.Y + c.Radius*vg.Length(math.Sin(t))})
			}
		case vg.CloseComp:
			end()
		}
	}
	end()
	return polys
}

// hatchLines returns the segments of parallel lines at angle theta, gap
// apart, inside the polygons (even–odd).
func hatchLines(polys [][]vg.Point, theta float64, gap vg.Length) [][2]vg.Point {
	sin, cos := math.Sin(theta), math.Cos(theta)
	// Rotate by −theta so the lines are level, scan, rotate back.
	rot := func(p vg.Point) (float64, float64) {
		x, y := float64(p.X), float64(p.Y)
		return x*cos + y*sin, -x*sin + y*cos
	}
	back := func(u, v float64) vg.Point {
		return vg.Point{X: vg.Length(u*cos - v*sin), Y: vg.Length(u*sin + v*cos)}
	}
	type edge struct{ u0, v0, u1, v1 float64 }
	var edges []edge
	vmin, vmax := math.Inf(1), math.Inf(-1)
	for _, poly := range polys {
		for i := range poly {
			u0, v0 := rot(poly[i])
			u1, v1 := rot(poly[(i+1)%len(poly)])
			edges = append(edges, edge{u0, v0, u1, v1})
			vmin, vmax = math.Min(vmin, math.Min(v0, v1)), math.Max(vmax, math.Max(v0, v1))
		}
	}
	var out [][2]vg.Point
	g := float64(gap)
	var xs []float64
	for v := math.Floor(vmin/g)*g + g/2; v < vmax; v += g {
		xs = xs[:0]
		for _, e := range edges {
			if (e.v0 <= v) != (e.v1 <= v) {
				xs = append(xs, e.u0+(v-e.v0)/(e.v1-e.v0)*(e.u1-e.u0))
			}
		}
		slices.Sort(xs)
		for i := 0; i+1 < len(xs); i += 2 {
			out = append(out, [2]vg.Point{back(xs[i], v), back(xs[i+1], v)})
		}
	}
	return out
}
