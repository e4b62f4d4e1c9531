package regression

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/render/graphs"
	"github.com/margin-edu/margin/internal/textfmt"
)

// LSGDSpec declares gradient descent on the least-squares loss of a line,
// stepping towards the answer of the normal equation.
func LSGDSpec() demo.Spec {
	return demo.Spec{
		ID: "ls-gd", Title: "Gradient descent on least squares", Lesson: "linear-regression",
		Data:        curveData(nil, "line", "sine", "cubic"),
		Params:      demo.Params(append(curveParams(20, 200, 0.2), lsgdEta, lsgdLambda)...),
		Examples:    []demo.Example{{Name: "step20", Query: "step=20"}},
		Conventions: lsgdConventions(), Explain: demo.Explain{Section: "gradient-descent"},
		Compute: computeLSGD, Predict: predictLSGD,
	}
}

// The step size of gradient descent on least squares, and its λ, which
// penalises the one weight, the slope.
var (
	lsgdEta = demo.Float{Key: "eta", Label: "step size η", Doc: "gradient step size; above 2/L the run diverges", Group: demo.GroupAlgo,
		Default: 0.25, Min: 1e-3, Max: 10, Step: "any", Log: true}
	lsgdLambda = ridgeLambda.Tweak(func(p *demo.Float) { p.Doc = "ridge penalty λw² on the slope (not the intercept)" })
)

// lsRecorder samples J − J* and ‖θ − θ*‖ of the states of a run, from
// the scalars its kept run holds of each.
type lsRecorder struct {
	clock    demo.SampleClock
	opt      linreg.Model
	optVal   float64
	gap, err chart.Series
}

// lsWidth is the scalars the kept run holds of a state with d weights:
// its T, J and b, then w.
func lsWidth(d int) int { return 3 + d }

// lsScalars writes s's T, J, b and w into v.
func lsScalars(s linreg.GDState, v []float64) {
	v[0], v[1], v[2] = float64(s.T), s.Objective, s.B
	copy(v[3:], s.W)
}

// record samples the states 0, 1, … whose scalars v holds, width each,
// as the clock picks them.
func (r *lsRecorder) record(v []float64, width int) {
	for i := range len(v) / width {
		if r.clock.Due(i) {
			u := v[i*width : (i+1)*width]
			r.sample(int(u[0]), u[1], u[3:], u[2])
		}
	}
}

// sample adds the state after iteration t, with objective obj at (w, b),
// unless the last sample is already iteration t's.
func (r *lsRecorder) sample(t int, obj float64, w []float64, b float64) {
	tf := float64(t)
	if n := len(r.gap.T); n > 0 && r.gap.T[n-1] == tf {
		return
	}
	r.gap.T, r.gap.Y = append(r.gap.T, tf), append(r.gap.Y, obj-r.optVal)
	r.err.T, r.err.Y = append(r.err.T, tf), append(r.err.Y, r.distance(w, b))
}

// distance is ‖θ − θ*‖ over θ = (w, b).
func (r *lsRecorder) distance(w []float64, b float64) float64 {
	d := (b - r.opt.B) * (b - r.opt.B)
	for i, wi := range w {
		d += (wi - r.opt.W[i]) * (wi - r.opt.W[i])
	}
	return math.Sqrt(d)
}

// keptLSGD returns state k of g's run (or its last) and its step from the
// run the course's cache keeps, with lsScalars of each state up to it
// when recorded: the one way the demo and its questions reach a step.
//
// A run the cap stops has one step number everywhere: linreg.GD marks
// the refusal on a copy of its last iterate, one step later, so keptLSGD
// looks one step ahead of a running state and returns the stopped state
// at its own iteration T, never at T + 1.
func keptLSGD(ctx context.Context, in demo.Input, x [][]float64, y []float64, g *linreg.GD, s0 linreg.GDState, recorded bool) (linreg.GDState, int, []float64, error) {
	key := demo.ProblemKey("ls-gd-run", x, y, g.Lambda, g.Eta)
	d := len(s0.W)
	// 104 bytes of fields, then w and ∇_w.
	s, k, v, err := demo.RunKept(ctx, in.Cache, key, g, s0, in.Step, 104+16*int64(d), lsWidth(d), lsScalars, recorded)
	if err != nil {
		return s, k, v, err
	}
	if !s.Status.Done() {
		if next := g.Step(s); next.Status == algos.Diverged {
			s = next
		}
	}
	if s.Status == algos.Diverged && k > s.T {
		k = s.T
		if n := (k + 1) * lsWidth(d); len(v) > n {
			v = v[:n:n]
		}
	}
	return s, k, v, nil
}

