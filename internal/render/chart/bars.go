package chart

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"github.com/margin-edu/margin/internal/render"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Bars is a bar per data point, for a quantity that lives on the points:
// an SVM's dual variables αᵢ in their box [0, C], a point's slack or loss.
type Bars struct {
	Title     string      // stating the state: "α after step 12 · 5 support vectors"
	Name      string      // the SVG <title>; Title when empty
	Desc      string      // the SVG <desc>; a plain summary of the values when empty
	YLabel    string      // "αᵢ"
	Values    []float64   // one bar per point, x₁ first
	Class     []int       // each point's label, to colour its bar: ±1, or classes 0…9; nil for all blue
	Bounds    []Bound     // dashed horizontal lines: the box 0 ≤ αᵢ ≤ C
	Highlight []Highlight // bars to emphasise: the pair i, j an SMO step optimised
	// HighlightName is the legend entry for the highlighted bars, such as
	// "pair optimised"; "" leaves them out of the legend.
	HighlightName string
}

// Bound is a dashed reference line of a Bars chart, labelled at its right
// end ("C = 1").
type Bound struct {
	Value float64
	Label string
}

// Highlight emphasises bar Index (0-based) with a bold outline, a grey
// band behind it (so a zero bar can be highlighted too) and a label above
// it ("i", "j").
type Highlight struct {
	Index int
	Label string
}

// maxBars bounds a Bars chart: past it the bars are thinner than a pixel.
const maxBars = 2000

// maxLegendClasses is the most classes the legend lists: as many as the
// perceptron's multiclass plots have.
const maxLegendClasses = 10

// namedBelow is how many bars are labelled x₁, x₂, … rather than by
// number, when they are wide enough for the names.
const namedBelow = 20

// BarsSVG writes b as an SVG chart of a zero size default of 600×260 px.
// Bars are coloured by class as the points are (+1 blue, −1 vermillion),
// named x₁…xₙ under the axis when there are at most 20, numbered
// otherwise. Zero bars are not drawn, so a sparse α costs little.
//
// It returns ErrNoData for no values, ErrShape for more than 2000, for a
// Class of another length or a Highlight index out of range, and
// ErrNotFinite for NaN or infinite values or bounds, before writing
// anything.
func BarsSVG(w io.Writer, b Bars, opt render.Options) error {
	if err := b.check(); err != nil {
		return err
	}
	fw, fh := opt.Size(render.DefaultSize, render.DefaultHistoryHeight)
	th := render.StripTheme(fw).ForHall(opt)
	n := len(b.Values)
	slots := render.ClassSlots(b.Class, n)

	p := plot.New()
	th.Style(p, "", b.YLabel, 12, 12, 11)
	p.Title.Text = b.Title
	render.FitTitle(p, fw-th.Pt(14))
	p.Title.Padding = th.Pt(4)
	p.Y.Tick.Marker = render.NiceTicks{N: 4}
	p.X.Min, p.X.Max = 0.5, float64(n)+0.5
	p.Y.Min, p.Y.Max = b.yRange()
	names := n <= namedBelow && float64(fw)/float64(n) >= float64(th.Pt(26))
	p.X.Tick.Marker = render.IndexTicks{N: n, At0: 1, Step: 1, Names: names}
	if !names {
		p.X.Label.Text = "point i"
	}
	p.X.Tick.Length = 0

	bs := &barSet{b: b, slots: slots, th: th}
	p.Add(bs)

	lg := &render.FlowLegend{Style: th.Text(11, false, draw.XLeft, draw.YCenter), ThumbW: th.Pt(14), Gap: th.Pt(12), Above: th.Pt(4)}
	classes := render.ClassOrder(b.Class)
	if len(classes) > maxLegendClasses {
		classes = nil // a legend of dozens of classes explains nothing
	}
	for _, c := range classes {
		lg.Items = append(lg.Items, render.LegendItem{Label: render.ClassName(c, render.IsBinary(b.Class)),
			Thumbs: []plot.Thumbnailer{barThumb{color: render.ClassColor(render.SlotOf(c, render.IsBinary(b.Class))), th: th}}})
	}
	if len(b.Highlight) > 0 && b.HighlightName != "" {
		lg.Items = append(lg.Items, render.LegendItem{Label: b.HighlightName,
			Thumbs: []plot.Thumbnailer{barThumb{color: render.Grey, th: th, bold: true}}})
	}
	p.Add(lg)

	f := &render.Figure{W: fw, H: fh, Title: b.Name, Desc: b.Desc}
	if f.Title == "" {
		f.Title = b.Title
	}
	if f.Desc == "" {
		f.Desc = b.describe()
	}
	f.Draw = func(c draw.Canvas) {
		render.Paper(c)
		c = draw.Crop(c, th.Pt(4), -th.Pt(10), th.Pt(2), -th.Pt(4))
		base := p.Title.Padding
		for range 2 { // the legend's height depends on the data area's width
			dc := p.DataCanvas(c)
			p.Title.Padding = base + lg.Height(dc.Max.X-dc.Min.X)
		}
		p.Draw(c)
	}
	return f.WriteSVG(w)
}

