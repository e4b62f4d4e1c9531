package lessons

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/render"
)

// LSGDSpec declares gradient descent on the least-squares loss of a line,
// stepping towards the answer of the normal equation.
func LSGDSpec() Spec {
	return Spec{
		ID: "ls-gd", Title: "Gradient descent on least squares", Lesson: "linear-regression",
		Data: curveData(nil, "line", "sine", "cubic"),
		Params: append(curveParams("20", 200, "0.2"),
			Param{Key: "eta", Label: "step size η", Doc: "gradient step size; above 2/L the run diverges", Kind: Float, Group: GroupAlgo,
				Default: "0.25", Min: 1e-3, Max: 10, Step: "any", Log: true},
			ridgeParam("ridge penalty λw² on the slope (not the intercept)")),
		Compute: computeLSGD,
	}
}

// lsRecorder samples J − J* and ‖θ − θ*‖ while the run replays.
type lsRecorder struct {
	clock    sampleClock
	opt      linreg.Model
	optVal   float64
	gap, err render.Series
}

// Record implements algos.Recorder.
func (r *lsRecorder) Record(k int, s linreg.GDState) error {
	if r.clock.due(k) {
		r.sample(s)
	}
	return nil
}

func (r *lsRecorder) sample(s linreg.GDState) {
	t := float64(s.T)
	if n := len(r.gap.T); n > 0 && r.gap.T[n-1] == t {
		return
	}
	r.gap.T, r.gap.Y = append(r.gap.T, t), append(r.gap.Y, s.Objective-r.optVal)
	r.err.T, r.err.Y = append(r.err.T, t), append(r.err.Y, r.distance(s))
}

// distance is ‖θ − θ*‖ over θ = (w, b).
func (r *lsRecorder) distance(s linreg.GDState) float64 {
	d := (s.B - r.opt.B) * (s.B - r.opt.B)
	for i, w := range s.W {
		d += (w - r.opt.W[i]) * (w - r.opt.W[i])
	}
	return math.Sqrt(d)
}

func computeLSGD(in Input) (Result, error) {
	xy, xs, ys := graphXY(in.Points)
	st := in.State
	x := linreg.PolyRows(xs, 1)
	g, s0, err := linreg.NewGD(x, ys, st.Float("lambda"), st.Float("eta"), true)
	if err != nil {
		return Result{}, err
	}
	opt, err := linreg.Fit(x, ys, st.Float("lambda"), true)
	if err != nil {
		return Result{}, err
	}
	rec := &lsRecorder{clock: newSampleClock(in.Step), opt: opt, optVal: linreg.Objective(x, ys, opt, st.Float("lambda"))}
	var recs []algos.Recorder[linreg.GDState]
	if in.wants("history") {
		recs = append(recs, rec)
	}
	s, k, err := algos.Replay[linreg.GDState](g, s0, in.Step, recs...)
	if err != nil {
		return Result{}, err
	}
	rec.sample(s)
	plotFig := func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
		f, err := lsgdFigure(s, rec, xy, st)
		if err != nil {
			return render.Frame{}, err
		}
		return f.Write(w, png, opt)
	}
	return Result{
		Step: k, Done: s.Status.Done(), Plot: plotFig,
		History: lsgdHistory(s, rec),
		Panel:   func() Panel { return lsgdPanel(g, s, rec, st.Float("eta")) },
	}, nil
}

// lsgdFigure draws the points, the exact least-squares line (dashed) and
// the iterate's line with its residuals.
func lsgdFigure(s linreg.GDState, rec *lsRecorder, xy [][2]float64, st State) (render.DataFigure, error) {
	now := func(x float64) float64 { return s.W[0]*x + s.B }
	exact := func(x float64) float64 { return rec.opt.W[0]*x + rec.opt.B }
	obs, err := render.NewObservations(xy)
	if err != nil {
		return render.DataFigure{}, err
	}
	res, err := render.NewResiduals(xy, now)
	if err != nil {
		return render.DataFigure{}, err
	}
	eg, err := render.NewGraph(exact, render.GraphStyle(1, true))
	if err != nil {
		return render.DataFigure{}, err
	}
	ng, err := render.NewGraph(now, render.GraphStyle(0, false))
	if err != nil {
		return render.DataFigure{}, err
	}
	title := fmt.Sprintf("iteration %d · J = %s · J* = %s", s.T, sig(s.Objective), sig(rec.optVal))
	if s.Status == algos.Diverged {
		title = fmt.Sprintf("iteration %d · diverged: η = %s is above 2/L", s.T, sig(st.Float("eta")))
	}
	title += fmt.Sprintf("\ngradient descent on least squares, η = %s", sig(st.Float("eta")))
	if l := st.Float("lambda"); l > 0 {
		title += ", λ = " + sig(l)
	}
	desc := fmt.Sprintf("%d observations; the line of gradient descent after %d iterations, y = %s·x + %s, with its residuals, "+
		"and the exact least-squares line from the normal equation, y = %s·x + %s (dashed).",
		len(xy), s.T, sig(s.W[0]), sig(s.B), sig(rec.opt.W[0]), sig(rec.opt.B))
	return graphFigure(title, desc, graphView(xy), []plot.Plotter{res, eg, ng, obs}, []render.LegendItem{
		{Label: "iterate θ⁽ᵏ⁾", Thumbs: []plot.Thumbnailer{ng}},
		{Label: "normal equation θ*", Thumbs: []plot.Thumbnailer{eg}},
		{Label: "observations", Thumbs: []plot.Thumbnailer{obs.Thumb(false)}},
	}), nil
}

