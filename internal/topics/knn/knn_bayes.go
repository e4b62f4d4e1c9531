package knn

import (
	"context"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos/bayes"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/fields"
	"github.com/margin-edu/margin/internal/textfmt"
)

// Limits of the mixture the nearest-neighbours lesson samples, listed in
// its page in docs/demos with the parameters.
const (
	MaxMixtureDelta = 8.0  // distance Δ between the class means, 0…MaxMixtureDelta
	MaxMixtureSigma = 4.0  // shared standard deviation σ, (0, MaxMixtureSigma]
	MinMixturePrior = 0.01 // π = P(y = +1) in [MinMixturePrior, 1 − MinMixturePrior]
)

// mixtureSet is the data set of the known two-Gaussian mixture.
const mixtureSet = "mixture"

// isMixture reports whether s draws its points from the mixture.
func isMixture(s demo.State) bool { return s.DataSet() == mixtureSet }

// The mixture's Δ, σ and π, which the Bayes and kNN demos share.
var (
	delta = demo.Float{Key: "delta", Label: "Δ (mean gap)", Doc: "distance Δ between the class means (±Δ/2, 0)", Group: demo.GroupData,
		Default: 2, Min: 0, Max: MaxMixtureDelta, Step: "0.1"}
	sigma = demo.Float{Key: "sigma", Label: "σ", Doc: "standard deviation σ of both classes (covariance σ²I)", Group: demo.GroupData,
		Default: 1, Min: 0, OpenMin: true, Max: MaxMixtureSigma, Step: "0.05"}
	prior = demo.Float{Key: "prior", Label: "π = P(y = +1)", Doc: "prior probability π of class +1", Group: demo.GroupData,
		Default: 0.5, Min: MinMixturePrior, Max: 1 - MinMixturePrior, Step: "0.01"}
)

// mixtureParams declares the mixture: Δ, σ and π, then the sample's size
// and seed (the point sets' n and seed, worded for the sample). when says
// where Δ, σ and π apply; the seed's doc says what else it drives.
func mixtureParams(when func(demo.State) bool, seedDoc string) []demo.Param {
	d, sd, pi := delta, sigma, prior
	d.When, sd.When, pi.When = when, when, when
	n, seed := pointset.N, pointset.Seed
	n.Doc, n.Default, n.Max = "points in the sample (or random set)", 200, demo.MaxPoints
	n.When = func(s demo.State) bool { return s.DataSet() != demo.Custom }
	seed.Doc = seedDoc
	return demo.Params(d, sd, pi, n, seed)
}

// mixtureOf is the mixture s describes: class +1 around (Δ/2, 0), class
// −1 around (−Δ/2, 0), both N(μ, σ²I), P(y = +1) = π.
func mixtureOf(s demo.State) (*bayes.Mixture, error) {
	h := delta.Get(s) / 2
	return bayes.NewIsotropic(prior.Get(s), [2]float64{h, 0}, [2]float64{-h, 0}, sigma.Get(s))
}

// mixturePoints samples the mixture's n points with the state's seed.
func mixturePoints(s demo.State) ([][]float64, []float64, error) {
	m, err := mixtureOf(s)
	if err != nil {
		// Only σ can be off once the keys parse: σ² underflows to 0.
		return nil, nil, demo.Problems{sigma.Key: err.Error()}
	}
	return sampleFloat(m, pointset.N.Get(s), uint64(pointset.Seed.Get(s)))
}

// sampleFloat is bayes.Sample with the labels as the kit's floats.
func sampleFloat(m *bayes.Mixture, n int, seed uint64) ([][]float64, []float64, error) {
	x, y, err := m.Sample(n, seed)
	if err != nil {
		return nil, nil, err
	}
	return x, pointset.FloatLabels(y), nil
}

// BayesSpec declares the Bayes classifier demo: a known two-Gaussian
// mixture with η(x) = P(y = +1 | x) shaded, its Bayes boundary, and the
// Bayes error integrated numerically, next to a sample from it.
func BayesSpec() demo.Spec {
	return demo.Spec{
		ID: "bayes", Title: "The Bayes classifier of a known mixture", Lesson: "knn-bayes",
		Data: demo.DataSpec{Labels: demo.ClassLabels, MaxClasses: 2, Default: mixtureSet,
			Sets: []demo.Option{{mixtureSet, "two Gaussians (sampled)"}}, Make: mixturePoints},
		Params:      mixtureParams(nil, "seeds the sample"),
		Static:      true,
		Examples:    []demo.Example{{Name: "default", Query: "n=60"}},
		Conventions: bayesConventions(), Explain: demo.Explain{Section: "bayes"},
		Compute: computeBayes,
	}
}