func computeLSGD(ctx context.Context, in demo.Input) (demo.Result, error) {
	xy, xs, ys := graphXY(in.Points)
	st := in.State
	x := linreg.PolyRows(xs, 1)
	g, s0, err := linreg.NewGD(x, ys, lsgdLambda.Get(st), lsgdEta.Get(st), true)
	if err != nil {
		return demo.Result{}, demo.UncomputableIf(err, linreg.ErrNotFinite)
	}
	opt, err := linreg.Fit(x, ys, lsgdLambda.Get(st), true)
	if err != nil {
		return demo.Result{}, demo.UncomputableIf(err, linreg.ErrNotFinite)
	}
	rec := &lsRecorder{clock: demo.NewSampleClock(in.Step), opt: opt, optVal: linreg.Objective(x, ys, opt, lsgdLambda.Get(st))}
	s, k, v, err := keptLSGD(ctx, in, x, ys, g, s0, in.Wants(demo.HistoryFigure))
	if err != nil {
		return demo.Result{}, err
	}
	rec.record(v, lsWidth(len(s0.W)))
	rec.sample(s.T, s.Objective, s.W, s.B)
	plotFig := func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
		f, err := lsgdFigure(g, s, rec, xy, st)
		if err != nil {
			return render.Frame{}, err
		}
		return f.Write(w, png, opt)
	}
	return demo.Result{
		Step: k, Done: s.Status.Done(), Plot: plotFig,
		History: lsgdHistory(s, rec, lsgdLambda.Get(st)),
		Panel:   func() demo.Panel { return lsgdPanel(g, s, rec, lsgdEta.Get(st)) },
	}, nil
}

// lsgdFigure draws the points, the exact least-squares line (dashed) and
// the iterate's line with its residuals.
func lsgdFigure(g *linreg.GD, s linreg.GDState, rec *lsRecorder, xy [][2]float64, st demo.State) (render.DataFigure, error) {
	now := func(x float64) float64 { return s.W[0]*x + s.B }
	exact := func(x float64) float64 { return rec.opt.W[0]*x + rec.opt.B }
	obs, err := graphs.NewObservations(xy)
	if err != nil {
		return render.DataFigure{}, err
	}
	res, err := graphs.NewResiduals(xy, now)
	if err != nil {
		return render.DataFigure{}, err
	}
	eg, err := graphs.NewGraph(exact, graphs.GraphStyle(1, true))
	if err != nil {
		return render.DataFigure{}, err
	}
	ng, err := graphs.NewGraph(now, graphs.GraphStyle(0, false))
	if err != nil {
		return render.DataFigure{}, err
	}
	eta, lambda := lsgdEta.Get(st), lsgdLambda.Get(st)
	title := fmt.Sprintf("iteration %d · J = %s · J* = %s", s.T, textfmt.Sig(s.Objective), textfmt.Sig(rec.optVal))
	if s.Status == algos.Diverged {
		etaText, twoL := apart(eta, 2/g.L())
		title = fmt.Sprintf("iteration %d · J = %s · diverged: η = %s is above 2/L = %s", s.T, textfmt.Sig(s.Objective), etaText, twoL)
	}
	title += fmt.Sprintf("\ngradient descent on %s, η = %s", objectiveName(lambda), textfmt.Sig(eta))
	if lambda > 0 {
		title += ", λ = " + textfmt.Sig(lambda)
	}
	desc := fmt.Sprintf("%s; the line of gradient descent after %s, %s, with its residuals, "+
		"and the line that minimises J exactly, from the normal equation, %s (dashed).",
		textfmt.Plural(len(xy), "observations"), textfmt.Plural(s.T, "iterations"), lineText(s.W[0], s.B), lineText(rec.opt.W[0], rec.opt.B))
	if s.Status == algos.Diverged {
		desc += " " + stopReason(g, s)
	}
	return graphFigure(title, desc, graphView(xy), []plot.Plotter{res, eg, ng, obs}, []render.LegendItem{
		{Label: "iterate θ⁽ᵏ⁾", Thumbs: []plot.Thumbnailer{ng}},
		{Label: "normal equation θ*", Thumbs: []plot.Thumbnailer{eg}},
		{Label: "observations", Thumbs: []plot.Thumbnailer{obs.Thumb(false)}},
	}), nil
}