func (b Bars) check() error {
	n := len(b.Values)
	switch {
	case n == 0:
		return fmt.Errorf("%w: a bar chart needs at least one value", render.ErrNoData)
	case n > maxBars:
		return fmt.Errorf("%w: %d bars; at most %d are drawn", render.ErrShape, n, maxBars)
	case b.Class != nil && len(b.Class) != n:
		return fmt.Errorf("%w: %d classes for %d values", render.ErrShape, len(b.Class), n)
	}
	if err := render.Finite(b.Values...); err != nil {
		return fmt.Errorf("bar values: %w", err)
	}
	for _, bd := range b.Bounds {
		if err := render.Finite(bd.Value); err != nil {
			return fmt.Errorf("bound %q: %w", bd.Label, err)
		}
	}
	for _, h := range b.Highlight {
		if h.Index < 0 || h.Index >= n {
			return fmt.Errorf("%w: highlight index %d, want 0…%d", render.ErrShape, h.Index, n-1)
		}
	}
	return nil
}

// yRange spans 0, the values and the bounds, with room above for the
// highlight labels and, when there are bounds, a little below, so a bound
// at 0 is not hidden by the axis.
func (b Bars) yRange() (lo, hi float64) {
	for _, v := range b.Values {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	for _, bd := range b.Bounds {
		lo, hi = math.Min(lo, bd.Value), math.Max(hi, bd.Value)
	}
	if hi == lo {
		hi = lo + 1
	}
	span := hi - lo
	if lo < 0 || len(b.Bounds) > 0 {
		lo -= 0.05 * span
	}
	return lo, hi + 0.15*span
}

func (b Bars) describe() string {
	n, nonzero := len(b.Values), 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range b.Values {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
		if v != 0 {
			nonzero++
		}
	}
	return fmt.Sprintf("A bar for each of %d points: %s from %s to %s, %d of them nonzero.",
		n, b.YLabel, coord(lo), coord(hi), nonzero)
}

// band is the grey behind a highlighted bar.
var band = color.RGBA{0xE4, 0xE4, 0xE4, 0xFF}

// barSet draws the bars, the bounds and the highlights.
type barSet struct {
	b     Bars
	slots []int
	th    render.Theme
}

func (bs *barSet) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	th := bs.th
	half := 0.4
	if len(bs.b.Values) > 60 {
		half = 0.5 // too thin for gaps: they would only alias
	}
	rect := func(i int) []vg.Point {
		x0, x1 := trX(float64(i+1)-half), trX(float64(i+1)+half)
		y0, y1 := trY(0), trY(bs.b.Values[i])
		return []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	for _, h := range bs.b.Highlight {
		mid, w := trX(float64(h.Index+1)), max(trX(1+half)-trX(1-half), th.Pt(6))/2+th.Pt(3)
		c.FillPolygon(band, []vg.Point{{X: mid - w, Y: c.Min.Y}, {X: mid + w, Y: c.Min.Y}, {X: mid + w, Y: c.Max.Y}, {X: mid - w, Y: c.Max.Y}})
	}
	onZero := false
	for i, v := range bs.b.Values {
		if v != 0 {
			c.FillPolygon(render.ClassColor(bs.slots[i]), rect(i))
		}
	}
	for _, bd := range bs.b.Bounds {
		onZero = onZero || bd.Value == 0
	}
	if !onZero { // a dashed bound at 0 is the baseline already
		c.StrokeLine2(draw.LineStyle{Color: render.Black, Width: th.Pt(0.75)}, c.Min.X, trY(0), c.Max.X, trY(0))
	}
	dashed := draw.LineStyle{Color: render.Black, Width: th.Pt(1.25), Dashes: []vg.Length{th.Pt(6), th.Pt(4)}}
	label := th.Text(11, false, draw.XRight, draw.YBottom)
	for _, bd := range bs.b.Bounds {
		y := trY(bd.Value)
		c.StrokeLine2(dashed, c.Min.X, y, c.Max.X, y)
		if bd.Label != "" {
			render.HaloText(&c, label, vg.Point{X: c.Max.X - th.Pt(4), Y: y + th.Pt(2)}, bd.Label)
		}
	}
	bold := draw.LineStyle{Color: render.Black, Width: th.Pt(2)}
	mark := th.Text(12, true, draw.XCenter, draw.YBottom)
	for _, h := range bs.b.Highlight {
		r := rect(h.Index)
		c.StrokeLines(bold, append(r, r[0]))
		if h.Label != "" {
			top := math.Max(float64(r[0].Y), float64(r[2].Y))
			render.HaloText(&c, mark, vg.Point{X: (r[0].X + r[1].X) / 2, Y: vg.Length(top) + th.Pt(3)}, h.Label)
		}
	}
}

// barThumb is a legend swatch: a small bar of a class colour, or with a
// bold outline for the highlight.
type barThumb struct {
	color color.Color
	th    render.Theme
	bold  bool
}

func (t barThumb) Thumbnail(c *draw.Canvas) {
	ctr := c.Center()
	w, h := t.th.Pt(5), min(t.th.Pt(6), (c.Max.Y-c.Min.Y)/2)
	r := []vg.Point{{X: ctr.X - w, Y: ctr.Y - h}, {X: ctr.X + w, Y: ctr.Y - h}, {X: ctr.X + w, Y: ctr.Y + h}, {X: ctr.X - w, Y: ctr.Y + h}}
	c.FillPolygon(t.color, r)
	if t.bold {
		c.StrokeLines(draw.LineStyle{Color: render.Black, Width: t.th.Pt(2)}, append(r, r[0]))
	}
}
