package chart

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/render"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Curves is a small line chart for a sweep of a hyperparameter: training
// and held-out error against γ, the polynomial degree or k, with the
// current setting marked.
type Curves struct {
	Title, XLabel, YLabel string
	LogX                  bool // a log10 x axis; every x must then be > 0
	Percent               bool // y in [0, 1], labelled as percentages
	// LogY is a log10 y axis, for a training and held-out error that
	// grows by orders of magnitude with a polynomial's degree; points with
	// y ≤ 0 cannot be drawn on it and are skipped, breaking the line.
	LogY bool
	// NoMarkers draws lines only, for a function sampled at many points
	// (a loss ℓ(r) at 200 residuals) rather than a sweep of a few settings.
	NoMarkers bool
	Series    []Curve
	// DirectLabels writes each series' name beside its line, so lines
	// told apart by dash and label need no colour to read.
	DirectLabels bool
	// Mark is the x of the current setting, drawn as a vertical line;
	// NaN for none (0 is a place on a linear axis).
	Mark float64
}

// Curve is one series of a Curves chart, drawn in the next Okabe–Ito
// colour and marker shape (blue discs, vermillion squares, bluish green
// triangles, …), dashed when Dashed, or in the dash pattern Dashes (on
// and off lengths in pt at the default size) when it is set.
type Curve struct {
	Name   string
	X, Y   []float64
	Dashed bool
	Dashes []float64
}

// DefaultCurvesHeight is CurvesSVG's default height in CSS pixels; it is
// 600 px wide.
const DefaultCurvesHeight = 300

// maxCurves is the most series a chart tells apart by colour and marker.
const maxCurves = 8

// maxCurvePoints bounds each series; past a few hundred the markers merge
// into a thick line anyway.
const maxCurvePoints = 2000

// CurvesSVG writes c as an SVG line chart, 600×300 px for a zero opt
// size: each series as a line through markers at its points (in order of
// x), a legend above, the mark as a vertical line labelled with its x,
// and a y axis from 0 (or below, for negative values) with some room
// above the largest value. A series with no points draws nothing.
//
// It returns ErrNoData for no series, ErrShape for more than 8 series or
// 2000 points in one, an X and Y of different lengths, or with LogX an
// x or a Mark ≤ 0, and ErrNotFinite for a NaN or infinite value or an
// infinite Mark, before writing anything.
func CurvesSVG(w io.Writer, c Curves, opt render.Options) error {
	f, err := c.figure(opt)
	if err != nil {
		return err
	}
	return f.WriteSVG(w)
}

// CurvesPNG writes CurvesSVG's chart as a PNG of exactly Width×Height
// pixels, for a demo whose main plot is a chart.
func CurvesPNG(w io.Writer, c Curves, opt render.Options) error {
	f, err := c.figure(opt)
	if err != nil {
		return err
	}
	return f.WritePNG(w)
}

func (c Curves) check() error {
	switch n := len(c.Series); {
	case n == 0:
		return fmt.Errorf("%w: a chart needs at least one series", render.ErrNoData)
	case n > maxCurves:
		return fmt.Errorf("%w: %d series; at most %d are told apart", render.ErrShape, n, maxCurves)
	case math.IsInf(c.Mark, 0):
		return fmt.Errorf("mark: %w", render.ErrNotFinite)
	case c.LogX && c.Mark <= 0:
		return fmt.Errorf("%w: mark at x = %v on a log axis; want x > 0, or NaN for no mark", render.ErrShape, c.Mark)
	}
	for i, s := range c.Series {
		switch {
		case len(s.X) != len(s.Y):
			return fmt.Errorf("%w: series %d (%q) has %d x and %d y", render.ErrShape, i, s.Name, len(s.X), len(s.Y))
		case len(s.X) > maxCurvePoints:
			return fmt.Errorf("%w: series %d (%q) has %d points; at most %d are drawn", render.ErrShape, i, s.Name, len(s.X), maxCurvePoints)
		}
		if err := render.Finite(slices.Concat(s.X, s.Y)...); err != nil {
			return fmt.Errorf("series %d (%q): %w", i, s.Name, err)
		}
		for _, x := range s.X {
			if c.LogX && x <= 0 {
				return fmt.Errorf("%w: series %d (%q) has x = %v on a log axis", render.ErrShape, i, s.Name, x)
			}
		}
	}
	return nil
}

// sorted returns s's points in order of x, ties in the order given.
func (s Curve) sorted() []vec {
	pts := make([]vec, len(s.X))
	for i := range s.X {
		pts[i] = vec{s.X[i], s.Y[i]}
	}
	slices.SortStableFunc(pts, func(a, b vec) int { return cmp.Compare(a.X, b.X) })
	return pts
}

