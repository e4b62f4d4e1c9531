package logistic

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"io"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/render/fields"
	"github.com/margin-edu/margin/internal/textfmt"
)

// Limits of the logistic and softmax regression demos, listed in the
// its page in docs/demos with the parameters.
const (
	MinLogisticEta    = 0.01 // gradient descent's η runs over [MinLogisticEta, MaxLogisticEta] on a log slider
	MaxLogisticEta    = 100.0
	MaxLogisticLambda = 10.0 // λ of logistic regression in [0, MaxLogisticLambda]
)

// logisticSets are the two-class sets of the logistic demo: overlapping
// classes first, where J has a minimiser even with λ = 0, then a
// separable set, where it has none.
var logisticSets = []demo.Option{{"noisy", "noisy (random)"}, {"separable", "separable (random)"}, {"moons", "two moons (random)"}}

// The logistic demo's parameters, beside the point sets' n, sep and seed.
var (
	// method is the solver: gradient descent or Newton's method.
	method = demo.Choice{Key: "method", Label: "method", Doc: "`gd`: gradient descent with a fixed step η; `newton`: Newton's method with a backtracking line search",
		Group: demo.GroupAlgo, Default: "gd", Options: []demo.Option{{"gd", "gradient descent"}, {"newton", "Newton (line search)"}}}
	// eta is the fixed step size of gradient descent, on a log slider,
	// as the softmax demo words it; logisticEta applies with gd only.
	eta = demo.Float{Key: "eta", Label: "η", Doc: "step size η of gradient descent (log slider)", Group: demo.GroupAlgo,
		Default: 1, Min: MinLogisticEta, Max: MaxLogisticEta, Step: "any", Log: true}
	logisticEta = eta.Tweak(func(p *demo.Float) {
		p.Doc, p.When = "step size η of gradient descent (`gd` only; log slider)", usesGD
	})
	// logisticLambda is the shared λ from 0 up: with λ = 0 on separable
	// data J has no minimiser, which the demo shows.
	logisticLambda = demo.Lambda.Tweak(func(p *demo.Float) {
		p.Doc = "penalty λ of (λ/2)‖w‖² on the mean loss (the short notes put it on the sum: their λ/n); b is not penalised (0: none; log slider)"
		p.Default, p.Min, p.Max, p.LogZero = 0, 0, MaxLogisticLambda, demo.MinLambda
	})
	// logisticNoise is the shapes' jitter, which only moons takes here.
	logisticNoise = pointset.Noise.Tweak(func(p *demo.Float) {
		p.Doc = "standard deviation of the jitter added to each coordinate (`moons` only)"
	})
)

// usesGD reports whether the logistic demo runs gradient descent.
func usesGD(s demo.State) bool { return method.Is(s, "gd") }

// LogisticSpec declares the logistic regression lesson's first demo:
// gradient descent or Newton's method on the regularised logistic loss
// (000 §1.4), stepped one iteration at a time, with the plane shaded by
// the model's P(y = +1 | x) and the run compared with the exact
// minimiser, or, with λ = 0 on separable data, with its absence.
func LogisticSpec() demo.Spec {
	params := pointset.Params("`noisy`, `separable`, `moons`", "seeds the random set (its held-out points use another seed)")
	params = append(params, demo.Params(logisticNoise, method, logisticEta, logisticLambda)...)
	return demo.Spec{
		ID: "logistic", Title: "Logistic regression, step by step", Lesson: "logistic-regression",
		Data:        demo.DataSpec{Labels: demo.ClassLabels, MaxClasses: 2, Default: "noisy", Sets: logisticSets, Make: pointset.Points},
		Params:      params,
		Examples:    []demo.Example{{Name: "separable", Query: "data=separable&n=30&step=50"}, {Name: "newton", Query: "data=moons&method=newton&step=6"}},
		Conventions: logisticConventions(), Explain: demo.Explain{Section: "fitting"},
		Compute: computeLogistic,
		Predict: predictLogistic,
	}
}

