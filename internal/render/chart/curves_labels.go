package chart

import (
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/render"
)

// labels writes each series' name beside its line: series i of n at its point farthest from the other lines within the
// i-th of n bands across the inner 80 % of the x axis, so the names
// spread out.
func (cl *curveLines) labels(c *draw.Canvas, trX, trY func(float64) vg.Length) {
	lines := make([][]vg.Point, len(cl.c.Series))
	for i, s := range cl.c.Series {
		for _, q := range s.sorted() {
			if at := (vg.Point{X: trX(q.X), Y: trY(q.Y)}); c.Contains(at) {
				lines[i] = append(lines[i], at)
			}
		}
	}
	w, n := (c.Max.X-c.Min.X)*0.8, vg.Length(len(cl.c.Series))
	var labels []render.NoteLabel
	for i, s := range cl.c.Series {
		lo := c.Min.X + w/8 + w*vg.Length(i)/n
		hi := lo + w/n
		best, far := vg.Point{}, vg.Length(-1)
		for _, a := range lines[i] {
			if a.X < lo || a.X > hi {
				continue
			}
			near := vg.Length(math.Inf(1))
			for j, other := range lines {
				for _, b := range other {
					if j != i {
						near = min(near, vg.Length(math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y))))
					}
				}
			}
			if near > far {
				best, far = a, near
			}
		}
		if far >= 0 && s.Name != "" {
			labels = append(labels, render.NoteLabel{At: render.Vec{X: float64(best.X), Y: float64(best.Y)}, Text: s.Name, Col: color.Black, Gap: 2})
		}
	}
	at := func(v render.Vec) vg.Point { return vg.Point{X: vg.Length(v.X), Y: vg.Length(v.Y)} }
	render.DrawLabels(c, cl.th, labels, at, nil, nil)
}
