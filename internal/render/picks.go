package render

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Picks marks a few named points of the data plane, such as the two
// points x and z a learner picked to check a kernel's value k(x, z): each
// a yellow diamond outlined in black, larger than a data point, with its
// name in bold beside it on a white halo, placed where it covers the
// fewest of the picks and of Avoid. Add it after the data points, so the
// marks are on top.
//
// Radius and Edge are for a figure of the default size; a DataFigure
// scales them with its type. Picks has no DataRange: the figure chooses
// the view, and picks outside it are not drawn.
type Picks struct {
	pts    []Vec
	labels []string

	Radius vg.Length
	Edge   draw.LineStyle
	// Avoid lists other points, the data, for the names not to cover.
	Avoid [][2]float64

	th Theme
}

// NewPicks returns the marks of pts named labels[i] ("x", "z"). labels
// may be nil (no names) or have one entry per point, "" for an unnamed
// one. No points is not an error: the layer then draws nothing, as before
// a learner has picked any.
//
// It returns ErrShape when labels has another length than pts and
// ErrNotFinite for a NaN or infinite coordinate.
func NewPicks(pts [][2]float64, labels []string) (*Picks, error) {
	if labels != nil && len(labels) != len(pts) {
		return nil, fmt.Errorf("%w: %d picks, %d labels", ErrShape, len(pts), len(labels))
	}
	pk := &Picks{
		Radius: vg.Points(7.5),
		Edge:   draw.LineStyle{Color: Black, Width: vg.Points(1.75)},
		th:     Theme{scale: 1},
	}
	for i, p := range pts {
		if err := Finite(p[0], p[1]); err != nil {
			return nil, fmt.Errorf("pick %d: %w", i, err)
		}
		pk.pts = append(pk.pts, Vec{p[0], p[1]})
	}
	if labels != nil {
		pk.labels = append([]string(nil), labels...)
	}
	return pk, nil
}

// Plot implements plot.Plotter: the diamonds, then their names.
func (pk *Picks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	at := func(q Vec) vg.Point { return vg.Point{X: trX(q.X), Y: trY(q.Y)} }
	var obs []Obstacle
	for _, q := range pk.Avoid {
		if pt := at(Vec{q[0], q[1]}); c.Contains(pt) {
			obs = append(obs, Obstacle{pt, pk.th.Pt(5)})
		}
	}
	var labels []NoteLabel
	for i, q := range pk.pts {
		pt := at(q)
		if !c.Contains(pt) {
			continue
		}
		pk.mark(&c, pt, pk.Radius)
		obs = append(obs, Obstacle{pt, pk.Radius * 1.3})
		if pk.labels != nil && pk.labels[i] != "" {
			labels = append(labels, NoteLabel{At: q, Text: pk.labels[i], Col: Black, Bold: true,
				Gap: 1.3 * float64(pk.Radius) / pk.th.scale})
		}
	}
	DrawLabels(&c, pk.th, labels, at, obs, nil)
}

// mark draws one diamond of radius r (its area about a disc's of r) at pt.
func (pk *Picks) mark(c *draw.Canvas, pt vg.Point, r vg.Length) {
	path := MarkerPath(3, pt, r)
	c.SetColor(Yellow)
	c.Fill(path)
	c.SetLineStyle(pk.Edge)
	c.Stroke(path)
}

// Thumbnail implements plot.Thumbnailer: a diamond, for a legend.
func (pk *Picks) Thumbnail(c *draw.Canvas) {
	r := min(pk.Radius, (c.Max.Y-c.Min.Y)/2/1.3)
	pk.mark(c, c.Center(), r)
}

func (pk *Picks) Scaled(s float64) any {
	q := *pk
	q.Radius = vg.Length(s) * pk.Radius
	q.Edge = ScaleLine(pk.Edge, s)
	q.th.scale *= s
	return &q
}
