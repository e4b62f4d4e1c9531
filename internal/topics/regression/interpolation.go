package regression

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/render/graphs"
	"github.com/margin-edu/margin/internal/textfmt"
)

// maxDegree is the highest polynomial degree the interpolation demo
// fits: past 20 the monomials on [−1, 1] are too close to dependent for
// the picture to add anything.
const maxDegree = 20

// InterpolationSpec declares the demo of Thm 1.3.2: a polynomial of
// growing degree fits the training points ever better and, from degree
// n − 1, exactly, while its error on fresh points of the same curve
// explodes.
func InterpolationSpec() demo.Spec {
	return demo.Spec{
		ID: "interpolation", Title: "Fitting a polynomial of degree p", Lesson: "linear-regression",
		Data:   curveData(nil, "sine", "line", "cubic"),
		Params: demo.Params(append(curveParams(10, 100, 0.2), degree, ridgeLambda)...),
		Panels: []string{"degree"}, PanelLabels: map[string]string{"degree": "Error against the degree"}, Static: true,
		Examples:    []demo.Example{{Name: "degree9", Query: "degree=9"}},
		Conventions: polyConventions(degree), Explain: demo.Explain{Section: "regression-problem"},
		Compute: computeInterpolation,
	}
}

func computeInterpolation(ctx context.Context, in demo.Input) (demo.Result, error) {
	xy, xs, ys := graphXY(in.Points)
	p, lambda := degree.Get(in.State), ridgeLambda.Get(in.State)
	fit, err := fitPoly(xs, ys, p, lambda)
	if err != nil {
		return demo.Result{}, err
	}
	hx, hy, held := heldOutCurve(in.State)
	train := fit.mse(xs, ys)
	test := math.NaN()
	if held {
		test = fit.mse(hx, hy)
	}
	plotFig := func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
		f, err := interpolationFigure(in, fit, xy, hx, hy, train, test)
		if err != nil {
			return render.Frame{}, err
		}
		return f.Write(w, png, opt)
	}
	degree := func(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
		c, err := degreeSweep(ctx, in.Cache, xs, ys, hx, hy, lambda, p)
		if err != nil {
			return render.Frame{}, err
		}
		return render.Frame{}, chart.CurvesSVG(w, c, render.Options{Width: opt.Width})
	}
	return demo.Result{
		Done: true, Plot: plotFig,
		Panels: map[string]demo.Drawer{"degree": degree},
		Panel:  func() demo.Panel { return interpolationPanel(fit, xs, ys, train, test, held, lambda) },
	}, nil
}

// interpolationFigure draws the points, the held-out points (rings), the
// true curve, the fit and its residuals.
func interpolationFigure(in demo.Input, fit polyFit, xy [][2]float64, hx, hy []float64, train, test float64) (render.DataFigure, error) {
	hxy := make([][2]float64, len(hx))
	for i := range hx {
		hxy[i] = [2]float64{hx[i], hy[i]}
	}
	obs, err := graphs.NewObservations(append(append([][2]float64{}, xy...), hxy...))
	if err != nil {
		return render.DataFigure{}, err
	}
	obs.Hollow = make([]bool, len(obs.XY))
	for i := len(xy); i < len(obs.XY); i++ {
		obs.Hollow[i] = true
	}
	g, err := graphs.NewGraph(fit.at, graphs.GraphStyle(0, false))
	if err != nil {
		return render.DataFigure{}, err
	}
	res, err := graphs.NewResiduals(xy, fit.at)
	if err != nil {
		return render.DataFigure{}, err
	}
	layers := []plot.Plotter{res}
	legend := []render.LegendItem{{Label: "degree " + strconv.Itoa(fit.p) + " fit", Thumbs: []plot.Thumbnailer{g}}}
	truth, hasTruth := curveTruth(in.State)
	if hasTruth {
		t, err := graphs.NewGraph(truth, graphs.TruthStyle)
		if err != nil {
			return render.DataFigure{}, err
		}
		layers = append(layers, t)
		legend = append(legend, render.LegendItem{Label: "true curve", Thumbs: []plot.Thumbnailer{t}})
	}
	layers = append(layers, g, obs)
	legend = append(legend, render.LegendItem{Label: "training", Thumbs: []plot.Thumbnailer{obs.Thumb(false)}},
		render.LegendItem{Label: "held-out", Thumbs: []plot.Thumbnailer{obs.Thumb(true)}, Hidden: len(hx) == 0})
	title := fmt.Sprintf("degree %d · training MSE %s", fit.p, textfmt.Sig(train))
	if !math.IsNaN(test) {
		title += " · held-out MSE " + textfmt.Sig(test)
	}
	lambda := ridgeLambda.Get(in.State)
	title += fmt.Sprintf("\n%s, %s", textfmt.Plural(len(xy), "points"), fitName(lambda))
	desc := fmt.Sprintf("%s (x, y) with the degree-%d polynomial fitted to them by %s and the "+
		"vertical residuals from each point to the curve; training mean squared error %s.", textfmt.Plural(len(xy), "observations"), fit.p, fitName(lambda), textfmt.Sig(train))
	if len(hx) > 0 {
		desc += fmt.Sprintf(" %d held-out observations of the same curve are drawn as rings; their mean squared error is %s.", len(hx), textfmt.Sig(test))
	}
	return graphFigure(title, desc, graphView(xy, hxy), layers, legend), nil
}