func computeBayes(ctx context.Context, in demo.Input) (demo.Result, error) {
	m, err := mixtureOf(in.State)
	if err != nil {
		return demo.Result{}, demo.Problems{sigma.Key: err.Error()}
	}
	x, yf := demo.Columns(in.Points)
	y := pointset.SignLabels(yf)
	risk, bound := m.BayesError()
	wrong := make([]bool, len(x))
	for i, row := range x {
		wrong[i] = m.BayesClassifier(row) != y[i]
	}
	b := bayesRun{m: m, s: in.State, x: x, y: y, wrong: wrong, risk: risk, bound: bound}
	return demo.Result{Done: true, Plot: b.draw, Panel: b.panel}, nil
}

// bayesRun is the mixture, its Bayes error and the points shown.
type bayesRun struct {
	m           *bayes.Mixture
	s           demo.State
	x           [][]float64
	y           []int
	wrong       []bool // h*(xᵢ) ≠ yᵢ
	risk, bound float64
}

// sampleError is the Bayes classifier's error on the points shown.
func (b bayesRun) sampleError() float64 { return demo.Fraction(b.wrong) }

// symmetric reports whether the closed form Φ(−Δ/2σ) applies: π = ½.
func symmetric(s demo.State) bool { return prior.Get(s) == 0.5 }

// closedForm is Φ(−Δ/(2σ)), the Bayes error of the symmetric mixture.
func closedForm(s demo.State) float64 {
	return distuv.UnitNormal.CDF(-delta.Get(s) / (2 * sigma.Get(s)))
}

// boundaryX1 is where the Bayes boundary η = ½ crosses the x₁ axis:
// the log-odds log(π/(1 − π)) + Δx₁/σ² vanish on the vertical line
// x₁ = σ² log((1 − π)/π)/Δ, which leans away from the likelier class's
// mean. With Δ = 0 there is no boundary.
func boundaryX1(s demo.State) (float64, bool) {
	d, sd, pi := delta.Get(s), sigma.Get(s), prior.Get(s)
	if d == 0 {
		return 0, false
	}
	return sd * sd * math.Log((1-pi)/pi) / d, true
}

// draw shades η(x) with its levels 0.1 … 0.9, the Bayes boundary η = ½
// bold, over the points; those h* gets wrong have a bold edge.
func (b bayesRun) draw(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
	m := b.m
	// ℓ(x) is linear here (one shared covariance), so its levels are
	// exact lines at any grid, as in the logistic demo.
	field, err := fields.NewField(func(x1, x2 float64) float64 { return m.LogOdds([]float64{x1, x2}) },
		func(l float64) color.Color { return fields.ProbabilityFill(1 / (1 + math.Exp(-l))) },
		demo.ScoreLevels(fields.ProbabilityLevels())...)
	if err != nil {
		return render.Frame{}, err
	}
	field.Res = demo.FieldRes
	pts, err := render.NewClassPoints(b.x, b.y, b.wrong)
	if err != nil {
		return render.Frame{}, err
	}
	s := b.s
	// With Δ = 0 the classes share their mean, η = π everywhere, and
	// there is no boundary nor any level line to draw or to list.
	flat := delta.Get(s) == 0
	legend := pts.Legend()
	for _, it := range fields.ProbabilityLegend() {
		it.Label = strings.ReplaceAll(it.Label, "P", "η") // the notes' name for P(y = +1 | x)
		it.Hidden = it.Hidden || flat
		legend = append(legend, it)
	}
	legend = append(legend, render.LegendItem{Label: "h* wrong", Thumbs: []plot.Thumbnailer{pts.BoldThumb()}, Hidden: !anyTrue(b.wrong)})
	title := fmt.Sprintf("Bayes error R(h*) = %s · Δ = %s, σ = %s, π = %s\nh* gets %s of these %s wrong",
		textfmt.Pct(b.risk, 2), textfmt.Sig(delta.Get(s)), textfmt.Sig(sigma.Get(s)), textfmt.Sig(prior.Get(s)), textfmt.Pct(b.sampleError(), 2), textfmt.Plural(len(b.x), "points"))
	means := fmt.Sprintf("means (±%s, 0)", textfmt.Sig(delta.Get(s)/2))
	lines := "Thin grey lines mark η = 0.1, …, 0.9 and a bold black line the Bayes boundary η = ½."
	if flat {
		means = "both means at (0, 0)"
		lines = fmt.Sprintf("Here η(x) = π = %s at every x, so there is no boundary and no level line: h* says %s everywhere.",
			textfmt.Sig(prior.Get(s)), signText(b.m.BayesClassifier([]float64{0, 0})))
	}
	desc := fmt.Sprintf("The plane shaded by η(x) = P(y = +1 | x) of a mixture of two Gaussians with %s, "+
		"standard deviation %s and P(y = +1) = %s: blue where η > ½, vermillion where η < ½ (and η = ½ counts as −1). %s The Bayes error is %s. %s drawn by class; "+
		"those the Bayes classifier gets wrong (%s) have a bold edge.",
		means, textfmt.Sig(sigma.Get(s)), textfmt.Sig(prior.Get(s)), lines, textfmt.Pct(b.risk, 2), pointsAre(len(b.x)), textfmt.Pct(b.sampleError(), 2))
	f := render.DataFigure{Title: title, View: mixtureView(b.x, s), Layers: []plot.Plotter{field, pts}, Legend: legend, Desc: desc}
	return f.Write(w, png, opt)
}

