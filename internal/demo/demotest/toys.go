// Package demotest is what the tests of topics and of the server share:
// Run(t, spec, query), panel look-ups (Counter, Note), prose claims checked
// against the states they link to, and two small demos that exercise the
// demo kit where the perceptron does not: a demo with no data points, whose plot
// click sets a start point (gradient descent on a 2-D objective), and a
// regression demo with real-valued labels and an extra panel. Tests of
// the kit and of the server build courses from them.
package demotest

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/render/fields"
)

// gd is gradient descent on f(x) = ½(x₁² + κx₂²), a stepper for Replay.
type gd struct{ eta, kappa float64 }

type gdState struct {
	K    int
	X    [2]float64
	F    float64
	Stop algos.Status
}

func (g gd) f(x [2]float64) float64 { return 0.5 * (x[0]*x[0] + g.kappa*x[1]*x[1]) }

// Step takes one step; one that would leave float64's range (or pass
// 1e100, far beyond any view) stops the run as Diverged on the last
// finite iterate, so no page ever shows NaN.
func (g gd) Step(s gdState) gdState {
	x := [2]float64{s.X[0] - g.eta*s.X[0], s.X[1] - g.eta*g.kappa*s.X[1]}
	if f := g.f(x); math.IsInf(f, 0) || math.IsNaN(f) || f > 1e100 {
		s.Stop = algos.Diverged
		return s
	}
	s.K++
	s.X, s.F = x, g.f(x)
	if s.F < 1e-12 {
		s.Stop = algos.Converged
	}
	return s
}

func (g gd) Status(s gdState) algos.Status { return s.Stop }

// The toy objective demo's parameters: a start point and a step size.
var (
	toyX0 = demo.Float{Key: "x0", Label: "x₁⁽⁰⁾", Doc: "start x₁", Group: demo.GroupData, Default: 2, Min: -5, Max: 5, Step: "any"}
	toyY0 = demo.Float{Key: "y0", Label: "x₂⁽⁰⁾", Doc: "start x₂", Group: demo.GroupData, Default: 1, Min: -5, Max: 5, Step: "any"}
	toyT  = demo.Float{Key: "t", Label: "step size t", Doc: "step size", Group: demo.GroupAlgo, Default: 0.1, Min: 0, OpenMin: true, Max: 2, Step: "any"}
)

// ObjectiveSpec is a demo without points on lesson: a click sets (x0, y0).
// Its plot is a real figure, the contours of f with the iterates so far
// over them, so the kit's click mapping is tested against a real Frame.
func ObjectiveSpec(lesson string) demo.Spec {
	return demo.Spec{
		ID: "toy-gd", Title: "Toy gradient descent", Lesson: lesson,
		Data: demo.DataSpec{Labels: demo.NoLabels, Start: [2]string{"x0", "y0"}},
		Params: []demo.Param{
			toyX0.Param(), toyY0.Param(), toyT.Param(),
		},
		Panels: []string{"iterate"},
		Compute: func(_ context.Context, in demo.Input) (demo.Result, error) {
			g := gd{eta: toyT.Get(in.State), kappa: 4}
			s0 := gdState{X: [2]float64{toyX0.Get(in.State), toyY0.Get(in.State)}}
			s0.F = g.f(s0.X)
			var gap chart.Series
			gap.Label, gap.Log = "f(x)", true
			path := demo.NewTrail()
			s, k, err := algos.Replay[gdState](g, s0, in.Step, algos.RecorderFunc[gdState](func(k int, s gdState) error {
				gap.T, gap.Y = append(gap.T, float64(k)), append(gap.Y, s.F)
				return nil
			}), algos.RecorderFunc[gdState](func(k int, s gdState) error { path.Add(k, s.X); return nil }))
			if err != nil {
				return demo.Result{}, err
			}
			bars := func(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
				return render.Frame{}, chart.BarsSVG(w, chart.Bars{Title: fmt.Sprintf("iterate after step %d", k), YLabel: "xᵢ",
					Values: []float64{math.Abs(s.X[0]), math.Abs(s.X[1])}}, opt)
			}
			plotFig := func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
				return g.figure(path, s, k, w, png, opt)
			}
			return demo.Result{
				Step: k, Done: s.Stop.Done(),
				Plot:    plotFig,
				Panels:  map[string]demo.Drawer{"iterate": bars},
				History: &chart.History{Title: "f", XLabel: "iteration k", Now: float64(k), Series: []chart.Series{gap}},
				Panel: func() demo.Panel {
					return demo.Panel{Status: s.Stop.String(), Done: s.Stop.Done(),
						Counters: []demo.Counter{{Label: "iteration k", Value: strconv.Itoa(k), TestID: "step"}},
						Start:    "x⁽⁰⁾ is where you clicked."}
				},
			}, nil
		},
	}
}

