package regression

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/render/graphs"
	"github.com/margin-edu/margin/internal/textfmt"
)

// Limits of the bias–variance demo: every page refits fits × (1 + the
// two sweeps' 26 settings) polynomials, so both stay small.
const (
	maxFits     = 200
	maxBVDegree = 12
	maxBVN      = 50
)

// BiasVarianceSpec declares 003's experiment: the same inputs, fresh
// Gaussian noise on y each time, a polynomial refitted to every resample;
// the fan of fits shows the variance, the gap between their mean and the
// true curve the bias, as the degree and λ change.
func BiasVarianceSpec() demo.Spec {
	return demo.Spec{
		ID: "bias-variance", Title: "Bias and variance over many noisy resamples", Lesson: "linear-regression",
		Data:   curveData(nil, "sine", "line", "cubic"),
		Params: demo.Params(append(curveParams(15, maxBVN, 0.3), bvFits, bvDegree, ridgeLambda)...),
		Panels: []string{"lambda", "degree"}, PanelLabels: map[string]string{"lambda": "Bias² and variance against λ", "degree": "Bias² and variance against the degree"}, Static: true,
		Examples:    []demo.Example{{Name: "fits20", Query: "fits=20"}},
		Conventions: polyConventions(bvDegree), Explain: demo.Explain{Section: "bias-variance"},
		Compute: computeBiasVariance,
	}
}

// The bias–variance demo's own parameters: how many resamples, and the
// degree, at most maxBVDegree.
var (
	bvFits = demo.Int{Key: "fits", Label: "resamples", Doc: "noisy resamples of y, each refitted", Group: demo.GroupAlgo,
		Default: 50, Min: 2, Max: maxFits}
	bvDegree = degree.Tweak(func(p *demo.Int) { p.Max = maxBVDegree })
)

// bvGrid is where bias² and variance are averaged: 101 points across
// [−1, 1], the inputs' range.
var bvGrid = func() []float64 {
	g := make([]float64, 101)
	for i := range g {
		g[i] = -1 + float64(i)/50
	}
	return g
}()

// bvSetup is everything a resampling run depends on but the degree and λ.
type bvSetup struct {
	xs    []float64
	f     func(float64) float64
	sigma float64
	fits  int
	seed  uint64
	name  string // names f in the memo key
}

func (b bvSetup) run(p int, lambda float64) (linreg.BiasVariance, error) {
	return linreg.ResampleFits(b.xs, b.f, b.sigma, b.fits, p, lambda, b.seed, bvGrid)
}

func computeBiasVariance(ctx context.Context, in demo.Input) (demo.Result, error) {
	st := in.State
	xy, xs, _ := graphXY(in.Points)
	f, ok := curveTruth(st)
	if !ok {
		return demo.Result{}, demo.Uncomputable(nil, fmt.Sprintf("bias and variance need the true curve: choose a built-in data set, not %s", demo.Custom))
	}
	setup := bvSetup{xs: xs, f: f, sigma: curveNoise.Get(st), fits: bvFits.Get(st), seed: uint64(curveSeed.Get(st)), name: st.DataSet()}
	p, lambda := bvDegree.Get(st), ridgeLambda.Get(st)
	bv, err := setup.run(p, lambda)
	if err != nil {
		return demo.Result{}, err
	}
	plotFig := func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
		fig, err := bvFigure(bv, f, xy, p, lambda, setup)
		if err != nil {
			return render.Frame{}, err
		}
		return fig.Write(w, png, opt)
	}
	sweep := func(byDegree bool) demo.Drawer {
		return func(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
			c, err := bvSweep(ctx, in.Cache, setup, p, lambda, byDegree)
			if err != nil {
				return render.Frame{}, err
			}
			return render.Frame{}, chart.CurvesSVG(w, c, render.Options{Width: opt.Width})
		}
	}
	return demo.Result{
		Done: true, Plot: plotFig,
		Panels: map[string]demo.Drawer{"lambda": sweep(false), "degree": sweep(true)},
		Panel:  func() demo.Panel { return bvPanel(bv, p, lambda, setup) },
	}, nil
}

