package render

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/textfmt"
)

// LegendItem is one entry of a figure's legend: swatches drawn on top of
// each other, then a label. An item Hidden at this step still reserves its
// space, as wide as Room when its label can change, so the data area (and
// with it the view and the click mapping) is the same at every step: list
// every item a demo can ever show, and hide the ones it does not show now.
type LegendItem struct {
	Label  string
	Room   string // the widest label the item may have, if wider than Label
	Thumbs []plot.Thumbnailer
	Hidden bool
	// Minor marks an item the plot labels where it draws it (an arrow's
	// name, the i and j of a pair, a dimension line's value): a narrow
	// figure (NarrowBelow) leaves it out, so its legend keeps to two rows.
	Minor bool
}

// NarrowBelow is the width, in points, under which a figure is narrow:
// 560 px. Its legend drops the Minor items and spans the figure's whole
// width, not only the data area's, so the data area keeps its height.
const NarrowBelow = 420

// FlowLegend lays entries out left to right in rows, like words in a
// paragraph, in a band above the data area. gonum's own legend sits inside
// the data area with no background, where it hides points; this one is
// drawn in space reserved through the title's padding, so it never does.
type FlowLegend struct {
	Items  []LegendItem
	Style  text.Style
	ThumbW vg.Length // thumbnail width
	Gap    vg.Length // between entries in a row
	Above  vg.Length // between the legend and the data area
	// Outdent starts the rows this far left of the data area, over the
	// y axis's labels: a narrow figure's legend uses the whole width.
	Outdent vg.Length
}

func (l *FlowLegend) rowHeight() vg.Length {
	e := l.Style.FontExtents()
	return e.Ascent + e.Descent + l.Style.Font.Size*0.25
}

func (l *FlowLegend) itemWidth(label string) vg.Length {
	return l.ThumbW + l.Style.Font.Size*0.4 + l.Style.Width(label)
}

// rows breaks items into rows no wider than width; an item wider than
// width gets a row of its own. With reserve, items are measured by their
// room, for the band every step fits in.
func (l *FlowLegend) rows(items []LegendItem, width vg.Length, reserve bool) [][]LegendItem {
	var rows [][]LegendItem
	var x vg.Length
	for _, it := range items {
		w := l.itemWidth(it.Label)
		if reserve {
			w = max(w, l.itemWidth(it.Room))
		}
		if len(rows) == 0 || x+l.Gap+w > width {
			rows = append(rows, nil)
			x = -l.Gap
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], it)
		x += l.Gap + w
	}
	return rows
}

// Height is the band the legend needs above a data area of the given
// width, counting every item, shown or not; zero when it has no items.
func (l *FlowLegend) Height(width vg.Length) vg.Length {
	n := len(l.rows(l.Items, width+l.Outdent, true))
	if n == 0 {
		return 0
	}
	return vg.Length(n)*l.rowHeight() + l.Above
}

// Plot implements plot.Plotter. It draws the shown items in the band
// above c, starting from the band's top, so they stay put from one step
// to the next as far as the set of shown items allows.
func (l *FlowLegend) Plot(c draw.Canvas, _ *plot.Plot) {
	width := c.Max.X - c.Min.X
	var shown []LegendItem
	for _, it := range l.Items {
		if !it.Hidden {
			shown = append(shown, it)
		}
	}
	rh := l.rowHeight()
	y := c.Max.Y + l.Height(width) - rh
	sty := l.Style
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	for _, row := range l.rows(shown, width+l.Outdent, false) {
		x := c.Min.X - l.Outdent
		for _, it := range row {
			icon := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x, Y: y + rh*0.1},
				Max: vg.Point{X: x + l.ThumbW, Y: y + rh*0.9},
			}}
			for _, t := range it.Thumbs {
				t.Thumbnail(&icon)
			}
			c.FillText(sty, vg.Point{X: x + l.ThumbW + l.Style.Font.Size*0.4, Y: y + rh/2}, it.Label)
			x += l.itemWidth(it.Label) + l.Gap
		}
		y -= rh
	}
}

// DotThumb is the legend swatch of a data point: a filled blue dot.
type DotThumb struct{ Theme Theme }

// Thumbnail implements plot.Thumbnailer.
func (t DotThumb) Thumbnail(c *draw.Canvas) {
	c.SetColor(Blue)
	c.Fill(Circle(c.Center(), t.Theme.Pt(3.5)))
}

// NiceTicks puts a major tick every step, 1, 2 or 5 times a power of ten
// chosen so that about n steps span the range, with a minor tick halfway,
// labelled with a true minus sign (U+2212) and as many decimals as the
// step needs. With Equal set it sizes the step from the shorter axis of that plot
// and uses it on both, so that on an equal-aspect plot the ticks are as
// far apart across as up.
type NiceTicks struct {
	N       float64
	Equal   *plot.Plot
	Integer bool // counts: no tick between whole numbers
}

