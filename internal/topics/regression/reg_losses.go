package regression

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/render/graphs"
	"github.com/margin-edu/margin/internal/textfmt"
)

// RegLossesSpec declares the losses demo: one line fitted to the same
// points under four losses, with an outlier the learner moves (ox, oy)
// or more points added by clicking, so the pull of each loss shows.
func RegLossesSpec() demo.Spec {
	outlier := func(s demo.State) []demo.Point { return []demo.Point{{X1: outlierX.Get(s), Y: outlierY.Get(s)}} }
	return demo.Spec{
		ID: "reg-losses", Title: "Four losses, one outlier", Lesson: "linear-regression",
		Data:   curveData(outlier, "line", "sine", "cubic"),
		Params: demo.Params(append(curveParams(20, 200, 0.1), outlierX, outlierY, huberDelta, tubeEps)...),
		Panels: []string{"losses"}, PanelLabels: map[string]string{"losses": "The four losses of a residual"}, Static: true,
		Examples:    []demo.Example{{Name: "default", Query: ""}},
		Conventions: regLossesConventions(), Explain: demo.Explain{Section: "losses"},
		Compute: computeRegLosses,
	}
}

// The losses demo's parameters: where the outlier is, and the two losses'
// own parameters.
var (
	outlierX = demo.Float{Key: "ox", Label: "outlier x", Doc: "x of the outlier added to a built-in set (its last point)", Group: demo.GroupData,
		Default: 0.8, Min: -1.5, Max: 1.5, Step: "0.05", When: builtIn}
	outlierY = demo.Float{Key: "oy", Label: "outlier y", Doc: "y of the outlier", Group: demo.GroupData,
		Default: -3, Min: -6, Max: 6, Step: "0.1", When: builtIn}
	huberDelta = demo.Float{Key: "delta", Label: "Huber δ", Doc: "where the Huber loss turns from quadratic to linear", Group: demo.GroupAlgo,
		Default: 0.5, Min: 0.01, Max: 10, Step: "any", Log: true}
	tubeEps = demo.Float{Key: "epsilon", Label: "ε (tube)", Doc: "half-width of the ε-insensitive loss's free tube", Group: demo.GroupAlgo,
		Default: 0.2, Min: 0, Max: 2, Step: "0.05"}
)

// lossFit is one loss's line y = w·x + b.
type lossFit struct {
	loss  linreg.Loss
	param float64
	w, b  float64
}

func (f lossFit) at(x float64) float64 { return f.w*x + f.b }

// label is the loss's short name in legends.
func (f lossFit) label() string {
	return [...]string{"squared", "absolute", "Huber", "ε-insensitive"}[f.loss]
}

// name is the loss with its parameter, for the panel and charts.
func (f lossFit) name() string {
	switch f.loss {
	case linreg.Huber:
		return "Huber, δ = " + textfmt.Sig(f.param)
	case linreg.EpsInsensitive:
		return "ε-insensitive, ε = " + textfmt.Sig(f.param)
	}
	return f.loss.String()
}

// regLosses are the four losses in the order every figure uses.
func regLosses(s demo.State) []lossFit {
	return []lossFit{{loss: linreg.Squared}, {loss: linreg.Absolute},
		{loss: linreg.Huber, param: huberDelta.Get(s)}, {loss: linreg.EpsInsensitive, param: tubeEps.Get(s)}}
}

func computeRegLosses(ctx context.Context, in demo.Input) (demo.Result, error) {
	xy, xs, ys := graphXY(in.Points)
	fits := regLosses(in.State)
	for i := range fits {
		w, b, err := linreg.FitLine(xs, ys, fits[i].loss, fits[i].param)
		if err != nil {
			return demo.Result{}, demo.UncomputableIf(err, linreg.ErrNotFinite)
		}
		fits[i].w, fits[i].b = w, b
	}
	marked := outlierIndex(in.State)
	plotFig := func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
		f, err := regLossesFigure(fits, xy, marked)
		if err != nil {
			return render.Frame{}, err
		}
		return f.Write(w, png, opt)
	}
	losses := func(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
		return render.Frame{}, chart.ResidualLossesSVG(w, lossCurves(fits), lossCurvesDesc(fits), render.Options{Width: opt.Width})
	}
	return demo.Result{
		Done: true, Plot: plotFig,
		Panels: map[string]demo.Drawer{"losses": losses},
		Panel:  func() demo.Panel { return regLossesPanel(fits, xs, ys) },
	}, nil
}