func computeLogistic(ctx context.Context, in demo.Input) (demo.Result, error) {
	x, yf := demo.Columns(in.Points)
	y := pointset.SignLabels(yf)
	if !pointset.BothClasses(y) {
		return demo.OneClassResult(x, y, in, "Logistic regression learns P(y = +1 | x) from points of both classes; these have one."), nil
	}
	st := in.State
	pr, err := logistic.New(x, pointset.FloatLabels(y), logisticLambda.Get(st))
	if err != nil {
		return demo.Result{}, err
	}
	opt, err := logisticOptimum(ctx, in.Cache, pr)
	if err != nil {
		return demo.Result{}, err
	}
	var m algos.Method[logistic.State] = logistic.Newton{P: pr}
	gd, eta := usesGD(st), logisticEta.Get(st)
	if gd {
		m = logistic.GD{P: pr, Eta: eta}
	}
	key := demo.ProblemKey("logistic-track", pr.X, pr.Y, pr.Lambda, demo.B2f(gd), eta)
	s, k, j, w, err := demo.RunTracked(ctx, in.Cache, key, m, pr.Start(), in.Step, logisticStateBytes(pr.Start()),
		func(s logistic.State) (float64, float64) { return s.Objective, floats.Norm(s.Model.W, 2) })
	if err != nil {
		return demo.Result{}, err
	}
	r := &logisticRun{pr: pr, s: s, k: k, y: y, opt: opt, gd: gd, eta: eta, j: j, w: w}
	r.margins = make([]float64, len(x))
	r.wrong = make([]bool, len(x))
	for i, row := range x {
		f := s.Model.Score(row)
		r.margins[i] = float64(y[i]) * f
		r.wrong[i] = demo.Predict(f) != y[i]
	}
	res := demo.Result{Step: k, Done: s.Status.Done(), Plot: r.draw, Panel: func() demo.Panel { return r.panel(st) }}
	if in.Wants(demo.HistoryFigure) {
		res.History = r.history()
	}
	return res, nil
}

// logisticOpt is the exact minimiser of a logistic problem, or why there
// is none.
type logisticOpt struct {
	s    logistic.State
	none bool  // λ = 0 on separable data: J has no minimiser
	err  error // Solve failed otherwise; the demo runs without the comparison
}

func (o logisticOpt) ok() bool { return !o.none && o.err == nil }

// logisticOptimum solves pr exactly (Newton to ‖∇J‖ < 10⁻¹⁰), or learns
// that λ = 0 on separable data leaves J without a minimiser. The answer
// does not depend on the method, η or step shown, so it is memoised in
// cache: stepping through a run solves once. The states are shared and
// read only. A solve that ctx stopped is not an answer: it returns ctx's
// error and is not memoised.
func logisticOptimum(ctx context.Context, cache *demo.Cache, pr *logistic.Problem) (logisticOpt, error) {
	key := demo.ProblemKey("logistic-optimum", pr.X, pr.Y, pr.Lambda)
	return demo.Memoise(ctx, cache, key, func(o logisticOpt) int64 { return logisticStateBytes(o.s) },
		func(ctx context.Context) (logisticOpt, error) {
			var o logisticOpt
			s, err := pr.Solve(ctx)
			switch {
			case demo.IsContextErr(err):
				return o, err
			case errors.Is(err, logistic.ErrNoMinimiser):
				o.none = true
			case err != nil:
				o.err = err
			default:
				o.s = s
			}
			return o, nil
		})
}

// history charts J (its distance above J* on a log scale, when there is a
// minimiser; else J itself, falling to 0) and ‖w‖ (against ‖w*‖) up to
// the state shown.
func (r *logisticRun) history() *chart.History {
	k := r.k
	j, w := demo.Sampled(r.j, k), demo.Sampled(r.w, k)
	w.Label, w.Lines = "‖w‖", true
	j.Label, j.Log, j.Lines = "J (log scale)", true, true
	title := fmt.Sprintf("after iteration %d: J = %s · ‖w‖ = %s", k, textfmt.Sig(r.j[k]), textfmt.Sig(r.w[k]))
	top := "the objective J on a log scale, now " + textfmt.Sig(r.j[k]) + ", falling towards 0 as ‖w‖ grows: there is no minimiser"
	bottom := "‖w‖, now " + textfmt.Sig(r.w[k])
	if r.opt.ok() {
		optJ, optW := r.opt.s.Objective, floats.Norm(r.opt.s.Model.W, 2)
		floats.AddConst(-optJ, j.Y)
		j.Label = "J − J*"
		w.Compare = &chart.Series{Label: "‖w*‖", T: []float64{0, float64(k)}, Y: []float64{optW, optW}, Lines: true}
		title += " · J* = " + textfmt.Sig(optJ)
		top = "how far J is above its minimum J* = " + textfmt.Sig(optJ) + ", on a log scale, now " + textfmt.Sig(r.j[k]-optJ)
		bottom += ", against the minimiser's ‖w*‖ = " + textfmt.Sig(optW) + " (dashed)"
	}
	return &chart.History{
		Title: title, Name: "Logistic regression history: " + title, XLabel: "iteration k", Now: float64(k),
		Desc:   fmt.Sprintf("Two panels against the iteration k from 0 to %d. Top: %s. Bottom: %s.", k, top, bottom),
		Series: []chart.Series{j, w},
	}
}

