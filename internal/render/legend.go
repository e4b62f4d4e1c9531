package render

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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
}

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
	n := len(l.rows(l.Items, width, true))
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
	for _, row := range l.rows(shown, width, false) {
		x := c.Min.X
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