func (t NiceTicks) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if t.Equal != nil {
		span = math.Min(t.Equal.X.Max-t.Equal.X.Min, t.Equal.Y.Max-t.Equal.Y.Min)
	}
	step := NiceStep(span / t.N)
	if t.Integer && step < 1 {
		step = 1
	}
	if !(step > 0) || (hi-lo)/step > 100 {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	decimals := int(math.Max(0, math.Ceil(-math.Log10(step)-1e-9)))
	var ts []plot.Tick
	for i := math.Ceil(lo/step - 0.5 - 1e-9); i <= math.Floor(hi/step+1e-9); i++ {
		if v := (i - 0.5) * step; v >= lo && v <= hi && !(t.Integer && step < 2) {
			ts = append(ts, plot.Tick{Value: v})
		}
		v := i * step
		if v < lo-1e-9*step {
			continue
		}
		label := strconv.FormatFloat(v, 'f', decimals, 64)
		if strings.Trim(label, "-0.") == "" {
			label = strings.TrimPrefix(label, "-")
		}
		ts = append(ts, plot.Tick{Value: v, Label: strings.Replace(label, "-", "−", 1)})
	}
	return ts
}

// NiceStep rounds a raw step to 1, 2 or 5 times a power of ten.
func NiceStep(raw float64) float64 {
	if !(raw > 0) || math.IsInf(raw, 0) {
		return 0
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	switch r := raw / mag; {
	case r < 1.5:
		return mag
	case r < 3.5:
		return 2 * mag
	case r < 7.5:
		return 5 * mag
	}
	return 10 * mag
}

// LogTicks marks whole decades on a log axis, labelling every one or, on
// a long axis, every second, fifth, … so that about n are labelled; on an
// axis of at most three decades it adds unlabelled ticks at 2…9 times
// each, and past 40 decades it marks only the labelled ones. Labels read
// 0.01, 0.1, 1, 10, 100 near 1 and 10⁻⁵ beyond.
type LogTicks struct{ N float64 }

func (t LogTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) || math.IsInf(hi, 0) {
		return nil
	}
	a, b := math.Floor(math.Log10(lo)+1e-9), math.Ceil(math.Log10(hi)-1e-9)
	every := math.Max(1, math.Ceil((b-a)/t.N))
	var ts []plot.Tick
	for k := a; k <= b; k++ {
		v := math.Pow(10, k)
		labelled := math.Mod(k, every) == 0
		// Past 40 decades (a diverging run's history) a mark at every
		// decade would fill the axis solid: keep the labelled ones.
		if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) && (labelled || b-a <= 40) {
			tk := plot.Tick{Value: v}
			if labelled {
				tk.Label = Decade(int(k))
			}
			ts = append(ts, tk)
		}
		if b-a > 3 {
			continue
		}
		for m := 2.0; m <= 9; m++ {
			if u := m * v; u > lo && u < hi {
				ts = append(ts, plot.Tick{Value: u})
			}
		}
	}
	return ts
}

// Decade labels 10^k: in plain digits for −2 ≤ k ≤ 3, otherwise as a
// power with superscript digits and a true minus sign.
func Decade(k int) string {
	if k >= -2 && k <= 3 {
		return strconv.FormatFloat(math.Pow(10, float64(k)), 'f', max(0, -k), 64)
	}
	return "10" + textfmt.Sup(k)
}

// Unlabelled keeps a ticker's marks but drops their labels: the upper
// panels share the bottom panel's t axis.
type Unlabelled struct{ plot.Ticker }

func (u Unlabelled) Ticks(lo, hi float64) []plot.Tick {
	ts := u.Ticker.Ticks(lo, hi)
	out := make([]plot.Tick, 0, len(ts))
	for _, t := range ts {
		if t.Label != "" {
			out = append(out, plot.Tick{Value: t.Value})
		}
	}
	return out
}

// IndexTicks labels the n items along an axis of bars or matrix cells:
// item k (0-based) sits at at0 + k·step. With names every item is
// labelled x₁, x₂, …; otherwise about five are numbered 1-based at round
// numbers (1, 50, 100, …), with an unlabelled tick at every item while
// there are few enough to tell apart.
type IndexTicks struct {
	N         int
	At0, Step float64
	Names     bool
}

func (t IndexTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	if t.Names {
		for k := range t.N {
			ts = append(ts, plot.Tick{Value: t.At0 + float64(k)*t.Step, Label: PointName(k)})
		}
		return ts
	}
	every := math.Max(1, NiceStep(float64(t.N)/5))
	for k := range t.N {
		num := k + 1
		tk := plot.Tick{Value: t.At0 + float64(k)*t.Step}
		switch {
		case k == 0 || math.Mod(float64(num), every) == 0:
			tk.Label = strconv.Itoa(num)
		case t.N > 60:
			continue
		}
		ts = append(ts, tk)
	}
	return ts
}