// logisticRun is the state of a logistic regression run the demo shows.
type logisticRun struct {
	pr      *logistic.Problem
	s       logistic.State
	k       int
	y       []int
	margins []float64 // yᵢf(xᵢ)
	wrong   []bool    // the prediction sgn f(xᵢ) (sgn 0 = −1) is not yᵢ
	opt     logisticOpt
	j, w    []float64 // J and ‖w‖ of states 0…k
	gd      bool
	eta     float64
}

// method names the solver and its numbers, for the title and panel.
func (r *logisticRun) method() string {
	lam := "λ = " + textfmt.Sig(r.pr.Lambda)
	if r.gd {
		return "gradient descent, η = " + textfmt.Sig(r.eta) + ", " + lam
	}
	return "Newton's method with line search, " + lam
}

func (r *logisticRun) title() string {
	m := r.s.Model
	t := fmt.Sprintf("step %d · J = %s · ", r.k, textfmt.Sig(r.s.Objective))
	if isZero(m.W) && m.B == 0 {
		t += "P = ½ everywhere"
	} else {
		t += "‖w‖ = " + textfmt.Sig(floats.Norm(m.W, 2))
	}
	return t + "\n" + r.method()
}

// draw shades the plane by P(y = +1 | x) with its levels P = 0.1 … 0.9,
// the boundary P = ½ boldest, over the training points, the misclassified
// ones in bold.
func (r *logisticRun) draw(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
	m := r.s.Model
	var levels []fields.Level
	if !isZero(m.W) {
		levels = demo.ScoreLevels(fields.ProbabilityLevels())
	}
	// The field samples the score, which is linear, and reads P off it:
	// its levels P = p are the lines f = logit p, which a linear function
	// puts exactly where they are however steep σ gets, where sampling P
	// itself would squeeze them into one grid cell once ‖w‖ is large.
	field, err := fields.NewField(func(x1, x2 float64) float64 { return m.W[0]*x1 + m.W[1]*x2 + m.B },
		func(f float64) color.Color { return fields.ProbabilityFill(logistic.Sigmoid(f)) }, levels...)
	if err != nil {
		return render.Frame{}, err
	}
	field.Res = demo.FieldRes
	bold := make([]bool, len(r.margins))
	anyBold := false
	if !isZero(m.W) || m.B != 0 {
		copy(bold, r.wrong)
		anyBold = slices.Contains(bold, true)
	}
	pts, err := render.NewClassPoints(r.pr.X, r.y, bold)
	if err != nil {
		return render.Frame{}, err
	}
	legend := pts.Legend()
	for _, it := range fields.ProbabilityLegend() {
		it.Hidden = levels == nil
		legend = append(legend, it)
	}
	legend = append(legend, render.LegendItem{Label: "misclassified", Thumbs: []plot.Thumbnailer{pts.BoldThumb()}, Hidden: !anyBold})
	desc := fmt.Sprintf("The plane shaded by the model's probability P(y = +1 | x) = σ(w·x + b) after %s of %s: "+
		"blue where it favours +1, vermillion where it favours −1, white where P = ½. Thin grey lines mark P = 0.1, 0.2, …, 0.9 "+
		"and a bold black line the boundary P = ½. The %d training points are drawn by class; %.1f %% are misclassified (bold edge).",
		textfmt.Plural(r.k, "iterations"), r.method(), len(r.margins), 100*demo.Fraction(r.wrong))
	if levels == nil {
		desc = fmt.Sprintf("The %d training points, drawn by class, on a plane where the model gives P(y = +1 | x) = %s everywhere, "+
			"after %s of %s: w = 0, so there is no boundary.", len(r.margins), textfmt.Sig(logistic.Sigmoid(m.B)), textfmt.Plural(r.k, "iterations"), r.method())
	}
	f := render.DataFigure{
		Title:  r.title(),
		View:   render.DataView(r.pr.X),
		Layers: []plot.Plotter{field, pts},
		Legend: legend,
		Desc:   desc,
	}
	return f.Write(w, png, opt)
}

func isZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// logisticStateBytes estimates the memory of a logistic regression state:
// its weights and the gradient it keeps.
func logisticStateBytes(s logistic.State) int64 { return 128 + 2*demo.FloatsBytes(s.Model.W) }
