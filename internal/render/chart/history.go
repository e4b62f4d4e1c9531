package chart

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"

	"github.com/margin-edu/margin/internal/render"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one recorded scalar of a run, sampled at iterations T: the
// mistakes so far, a training error, a duality gap, an objective value.
// A demo records it while stepping, so the chart never needs old states.
type Series struct {
	Label   string    // the panel's y-axis label: "mistakes", "error %", "duality gap"
	T, Y    []float64 // samples; T ascending (non-decreasing), the iteration of each sample
	Integer bool      // whole-number y ticks, for counts
	Log     bool      // log10 y axis, for a gap closing; non-positive values are skipped
	Lines   bool      // join samples with straight lines instead of a post-step curve
	// Compare, when set, is a second curve in the same panel, drawn
	// dashed in grey and named in a small legend with Label beside it: the
	// primal against the dual, an objective against its optimum. It obeys
	// the same rules as the series (its Label names it; Integer and Log
	// are the panel's); its own Compare is ignored.
	Compare *Series
}

// History is a chart of a run so far: one panel per series, stacked, over
// a shared iteration axis that ends at Now.
type History struct {
	Title  string   // the top panel's title, stating the state: "after step 5: 3 mistakes · …"
	Name   string   // the SVG <title>, a short accessible name; Title when empty
	Desc   string   // the SVG <desc>: what the chart shows, in words
	XLabel string   // the shared axis's label: "iteration t"
	Now    float64  // the current iteration: the right end of the axis, and a dot on each curve
	Period float64  // faint vertical lines every Period (epoch ends) while Now/Period ≤ 40; 0 for none
	Series []Series // 1 to 3 panels, top to bottom, in blue, vermillion, bluish green
}

// maxHistorySamples bounds the points drawn per series: past it a series
// is thinned to this many evenly spaced samples (always keeping both
// ends), so a long run costs no more to draw than a short one, and the
// same run always gives the same bytes.
const maxHistorySamples = 4000

// maxPanels is how many panels a history chart stacks before each becomes
// too short to read.
const maxPanels = 3

// historyHeight is the default height in CSS pixels of a chart of n
// panels: DefaultHistoryHeight for two, about 80 pt a panel.
func historyHeight(n int) int { return [...]int{1: 180, 2: render.DefaultHistoryHeight, 3: 360}[n] }

// HistorySVG writes h as an SVG chart: a panel per series, sharing the
// iteration axis from 0 (or the first T, if negative) to Now, labelled on
// the bottom panel only. A post-step curve (the default) holds each value
// until the next sample, so it runs on to Now; Lines joins the samples
// directly, for values that change every step. A dot marks each curve's
// last sample. A zero opt size means 600 px wide and 180, 260 or 360 px
// tall for one, two or three panels.
//
// An empty series draws an empty panel. It returns ErrNoData for no
// series, ErrShape for more than three, a negative Period or a series
// whose T and Y differ in length or whose T decreases, and ErrNotFinite
// for NaN or infinite values (also in Now or Period), before writing
// anything.
func HistorySVG(w io.Writer, h History, opt render.Options) error {
	panels, err := h.panels()
	if err != nil {
		return err
	}
	fw, fh := opt.Size(render.DefaultSize, historyHeight(len(h.Series)))
	th := render.StripTheme(fw).ForHall(opt) // the chart is meant to be short

	xmin, xmax, whole := h.tRange(panels)
	plots := make([][]*plot.Plot, len(panels))
	for i, xy := range panels {
		s := h.Series[i]
		p := historyPanel(th, xy, render.ClassColor(i), s, h.Period, h.Now, len(panels))
		p.X.Min, p.X.Max = xmin, xmax
		// When t counts iterations, no ticks between them.
		p.X.Tick.Marker = render.Unlabelled{Ticker: render.NiceTicks{N: 5, Integer: whole}}
		plots[i] = []*plot.Plot{p}
	}
	top, bottom := plots[0][0], plots[len(plots)-1][0]
	top.Title.Text = h.Title
	render.FitTitle(top, fw-th.Pt(14))
	bottom.X.Tick.Marker = render.NiceTicks{N: 5, Integer: whole}
	bottom.X.Label.Text = h.XLabel

	name := h.Name
	if name == "" {
		name = h.Title
	}
	f := &render.Figure{W: fw, H: fh, Title: name, Desc: h.Desc}
	f.Draw = func(c draw.Canvas) {
		tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: th.Pt(6), PadTop: th.Pt(4), PadBottom: th.Pt(2),
			PadLeft: th.Pt(4), PadRight: th.Pt(10)}
		cs := plot.Align(plots, tiles, c)
		if fitLabels(plots, cs) {
			cs = plot.Align(plots, tiles, c)
		}
		for i := range plots {
			plots[i][0].Draw(cs[i][0])
		}
	}
	return f.WriteSVG(w)
}

