package render

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Scaler is implemented by plotters and legend swatches whose lengths
// (line widths, dashes, marker radii, label type) are given for a figure
// of the default size. A DataFigure draws scaled copies, by the factor
// its type grows or shrinks by, so a 1200 px download has lines and
// points in proportion to its text instead of hairlines, and a 400 px
// figure is not all ink. A plotter that does not implement it is drawn as
// given. Scaled returns the copy (a plot.Plotter or plot.Thumbnailer like
// its receiver) and never changes its receiver, so a figure drawn twice
// is drawn the same.
type Scaler interface {
	Scaled(s float64) any
}

// scaleLayers returns layers and legend with every Scaler plotter and
// swatch replaced by its copy scaled by s; the rest are kept as given.
// s = 1 returns them unchanged.
func scaleLayers(layers []plot.Plotter, legend []LegendItem, s float64) ([]plot.Plotter, []LegendItem) {
	if s == 1 {
		return layers, legend
	}
	ls := make([]plot.Plotter, len(layers))
	for i, l := range layers {
		ls[i] = l
		if sc, ok := l.(Scaler); ok {
			if q, ok := sc.Scaled(s).(plot.Plotter); ok {
				ls[i] = q
			}
		}
	}
	items := make([]LegendItem, len(legend))
	for i, it := range legend {
		it.Thumbs = append([]plot.Thumbnailer(nil), it.Thumbs...)
		for j, t := range it.Thumbs {
			if sc, ok := t.(Scaler); ok {
				if q, ok := sc.Scaled(s).(plot.Thumbnailer); ok {
					it.Thumbs[j] = q
				}
			}
		}
		items[i] = it
	}
	return ls, items
}

// ScaleLine returns l with its width and dashes scaled by s; the dash
// slice is copied, never changed in place.
func ScaleLine(l draw.LineStyle, s float64) draw.LineStyle {
	l.Width = vg.Length(s) * l.Width
	l.DashOffs = vg.Length(s) * l.DashOffs
	if l.Dashes != nil {
		d := make([]vg.Length, len(l.Dashes))
		for i, v := range l.Dashes {
			d[i] = vg.Length(s) * v
		}
		l.Dashes = d
	}
	return l
}

func (pa *Path) Scaled(s float64) any {
	q := *pa
	q.LineStyle = ScaleLine(pa.LineStyle, s)
	q.Dot, q.Radius = vg.Length(s)*pa.Dot, vg.Length(s)*pa.Radius
	return &q
}

func (t pathThumb) Scaled(s float64) any { return pathThumb{t.pa.Scaled(s).(*Path), t.current} }

func (l *Boundary) Scaled(s float64) any {
	q := *l
	q.LineStyle = ScaleLine(l.LineStyle, s)
	return &q
}

func (m *MarginBand) Scaled(s float64) any {
	q := *m
	q.LineStyle = ScaleLine(m.LineStyle, s)
	return &q
}

func (a *Arrow) Scaled(s float64) any {
	q := *a
	q.LineStyle = ScaleLine(a.LineStyle, s)
	q.Head = vg.Length(s) * a.Head
	q.LabelStyle.Font.Size = vg.Length(s) * a.LabelStyle.Font.Size
	return &q
}

func (ps *ClassPoints) Scaled(s float64) any {
	q := *ps // the point slices are shared: nothing writes them
	q.Radius = vg.Length(s) * ps.Radius
	q.Edge, q.BoldEdge = ScaleLine(ps.Edge, s), ScaleLine(ps.BoldEdge, s)
	return &q
}

func (t ClassThumb) Scaled(s float64) any {
	t.Points = t.Points.Scaled(s).(*ClassPoints)
	return t
}

func (t boldThumb) Scaled(s float64) any { return boldThumb{t.ps.Scaled(s).(*ClassPoints)} }

func (l *LineThumb) Scaled(s float64) any {
	q := LineThumb(ScaleLine(draw.LineStyle(*l), s))
	return &q
}