func polyAt(m linreg.Model) func(float64) float64 {
	return func(x float64) float64 { return horner(m, x) }
}

func bvFigure(bv linreg.BiasVariance, f func(float64) float64, xy [][2]float64, p int, lambda float64, b bvSetup) (render.DataFigure, error) {
	fs := make([]func(float64) float64, len(bv.Fits))
	for i, m := range bv.Fits {
		fs[i] = polyAt(m)
	}
	fan, err := graphs.NewFan(fs)
	if err != nil {
		return render.DataFigure{}, err
	}
	mean, err := graphs.NewGraph(polyAt(bv.Mean), graphs.GraphStyle(0, false))
	if err != nil {
		return render.DataFigure{}, err
	}
	truth, err := graphs.NewGraph(f, graphs.TruthStyle)
	if err != nil {
		return render.DataFigure{}, err
	}
	obs, err := graphs.NewObservations(xy)
	if err != nil {
		return render.DataFigure{}, err
	}
	title := fmt.Sprintf("degree %d · bias² %s · variance %s", p, textfmt.Sig(bv.Bias2), textfmt.Sig(bv.Variance))
	title += fmt.Sprintf("\n%d refits on fresh noise σ = %s", b.fits, textfmt.Sig(b.sigma))
	if lambda > 0 {
		title += ", ridge λ = " + textfmt.Sig(lambda)
	}
	desc := fmt.Sprintf("%d polynomials of degree %d, each fitted to the same %d inputs with fresh Gaussian noise of standard deviation %s "+
		"on y (thin grey), their mean (blue), the true curve (dashed) and one sample of the data. Averaged over [−1, 1], the squared "+
		"bias is %s and the variance %s.", b.fits, p, len(xy), textfmt.Sig(b.sigma), textfmt.Sig(bv.Bias2), textfmt.Sig(bv.Variance))
	return graphFigure(title, desc, graphView(xy), []plot.Plotter{fan, truth, mean, obs}, []render.LegendItem{
		{Label: "refits", Thumbs: []plot.Thumbnailer{fan}},
		{Label: "mean of refits", Thumbs: []plot.Thumbnailer{mean}},
		{Label: "true curve", Thumbs: []plot.Thumbnailer{truth}},
		{Label: "one sample", Thumbs: []plot.Thumbnailer{obs.Thumb(false)}},
	}), nil
}

// bvLambdas are the λ of the sweep chart, 10⁻⁶ to 10².
var bvLambdas = func() []float64 {
	var ls []float64
	for e := -6.0; e <= 2; e += 2.0 / 3 {
		ls = append(ls, math.Pow(10, e))
	}
	return ls
}()

// bvCurves holds a sweep's three curves; memoised, since a sweep refits
// every resample at 13 settings.
type bvCurves struct{ x, bias, variance []float64 }

func (b bvSetup) key(p int, lambda float64, byDegree bool) [sha256.Size]byte {
	flag := 0.0
	if byDegree {
		flag = 1
	}
	return demo.FloatsKey(b.name, b.xs, []float64{b.sigma, float64(b.fits), float64(b.seed), float64(p), lambda, flag})
}

// bvSweep charts bias², variance and their sum against λ (at the degree
// shown) or against the degree (at the λ shown).
func bvSweep(ctx context.Context, cache *demo.Cache, b bvSetup, p int, lambda float64, byDegree bool) (chart.Curves, error) {
	// The sweep does not depend on the setting it varies.
	kp, kl := p, 0.0
	if byDegree {
		kp, kl = 0, lambda
	}
	key := b.key(kp, kl, byDegree)
	cv, err := demo.Memoise(ctx, cache, key, func(cv bvCurves) int64 { return demo.FloatsBytes(cv.x, cv.bias, cv.variance) },
		func(context.Context) (bvCurves, error) { return b.sweep(p, lambda, byDegree) })
	if err != nil {
		return chart.Curves{}, err
	}
	c := chart.Curves{Title: "bias² and variance against λ (degree " + strconv.Itoa(p) + ")", XLabel: "ridge λ", YLabel: "averaged over x",
		LogX: true, LogY: true, Mark: lambda}
	if lambda == 0 {
		c.Mark = math.NaN()
	}
	if byDegree {
		c.Title, c.XLabel, c.LogX, c.Mark = "bias² and variance against the degree", "degree p", false, float64(p)
		if lambda > 0 {
			c.Title += " (λ = " + textfmt.Sig(lambda) + ")"
		}
	}
	total := make([]float64, len(cv.x))
	for i := range total {
		total[i] = cv.bias[i] + cv.variance[i]
	}
	c.Series = []chart.Curve{{Name: "bias²", X: cv.x, Y: floorAll(cv.bias)}, {Name: "variance", X: cv.x, Y: floorAll(cv.variance)},
		{Name: "bias² + variance", X: cv.x, Y: floorAll(total), Dashed: true}}
	c.Title = floorLabel(c.Title, c.Series)
	return c, nil
}