// panelXYs is what one panel draws: its series and the comparison curve
// (nil when there is none).
type panelXYs struct{ main, compare plotter.XYs }

// panels validates h and returns the points each panel draws.
func (h History) panels() ([]panelXYs, error) {
	switch n := len(h.Series); {
	case n == 0:
		return nil, fmt.Errorf("%w: a history needs at least one series", render.ErrNoData)
	case n > maxPanels:
		return nil, fmt.Errorf("%w: %d series; a history stacks at most %d panels", render.ErrShape, n, maxPanels)
	}
	if err := render.Finite(h.Now, h.Period); err != nil {
		return nil, fmt.Errorf("history Now or Period: %w", err)
	}
	if h.Period < 0 {
		return nil, fmt.Errorf("%w: negative Period %v", render.ErrShape, h.Period)
	}
	out := make([]panelXYs, len(h.Series))
	for i, s := range h.Series {
		xy, err := s.points(h.Now)
		if err != nil {
			return nil, fmt.Errorf("series %d (%q): %w", i, s.Label, err)
		}
		out[i].main = xy
		if c := s.Compare; c != nil {
			cs := Series{Label: c.Label, T: c.T, Y: c.Y, Log: s.Log, Lines: c.Lines}
			if out[i].compare, err = cs.points(h.Now); err != nil {
				return nil, fmt.Errorf("series %d (%q), comparison %q: %w", i, s.Label, c.Label, err)
			}
		}
	}
	return out, nil
}

// points validates s and returns what its panel draws: the samples (the
// positive ones, on a log axis), a post-step curve reduced to its steps
// and run on to now, thinned to maxHistorySamples.
func (s Series) points(now float64) (plotter.XYs, error) {
	if len(s.T) != len(s.Y) {
		return nil, fmt.Errorf("%w: %d values of T but %d of Y", render.ErrShape, len(s.T), len(s.Y))
	}
	xy := make(plotter.XYs, 0, len(s.T))
	for i, t := range s.T {
		if err := render.Finite(t, s.Y[i]); err != nil {
			return nil, fmt.Errorf("sample %d: %w", i, err)
		}
		if i > 0 && t < s.T[i-1] {
			return nil, fmt.Errorf("%w: T decreases at sample %d (%v after %v)", render.ErrShape, i, t, s.T[i-1])
		}
		if s.Log && s.Y[i] <= 0 {
			continue
		}
		xy = append(xy, plotter.XY{X: t, Y: s.Y[i]})
	}
	if !s.Lines {
		xy = steps(xy)
	}
	if len(xy) > maxHistorySamples {
		idx := render.SampleIndices(len(xy), maxHistorySamples)
		thin := make(plotter.XYs, len(idx))
		for j, i := range idx {
			thin[j] = xy[i]
		}
		xy = thin
	}
	if n := len(xy); !s.Lines && n > 0 && xy[n-1].X < now {
		xy = append(xy, plotter.XY{X: now, Y: xy[n-1].Y})
	}
	return xy, nil
}

// tRange returns the shared axis: from 0, or the first sample if earlier,
// to Now, or the last sample if later, at least one iteration long; whole
// is true when every end and sample is an iteration count.
func (h History) tRange(panels []panelXYs) (lo, hi float64, whole bool) {
	lo, hi = 0, h.Now
	whole = h.Now == math.Trunc(h.Now)
	for _, pn := range panels {
		for _, p := range slices.Concat(pn.main, pn.compare) {
			lo, hi = math.Min(lo, p.X), math.Max(hi, p.X)
			whole = whole && p.X == math.Trunc(p.X)
		}
	}
	lo, hi = clampAxis(lo), clampAxis(hi)
	return lo, math.Max(hi, lo+1), whole
}

// fitLabels shrinks the y-axis labels when one is longer than its panel
// is tall ("support vectors" on a short panel), down to 70 % of their
// size, all alike so the panels still match, and reports whether it
// changed them, so the panels need aligning again.
func fitLabels(plots [][]*plot.Plot, cs [][]draw.Canvas) bool {
	scale := 1.0
	for i, row := range plots {
		p := row[0]
		dc := p.DataCanvas(cs[i][0])
		room, w := dc.Max.Y-dc.Min.Y, p.Y.Label.TextStyle.Width(p.Y.Label.Text)
		if w > room && w > 0 {
			scale = math.Min(scale, math.Max(0.7, float64(room/w)))
		}
	}
	if scale == 1 {
		return false
	}
	for _, row := range plots {
		row[0].Y.Label.TextStyle.Font.Size *= vg.Length(scale)
	}
	return true
}

