package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// DataFigure is a plot of the data plane x₁, x₂ in the house style, for
// any demo: one data unit is as long across as up (so a normal vector
// looks normal and a margin of 2/‖w‖ looks it), the legend sits in a band
// above the data area where it cannot hide data, the type and the
// package's plotters grow with the figure, and the SVG carries a <title>
// and <desc>. The perceptron's plot is one; an SVM's, a kernel SVM's (a
// Field), gradient descent's (a Path over a Field) and a regression line's
// are others.
//
// The view depends on View and the figure size only, never on Layers, so
// a demo that keeps View fixed while stepping gets the same axes, and the
// same Frame for mapping clicks, at every step. Keep the Legend's items
// the same too, hiding those not shown now (LegendItem.Hidden), and the
// title's line count: both size the band above the data area.
type DataFigure struct {
	// Title states the state ("step 5 · epoch 2 · 3 mistakes"); a second
	// line, after "\n", gives detail and is dropped on a figure under
	// 400 px. It should fit the figure's width: it is not shrunk, so the
	// data area does not move when it grows by a digit.
	Title string
	// Name is the SVG <title>, a short accessible name; Title's first line
	// when empty. Desc is the SVG <desc>, what the figure shows in words;
	// when empty a plain one is made from the axes, view and legend.
	Name, Desc string
	// XLabel and YLabel name the axes; "x₁" and "x₂" when empty.
	XLabel, YLabel string
	// View is the part of the plane to show: DataView(x) for a data set,
	// or a fixed box for an objective. The figure widens it about its
	// centre, across or up, to the equal aspect of its data area; Frame
	// reports the view drawn.
	View View
	// Layers are drawn in order, back to front: a Field or Regions first,
	// then lines, then points and marks. Their lengths are read as at the
	// default 600 px size, and the plotters that implement Scaler (the
	// core's and its subpackages') are scaled with the figure.
	Layers []plot.Plotter
	// Legend lists entries left to right in rows above the data area; it
	// is left out under 400 px, where the <desc> and the page explain.
	Legend []LegendItem
	// Prescaled says the layers and legend are built at the theme of
	// the figure's size already (NewTheme of the Options' size), as the
	// perceptron's scene is, so the figure draws them as given instead of
	// scaling them again.
	Prescaled bool
}

// WriteSVG writes the figure at opt's size (0 means 600×600 px) as a
// standalone SVG file, with an XML declaration and <title>/<desc>; use
// InlineSVG to put it inside an HTML page. It returns where the SVG puts
// the data area and the data it shows, for mapping clicks to data.
//
// It returns ErrNotFinite for a view with a NaN or infinite bound and
// ErrShape for an empty view, a nil layer or a nil legend swatch, before
// writing anything.
func (f DataFigure) WriteSVG(w io.Writer, opt Options) (Frame, error) {
	fig, err := f.build(opt)
	if err != nil {
		return Frame{}, err
	}
	return fig.frame(), fig.WriteSVG(w)
}

// WritePNG writes the figure as a PNG of exactly Width×Height pixels
// (96 dpi), for slides and downloads. It fails as WriteSVG does.
func (f DataFigure) WritePNG(w io.Writer, opt Options) error {
	fig, err := f.build(opt)
	if err != nil {
		return err
	}
	return fig.WritePNG(w)
}

// Write writes the figure as PNG when png is set and as SVG otherwise,
// and returns its Frame either way (in the SVG's units, points): the
// signature of a lesson demo's drawer, so a demo can hand it over as is.
func (f DataFigure) Write(w io.Writer, png bool, opt Options) (Frame, error) {
	if !png {
		return f.WriteSVG(w, opt)
	}
	fig, err := f.build(opt)
	if err != nil {
		return Frame{}, err
	}
	return fig.frame(), fig.WritePNG(w)
}

