package regression

import (
	"context"
	"io"
	"math"
	"math/rand/v2"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
)

// The lasso demo's parameters: the penalty α, and the data, n seeded
// points with two features correlated by ρ.
var (
	lassoAlpha = demo.Float{Key: "alpha", Label: "α", Doc: "weight of the ℓ1 penalty α‖w‖₁ (scikit-learn's alpha)",
		Group: demo.GroupAlgo, Default: 1, Min: 1e-3, Max: 10, Step: "any", Log: true}
	lassoN = demo.Int{Key: "n", Label: "points", Doc: "number of data points", Group: demo.GroupData,
		Default: 40, Min: 5, Max: 200}
	lassoCorr = demo.Float{Key: "corr", Label: "correlation ρ", Doc: "correlation of the two features x₁ and x₂",
		Group: demo.GroupData, Default: 0.6, Min: -0.95, Max: 0.95, Step: "0.05"}
	lassoNoise = demo.Float{Key: "noise", Label: "noise σ", Doc: "standard deviation of the Gaussian noise on y",
		Group: demo.GroupData, Default: 0.5, Min: 0, Max: 2, Step: "0.05"}
	lassoSeed = demo.Int{Key: "seed", Label: "seed", Doc: "seeds the features and the noise", Group: demo.GroupData,
		Default: 1, Min: 0, Max: demo.MaxSeed}
)

// lassoTruth is the model the data are drawn from: y = 1.5x₁ + 0.5x₂ + 1
// + noise. The small second weight is the one the lasso drops first.
var lassoTruth = linreg.Model{W: []float64{1.5, 0.5}, B: 1}

// LassoSpec declares coordinate descent on the lasso (004's ℓ1
// regulariser), stepped one coordinate at a time, with the coefficient
// paths of lasso and ridge against α beside it.
func LassoSpec() demo.Spec {
	return demo.Spec{
		ID: "lasso", Title: "The lasso: coordinate descent and exact zeros", Lesson: "linear-regression",
		Data:   demo.DataSpec{Labels: demo.NoLabels},
		Params: demo.Params(lassoAlpha, lassoN, lassoCorr, lassoNoise, lassoSeed),
		Panels: []string{"paths"}, PanelLabels: map[string]string{"paths": "Lasso and ridge coefficients against α"},
		Examples: []demo.Example{
			{Name: "zero", Query: "step=2"},                      // w₂ soft-thresholded to exactly 0
			{Name: "zigzag", Query: "alpha=0.1&corr=0.9&step=6"}, // correlated features: steps along the axes zigzag
		},
		Conventions: lassoConventions(), Explain: demo.Explain{Section: "lasso"},
		Compute: computeLasso, Predict: predictLasso,
	}
}

// lassoData draws the n points: x₁ and z standard normal, x₂ = ρx₁ +
// √(1 − ρ²)z (so x₂ is standard normal with correlation ρ to x₁), and y
// from lassoTruth with Gaussian noise σ.
func lassoData(n int, rho, sigma float64, seed uint64) ([][]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 0x1a550))
	x, y := make([][]float64, n), make([]float64, n)
	for i := range x {
		x1, z := r.NormFloat64(), r.NormFloat64()
		x[i] = []float64{x1, rho*x1 + math.Sqrt(1-rho*rho)*z}
		y[i] = lassoTruth.Predict(x[i]) + sigma*r.NormFloat64()
	}
	return x, y
}

// lassoRun is one state of the demo: the run to the step shown, the
// iterates on the way, and the reference answers drawn beside it.
type lassoRun struct {
	l        *linreg.Lasso
	s        linreg.LassoState
	trail    [][2]float64 // the iterates w⁽⁰⁾ … w⁽ᵏ⁾
	sol      linreg.LassoState
	ls       linreg.Model // least squares, α = 0
	ridge    linreg.Model // ridge at the same α, as the paths figure scales it
	alpha    float64
	alphaMax float64
	n        int
	lsPart   func(w1, w2 float64) float64 // (1/2n)‖ỹ − X̃w‖²
	paths    chart.Curves
	hasPaths bool
	// predicting is set on a page that asks about the next step of a run
	// that goes on: the notes on the solution are left out (solutionNotes).
	predicting bool
}