func (b bvSetup) sweep(p int, lambda float64, byDegree bool) (bvCurves, error) {
	var cv bvCurves
	n := len(bvLambdas)
	if byDegree {
		n = maxBVDegree + 1
	}
	for i := range n {
		q, l, x := p, 0.0, 0.0
		if byDegree {
			q, l, x = i, lambda, float64(i)
		} else {
			l = bvLambdas[i]
			x = l
		}
		r, err := b.run(q, l)
		if err != nil {
			return cv, err
		}
		cv.x, cv.bias, cv.variance = append(cv.x, x), append(cv.bias, r.Bias2), append(cv.variance, r.Variance)
	}
	return cv, nil
}

// floorAll lifts values below the chart's floor to it, so a log axis
// keeps a bias² of 10⁻³⁰ (round-off) on the chart.
func floorAll(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Max(x, mseFloor)
	}
	return out
}

func bvPanel(bv linreg.BiasVariance, p int, lambda float64, b bvSetup) demo.Panel {
	diff := 0.0
	for i, w := range bv.Mean.W {
		diff = math.Max(diff, math.Abs(w-bv.Expected.W[i]))
	}
	diff = math.Max(diff, math.Abs(bv.Mean.B-bv.Expected.B))
	noise := b.sigma * b.sigma
	return demo.Panel{
		Counters: []demo.Counter{
			{"bias²", textfmt.Sig(bv.Bias2), "bias2"},
			{"variance", textfmt.Sig(bv.Variance), "variance"},
			{"noise σ²", textfmt.Sig(noise), "noise"},
			{"expected test MSE", textfmt.Sig(bv.Bias2 + bv.Variance + noise), "expected"},
		},
		Done: true, Status: fmt.Sprintf("%d refits", b.fits),
		Examined: fmt.Sprintf("Each refit draws yᵢ = f(xᵢ) + N(0, %s) at the same %d inputs and fits a degree-%d polynomial by %s",
			textfmt.Sig(noise), len(b.xs), p, likelihoodNote(lambda, b.sigma, len(b.xs), p)),
		Model: []demo.ModelLine{
			{Prefix: "mean of the refits:", Facts: []demo.Fact{{"θ̄", textfmt.Vec(append(append([]float64{}, bv.Mean.W...), bv.Mean.B)), "mean-theta"}}},
			{Prefix: "E[θ̂] in closed form:", Facts: []demo.Fact{{"E[θ̂]", textfmt.Vec(append(append([]float64{}, bv.Expected.W...), bv.Expected.B)), "expected-theta"}}},
		},
		Notes: []demo.Note{{TestID: "shrinkage", Text: fmt.Sprintf(
			"The fit is linear in y, so E[θ̂] is the fit of the noiseless f(xᵢ). %s The mean of the %d refits is within %s of E[θ̂] "+
				"(largest entry); more resamples close the gap.", shrinkageText(bv, b, p, lambda), b.fits, textfmt.Sig(diff))}},
	}
}