// xRange spans the points and the mark, padded by 3 % of the span (on a
// log axis, of the decades) so the end markers are whole.
func (c Curves) xRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		for _, x := range s.X {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if !math.IsNaN(c.Mark) {
		lo, hi = math.Min(lo, c.Mark), math.Max(hi, c.Mark)
	}
	switch {
	case math.IsInf(lo, 1) && c.LogX:
		return 0.1, 10
	case math.IsInf(lo, 1):
		return 0, 1
	case c.LogX:
		a, b := math.Log10(lo), math.Log10(hi)
		pad := 0.03 * math.Max(b-a, 1)
		return math.Pow(10, a-pad), math.Pow(10, b+pad)
	}
	pad := 0.03 * (hi - lo)
	if pad == 0 {
		pad = math.Max(1, math.Abs(lo)/2)
	}
	return clampAxis(lo - pad), clampAxis(hi + pad)
}

// yRange spans 0 and the points, with room above the largest value for
// the mark's label. On a log axis it spans the positive points, padded
// by a fraction of the decades (and a decade each way for a single value).
func (c Curves) yRange() (lo, hi float64) {
	if c.LogY {
		return c.logYRange()
	}
	for _, s := range c.Series {
		for _, y := range s.Y {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
	}
	if hi == lo {
		hi = lo + 1
	}
	if lo < 0 {
		lo -= 0.06 * (hi - lo)
	} else {
		lo = -0.03 * hi // the markers on 0 stay whole
	}
	return lo, hi + 0.12*(hi-lo)
}

func (c Curves) figure(opt render.Options) (*render.Figure, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	fw, fh := opt.Size(render.DefaultSize, DefaultCurvesHeight)
	th := render.StripTheme(fw).ForHall(opt)

	p := plot.New()
	th.Style(p, c.XLabel, c.YLabel, 13, 12, 12)
	p.Title.Text = c.Title
	render.FitTitle(p, fw-th.Pt(14))
	p.Title.Padding = th.Pt(4)
	p.X.Min, p.X.Max = c.xRange()
	p.X.Tick.Marker = render.NiceTicks{N: 5}
	if c.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = render.LogTicks{N: 8}
	}
	p.Y.Min, p.Y.Max = c.yRange()
	p.Y.Tick.Marker = render.NiceTicks{N: 4}
	switch {
	case c.LogY:
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logYTicks{percent: c.Percent}
	case c.Percent:
		p.Y.Tick.Marker = percentTicks{render.NiceTicks{N: 4}}
	}
	cl := &curveLines{c: c, th: th}
	p.Add(cl)

	lg := &render.FlowLegend{Style: th.Text(11, false, draw.XLeft, draw.YCenter), ThumbW: th.Pt(24), Gap: th.Pt(14), Above: th.Pt(4)}
	for i, s := range c.Series {
		lg.Items = append(lg.Items, render.LegendItem{Label: s.Name, Thumbs: []plot.Thumbnailer{curveThumb{cl, i}}})
	}
	if !math.IsNaN(c.Mark) {
		lg.Items = append(lg.Items, render.LegendItem{Label: "current setting", Thumbs: []plot.Thumbnailer{curveThumb{cl, -1}}})
	}
	p.Add(lg)

	f := &render.Figure{W: fw, H: fh, Title: c.Title, Desc: c.describe()}
	if f.Title == "" {
		f.Title = strings.TrimSpace(c.YLabel + " against " + c.XLabel)
	}
	f.Draw = func(cv draw.Canvas) {
		render.Paper(cv)
		cv = draw.Crop(cv, th.Pt(4), -th.Pt(12), th.Pt(2), -th.Pt(4))
		base := p.Title.Padding
		for range 2 { // the legend's height depends on the data area's width
			dc := p.DataCanvas(cv)
			p.Title.Padding = base + lg.Height(dc.Max.X-dc.Min.X)
		}
		p.Draw(cv)
	}
	return f, nil
}