// keptLasso returns state in.Step of l's run (or its last) and its step
// from the run the course's cache keeps, with each state's (w₁, w₂) up to
// it when the trail is drawn: the one way the demo and its questions reach
// a step.
func keptLasso(ctx context.Context, in demo.Input, x [][]float64, y []float64, l *linreg.Lasso, s0 linreg.LassoState, trail bool) (linreg.LassoState, int, []float64, error) {
	key := demo.ProblemKey("lasso-run", x, y, l.Alpha, float64(l.MaxSteps))
	return demo.RunKept(ctx, in.Cache, key, l, s0, in.Step, lassoStateBytes(len(s0.W), len(s0.R)), len(s0.W),
		func(s linreg.LassoState, v []float64) { copy(v, s.W) }, trail)
}

// lassoStateBytes is the memory of a linreg.LassoState of d weights on n
// points: 128 bytes of fields, w and the residual.
func lassoStateBytes(d, n int) int64 { return 128 + 8*int64(d+n) }

func computeLasso(ctx context.Context, in demo.Input) (demo.Result, error) {
	st := in.State
	alpha := lassoAlpha.Get(st)
	x, y := lassoData(lassoN.Get(st), lassoCorr.Get(st), lassoNoise.Get(st), uint64(lassoSeed.Get(st)))
	l, s0, err := linreg.NewLasso(x, y, alpha, demo.MaxStep)
	if err != nil {
		return demo.Result{}, demo.UncomputableIf(err, linreg.ErrNotFinite)
	}
	s, k, v, err := keptLasso(ctx, in, x, y, l, s0, in.Wants(demo.PlotFigure))
	if err != nil {
		return demo.Result{}, err
	}
	trail := make([][2]float64, len(v)/2)
	for i := range trail {
		trail[i] = [2]float64{v[2*i], v[2*i+1]}
	}
	sol, err := lassoSolution(ctx, in.Cache, x, y, alpha)
	if err != nil {
		return demo.Result{}, err
	}
	ls, err := linreg.Fit(x, y, 0, true)
	if err != nil {
		return demo.Result{}, demo.UncomputableIf(err, linreg.ErrNotFinite)
	}
	ridge, err := linreg.Fit(x, y, alpha, true)
	if err != nil {
		return demo.Result{}, demo.UncomputableIf(err, linreg.ErrNotFinite)
	}
	r := &lassoRun{l: l, s: s, trail: trail, sol: sol, ls: ls, ridge: ridge, alpha: alpha, alphaMax: l.AlphaMax(), n: len(x), lsPart: lsPart(l),
		predicting: st.Predict.On && !s.Status.Done()}
	if in.Wants("paths") {
		if r.paths, err = keptPaths(ctx, in.Cache, x, y, alpha); err != nil {
			return demo.Result{}, err
		}
		r.hasPaths = true
	}
	plotFig := func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
		f, err := r.figure()
		if err != nil {
			return render.Frame{}, err
		}
		return f.Write(w, png, opt)
	}
	paths := func(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
		return render.Frame{}, chart.CurvesSVG(w, r.paths, render.Options{Width: opt.Width})
	}
	return demo.Result{
		Step: k, Done: s.Status.Done(), Plot: plotFig,
		Panels: map[string]demo.Drawer{"paths": paths},
		Panel:  r.panel,
	}, nil
}

// lassoSolution is the lasso solution w* of x, y at α (the last state of
// a solve that ran out of its budget, whose status says so), kept in
// cache: a solve can take lassoBudget steps, too many for every page.
func lassoSolution(ctx context.Context, cache *demo.Cache, x [][]float64, y []float64, alpha float64) (linreg.LassoState, error) {
	return demo.Memoise(ctx, cache, demo.ProblemKey("lasso-solution", x, y, alpha),
		func(s linreg.LassoState) int64 { return lassoStateBytes(len(s.W), len(s.R)) },
		func(context.Context) (linreg.LassoState, error) {
			_, sol, err := linreg.SolveLasso(x, y, alpha, lassoBudget(len(x)))
			if err != nil && sol.Status != algos.IterationLimit {
				return sol, demo.UncomputableIf(err, linreg.ErrNotFinite)
			}
			return sol, nil
		})
}