func (f DataFigure) check() error {
	v := f.View
	if err := Finite(v.XMin, v.XMax, v.YMin, v.YMax); err != nil {
		return fmt.Errorf("view: %w", err)
	}
	if !(v.XMax > v.XMin && v.YMax > v.YMin) {
		return fmt.Errorf("%w: view %+v is empty", ErrShape, v)
	}
	for i, l := range f.Layers {
		if l == nil {
			return fmt.Errorf("%w: layer %d is nil", ErrShape, i)
		}
	}
	for _, it := range f.Legend {
		for _, t := range it.Thumbs {
			if t == nil {
				return fmt.Errorf("%w: legend item %q has a nil swatch", ErrShape, it.Label)
			}
		}
	}
	return nil
}

// build composes the plot and lays it out for opt's size, with the layers
// and swatches scaled with the type unless they are Prescaled.
func (f DataFigure) build(opt Options) (*Figure, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	w, h := opt.Size(DefaultSize, DefaultSize)
	th := NewTheme(w, h).ForHall(opt)
	xl, yl := f.XLabel, f.YLabel
	if xl == "" {
		xl = "x₁"
	}
	if yl == "" {
		yl = "x₂"
	}

	p := plot.New()
	th.Style(p, xl, yl, 14, 14, 12)
	p.X.Tick.Marker = NiceTicks{N: 3, Equal: p}
	p.Y.Tick.Marker = NiceTicks{N: 3, Equal: p}
	p.Title.Text = f.Title
	if th.compact {
		p.Title.Text, _, _ = strings.Cut(p.Title.Text, "\n")
	}
	if opt.Hall {
		// The hall type's title may be wider than the figure: shrink it
		// to fit rather than cut it off (the presenter view maps clicks
		// through the Frame of this very drawing, so the data area may
		// move by a hair from one step to the next).
		FitTitle(p, w-rightPad(w))
	}
	layers, legend := f.Layers, f.Legend
	if !f.Prescaled {
		layers, legend = scaleLayers(layers, legend, th.scale)
	}
	p.Add(layers...)
	p.Add(Margins{Right: th.Pt(12), Top: th.Pt(4)})

	fig := &Figure{W: w, H: h, p: p, Draw: plotDrawer(p, w), Title: f.name(), Desc: f.Desc}
	if fig.Desc == "" {
		fig.Desc = f.describe(xl, yl)
	}
	base := p.Title.Padding
	var reserve func(vg.Length) vg.Length
	// Below about 400 px there is no room for a legend worth reading; the
	// <desc> and the page still say what is drawn.
	if !th.compact && len(legend) > 0 {
		lg := &FlowLegend{
			Items:  legend,
			Style:  th.Text(12, false, draw.XLeft, draw.YCenter),
			ThumbW: th.Pt(20),
			Gap:    th.Pt(12),
			Above:  th.Pt(8),
		}
		if w < NarrowBelow || opt.Hall {
			// Two rows at most where there is room for two: the items the
			// plot labels itself go, and the rows take the y axis's width.
			lg.Items = slices.DeleteFunc(slices.Clone(legend), func(it LegendItem) bool { return it.Minor })
			lg.Outdent = th.Pt(34)
			lg.Gap = th.Pt(9)
			lg.ThumbW = th.Pt(16)
		}
		p.Add(lg)
		reserve = func(width vg.Length) vg.Length { return base + lg.Height(width) }
	}
	fig.view = settle(p, f.View, fig.area(), reserve)
	return fig, nil
}

func (f DataFigure) name() string {
	if f.Name != "" {
		return f.Name
	}
	if first, _, _ := strings.Cut(f.Title, "\n"); strings.TrimSpace(first) != "" {
		return first
	}
	return "Plot of the data plane"
}

// describe is the <desc> of a figure that brings none: the axes, the
// view and what the legend shows, so the text alternative is never empty.
func (f DataFigure) describe(xl, yl string) string {
	v := f.View
	var b strings.Builder
	fmt.Fprintf(&b, "A plot of %s (across, %s to %s) and %s (up, %s to %s).",
		xl, coord(v.XMin), coord(v.XMax), yl, coord(v.YMin), coord(v.YMax))
	var shown []string
	for _, it := range f.Legend {
		if !it.Hidden && it.Label != "" {
			shown = append(shown, it.Label)
		}
	}
	if len(shown) > 0 {
		fmt.Fprintf(&b, " It shows %s.", strings.Join(shown, "; "))
	}
	return b.String()
}