func lsgdHistory(s linreg.GDState, rec *lsRecorder) *render.History {
	if len(rec.gap.T) < 2 {
		return nil
	}
	rec.gap.Label, rec.gap.Log, rec.gap.Lines = "J − J*", true, true
	rec.err.Label, rec.err.Log, rec.err.Lines = "‖θ − θ*‖", true, true
	title := fmt.Sprintf("after iteration %d: J − J* = %s · ‖θ − θ*‖ = %s", s.T, sig(s.Objective-rec.optVal), sig(rec.distance(s)))
	return &render.History{
		Title: title, Name: "Gradient descent on least squares: " + title, XLabel: "iteration k", Now: float64(s.T),
		Desc: fmt.Sprintf("Two panels against the iteration k from 0 to %d, both on a log scale: how far the objective is above "+
			"its minimum, and the distance from the iterate (w, b) to the normal equation's answer.", s.T),
		Series: []render.Series{rec.gap, rec.err},
	}
}

func lsgdPanel(g *linreg.GD, s linreg.GDState, rec *lsRecorder, eta float64) Panel {
	L := g.L()
	p := Panel{
		Counters: []Counter{
			{"iteration k", strconv.Itoa(s.T), "step"},
			{"J(θ)", sig(s.Objective), "objective"},
			{"J* (normal equation)", sig(rec.optVal), "optimum"},
			{"‖θ − θ*‖", sig(rec.distance(s)), "distance"},
			{"L", sig(L), "L"},
			{"2/L", sig(2 / L), "two-over-L"},
		},
		Status: s.Status.String(), Done: s.Status.Done(), Bad: s.Status == algos.Diverged,
		Start: "θ⁽⁰⁾ = (w, b) = (0, 0): the line y = 0. Press → or Step for the first iteration.",
		Model: []ModelLine{{Facts: []Fact{{"w", num(s.W[0]), "w"}, {"b", num(s.B), "b"}}},
			{Prefix: "normal equation:", Facts: []Fact{{"w*", num(rec.opt.W[0]), "w-opt"}, {"b*", num(rec.opt.B), "b-opt"}}}},
	}
	if s.T > 0 {
		p.Examined = fmt.Sprintf("Iteration %d: θ ← θ − η∇J(θ) with ∇J = (2/n) Σ (w·xᵢ + b − yᵢ)(xᵢ, 1) + 2λ(w, 0); ‖∇J‖ is now %s.", s.T, sig(s.GradNorm))
		p.Changed = true
	}
	switch {
	case s.Status == algos.Diverged:
		p.Status = "diverged"
		p.Notes = append(p.Notes, Note{TestID: "diverged", Alert: true, Text: fmt.Sprintf(
			"η = %s is above 2/L = %s: each step overshoots along the Hessian's steepest direction by more than it gains, "+
				"and the iterates grew past what a float can hold. The run stopped on the last finite iterate; lower η below %s.", sig(eta), sig(2/L), sig(2/L))})
	case eta > 2/L:
		p.Notes = append(p.Notes, Note{TestID: "too-large", Alert: true, Text: fmt.Sprintf(
			"η = %s is above 2/L = %s: the error along the steepest direction grows by a factor |1 − ηL| = %s each step.", sig(eta), sig(2/L), sig(math.Abs(1-eta*L)))})
	default:
		p.Notes = append(p.Notes, Note{TestID: "rate", Text: fmt.Sprintf(
			"L = %s is the largest eigenvalue of the Hessian (2/n)X̃ᵀX̃ + 2λ·diag(1, 0); any η < 2/L = %s converges, and η = 1/L = %s is the classic safe choice.",
			sig(L), sig(2/L), sig(1/L))})
	}
	return p
}