// objectiveView is the part of the plane the plot shows at every step,
// so the axes and the click mapping never move: the box the start
// parameters range over.
var objectiveView = render.View{XMin: -5, XMax: 5, YMin: -5, YMax: 5}

// objectiveLevels are the contours drawn: ½x₁² at x₁ = 1, 2, 4, 6, 8, 10,
// rings about evenly spaced on the page, the last reaching the corners.
var objectiveLevels = []float64{0.5, 2, 8, 18, 32, 50}

// figure draws the contours of f over the fixed view, the iterates so far
// (as the trail kept them) and the current one, s at step k.
func (g gd) figure(path *demo.Trail, s gdState, k int, w io.Writer, png bool, opt render.Options) (render.Frame, error) {
	lv := fields.ContourLevels(objectiveLevels...)
	fl, err := fields.NewField(func(x1, x2 float64) float64 { return g.f([2]float64{x1, x2}) }, nil, lv...)
	if err != nil {
		return render.Frame{}, err
	}
	xy, current := path.Iterates(s.X)
	pa, err := render.NewPath(xy)
	if err != nil {
		return render.Frame{}, err
	}
	pa.Current = current
	// A true minus sign in an exponent (8.84e−13), as the ticks have.
	fx := strings.Replace(strconv.FormatFloat(s.F, 'g', 3, 64), "-", "−", 1)
	title := fmt.Sprintf("gradient descent · step %d · f = %s", k, fx)
	if current < 0 {
		title = fmt.Sprintf("gradient descent · step %d · diverged", k)
	}
	fig := render.DataFigure{
		Title: title + fmt.Sprintf("\nf(x) = ½(x₁² + %gx₂²), step size t = %g", g.kappa, g.eta),
		Desc: fmt.Sprintf("Contours of f(x) = ½(x₁² + %gx₂²) at f = 0.5, 2, 8, 18, 32 and 50, and the path of "+
			"gradient descent with step size %g from (%g, %g) over %d steps, now at (%.3g, %.3g).",
			g.kappa, g.eta, path.Start()[0], path.Start()[1], k, s.X[0], s.X[1]),
		View:   objectiveView,
		Layers: []plot.Plotter{fl, pa},
		Legend: []render.LegendItem{
			{Label: "f = 0.5, 2, 8, 18, 32, 50", Thumbs: []plot.Thumbnailer{lv[0]}},
			{Label: "iterates", Thumbs: []plot.Thumbnailer{pa}},
			{Label: "start", Thumbs: []plot.Thumbnailer{pa.StartThumb()}},
			{Label: "current iterate", Thumbs: []plot.Thumbnailer{pa.CurrentThumb()}, Hidden: current < 0},
		},
	}
	return fig.Write(w, png, opt)
}

// RegressionSpec is a demo with real-valued labels on lesson: its one
// "step" fits the mean of y.
func RegressionSpec(lesson string) demo.Spec {
	return demo.Spec{
		ID: "toy-mean", Title: "Toy regression", Lesson: lesson,
		Data: demo.DataSpec{Labels: demo.RealLabels, Default: "line",
			Sets: []demo.Option{{Value: "line", Label: "a line"}},
			Make: func(s demo.State) ([][]float64, []float64, error) {
				return [][]float64{{0, 0}, {1, 0}, {2, 0}}, []float64{0.5, 1.5, 2.5}, nil
			}},
		Compute: func(_ context.Context, in demo.Input) (demo.Result, error) {
			mean := 0.0
			for _, p := range in.Points {
				mean += p.Y / float64(len(in.Points))
			}
			k := min(in.Step, 1)
			draw := func(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
				return render.Frame{}, chart.BarsSVG(w, chart.Bars{Title: "mean " + strconv.FormatFloat(mean, 'g', 4, 64), YLabel: "y",
					Values: []float64{math.Abs(mean)}}, opt)
			}
			return demo.Result{Step: k, Done: k == 1, Plot: draw,
				Panel: func() demo.Panel { return demo.Panel{Status: "fitted"} }}, nil
		},
	}
}