// outlierIndex is where the outlier is among the points: after the
// curve's n, less the removed points before it; −1 when it is removed or
// the data are the learner's own.
func outlierIndex(s demo.State) int {
	if !builtIn(s) {
		return -1
	}
	n, k := curveN.Get(s), curveN.Get(s)
	for _, i := range s.Del {
		switch {
		case i == n:
			return -1
		case i < n:
			k--
		}
	}
	return k
}

func regLossesFigure(fits []lossFit, xy [][2]float64, marked int) (render.DataFigure, error) {
	obs, err := graphs.NewObservations(xy)
	if err != nil {
		return render.DataFigure{}, err
	}
	if marked >= 0 && marked < len(xy) {
		obs.Marked = make([]bool, len(xy))
		obs.Marked[marked] = true
	}
	eps := fits[3]
	tube, err := graphs.NewTube(eps.at, eps.param)
	if err != nil {
		return render.DataFigure{}, err
	}
	layers := []plot.Plotter{tube}
	var legend []render.LegendItem
	for i, f := range fits {
		sty := graphs.GraphStyle(i, i == 3)
		if d := lossDashes[i]; d != nil {
			sty.Dashes = make([]vg.Length, len(d))
			for k, v := range d {
				sty.Dashes[k] = vg.Points(v)
			}
		}
		g, err := graphs.NewGraph(f.at, sty)
		if err != nil {
			return render.DataFigure{}, err
		}
		layers = append(layers, g)
		legend = append(legend, render.LegendItem{Label: f.label(), Thumbs: []plot.Thumbnailer{g}})
	}
	layers = append(layers, obs)
	legend = append(legend, render.LegendItem{Label: "outlier", Thumbs: []plot.Thumbnailer{obs.MarkedThumb()}, Hidden: marked < 0})
	title := fmt.Sprintf("slope w: squared %s · absolute %s", dec2(fits[0].w), dec2(fits[1].w))
	title += fmt.Sprintf("\nHuber (δ = %s) %s · ε-insensitive (ε = %s) %s", textfmt.Sig(fits[2].param), dec2(fits[2].w), textfmt.Sig(fits[3].param), dec2(fits[3].w))
	desc := fmt.Sprintf("%s with a straight line fitted under four losses:", textfmt.Plural(len(xy), "observations"))
	for _, f := range fits {
		desc += fmt.Sprintf(" %s %s;", f.name(), lineText(f.w, f.b))
	}
	desc += " the band around the ε-insensitive line is the tube inside which a residual costs nothing."
	if marked >= 0 {
		desc += fmt.Sprintf(" The ringed point (%s, %s) is the outlier.", textfmt.Num(xy[marked][0]), textfmt.Num(xy[marked][1]))
	}
	return graphFigure(title, desc, graphView(xy), layers, legend), nil
}

// lossCurvesDesc describes the loss chart with each loss's exact set of
// minimisers: r = 0, or for the ε-insensitive loss with ε > 0 the whole
// interval [−ε, ε], on which it is 0.
func lossCurvesDesc(fits []lossFit) string {
	d := "A line chart of four losses ℓ(r) against the residual r = y − f(x) from −3 to 3."
	for _, f := range fits {
		at3 := f.loss.Value(3, f.param)
		where := "at r = 0"
		if f.loss == linreg.EpsInsensitive && f.param > 0 {
			where = fmt.Sprintf("on the whole interval −%s ≤ r ≤ %s, where residuals cost nothing", textfmt.Sig(f.param), textfmt.Sig(f.param))
		}
		d += fmt.Sprintf(" %s: %s at r = ±3, lowest, 0, %s.", f.name(), textfmt.Sig(at3), where)
	}
	return d
}

// lossDashes tells the four losses' lines apart without colour, in both
// figures (on and off lengths in pt): squared solid, absolute long dashes
// with a dot, Huber dotted, ε-insensitive dashed.
var lossDashes = [4][]float64{nil, {9, 3, 2, 3}, {2, 2.5}, {7, 4}}

