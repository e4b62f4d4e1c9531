package graphs

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// LossChart is a chart of classification losses as functions of the
// score z = y·ŷ, for the soft-margin lesson (why the hinge) and a gallery
// of losses.
type LossChart struct {
	// Losses are drawn in this order in the legend: LossZeroOne,
	// LossPerceptron, LossHinge, LossLogistic, LossSquared; nil means all
	// five.
	Losses []string
	// Margins are the training points' scores yᵢf(xᵢ), shown as a rug of
	// ticks on the z axis, each with its hinge loss ξᵢ as a dot on the
	// hinge curve when the hinge is drawn. Scores beyond the axis are
	// counted at its ends.
	Margins []float64
	// Title states what is shown; Name is the SVG <title> (Title's first
	// line when empty); Desc, when set, goes before the chart's own
	// description in the <desc>.
	Title, Name, Desc string
}

// Losses a LossChart draws.
const (
	LossZeroOne    = "zero-one"   // 1 if z ≤ 0, else 0
	LossPerceptron = "perceptron" // max(0, −z)
	LossHinge      = "hinge"      // max(0, 1 − z)
	LossLogistic   = "logistic"   // log₂(1 + e^−z), through (0, 1)
	LossSquared    = "squared"    // (1 − z)²
)

// DefaultLossHeight is the default height of a loss chart in CSS pixels;
// it is 600 px wide.
const DefaultLossHeight = 440

// The chart's axes: z from −3 to 3, and the losses up to 4, clipped.
const (
	lossZMin, lossZMax = -3, 3
	lossYMax           = 4
)

// LossChartSVG writes c as an SVG chart, 600×440 px for a zero opt size:
// each loss against z from −3 to 3 (clipped at 4), the zero-one loss's
// jump at 0 dotted, a short tangent at z = 0 for each convex loss that
// has a derivative there (hinge −1, logistic −1/(2 ln 2) ≈ −0.72,
// squared −2) and a ring on the perceptron loss's kink at 0, which has
// none; then the Margins' rug.
//
// It returns ErrShape for an unknown or repeated loss and ErrNotFinite
// for a NaN or infinite margin, before writing anything.
func LossChartSVG(w io.Writer, c LossChart, opt render.Options) error {
	f, err := c.figure(opt)
	if err != nil {
		return err
	}
	return f.WriteSVG(w)
}

// LossChartPNG writes LossChartSVG's chart as a PNG of exactly
// Width×Height pixels.
func LossChartPNG(w io.Writer, c LossChart, opt render.Options) error {
	f, err := c.figure(opt)
	if err != nil {
		return err
	}
	return f.WritePNG(w)
}

// styles validates the chart and returns the styles of its losses in
// the order given.
func (c LossChart) styles() ([]lossStyle, error) {
	all := lossStyles()
	if c.Losses == nil {
		return all, nil
	}
	var out []lossStyle
	for _, name := range c.Losses {
		k := slices.IndexFunc(all, func(s lossStyle) bool { return s.name == name })
		if k < 0 {
			return nil, fmt.Errorf("%w: unknown loss %q; want zero-one, perceptron, hinge, logistic or squared", render.ErrShape, name)
		}
		if slices.ContainsFunc(out, func(s lossStyle) bool { return s.name == name }) {
			return nil, fmt.Errorf("%w: loss %q given twice", render.ErrShape, name)
		}
		out = append(out, all[k])
	}
	return out, nil
}