// mixtureView is the view of the points, or of the mixture's likely
// region (the means ± 3σ) when there are none.
func mixtureView(x [][]float64, s demo.State) render.View {
	if len(x) > 0 {
		return render.DataView(x)
	}
	h, sd := delta.Get(s)/2, 3*sigma.Get(s)
	return render.View{XMin: -h - sd, XMax: h + sd, YMin: -sd, YMax: sd}
}

// signText writes a label ±1 as "+1" or "−1".
func signText(y int) string {
	if y > 0 {
		return "+1"
	}
	return "−1"
}

func anyTrue(v []bool) bool {
	for _, t := range v {
		if t {
			return true
		}
	}
	return false
}

// pct writes a rate as a percentage to two decimals, "—" when NaN.
func (b bayesRun) panel() demo.Panel {
	s := b.s
	p := demo.Panel{Status: "the best any classifier can do", Done: true}
	p.Counters = []demo.Counter{
		{"Bayes error R(h*)", textfmt.Pct(b.risk, 2), "bayes-error"},
		{"h*'s error on these " + textfmt.Plural(len(b.x), "points"), textfmt.Pct(b.sampleError(), 2), "sample-error"},
	}
	value, acc := BayesErrorText(b.risk, b.bound)
	p.Start = "h*(x) = +1 where η(x) = P(y = +1 | x) > ½, else −1: the Bayes classifier of this mixture, which knows the distribution. " +
		"Where η = ½ exactly either answer errs half the time; Margin says −1 there, the lower label, as it does for a tied kNN vote (the notes say +1: the risk is the same)."
	p.Model = []demo.ModelLine{{Prefix: "by quadrature:", Facts: []demo.Fact{{"R(h*) = E[min(η, 1 − η)]", value + " ± " + acc, "bayes-quadrature"}}}}
	if x1, ok := boundaryX1(s); ok {
		p.Model = append(p.Model, demo.ModelLine{Prefix: "Bayes boundary η = ½:", Facts: []demo.Fact{{"x₁ = σ² log((1 − π)/π)/Δ", textfmt.Sig(x1), "bayes-boundary"}}})
	}
	if symmetric(s) {
		cf := closedForm(s)
		p.Counters = append(p.Counters, demo.Counter{"closed form Φ(−Δ/2σ)", textfmt.Pct(cf, 2), "closed-form"})
		p.Model = append(p.Model, demo.ModelLine{Prefix: "closed form (π = ½):", Facts: []demo.Fact{{
			"Φ(−Δ/2σ) = Φ(" + textfmt.Sig(-delta.Get(s)/(2*sigma.Get(s))) + ")",
			strconv.FormatFloat(cf, 'f', decimals(b.bound), 64), "bayes-closed"}}})
	}
	p.Notes = []demo.Note{
		{TestID: "risk", Text: "The risk R(h) = P(h(x) ≠ y) is the expected 0/1 loss on a fresh draw from the distribution; " +
			"no classifier has a lower one than the Bayes classifier h*(x) = +1 where η(x) > ½, −1 elsewhere.",
			Fine: "The training error on a sample only estimates it; the gap between the two is the generalization gap."},
		{TestID: "quadrature", Text: "The Bayes error is integrated over the plane by adaptive Gauss–Legendre quadrature; " +
			"± is a bound on that integral's error (the 12- against the 24-point rule, plus rounding).",
			Fine: "The shading, the boundary and the Bayes error describe the mixture, not your points: " +
				"points you add change only h*'s error on the sample."},
	}
	return p
}

// BayesErrorText writes a Bayes error and its error bound as the panel
// prints them: the value to as many decimals as the bound supports (at
// least 4, at most 15) and the bound rounded up to one significant digit.
// The printed value is within bound + ½·10^−decimals of the exact one.
func BayesErrorText(risk, bound float64) (value, accuracy string) {
	return strconv.FormatFloat(risk, 'f', decimals(bound), 64), roundUp1(bound)
}

// decimals is how many decimals a value known to ± bound deserves: as
// many as the bound rounded up to one digit has (1e-14: 14), from 4 to 15.
func decimals(bound float64) int {
	if !(bound > 0) {
		return 15
	}
	_, e := upDigit(bound)
	return min(15, max(4, -e))
}

// roundUp1 writes v > 0 rounded up to one significant digit: "2·10⁻¹⁴".
func roundUp1(v float64) string {
	if !(v > 0) {
		return "0"
	}
	d, e := upDigit(v)
	return strconv.Itoa(d) + "·10" + textfmt.Sup(e)
}

// upDigit rounds v > 0 up to one significant digit, d·10^e.
func upDigit(v float64) (d, e int) {
	e = int(math.Floor(math.Log10(v)))
	d = int(math.Ceil(v / math.Pow(10, float64(e))))
	if d >= 10 {
		d, e = 1, e+1
	}
	return d, e
}