// describe is the <desc>: the axes, and each series' range and best.
func (c Curves) describe() string {
	var d strings.Builder
	scale := ""
	if c.LogX {
		scale = " (log scale)"
	}
	yscale := ""
	if c.LogY {
		yscale = " (log scale)"
	}
	fmt.Fprintf(&d, "A line chart of %s%s against %s%s.", orDefault(c.YLabel, "y"), yscale, orDefault(c.XLabel, "x"), scale)
	x := "x"
	if n := len([]rune(c.XLabel)); n > 0 && n <= 4 {
		x = c.XLabel
	}
	y := func(v float64) string {
		if c.Percent {
			return sig(100*v, 3) + "%"
		}
		return sig(v, 3)
	}
	for _, s := range c.Series {
		pts := s.sorted()
		if len(pts) == 0 {
			fmt.Fprintf(&d, " %s: no points.", orDefault(s.Name, "a series"))
			continue
		}
		low := slices.MinFunc(pts, func(a, b vec) int { return cmp.Compare(a.Y, b.Y) })
		last := pts[len(pts)-1]
		fmt.Fprintf(&d, " %s: from %s at %s = %s to %s at %s = %s, lowest %s at %s = %s.", orDefault(s.Name, "a series"),
			y(pts[0].Y), x, sig(pts[0].X, 3), y(last.Y), x, sig(last.X, 3), y(low.Y), x, sig(low.X, 3))
	}
	if !math.IsNaN(c.Mark) {
		fmt.Fprintf(&d, " A vertical line marks the current setting, %s = %s.", x, sig(c.Mark, 3))
	}
	return d.String()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// percentTicks labels a ticker's ticks of values in [0, 1] as percentages.
type percentTicks struct{ render.NiceTicks }

func (t percentTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := t.NiceTicks.Ticks(lo, hi)
	step := render.NiceStep((hi - lo) / t.N)
	decimals := int(math.Max(0, math.Ceil(-math.Log10(100*step)-1e-9)))
	for i, tk := range ts {
		if tk.Label != "" {
			l := strconv.FormatFloat(100*tk.Value, 'f', decimals, 64)
			if strings.Trim(l, "-0.") == "" {
				l = strings.TrimPrefix(l, "-")
			}
			ts[i].Label = strings.Replace(l, "-", "−", 1) + "%"
		}
	}
	return ts
}

// curveLines draws the mark and the series, each line under its markers.
type curveLines struct {
	c  Curves
	th render.Theme
}

func (cl *curveLines) style(i int) draw.LineStyle {
	sty := draw.LineStyle{Color: render.ClassColor(i), Width: cl.th.Pt(2)}
	if cl.c.Series[i].Dashed {
		sty.Dashes = []vg.Length{cl.th.Pt(6), cl.th.Pt(4)}
	}
	if d := cl.c.Series[i].Dashes; len(d) > 0 {
		sty.Dashes = make([]vg.Length, len(d))
		for k, v := range d {
			sty.Dashes[k] = cl.th.Pt(v)
		}
	}
	return sty
}

func (cl *curveLines) markStyle() draw.LineStyle {
	return draw.LineStyle{Color: render.Grey, Width: cl.th.Pt(1.5), Dashes: []vg.Length{cl.th.Pt(2), cl.th.Pt(3)}}
}

func (cl *curveLines) radius(n int) vg.Length { return cl.th.Pt(math.Max(2, 4-float64(n)/40)) }

func (cl *curveLines) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	if m := cl.c.Mark; !math.IsNaN(m) {
		x := trX(m)
		c.StrokeLine2(cl.markStyle(), x, c.Min.Y, x, c.Max.Y)
		sty := cl.th.Text(11, false, draw.XLeft, draw.YTop)
		at := vg.Point{X: x + cl.th.Pt(4), Y: c.Max.Y - cl.th.Pt(2)}
		txt := sig(m, 3)
		if n := len([]rune(cl.c.XLabel)); n > 0 && n <= 4 { // a symbol: "γ = 0.5"
			txt = cl.c.XLabel + " = " + txt
		}
		if at.X+sty.Width(txt) > c.Max.X {
			sty.XAlign, at.X = draw.XRight, x-cl.th.Pt(4)
		}
		render.HaloText(&c, sty, at, txt)
	}
	for i, s := range cl.c.Series {
		pts := s.sorted()
		r := cl.radius(len(pts))
		for _, run := range cl.c.runs(pts) {
			line := make([]vg.Point, len(run))
			for k, q := range run {
				line[k] = vg.Point{X: trX(q.X), Y: trY(q.Y)}
			}
			if len(line) > 1 {
				c.StrokeLines(cl.style(i), c.ClipLinesXY(line)...)
			}
			for _, at := range line {
				if c.Contains(at) && !cl.c.NoMarkers {
					drawMarker(&c, cl.th, i, at, r, false)
				}
			}
		}
	}
	if cl.c.DirectLabels {
		cl.labels(&c, trX, trY)
	}
}

// curveThumb is a series' legend swatch, its line through its marker, or
// (series −1) the mark's line.
type curveThumb struct {
	cl *curveLines
	i  int
}

func (t curveThumb) Thumbnail(c *draw.Canvas) {
	ctr := c.Center()
	if t.i < 0 {
		c.StrokeLine2(t.cl.markStyle(), ctr.X, c.Min.Y, ctr.X, c.Max.Y)
		return
	}
	c.StrokeLine2(t.cl.style(t.i), c.Min.X, ctr.Y, c.Max.X, ctr.Y)
	if t.cl.c.NoMarkers {
		return
	}
	drawMarker(c, t.cl.th, t.i, ctr, min(t.cl.th.Pt(4), (c.Max.Y-c.Min.Y)/2), false)
}