func (c LossChart) figure(opt render.Options) (*render.Figure, error) {
	ls, err := c.styles()
	if err != nil {
		return nil, err
	}
	if err := render.Finite(c.Margins...); err != nil {
		return nil, fmt.Errorf("margins: %w", err)
	}
	fw, fh := opt.Size(render.DefaultSize, DefaultLossHeight)
	// Type as on a 600 px data plot at the default size, growing with the
	// smaller of width and height in proportion.
	th := render.NewTheme(fw, fh*render.DefaultSize/DefaultLossHeight).ForHall(opt)

	p := plot.New()
	th.Style(p, "score z = y·ŷ", "loss ℓ(z)", 14, 13, 12)
	p.Title.Text = c.Title
	if th.Compact() {
		p.Title.Text, _, _ = strings.Cut(p.Title.Text, "\n")
	}
	render.FitTitle(p, fw-th.Pt(14))
	p.X.Min, p.X.Max = lossZMin, lossZMax
	// A little below 0, so the losses lying on 0 show above the axis.
	p.Y.Min, p.Y.Max = -0.12, lossYMax
	p.X.Tick.Marker = render.NiceTicks{N: 6, Integer: true}
	p.Y.Tick.Marker = render.NiceTicks{N: 4, Integer: true}
	lc := &lossCurves{styles: ls, margins: c.Margins, th: th}
	p.Add(lc)

	lg := &render.FlowLegend{Style: th.Text(12, false, draw.XLeft, draw.YCenter), ThumbW: th.Pt(24), Gap: th.Pt(14), Above: th.Pt(6)}
	for _, s := range ls {
		sty := s.line(th)
		lg.Items = append(lg.Items, render.LegendItem{Label: s.label, Thumbs: []plot.Thumbnailer{(*render.LineThumb)(&sty)}})
	}
	if lc.tangents() > 0 {
		tan := lc.tangentStyle()
		lg.Items = append(lg.Items, render.LegendItem{Label: "tangent at z = 0", Thumbs: []plot.Thumbnailer{(*render.LineThumb)(&tan)}})
	}
	if len(c.Margins) > 0 {
		lg.Items = append(lg.Items, render.LegendItem{Label: "training points' yᵢf(xᵢ)", Thumbs: []plot.Thumbnailer{rugThumb{th}}})
		if lc.has(LossHinge) {
			lg.Items = append(lg.Items, render.LegendItem{Label: "their hinge loss ξᵢ", Thumbs: []plot.Thumbnailer{render.DotThumb{th}}})
		}
	}
	if th.Compact() {
		lg.Items = nil
	}
	p.Add(lg)

	f := &render.Figure{W: fw, H: fh, Title: c.Name, Desc: c.describe(ls)}
	if f.Title == "" {
		f.Title, _, _ = strings.Cut(c.Title, "\n")
	}
	if f.Title == "" {
		f.Title = "Classification losses against the score y·ŷ"
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

// describe is the chart's <desc>.
func (c LossChart) describe(ls []lossStyle) string {
	var d strings.Builder
	if c.Desc != "" {
		d.WriteString(strings.TrimSpace(c.Desc) + " ")
	}
	var names []string
	for _, s := range ls {
		names = append(names, s.name)
	}
	fmt.Fprintf(&d, "Classification losses against the score z = y·ŷ from −3 to 3, clipped at 4: %s.", strings.Join(names, ", "))
	for _, s := range ls {
		switch s.name {
		case LossZeroOne:
			d.WriteString(" The zero-one loss is 1 for z ≤ 0 and 0 after, jumping at 0.")
		case LossPerceptron:
			d.WriteString(" The perceptron loss max(0, −z) has a kink at 0, where it has no derivative, so it is not classification calibrated.")
		case LossHinge:
			d.WriteString(" The hinge loss max(0, 1 − z) has derivative −1 at 0 and is 0 from z = 1 on.")
		case LossLogistic:
			d.WriteString(" The logistic loss log₂(1 + e^−z), in base 2 so that it passes through (0, 1), has derivative −1/(2 ln 2) ≈ −0.72 at 0.")
		case LossSquared:
			d.WriteString(" The squared loss (1 − z)² has derivative −2 at 0 and grows again past z = 1.")
		}
	}
	if n := len(c.Margins); n > 0 {
		viol, sum := 0, 0.0
		for _, m := range c.Margins {
			if m < 1 {
				viol++
				sum += 1 - m
			}
		}
		fmt.Fprintf(&d, " A rug marks the scores of %s; %d of them are below 1, with total hinge loss %s.",
			plural(n, "training point", "training points"), viol, textfmt.SigN(sum, 3))
	}
	return d.String()
}

// lossCurves draws the losses, the tangents at 0 and the rug.
type lossCurves struct {
	styles  []lossStyle
	margins []float64
	th      render.Theme
}

func (l *lossCurves) has(name string) bool {
	return slices.ContainsFunc(l.styles, func(s lossStyle) bool { return s.name == name })
}

func (l *lossCurves) tangents() int {
	n := 0
	for _, s := range l.styles {
		if !math.IsNaN(s.d0) {
			n++
		}
	}
	return n
}

func (l *lossCurves) tangentStyle() draw.LineStyle {
	return draw.LineStyle{Color: render.Black, Width: l.th.Pt(1.25)}
}

// lossSamples is how many pieces a smooth loss is drawn with.
const lossSamples = 240

func (l *lossCurves) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	at := func(z, y float64) vg.Point { return vg.Point{X: trX(z), Y: trY(y)} }
	th := l.th
	// Light guides at the decision threshold z = 0 and the margin z = 1.
	guide := draw.LineStyle{Color: color.RGBA{0xD0, 0xD0, 0xD0, 0xFF}, Width: th.Pt(0.75)}
	for _, z := range []float64{0, 1} {
		c.StrokeLine2(guide, trX(z), c.Min.Y, trX(z), c.Max.Y)
	}
	for _, s := range l.styles {
		sty := s.line(th)
		if s.name == LossZeroOne {
			c.StrokeLines(sty, []vg.Point{at(lossZMin, 1), at(0, 1)}, []vg.Point{at(0, 0), at(lossZMax, 0)})
			dotted := draw.LineStyle{Color: s.color, Width: th.Pt(1.5), Dashes: []vg.Length{th.Pt(1.5), th.Pt(2.5)}}
			c.StrokeLine2(dotted, trX(0), trY(0), trX(0), trY(1))
			continue
		}
		var line []vg.Point
		if s.kinks != nil { // piecewise linear: exact with its kinks
			for _, z := range append(append([]float64{lossZMin}, s.kinks...), lossZMax) {
				line = append(line, at(z, s.f(z)))
			}
		} else {
			for k := 0; k <= lossSamples; k++ {
				z := lossZMin + (lossZMax-lossZMin)*float64(k)/lossSamples
				line = append(line, at(z, math.Min(s.f(z), 2*lossYMax)))
			}
		}
		c.StrokeLines(sty, c.ClipLinesXY(line)...)
	}
	l.marks(&c, at)
	l.rug(&c, p, at)
}

// marks draws the tangents at z = 0, the zero-one loss's value there and
// the perceptron loss's kink.
func (l *lossCurves) marks(c *draw.Canvas, at func(z, y float64) vg.Point) {
	th := l.th
	const half = 0.9 // the tangents run over z in [−half, half]
	for _, s := range l.styles {
		if math.IsNaN(s.d0) {
			continue
		}
		y0 := s.f(0)
		c.StrokeLines(l.tangentStyle(), c.ClipLinesXY([]vg.Point{at(-half, y0-half*s.d0), at(half, y0+half*s.d0)})...)
		// The tangents are all black: each is named, with its slope, at its
		// left end, so none is told by its place alone.
		if !th.Compact() {
			name, _, _ := strings.Cut(s.label, " ")
			end := at(-half, y0+half*-s.d0)
			render.HaloText(c, th.Text(10, false, draw.XRight, draw.YCenter), vg.Point{X: end.X - th.Pt(3), Y: end.Y}, name+" slope "+textfmt.SigN(s.d0, 2))
		}
	}
	for _, s := range l.styles {
		switch s.name {
		case LossZeroOne:
			c.SetColor(render.Black)
			c.Fill(render.Circle(at(0, 1), th.Pt(3.5)))
			hole := at(0, 0)
			c.SetColor(render.White)
			c.Fill(render.Circle(hole, th.Pt(3.5)))
			c.SetLineStyle(draw.LineStyle{Color: render.Black, Width: th.Pt(1.5)})
			c.Stroke(render.Circle(hole, th.Pt(3.5)))
		case LossPerceptron:
			render.StrokeCircle(c, at(0, 0), th.Pt(7), draw.LineStyle{Color: render.Darker(render.Vermillion), Width: th.Pt(1.5)})
		}
	}
	if l.tangents() > 0 {
		c.SetColor(render.Black)
		c.Fill(render.Circle(at(0, 1), th.Pt(3.5)))
	}
}

// rug draws a tick on the z axis for each margin in view, its hinge loss
// as a dot on the hinge, and the number of margins beyond each end.
func (l *lossCurves) rug(c *draw.Canvas, p *plot.Plot, at func(z, y float64) vg.Point) {
	if len(l.margins) == 0 {
		return
	}
	th := l.th
	tick := draw.LineStyle{Color: color.RGBA{0x30, 0x30, 0x30, 0xFF}, Width: th.Pt(1)}
	// The ticks, and the dots, are one path each: a few hundred points cost
	// one style attribute.
	var left, right int
	var ticks, dots vg.Path
	r := th.Pt(max(2, 3.5-float64(len(l.margins))/100))
	for _, m := range l.margins {
		switch {
		case m < lossZMin:
			left++
		case m > lossZMax:
			right++
		default:
			x := at(m, 0).X
			ticks.Move(vg.Point{X: x, Y: c.Min.Y})
			ticks.Line(vg.Point{X: x, Y: c.Min.Y + th.Pt(9)})
			dots = append(dots, render.Circle(at(m, math.Max(0, 1-m)), r)...)
		}
	}
	if len(ticks) > 0 {
		c.SetLineStyle(tick)
		c.Stroke(ticks)
	}
	if len(dots) > 0 && l.has(LossHinge) {
		c.SetColor(render.Blue)
		c.Fill(dots)
		c.SetLineStyle(draw.LineStyle{Color: render.White, Width: th.Pt(0.75)})
		c.Stroke(dots)
	}
	sty := th.Text(11, false, draw.XLeft, draw.YBottom)
	if left > 0 {
		render.HaloText(c, sty, vg.Point{X: c.Min.X + th.Pt(3), Y: c.Min.Y + th.Pt(11)}, fmt.Sprintf("← %d", left))
	}
	if right > 0 {
		sty.XAlign = draw.XRight
		render.HaloText(c, sty, vg.Point{X: c.Max.X - th.Pt(3), Y: c.Min.Y + th.Pt(11)}, fmt.Sprintf("%d →", right))
	}
}

// rugThumb and dotThumb are the legend swatches of the rug and its dots.
type rugThumb struct{ th render.Theme }

func (t rugThumb) Thumbnail(c *draw.Canvas) {
	sty := draw.LineStyle{Color: color.RGBA{0x30, 0x30, 0x30, 0xFF}, Width: t.th.Pt(1)}
	for _, f := range []float64{0.2, 0.45, 0.6, 0.85} {
		x := c.Min.X + vg.Length(f)*(c.Max.X-c.Min.X)
		c.StrokeLine2(sty, x, c.Min.Y, x, c.Max.Y)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