// historyPanel is one panel: the curve of s ending in a dot, over faint
// period lines, with a y axis fitted to the values.
func historyPanel(th render.Theme, pn panelXYs, c color.Color, s Series, period, now float64, n int) *plot.Plot {
	xy, all := pn.main, slices.Concat(pn.main, pn.compare)
	p := plot.New()
	th.Style(p, "", s.Label, 12, 12, 11)
	p.Title.Padding = th.Pt(4)
	ticks := 2.5 // a short panel: two or three labels
	if n == 1 {
		ticks = 4
	}
	p.Y.Tick.Marker = render.NiceTicks{N: ticks, Integer: s.Integer}
	if s.Log {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = render.LogTicks{N: ticks}
		p.Y.Min, p.Y.Max = logRange(all)
	} else {
		p.Y.Min, p.Y.Max = linearRange(all, s.Integer)
	}
	// Period (epoch) ends, while there are few enough to tell apart.
	if period > 0 && now/period <= 40 {
		for k := 1; float64(k)*period < now; k++ {
			e := float64(k) * period
			l, _ := plotter.NewLine(plotter.XYs{{X: e, Y: p.Y.Min}, {X: e, Y: p.Y.Max}})
			l.LineStyle = draw.LineStyle{Color: color.RGBA{0xD0, 0xD0, 0xD0, 0xFF}, Width: th.Pt(0.75)}
			p.Add(unranged{l})
		}
	}
	var cmp *plotter.Line
	if len(pn.compare) > 0 {
		cmp = addCompare(th, p, pn.compare, s)
	}
	if len(xy) == 0 {
		return p
	}
	l, _ := plotter.NewLine(xy)
	if !s.Lines {
		l.StepStyle = plotter.PostStep
	}
	l.LineStyle = draw.LineStyle{Color: c, Width: th.Pt(2)}
	dot, _ := plotter.NewScatter(xy[len(xy)-1:])
	dot.GlyphStyle = draw.GlyphStyle{Color: c, Radius: th.Pt(4), Shape: draw.CircleGlyph{}}
	p.Add(unranged{l}, unranged{dot})
	if cmp != nil {
		p.Legend.Add(s.Label, l)
		p.Legend.Add(s.Compare.Label, cmp)
	}
	return p
}

// addCompare draws a panel's comparison curve, dashed grey under the
// series, and sets up the panel's legend, top right and small, for the
// two curves.
func addCompare(th render.Theme, p *plot.Plot, xy plotter.XYs, s Series) *plotter.Line {
	l, _ := plotter.NewLine(xy)
	if !s.Compare.Lines {
		l.StepStyle = plotter.PostStep
	}
	l.LineStyle = draw.LineStyle{Color: color.RGBA{0x70, 0x70, 0x70, 0xFF}, Width: th.Pt(1.5),
		Dashes: []vg.Length{th.Pt(5), th.Pt(3)}}
	p.Add(unranged{l})
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = th.Pt(9)
	p.Legend.ThumbnailWidth = th.Pt(18)
	p.Legend.Padding = th.Pt(2)
	return l
}

// linearRange is a y range that includes 0, so a reader compares values
// against nothing rather than against the smallest, with 12 % headroom on
// the side away from 0 and at least 0…1 for counts.
func linearRange(xy plotter.XYs, integer bool) (lo, hi float64) {
	for _, p := range xy {
		lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y)
	}
	if integer {
		hi = math.Max(hi, 1)
	}
	if hi == lo {
		hi = lo + 1
	}
	switch {
	case lo == 0:
		return 0, clampAxis(hi * 1.12)
	case hi == 0:
		return clampAxis(lo * 1.12), 0
	}
	pad := 0.12*hi - 0.12*lo // not 0.12·(hi − lo), which can overflow
	return clampAxis(lo - pad), clampAxis(hi + pad)
}

// axisLimit keeps an axis's span finite: values beyond it are clipped.
const axisLimit = 1e306

func clampAxis(v float64) float64 { return math.Max(-axisLimit, math.Min(v, axisLimit)) }

// logRange is a log y range from the decade at or below the smallest
// value to the decade at or above the largest, widened downwards to two
// decades when the values sit within one (a gap closes downwards), and
// 0.1…10 with no values.
func logRange(xy plotter.XYs) (lo, hi float64) {
	if len(xy) == 0 {
		return 0.1, 10
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range xy {
		lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y)
	}
	a, b := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if b == a {
		b++
	}
	if b-a < 2 {
		a--
	}
	// Decades whose powers are normal floats, so the range is positive
	// and finite.
	a, b = math.Max(a, -306), math.Min(b, 306)
	return math.Pow(10, a), math.Pow(10, math.Max(b, a+1))
}

// steps drops the points of a PostStep curve that repeat the previous
// value, keeping both ends: the same line with far fewer points, since the
// curves of a run change only at some steps.
func steps(xy plotter.XYs) plotter.XYs {
	out := make(plotter.XYs, 0, 16)
	for i, p := range xy {
		if i == 0 || i == len(xy)-1 || p.Y != xy[i-1].Y {
			out = append(out, p)
		}
	}
	return out
}

// unranged hides a plotter's DataRange, so it does not move axes the
// figure sets itself, and its GlyphBoxes, whose padding would move the
// data area.
type unranged struct{ plot.Plotter }