func lsgdHistory(s linreg.GDState, rec *lsRecorder, lambda float64) *chart.History {
	if len(rec.gap.T) < 2 {
		return nil
	}
	rec.gap.Label, rec.gap.Log, rec.gap.Lines = "J − J*", true, true
	rec.err.Label, rec.err.Log, rec.err.Lines = "‖θ − θ*‖", true, true
	title := fmt.Sprintf("after iteration %d: J − J* = %s · ‖θ − θ*‖ = %s", s.T, textfmt.Sig(s.Objective-rec.optVal), textfmt.Sig(rec.distance(s.W, s.B)))
	return &chart.History{
		Title: title, Name: "Gradient descent on " + objectiveName(lambda) + ": " + title, XLabel: "iteration k", Now: float64(s.T),
		Desc: fmt.Sprintf("Two panels against the iteration k from 0 to %d, both on a log scale: how far the objective is above "+
			"its minimum, and the distance from the iterate (w, b) to the normal equation's answer.", s.T),
		Series: []chart.Series{rec.gap, rec.err},
	}
}

func lsgdPanel(g *linreg.GD, s linreg.GDState, rec *lsRecorder, eta float64) demo.Panel {
	L := g.L()
	// L and 2/L carry the digits that tell them from 2/η and η, so a
	// comparison the notes below make can be read off the counters.
	lText, _ := apart(L, 2/eta)
	twoL, etaText := apart(2/L, eta)
	p := demo.Panel{
		Counters: []demo.Counter{
			{"iteration k", strconv.Itoa(s.T), "step"},
			{"J(θ)", textfmt.Sig(s.Objective), "objective"},
			{"J* (normal equation)", textfmt.Sig(rec.optVal), "optimum"},
			{"‖θ − θ*‖", textfmt.Sig(rec.distance(s.W, s.B)), "distance"},
			{"L", lText, "L"},
			{"2/L", twoL, "two-over-L"},
		},
		Status: s.Status.String(), Done: s.Status.Done(), Bad: s.Status == algos.Diverged,
		Start: "θ⁽⁰⁾ = (w, b) = (0, 0): the line y = 0. Press → or Step for the first iteration.",
		Model: []demo.ModelLine{{Facts: []demo.Fact{{"w", coef(s.W[0]), "w"}, {"b", coef(s.B), "b"}}},
			{Prefix: "normal equation:", Facts: []demo.Fact{{"w*", coef(rec.opt.W[0]), "w-opt"}, {"b*", coef(rec.opt.B), "b-opt"}}}},
	}
	if s.T > 0 {
		p.Examined = fmt.Sprintf("Iteration %d: θ ← θ − η∇J(θ) with ∇J = (2/n) Σ (w·xᵢ + b − yᵢ)(xᵢ, 1) + 2λ(w, 0); ‖∇J‖ is now %s.", s.T, textfmt.Sig(s.GradNorm))
		p.Changed = true
	}
	factor, _ := apart(math.Abs(1-eta*L), 1)
	switch {
	case s.Status == algos.Diverged:
		p.Status = "diverged"
		p.Notes = append(p.Notes, demo.Note{TestID: "diverged", Alert: true, Text: fmt.Sprintf(
			"η = %s is above 2/L = %s: along the Hessian's steepest direction each step overshoots, and the error there grows by "+
				"a factor |1 − ηL| = %s per step. %s Lower η below %s.", etaText, twoL, factor, stopReason(g, s), twoL)})
	case eta > 2/L:
		p.Notes = append(p.Notes, demo.Note{TestID: "too-large", Alert: true, Text: fmt.Sprintf(
			"η = %s is above 2/L = %s: the error along the steepest direction grows by a factor |1 − ηL| = %s each step.", etaText, twoL, factor)})
	case eta == 2/L:
		p.Notes = append(p.Notes, demo.Note{TestID: "edge", Alert: true, Text: fmt.Sprintf(
			"η = %s is exactly 2/L: the error along the steepest direction is multiplied by 1 − ηL = −1 each step, so it bounces for ever "+
				"and the run does not converge.", etaText)})
	default:
		p.Notes = append(p.Notes, demo.Note{TestID: "rate", Text: fmt.Sprintf(
			"L = %s is the largest eigenvalue of the Hessian (2/n)X̃X̃ᵀ + 2λ·diag(1, 0), where the columns of X̃ are the padded points (xᵢ, 1); "+
				"η = %s is below 2/L = %s, so every direction contracts and the run converges; η = 1/L = %s is the classic safe choice.",
			lText, etaText, twoL, textfmt.Sig(1/L))})
	}
	return p
}