// likelihoodNote names the fit and says what it estimates: least squares
// is the maximum-likelihood fit under Gaussian noise; with λ > 0 it is
// ridge, which is not, but is the MAP estimate under a Gaussian prior of
// variance σ²/(nλ) on each weight (the intercept's prior flat). At
// degree 0 there is no weight, and λ changes nothing.
func likelihoodNote(lambda, sigma float64, n, p int) string {
	switch {
	case lambda == 0:
		return "least squares: with Gaussian noise that is the maximum-likelihood fit."
	case p == 0:
		return "least squares (λ has no weight to act on: the constant is the intercept, which is not penalised): " +
			"with Gaussian noise that is the maximum-likelihood fit."
	}
	s := fmt.Sprintf("ridge regression, least squares%s with the intercept free. That is not the maximum-likelihood fit, "+
		"which is λ = 0 (plain least squares)", ridgeTerm(lambda))
	if sigma == 0 {
		return s + "."
	}
	return s + fmt.Sprintf("; with Gaussian noise it is the maximum a posteriori (MAP) estimate under a Gaussian prior "+
		"N(0, σ²/(nλ)) = N(0, %s) on each weight.", textfmt.Sig(sigma*sigma/(float64(n)*lambda)))
}

// shrinkageText states 003 §4.5's shrinkage as it holds here and checks
// it on the numbers: with the intercept unpenalised the formula is for
// the weights w on the centred features X_c (the columns φ(xᵢ) − φ̄),
// E[w] = (I − nλ(X_cX_cᵀ + nλI)⁻¹)w*, with w* the least-squares weights
// of the noiseless f(xᵢ). It returns "" when there is nothing to check
// (degree 0, or too few points for a unique w*).
func shrinkageText(bv linreg.BiasVariance, b bvSetup, p int, lambda float64) string {
	n := len(b.xs)
	if lambda == 0 {
		return "With λ = 0 nothing is shrunk: E[θ̂] is the least-squares fit of the noiseless labels, the best fit within the model, " +
			"so least squares is unbiased for it."
	}
	if p == 0 || n <= p {
		return ""
	}
	fx := make([]float64, n)
	for i, x := range b.xs {
		fx[i] = b.f(x)
	}
	star, err := linreg.Fit(linreg.PolyRows(b.xs, p), fx, 0, true)
	if err != nil {
		return ""
	}
	w, ok := centredShrinkage(b.xs, p, lambda, star.W)
	if !ok {
		return ""
	}
	gap := 0.0
	for i := range w {
		gap = math.Max(gap, math.Abs(w[i]-bv.Expected.W[i]))
	}
	return fmt.Sprintf("The intercept is not penalised, so 003's shrinkage holds for the weights on the centred features X_c "+
		"(columns φ(xᵢ) − φ̄): E[w] = (I − nλ(X_cX_cᵀ + nλI)⁻¹)w*, with w* = %s the least-squares weights of the noiseless labels, "+
		"gives %s, E[θ̂]'s weights to within %s. The short notes' matrix form of §4.5 penalises the intercept too, so their formula "+
		"with the uncentred X is for a different fit.", textfmt.Vec(star.W), textfmt.Vec(w), textfmt.Sig(gap))
}

// centredShrinkage applies (I − nλ(A + nλI)⁻¹) = (A + nλI)⁻¹A to w, with
// A = X_cX_cᵀ for the centred polynomial features of xs; false when the
// solve fails.
func centredShrinkage(xs []float64, p int, lambda float64, w []float64) ([]float64, bool) {
	n := len(xs)
	rows := linreg.PolyRows(xs, p)
	mean := make([]float64, p)
	for _, r := range rows {
		for j := range mean {
			mean[j] += r[j] / float64(n)
		}
	}
	a := mat.NewSymDense(p, nil)
	for _, r := range rows {
		for j := 0; j < p; j++ {
			for k := j; k < p; k++ {
				a.SetSym(j, k, a.At(j, k)+(r[j]-mean[j])*(r[k]-mean[k]))
			}
		}
	}
	var aw mat.VecDense
	aw.MulVec(a, mat.NewVecDense(p, append([]float64(nil), w...)))
	m := mat.NewDense(p, p, nil)
	m.Copy(a)
	for j := 0; j < p; j++ {
		m.Set(j, j, m.At(j, j)+float64(n)*lambda)
	}
	var out mat.VecDense
	if err := out.SolveVec(m, &aw); err != nil {
		return nil, false
	}
	return out.RawVector().Data, true
}
