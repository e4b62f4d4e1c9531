package regression

import (
	"math"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos/dataset"
	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
)

// The regression lesson's demos share their data: observations (x, y) of
// one input on [−1, 1], drawn from a known curve with Gaussian noise, or
// the learner's own points (graph data: a click adds an observation).

// curveData offers the built-in curves named in sets, the first shown by
// default; extra, when set, adds points to every built-in set (the
// outlier of the losses demo).
func curveData(extra func(s demo.State) []demo.Point, sets ...string) demo.DataSpec {
	labels := map[string]string{"sine": "sin(πx) + noise", "line": "0.8x + 0.3 + noise", "cubic": "2x³ − x + noise"}
	opts := make([]demo.Option, len(sets))
	for i, name := range sets {
		opts[i] = demo.Option{name, labels[name]}
	}
	return demo.DataSpec{
		Labels: demo.RealLabels, Graph: true, Sets: opts, Default: sets[0],
		Make: func(s demo.State) ([][]float64, []float64, error) {
			c, err := newCurve(s, uint64(curveSeed.Get(s)))
			if err != nil {
				return nil, nil, err
			}
			x := make([][]float64, len(c.X))
			for i, v := range c.X {
				x[i] = []float64{v, 0}
			}
			y := c.Y
			if extra != nil {
				for _, p := range extra(s) {
					x, y = append(x, []float64{p.X1, 0}), append(y, p.Y)
				}
			}
			return x, y, nil
		},
	}
}

func newCurve(s demo.State, seed uint64) (dataset.Curve, error) {
	return dataset.NewCurve(dataset.CurveSpec{Name: s.DataSet(), N: curveN.Get(s), Noise: curveNoise.Get(s), Seed: seed})
}

// builtIn reports whether s shows a built-in curve, which has a true
// function and a held-out sample.
func builtIn(s demo.State) bool { return s.DataSet() != demo.Custom }

// The knobs of the built-in curves: pointset's N, Noise and Seed in the
// curves' words, applying to the built-in curves only. Each demo declares
// copies with its own size and noise (curveParams); code shared by the
// demos reads through these values, whose keys and kinds the copies keep.
var (
	curveN     = pointset.N.Tweak(func(p *demo.Int) { p.Doc, p.When = "observations of a built-in curve", builtIn })
	curveNoise = pointset.Noise.Tweak(func(p *demo.Float) {
		p.Label, p.Doc, p.When = "noise σ", "standard deviation of the Gaussian noise on y", builtIn
	})
	curveSeed = pointset.Seed.Tweak(func(p *demo.Int) { p.Doc, p.When = "seeds the noise and the inputs", builtIn })
)

// curveParams declares curveN, curveNoise and curveSeed for a demo whose
// curves have n points by default, at most maxN, and noise σ by default.
func curveParams(n, maxN int, noise float64) []demo.Declarer {
	size, sigma := curveN, curveNoise
	size.Default, size.Max, sigma.Default = n, maxN, noise
	return []demo.Declarer{size, sigma, curveSeed}
}

// ridgeLambda is demo.Lambda as the regression demos declare it: the
// ridge λ, 0 (plain least squares) by default, on a log slider whose
// leftmost stop is 0. A demo that words it otherwise copies it.
var ridgeLambda = demo.Lambda.Tweak(func(p *demo.Float) {
	p.Label, p.Doc = "ridge λ", "ridge penalty on the weights (not the intercept)"
	p.Default, p.Min, p.Max, p.LogZero = 0, 0, 100, 1e-8
})

// degree is the degree p of the polynomial feature map, up to maxDegree;
// a demo with a lower limit copies it.
var degree = demo.Int{Key: "degree", Label: "degree p", Doc: "degree of the polynomial feature map (x, x², …, xᵖ)",
	Group: demo.GroupAlgo, Default: 3, Min: 0, Max: maxDegree}

// graphXY returns the observations as (x, y) pairs and as columns.
func graphXY(pts []demo.Point) (xy [][2]float64, xs, ys []float64) {
	xy = make([][2]float64, len(pts))
	xs, ys = make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		xy[i], xs[i], ys[i] = [2]float64{p.X1, p.Y}, p.X1, p.Y
	}
	return xy, xs, ys
}

// heldOutCurve is a second sample of the same curve (another seed, twice
// as many points, at least 30, at most dataset.MaxN) on which a fit is
// scored. It is drawn directly, not through State.With, since its size
// may exceed the demo's own limit on n.
func heldOutCurve(s demo.State) (xs, ys []float64, ok bool) {
	if !builtIn(s) {
		return nil, nil, false
	}
	c, err := dataset.NewCurve(dataset.CurveSpec{Name: s.DataSet(), N: min(max(2*curveN.Get(s), 30), dataset.MaxN),
		Noise: curveNoise.Get(s), Seed: uint64(curveSeed.Get(s)) ^ pointset.HeldOutSeed})
	if err != nil {
		return nil, nil, false
	}
	return c.X, c.Y, true
}

// polyFit is a least-squares (or ridge) fit of a degree-p polynomial.
type polyFit struct {
	p int
	m linreg.Model
}

func fitPoly(xs, ys []float64, p int, lambda float64) (polyFit, error) {
	m, err := linreg.Fit(linreg.PolyRows(xs, p), ys, lambda, true)
	return polyFit{p, m}, demo.UncomputableIf(err, linreg.ErrNotFinite)
}

func (f polyFit) at(x float64) float64 { return horner(f.m, x) }

// horner evaluates the polynomial model b + w₁x + … + wₚxᵖ by Horner's
// rule: a plot samples a fit at hundreds of x, and a fan draws fifty fits,
// so this skips building the feature vector (x, …, xᵖ) at each x.
func horner(m linreg.Model, x float64) float64 {
	v := 0.0
	for k := len(m.W) - 1; k >= 0; k-- {
		v = (v + m.W[k]) * x
	}
	return v + m.B
}

// mse is the mean squared error of f on (xs, ys).
func (f polyFit) mse(xs, ys []float64) float64 {
	var s float64
	for i, x := range xs {
		r := f.at(x) - ys[i]
		s += r * r
	}
	return s / float64(len(xs))
}

// graphView is the part of the (x, y) plane a regression plot shows: the
// curves' box, [−1.15, 1.15] × [−1.9, 1.9], widened to take in every
// point given. It depends on the data only, so the axes stay put while
// the learner changes the model.
func graphView(xy ...[][2]float64) render.View {
	v := render.View{XMin: -1.15, XMax: 1.15, YMin: -1.9, YMax: 1.9}
	for _, set := range xy {
		for _, p := range set {
			v.XMin, v.XMax = math.Min(v.XMin, p[0]-0.1), math.Max(v.XMax, p[0]+0.1)
			v.YMin, v.YMax = math.Min(v.YMin, p[1]-0.2), math.Max(v.YMax, p[1]+0.2)
		}
	}
	return v
}

// graphFigure is a regression plot in the house style: y against x.
func graphFigure(title, desc string, v render.View, layers []plot.Plotter, legend []render.LegendItem) render.DataFigure {
	return render.DataFigure{Title: title, Desc: desc, XLabel: "x", YLabel: "y", View: v, Layers: layers, Legend: legend}
}

// curveTruth is the true function of the built-in curve s shows.
func curveTruth(s demo.State) (func(float64) float64, bool) {
	if !builtIn(s) {
		return nil, false
	}
	return dataset.CurveTruth(s.DataSet())
}