// fitName names the fit: least squares, or ridge with its λ.
func fitName(lambda float64) string {
	if lambda > 0 {
		return "ridge regression (λ = " + textfmt.Sig(lambda) + ")"
	}
	return "least squares"
}

// degreeSweep charts the training and held-out MSE of every degree. The
// curves depend on the data and λ but not on the degree shown, so they
// are memoised in cache: moving the degree slider pays for one sweep.
func degreeSweep(ctx context.Context, cache *demo.Cache, xs, ys, hx, hy []float64, lambda float64, now int) (chart.Curves, error) {
	c := chart.Curves{Title: "mean squared error against the degree", XLabel: "degree p", YLabel: "MSE", LogY: true, Mark: float64(now)}
	series, err := demo.Memoise(ctx, cache, demo.FloatsKey("degree", xs, ys, hx, hy, []float64{lambda}), curvesBytes,
		func(context.Context) ([]chart.Curve, error) { return sweepDegrees(xs, ys, hx, hy, lambda) })
	if err != nil {
		return c, err
	}
	c.Series = series
	c.Title = floorLabel(c.Title, c.Series)
	return c, nil
}

// curvesBytes estimates the memory of curves.
func curvesBytes(cs []chart.Curve) int64 {
	n := int64(0)
	for _, c := range cs {
		n += 64 + int64(len(c.Name)) + demo.FloatsBytes(c.X, c.Y)
	}
	return n
}

// sweepDegrees fits every degree from 0 to maxDegree and returns the
// training and (with held-out points) held-out MSE of each.
func sweepDegrees(xs, ys, hx, hy []float64, lambda float64) ([]chart.Curve, error) {
	train := chart.Curve{Name: "training"}
	test := chart.Curve{Name: "held-out"}
	for p := 0; p <= maxDegree; p++ {
		f, err := fitPoly(xs, ys, p, lambda)
		if err != nil {
			return nil, err
		}
		train.X, train.Y = append(train.X, float64(p)), append(train.Y, math.Max(f.mse(xs, ys), mseFloor))
		if len(hx) > 0 {
			test.X, test.Y = append(test.X, float64(p)), append(test.Y, math.Max(f.mse(hx, hy), mseFloor))
		}
	}
	series := []chart.Curve{train}
	if len(test.X) > 0 {
		series = append(series, test)
	}
	return series, nil
}

// floorLabel adds to a log chart's title that values under mseFloor are
// drawn at it, when some value of the series is (an interpolating fit's
// training error is round-off, 10⁻³⁰ or so). The title, not the axis
// label: a label longer than the axis squeezes the chart.
func floorLabel(label string, series []chart.Curve) string {
	for _, s := range series {
		if slices.Contains(s.Y, mseFloor) {
			return label + "\nvalues below " + power(mseFloor) + " are drawn at " + power(mseFloor)
		}
	}
	return label
}

// mseFloor is where the log axis stops: an interpolating fit's training
// error is round-off, 1e-30 or so, and would squash the rest of the chart.
const mseFloor = 1e-6

