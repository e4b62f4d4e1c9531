package fields

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/render"
)

// Field draws a function of the plane, f(x₁, x₂), over the plot's view:
// an opaque raster fill coloured by Fill, and contour lines at Levels. It
// is how a nonlinear decision function (a kernel SVM's, a logistic
// model's probability) or a 2-D objective (gradient descent) is shown.
//
// The fill is a raster because a vector heat map costs a megabyte and
// shows stair-steps; a raster of a few thousand pixels is small, but its
// edges are soft, so the edges that matter are drawn as contour lines on
// top, which are crisp at any zoom. The lines come from Field's own
// marching squares, joined into polylines in a fixed order, so the same
// field gives the same SVG bytes (plotter.Contour's order is random) and
// a dashed level stays dashed instead of restarting its dash at every
// grid cell.
//
// Field samples f when the plot is drawn, over whatever axes the figure
// has set by then; it has no DataRange (it never widens the axes) and no
// GlyphBoxes (it never pads the data area), so it needs no wrapper to
// keep layout fast.
type Field struct {
	F func(x1, x2 float64) float64
	// Grid, when set, evaluates f on a whole grid at once and is used
	// instead of F to sample the field: it must fill z[j*len(xs)+i] with
	// f(xs[i], ys[j]) for every i and j, as F would give them. A kernel
	// decision function f(x) = Σₖ cₖ·exp(−γ‖x − xₖ‖²) + b factors along
	// the axes, exp(−γ(x₁ − xₖ₁)²)·exp(−γ(x₂ − xₖ₂)²), so a batch
	// evaluator needs a few hundred exponentials per centre instead of
	// one per grid node. z arrives zeroed, so Grid may accumulate into it.
	// F is still required: Grid only speeds sampling.
	Grid   func(xs, ys []float64, z []float64)
	Fill   func(v float64) color.Color // the raster's colour at value v; nil for no fill
	Levels []Level                     // contour lines, drawn in this order over the fill
	// Res is the number of grid cells along the longer side of the data
	// area; the other side gets as many as keep the cells square on the
	// page. 0 means DefaultFieldRes; it is clamped to MaxFieldRes.
	Res int
}

// Level is one contour line of a Field: f = Value, in its own style
// (the decision boundary f = 0 solid black, the margins f = ±1 dashed).
type Level struct {
	Value float64
	draw.LineStyle
	// Label, when set, is written along the level's lines in small type,
	// where it fits ("0.9" on a probability contour); see field_labels.go.
	Label string
}

// Field grid sizes: f is evaluated at (Res+1)² points at most.
const (
	DefaultFieldRes = 120
	MaxFieldRes     = 400
)

// NewField returns a Field of f with the given fill and levels at
// DefaultFieldRes. f must not be nil and the level values must be finite.
// Where f is NaN or infinite the fill is transparent and no line is drawn.
func NewField(f func(x1, x2 float64) float64, fill func(float64) color.Color, levels ...Level) (*Field, error) {
	if f == nil {
		return nil, errors.New("render: field needs a function")
	}
	for _, l := range levels {
		if err := render.Finite(l.Value); err != nil {
			return nil, fmt.Errorf("contour level: %w", err)
		}
	}
	return &Field{F: f, Fill: fill, Levels: levels}, nil
}

// MarginLevels returns the three levels of a margin classifier in the
// house style, dashed margins f = ±1 first so that the boundary f = 0,
// solid black and about 2 pt, is drawn over them where they meet.
func MarginLevels() []Level {
	dashed := draw.LineStyle{Color: color.Black, Width: vg.Points(1.25), Dashes: []vg.Length{vg.Points(6), vg.Points(4)}}
	return []Level{{Value: -1, LineStyle: dashed}, {Value: 1, LineStyle: dashed}, {Value: 0, LineStyle: render.DefaultBoundaryStyle}}
}

// ContourLevels returns the levels f = v of an objective, one per value
// in order, in the house style for contours under a path: thin solid grey
// lines, quiet enough that the iterates drawn over them stand out. Give
// values spaced as the function grows (0.5, 2, 8, 32 for a quadratic) so
// the rings are about evenly spaced on the page.
func ContourLevels(values ...float64) []Level {
	ls := make([]Level, len(values))
	for i, v := range values {
		ls[i] = Level{Value: v, LineStyle: draw.LineStyle{Color: render.Grey, Width: vg.Points(1)}}
	}
	return ls
}