// lossCurves draws each loss ℓ(r) against the residual r, each line in
// its own dash pattern and named beside it.
func lossCurves(fits []lossFit) chart.Curves {
	c := chart.Curves{Title: "loss of a residual r = y − f(x)", XLabel: "residual r", YLabel: "ℓ(r)", NoMarkers: true, Mark: math.NaN(), DirectLabels: true}
	for i, f := range fits {
		cv := chart.Curve{Name: f.name(), Dashed: i == 3, Dashes: lossDashes[i]}
		for k := 0; k <= 240; k++ {
			r := -3 + float64(k)/40
			cv.X, cv.Y = append(cv.X, r), append(cv.Y, f.loss.Value(r, f.param))
		}
		c.Series = append(c.Series, cv)
	}
	return c
}

func regLossesPanel(fits []lossFit, xs, ys []float64) demo.Panel {
	t := demo.Table{TestID: "fits", Caption: "Each line minimises (1/n) Σ ℓ(yᵢ − w·xᵢ − b) for its loss ℓ.",
		Head: []string{"loss", "slope w", "intercept b", "mean loss"}}
	for _, f := range fits {
		var mean float64
		for i, x := range xs {
			mean += f.loss.Value(ys[i]-f.at(x), f.param) / float64(len(xs))
		}
		t.Rows = append(t.Rows, []string{f.name(), textfmt.Sig(f.w), textfmt.Sig(f.b), textfmt.Sig(mean)})
	}
	var notes []demo.Note
	for _, f := range fits {
		if n, ok := tieNote(f, xs, ys); ok {
			notes = append(notes, n)
		}
	}
	return demo.Panel{
		Notes:    notes,
		Counters: []demo.Counter{{"points n", fmt.Sprint(len(xs)), "n"}},
		Done:     true, Status: "fitted",
		Examined: "The squared loss grows like r², so one far point pulls its line hardest; the absolute loss grows like |r| and " +
			"its line goes through the middle of the rest; Huber is squared near 0 and absolute beyond δ; the ε-insensitive " +
			"loss ignores residuals smaller than ε.",
		Tables: []demo.Table{t},
	}
}

// dec2 writes v with two decimals and a true minus sign, short enough for
// four slopes in a title.
func dec2(v float64) string {
	return strings.Replace(strconv.FormatFloat(v, 'f', 2, 64), "-", "−", 1)
}

// tieNote says, for the absolute or ε-insensitive fit, that it is not
// unique, when linreg.OtherMinimiser finds a second line with the same
// mean loss, naming that line and the tie rule behind the one drawn; ok
// is false when the fit is the only minimiser.
func tieNote(f lossFit, xs, ys []float64) (demo.Note, bool) {
	w2, b2, ok := linreg.OtherMinimiser(xs, ys, f.loss, f.param, f.w, f.b)
	if !ok {
		return demo.Note{}, false
	}
	var mean float64
	for i, x := range xs {
		mean += f.loss.Value(ys[i]-f.at(x), f.param) / float64(len(xs))
	}
	wa, wb := apart(f.w, w2)
	ba, bb := apart(f.b, b2)
	return demo.Note{TestID: "tie-" + [...]string{"squared", "absolute", "huber", "eps"}[f.loss], Text: fmt.Sprintf(
		"The %s fit is not unique: the line y = %s·x %s has the same mean loss, %s, as the drawn y = %s·x %s, and so does every line "+
			"between them, since the loss is piecewise linear and flat at its bottom here. The demo draws the slope its golden-section search "+
			"settles on, with the middle of that slope's best intercepts.",
		lossFitName(f), wb, signed(bb), textfmt.Sig(mean), wa, signed(ba))}, true
}

// signed writes "+ v" or "− v" for a printed number v.
func signed(v string) string {
	if r, ok := strings.CutPrefix(v, "−"); ok {
		return "− " + r
	}
	return "+ " + v
}

// lossFitName names a loss's fit in a sentence: "ε-insensitive (ε = 0.2)".
func lossFitName(f lossFit) string {
	switch f.loss {
	case linreg.Huber:
		return "Huber (δ = " + textfmt.Sig(f.param) + ")"
	case linreg.EpsInsensitive:
		return "ε-insensitive (ε = " + textfmt.Sig(f.param) + ")"
	}
	return f.label()
}