func interpolationPanel(fit polyFit, xs, ys []float64, train, test float64, held bool, lambda float64) demo.Panel {
	n := len(xs)
	p := demo.Panel{
		Counters: []demo.Counter{
			{"degree p", strconv.Itoa(fit.p), "degree"},
			{"parameters (w, b)", strconv.Itoa(fit.p + 1), "params"},
			{"training MSE", textfmt.Sig(train), "train-mse"},
			{"‖w‖", textfmt.Sig(floats.Norm(fit.m.W, 2)), "norm"},
		},
		Done: true, Status: "fitted",
		Examined: fmt.Sprintf("φ(x) = %s and f(x) = ⟨w, φ(x)⟩ + b, fitted to %s by minimising (1/n) Σ (f(xᵢ) − yᵢ)²%s.",
			polyMap(fit.p), textfmt.Plural(n, "points"), ridgeTerm(lambda)),
	}
	if held {
		p.Counters = append(p.Counters, demo.Counter{"held-out MSE", textfmt.Sig(test), "test-mse"})
		p.Counters = append(p.Counters, demo.Counter{"gap", textfmt.Sig(test - train), "gap"})
	}
	m, clash := distinctInputs(xs, ys)
	switch {
	case lambda != 0 || fit.p+1 < m:
	case m == n:
		p.Notes = append(p.Notes, demo.Note{TestID: "interpolates", Alert: held && test > 10*train+0.01,
			Text: fmt.Sprintf("With %s for %s at distinct x the polynomial passes through every training point (training MSE %s, round-off): "+
				"exact interpolation is always possible (Thm 1.3.2), so a zero training error says nothing about new points.", textfmt.Plural(fit.p+1, "parameters"), textfmt.Plural(n, "points"), textfmt.Sig(train))})
	case math.IsNaN(clash):
		p.Notes = append(p.Notes, demo.Note{TestID: "interpolates", Alert: held && test > 10*train+0.01,
			Text: fmt.Sprintf("The %s have only %d distinct x, and points that share an x share their y too, so %s are enough: "+
				"the polynomial passes through every training point (training MSE %s, round-off). Interpolation counts the distinct inputs (Thm 1.3.2 asks for distinct xᵢ).",
				textfmt.Plural(n, "points"), m, textfmt.Plural(fit.p+1, "parameters"), textfmt.Sig(train))})
	default:
		p.Notes = append(p.Notes, demo.Note{TestID: "repeated-x",
			Text: fmt.Sprintf("The %s have only %d distinct x, and the points at x = %s have different y: no function passes through them all, "+
				"so Thm 1.3.2, which asks for distinct xᵢ, does not apply. With %s for %d distinct x the least-squares fit goes through "+
				"the mean of y at each x, and the training MSE %s is the least possible: the spread of y among the points that share an x.",
				textfmt.Plural(n, "points"), m, textfmt.Sig(clash), textfmt.Plural(fit.p+1, "parameters"), m, textfmt.Sig(train))})
	}
	return p
}

// distinctInputs counts the distinct xᵢ and returns the smallest x that
// two points share with different y, or NaN when every repeated x has
// one y: whether a function can pass through every point.
func distinctInputs(xs, ys []float64) (m int, clash float64) {
	ys0 := map[float64]float64{}
	clash = math.NaN()
	for i, x := range xs {
		y, seen := ys0[x]
		switch {
		case !seen:
			ys0[x] = ys[i]
		case y != ys[i] && !(clash <= x):
			clash = x
		}
	}
	return len(ys0), clash
}

// ridgeTerm writes the penalty of an objective, or nothing for λ = 0.
func ridgeTerm(lambda float64) string {
	if lambda == 0 {
		return ""
	}
	return " + " + textfmt.Sig(lambda) + "‖w‖²"
}

// polyMap writes the feature map of degree p: (x, x², …, xᵖ).
func polyMap(p int) string {
	switch p {
	case 0:
		return "() (no features: f is the constant b)"
	case 1:
		return "(x)"
	case 2:
		return "(x, x²)"
	case 3:
		return "(x, x², x³)"
	}
	return "(x, x², …, x" + textfmt.Sup(p) + ")"
}