// cells returns the grid for a data area w × h points: res cells along
// the longer side, at least one along each.
func cells(res int, w, h vg.Length) (nx, ny int) {
	if res <= 0 {
		res = DefaultFieldRes
	}
	res = min(res, MaxFieldRes)
	if !(w > 0 && h > 0) {
		return res, res
	}
	if w >= h {
		return res, max(1, int(math.Round(float64(res)*float64(h/w))))
	}
	return max(1, int(math.Round(float64(res)*float64(w/h)))), res
}

// Plot implements plot.Plotter.
func (f *Field) Plot(c draw.Canvas, p *plot.Plot) {
	if f.F == nil {
		return
	}
	v := render.PlotView(p)
	if !(v.XMax > v.XMin && v.YMax > v.YMin) {
		return
	}
	trX, trY := p.Transforms(&c)
	x0, x1, y0, y1 := trX(v.XMin), trX(v.XMax), trY(v.YMin), trY(v.YMax)
	nx, ny := cells(f.Res, x1-x0, y1-y0)
	var g *grid
	if f.Grid != nil {
		g = sampleGrid(f.Grid, v, nx, ny)
	} else {
		g = sample(f.F, v, nx, ny)
	}
	if f.Fill != nil {
		c.DrawImage(vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1, Y: y1}}, g.raster(f.Fill))
	}
	var lines []levelLine
	for _, l := range f.Levels {
		for _, line := range g.contour(l.Value) {
			pts := make([]vg.Point, len(line))
			for i, q := range line {
				pts[i] = vg.Point{X: trX(q.X), Y: trY(q.Y)}
			}
			c.StrokeLines(l.LineStyle, c.ClipLinesXY(pts)...)
			lines = append(lines, levelLine{l.Label, l.Value, pts})
		}
	}
	labelLevels(&c, p, f.Fill, lines)
}

// raster colours one pixel per grid cell, by the mean of the cell's
// corners (its centre, to bilinear order), with row 0 at the top as
// images have it. A cell with a missing corner is transparent.
func (g *grid) raster(fill func(float64) color.Color) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, g.nx, g.ny))
	for j := 0; j < g.ny; j++ {
		for i := 0; i < g.nx; i++ {
			m := (g.at(i, j) + g.at(i+1, j) + g.at(i+1, j+1) + g.at(i, j+1)) / 4
			if math.IsNaN(m) {
				continue
			}
			c := fill(m)
			if c == nil {
				continue
			}
			img.SetRGBA(i, g.ny-1-j, color.RGBAModel.Convert(c).(color.RGBA))
		}
	}
	return img
}

// Thumbnail implements plot.Thumbnailer: the level's line, for a legend.
func (l Level) Thumbnail(c *draw.Canvas) { render.ThumbLine(c, l.LineStyle) }

// sampleGrid is sample through a batch evaluator: it hands fill the
// node coordinates along each axis, exactly those sample uses, and a z to
// fill row by row, then treats non-finite values as missing, as sample
// does. z arrives zeroed, so fill may accumulate into it.
func sampleGrid(fill func(xs, ys []float64, z []float64), v render.View, nx, ny int) *grid {
	g := &grid{nx: nx, ny: ny, v: v, z: make([]float64, (nx+1)*(ny+1))}
	xs, ys := make([]float64, nx+1), make([]float64, ny+1)
	for i := range xs {
		xs[i] = g.x(i)
	}
	for j := range ys {
		ys[j] = g.y(j)
	}
	fill(xs, ys, g.z)
	for i, z := range g.z {
		if math.IsInf(z, 0) {
			g.z[i] = math.NaN()
		}
	}
	return g
}

// Scaled implements render.Scaler: the level's line scaled by s.
func (l Level) Scaled(s float64) any {
	l.LineStyle = render.ScaleLine(l.LineStyle, s)
	return l
}

// Scaled implements render.Scaler: a copy with every level's line
// scaled by s.
func (f *Field) Scaled(s float64) any {
	q := *f
	q.Levels = make([]Level, len(f.Levels))
	for i, l := range f.Levels {
		q.Levels[i] = l.Scaled(s).(Level)
	}
	return &q
}
