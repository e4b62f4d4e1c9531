package render

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/algos/perceptron"
)

// maxErrorSamples bounds the states whose training error the history
// chart computes: each costs a prediction per point.
const maxErrorSamples = 2000

// PerceptronHistorySVG writes a small chart of the run so far: two stacked
// panels, the cumulative number of updates (mistakes, for Algorithm 1) and
// the training error in %, against the iteration t = 0…k, where k is the
// last state in states. The current t, at the right end, is marked with a
// dot on each curve; faint vertical lines mark the ends of epochs while
// there are few enough to read. It is drawn for any dimension d. A zero
// size means 600×260 px. Past 2000 states the error is computed at 2000
// evenly spaced ones (always including 0 and k), so the cost stays bounded
// and the chart is still deterministic.
func PerceptronHistorySVG(w io.Writer, pr *perceptron.Problem, states []perceptron.State, opt Options) error {
	if err := checkProblem(pr, states); err != nil {
		return err
	}
	fw, fh := opt.size(DefaultSize, DefaultHistoryHeight)
	// Type scales with the width only: the chart is meant to be short.
	th := theme{scale: math.Max(0.75, math.Min(float64(fw)/(DefaultSize*pxToPt), 2))}
	k := len(states) - 1
	sc := &scene{pr: pr, s: states[k], binary: pr.Binary()}

	upd := make(plotter.XYs, len(states))
	for i, s := range states {
		upd[i] = plotter.XY{X: float64(s.T), Y: float64(s.Mistakes)}
	}
	upd = steps(upd)
	idx := sampleIndices(len(states), maxErrorSamples)
	errs := make(plotter.XYs, len(idx))
	for j, i := range idx {
		errs[j] = plotter.XY{X: float64(states[i].T), Y: 100 * pr.TrainingError(states[i])}
	}
	errs = steps(errs)
	last := states[k]
	lastErr := errs[len(errs)-1].Y

	word := "updates"
	if pr.UpdatesAreMistakes() {
		word = "mistakes"
	}
	top := historyPanel(th, upd, blue, word, float64(last.T), len(pr.X))
	bottom := historyPanel(th, errs, vermillion, "error %", float64(last.T), len(pr.X))
	top.Title.Text = fmt.Sprintf("after step %d: %s · training error %s %%",
		last.T, sc.updatesWord(last.Mistakes), strconv.FormatFloat(lastErr, 'f', 1, 64))
	// Iterations and update counts are whole numbers: no 0.5 ticks.
	bottom.X.Tick.Marker = niceTicks{n: 5, integer: true}
	top.X.Tick.Marker = unlabelled{bottom.X.Tick.Marker}
	top.Y.Tick.Marker = niceTicks{n: 2.5, integer: true}
	bottom.X.Label.Text = "iteration t"
	top.Y.Max = math.Max(1, maxY(upd)) * 1.12
	bottom.Y.Max = math.Max(1, maxY(errs)) * 1.12

	f := &figure{w: fw, h: fh,
		title: "Perceptron history: " + top.Title.Text,
		desc: fmt.Sprintf("Two panels against the iteration t from 0 to %d. Top: the cumulative number of %s, now %d. "+
			"Bottom: the training error in percent, now %s %%.", last.T, word, last.Mistakes,
			strconv.FormatFloat(lastErr, 'f', 1, 64)),
	}
	f.draw = func(c draw.Canvas) {
		plots := [][]*plot.Plot{{top}, {bottom}}
		tiles := draw.Tiles{Rows: 2, Cols: 1, PadY: th.pt(6), PadTop: th.pt(4), PadBottom: th.pt(2),
			PadLeft: th.pt(4), PadRight: th.pt(10)}
		cs := plot.Align(plots, tiles, c)
		top.Draw(cs[0][0])
		bottom.Draw(cs[1][0])
	}
	return f.writeSVG(w)
}

// historyPanel is one panel: a step curve ending in a dot at t = now.
func historyPanel(th theme, xy plotter.XYs, c color.Color, ylabel string, now float64, n int) *plot.Plot {
	p := plot.New()
	th.style(p, "", ylabel, 12, 12, 11)
	p.Title.Padding = th.pt(4)
	p.Y.Tick.Marker = niceTicks{n: 2.5} // a short panel: two or three labels
	p.X.Min, p.X.Max = 0, math.Max(now, 1)
	p.Y.Min = 0
	// Epoch ends, while there are few enough to tell apart.
	if n > 0 && now/float64(n) <= 40 {
		for e := float64(n); e < now; e += float64(n) {
			l, _ := plotter.NewLine(plotter.XYs{{X: e, Y: -1e9}, {X: e, Y: 1e9}})
			l.LineStyle = draw.LineStyle{Color: color.RGBA{0xD0, 0xD0, 0xD0, 0xFF}, Width: th.pt(0.75)}
			p.Add(unranged{l})
		}
	}
	l, _ := plotter.NewLine(xy)
	l.StepStyle = plotter.PostStep
	l.LineStyle = draw.LineStyle{Color: c, Width: th.pt(2)}
	dot, _ := plotter.NewScatter(xy[len(xy)-1:])
	dot.GlyphStyle = draw.GlyphStyle{Color: c, Radius: th.pt(4), Shape: draw.CircleGlyph{}}
	p.Add(unranged{l}, unranged{dot})
	return p
}

// steps drops the points of a PostStep curve that repeat the previous
// value, keeping both ends: the same line with far fewer points, since the
// curves change only when the perceptron updates.
func steps(xy plotter.XYs) plotter.XYs {
	out := make(plotter.XYs, 0, 16)
	for i, p := range xy {
		if i == 0 || i == len(xy)-1 || p.Y != xy[i-1].Y {
			out = append(out, p)
		}
	}
	return out
}

// sampleIndices returns min(n, m) indices spread evenly over 0…n−1,
// always including both ends.
func sampleIndices(n, m int) []int {
	if n <= m {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	idx := make([]int, m)
	for j := range idx {
		idx[j] = int(math.Round(float64(j) * float64(n-1) / float64(m-1)))
	}
	return idx
}

func maxY(xy plotter.XYs) float64 {
	m := math.Inf(-1)
	for _, p := range xy {
		m = math.Max(m, p.Y)
	}
	return m
}

// unranged hides a plotter's DataRange, so it does not move axes the
// figure sets itself, and its GlyphBoxes, whose padding would move the
// data area.
type unranged struct{ plot.Plotter }

// unlabelled keeps a ticker's marks but drops their labels: the top panel
// shares the bottom panel's t axis.
type unlabelled struct{ plot.Ticker }

func (u unlabelled) Ticks(lo, hi float64) []plot.Tick {
	ts := u.Ticker.Ticks(lo, hi)
	out := make([]plot.Tick, 0, len(ts))
	for _, t := range ts {
		if t.Label != "" {
			out = append(out, plot.Tick{Value: t.Value})
		}
	}
	return out
}