// stopReason says why a diverged run stopped: the cap on J (GD.Limit),
// with the numbers, or an iterate that left float64's range.
func stopReason(g *linreg.GD, s linreg.GDState) string {
	if math.IsInf(s.Refused, 0) || math.IsNaN(s.Refused) {
		return fmt.Sprintf("Iteration %d would leave the range of a float64, so the run stopped on iteration %d, the last finite one.", s.T+1, s.T)
	}
	return fmt.Sprintf("The demo stops a run whose J would pass the cap of %s: iteration %d would have J = %s, so the run stopped at "+
		"iteration %d, with J = %s.", power(g.Limit()), s.T+1, textfmt.Sig(s.Refused), s.T, textfmt.Sig(s.Objective))
}

// power writes an exact power of ten as 10ᵏ, anything else as sig does.
func power(v float64) string {
	if v > 0 {
		e := int(math.Round(math.Log10(v)))
		if p, _ := strconv.ParseFloat("1e"+strconv.Itoa(e), 64); p == v {
			return "10" + textfmt.Sup(e)
		}
	}
	return textfmt.Sig(v)
}

// coef writes a weight: with num's four decimals, or with sig's
// significant figures once it is a million or more, where num would
// print every digit of a 48-digit integer.
func coef(v float64) string {
	if math.Abs(v) >= 1e6 {
		return textfmt.Sig(v)
	}
	return textfmt.Num(v)
}

// apart writes a and b with sig's four significant figures, or with as
// many more as it takes for the two to print differently, so that "a is
// above b" never reads "1 is above 1". Equal numbers print alike.
func apart(a, b float64) (string, string) {
	sa, sb := textfmt.Sig(a), textfmt.Sig(b)
	for p := 5; sa == sb && a != b && p <= 17; p++ {
		sa, sb = sigDigits(a, p), sigDigits(b, p)
	}
	return sa, sb
}

// sigDigits is sig with p significant figures.
func sigDigits(v float64, p int) string { return textfmt.SigN(v, p) }

// objectiveName names what a fit minimises: least squares, or ridge
// regression once λ > 0.
func objectiveName(lambda float64) string {
	if lambda > 0 {
		return "ridge regression"
	}
	return "least squares"
}

// lineText writes y = w·x + b with the sign of b in the operator.
func lineText(w, b float64) string {
	op := "+"
	if b < 0 {
		op, b = "−", -b
	}
	return fmt.Sprintf("y = %s·x %s %s", textfmt.Sig(w), op, textfmt.Sig(b))
}