// keptPaths is lassoPaths kept in cache by the data alone (the sweep
// does not depend on α), with its mark at α: 49 solves are too many for
// every page.
func keptPaths(ctx context.Context, cache *demo.Cache, x [][]float64, y []float64, alpha float64) (chart.Curves, error) {
	c, err := demo.Memoise(ctx, cache, demo.ProblemKey("lasso-paths", x, y),
		func(c chart.Curves) int64 {
			n := int64(512)
			for _, s := range c.Series {
				n += 64 + demo.FloatsBytes(s.X, s.Y)
			}
			return n
		},
		func(ctx context.Context) (chart.Curves, error) { return lassoPaths(ctx, x, y, math.NaN()) })
	c.Mark = alpha
	return c, err
}

// lsPart is the least-squares half of the lasso objective as a function
// of w with b minimised out, (1/2n)‖ỹ − X̃w‖² = ½wᵀCw − c·w + ½‖ỹ‖²/n
// with C = X̃ᵀX̃/n and c = X̃ᵀỹ/n: the contours the figure draws.
func lsPart(l *linreg.Lasso) func(w1, w2 float64) float64 {
	xc, yc := l.Centred()
	n := float64(len(yc))
	var c11, c12, c22, b1, b2, yy float64
	for i, row := range xc {
		c11 += row[0] * row[0] / n
		c12 += row[0] * row[1] / n
		c22 += row[1] * row[1] / n
		b1 += row[0] * yc[i] / n
		b2 += row[1] * yc[i] / n
		yy += yc[i] * yc[i] / n
	}
	return func(w1, w2 float64) float64 {
		return 0.5*(c11*w1*w1+2*c12*w1*w2+c22*w2*w2) - b1*w1 - b2*w2 + 0.5*yy
	}
}

// lassoWork bounds the work of one reference solve (the solution w* and
// each α of the paths figure) in multiply-adds: a coordinate step costs
// about 2n. Five points with a sample correlation near ±1 can need over
// 30 000 steps (the worst of 300 seeds at ρ = ±0.95, α = 10⁻³), more than
// the MaxStep a stepped run shows; the default state needs 4 steps, and
// 34 at α = 0.1.
const lassoWork = 4_000_000

// lassoBudget is the step budget of a reference solve on n points: the
// work bound spread over steps of n multiply-adds, and never below what a
// stepped run may show.
func lassoBudget(n int) int { return max(demo.MaxStep, lassoWork/n) }

// lassoPathAlphas are the α of the paths figure: 49 values evenly spaced
// on a log scale over the slider's range, 10⁻³ to 10.
func lassoPathAlphas() []float64 {
	const k = 49
	out := make([]float64, k)
	for i := range out {
		out[i] = math.Pow(10, -3+4*float64(i)/(k-1))
	}
	return out
}

// lassoPaths solves the lasso and ridge for each α of the sweep on the
// same data; ridge minimises (1/2n)‖y − Xw − b·1‖² + (α/2)‖w‖₂², which is
// half of linreg.Fit's objective with λ = α (scikit-learn's Ridge with
// alpha = nα), so both penalties have the same weight α per unit of
// their regulariser's derivative at |wⱼ| = 1.
func lassoPaths(ctx context.Context, x [][]float64, y []float64, mark float64) (chart.Curves, error) {
	c := chart.Curves{
		Title:  "coefficients against α · lasso (solid) · ridge (dashed): (1/2n)‖y − Xw − b·1‖² + (α/2)‖w‖₂²",
		XLabel: "α", YLabel: "coefficient", LogX: true, NoMarkers: true, Mark: mark,
	}
	series := []chart.Curve{{Name: "lasso w₁"}, {Name: "lasso w₂"}, {Name: "ridge w₁", Dashed: true}, {Name: "ridge w₂", Dashed: true}}
	for _, a := range lassoPathAlphas() {
		if err := ctx.Err(); err != nil {
			return c, err
		}
		m, _, err := linreg.SolveLasso(x, y, a, lassoBudget(len(x)))
		if err != nil {
			return c, demo.UncomputableIf(err, linreg.ErrNotFinite, algos.ErrIterationLimit)
		}
		rg, err := linreg.Fit(x, y, a, true)
		if err != nil {
			return c, demo.UncomputableIf(err, linreg.ErrNotFinite)
		}
		for i, v := range []float64{m.W[0], m.W[1], rg.W[0], rg.W[1]} {
			series[i].X, series[i].Y = append(series[i].X, a), append(series[i].Y, v)
		}
	}
	c.Series = series
	return c, nil
}
