package lessons

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/render"
)

// Limits of the logistic and softmax regression demos, listed in the
// README with the parameters.
const (
	MinLogisticEta    = 0.01 // gradient descent's η runs over [MinLogisticEta, MaxLogisticEta] on a log slider
	MaxLogisticEta    = 100.0
	MaxLogisticLambda = 10.0 // λ of logistic regression in [0, MaxLogisticLambda]
)

// logisticSets are the two-class sets of the logistic demo: overlapping
// classes first, where J has a minimiser even with λ = 0, then a
// separable set, where it has none.
var logisticSets = []Option{{"noisy", "noisy (random)"}, {"separable", "separable (random)"}, {"moons", "two moons (random)"}}

// LogisticSpec declares the logistic regression lesson's first demo:
// gradient descent or Newton's method on the regularised logistic loss
// (000 §1.4), stepped one iteration at a time, with the plane shaded by
// the model's P(y = +1 | x) and the run compared with the exact
// minimiser, or, with λ = 0 on separable data, with its absence.
func LogisticSpec() Spec {
	gd := func(s State) bool { return s.Is("method", "gd") }
	params := pointSetParams("`noisy`, `separable`, `moons`", "seeds the random set (its held-out points use another seed)")
	// shapeParams' second entry is the shapes' noise, which moons takes.
	noise := shapeParams("", "")[1]
	noise.Doc = "standard deviation of the jitter added to each coordinate (`moons` only)"
	params = append(params, noise,
		Param{Key: "method", Label: "method", Doc: "`gd`: gradient descent with a fixed step η; `newton`: Newton's method with a backtracking line search",
			Kind: Choice, Group: GroupAlgo, Default: "gd", Options: []Option{{"gd", "gradient descent"}, {"newton", "Newton (line search)"}}},
		etaParam("step size η of gradient descent (`gd` only; log slider)", gd),
		Param{Key: "lambda", Label: "λ", Doc: "penalty λ of (λ/2)‖w‖²; b is not penalised (0: none; log slider)", Kind: Float,
			Group: GroupAlgo, Default: "0", Min: 0, Max: MaxLogisticLambda, Step: "any", Log: true, LogZero: MinLambda},
	)
	return Spec{
		ID: "logistic", Title: "Logistic regression, step by step", Lesson: "logistic-regression",
		Data:    DataSpec{Labels: ClassLabels, MaxClasses: 2, Default: "noisy", Sets: logisticSets, Make: datasetPoints},
		Params:  params,
		Compute: computeLogistic,
	}
}

// etaParam is the fixed step size of the regression demos' gradient
// descent, on a log slider.
func etaParam(doc string, when func(State) bool) Param {
	return Param{Key: "eta", Label: "η", Doc: doc, Kind: Float, Group: GroupAlgo,
		Default: "1", Min: MinLogisticEta, Max: MaxLogisticEta, Step: "any", Log: true, When: when}
}

func computeLogistic(in Input) (Result, error) {
	x, yf := Columns(in.Points)
	y := signLabels(yf)
	if !bothClasses(y) {
		return regressionOneClass(x, y, in, "Logistic regression learns P(y = +1 | x) from points of both classes; these have one."), nil
	}
	st := in.State
	pr, err := logistic.New(x, floatLabels(y), st.Float("lambda"))
	if err != nil {
		return Result{}, err
	}
	opt := logisticOptimum(pr)
	var m algos.Method[logistic.State] = logistic.Newton{P: pr}
	gd, eta := st.Is("method", "gd"), st.Float("eta")
	if gd {
		m = logistic.GD{P: pr, Eta: eta}
	}
	key := problemKey("logistic", pr.X, pr.Y, pr.Lambda, b2f(gd), eta)
	s, k, j, w, err := runTracked(&logisticTracks, key, m, pr.Start(), in.Step,
		func(s logistic.State) (float64, float64) { return s.Objective, floats.Norm(s.Model.W, 2) })
	if err != nil {
		return Result{}, err
	}
	r := &logisticRun{pr: pr, s: s, k: k, y: y, opt: opt, gd: gd, eta: eta, j: j, w: w}
	r.margins = make([]float64, len(x))
	for i, row := range x {
		r.margins[i] = float64(y[i]) * s.Model.Score(row)
	}
	res := Result{Step: k, Done: s.Status.Done(), Plot: r.draw, Panel: func() Panel { return r.panel(st) }}
	if in.wants("history") {
		res.History = r.history()
	}
	return res, nil
}

// regressionOneClass shows points of a single class, as the SVM demos do,
// with the demo's own reason why it needs both.
func regressionOneClass(x [][]float64, y []int, in Input, why string) Result {
	res := oneClassResult(x, y, in)
	panel := res.Panel
	res.Panel = func() Panel {
		p := panel()
		p.Start = why
		return p
	}
	return res
}

// floatLabels turns classes into floats: the ±1 labels logistic.New
// takes, and labels to hash.
func floatLabels(y []int) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = float64(v)
	}
	return out
}

// logisticOpt is the exact minimiser of a logistic problem, or why there
// is none.
type logisticOpt struct {
	s    logistic.State
	none bool  // λ = 0 on separable data: J has no minimiser
	err  error // Solve failed otherwise; the demo runs without the comparison
}

func (o logisticOpt) ok() bool { return !o.none && o.err == nil }

// logisticOptima memoises the exact minimisers of recent problems: they do
// not depend on the method, η or step shown, so stepping through a run
// solves once. The states are shared and read only.
var logisticOptima = memo[[sha256.Size]byte, logisticOpt]{max: 64}

// logisticOptimum solves pr exactly (Newton to ‖∇J‖ < 10⁻¹⁰), or learns
// that λ = 0 on separable data leaves J without a minimiser.
func logisticOptimum(pr *logistic.Problem) logisticOpt {
	key := problemKey("logistic", pr.X, pr.Y, pr.Lambda)
	if o, ok := logisticOptima.get(key); ok {
		return o
	}
	var o logisticOpt
	s, err := pr.Solve(context.Background())
	switch {
	case errors.Is(err, logistic.ErrNoMinimiser):
		o.none = true
	case err != nil:
		o.err = err
	default:
		o.s = s
	}
	logisticOptima.put(key, o)
	return o
}

// problemKey names a regression problem by everything its solution
// depends on: the kind, the points, their labels and the numbers.
func problemKey(kind string, x [][]float64, y []float64, nums ...float64) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(kind))
	binary.Write(h, binary.LittleEndian, nums)
	for i, row := range x {
		binary.Write(h, binary.LittleEndian, row)
		binary.Write(h, binary.LittleEndian, y[i])
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}

// track is a run of a deterministic method, kept between requests so that
// stepping through it costs a few iterations, not a replay from 0: the
// state at every markEvery-th step, the furthest state reached, and two
// scalars (J and ‖w‖) of every state so far, for the history. State k
// comes from the mark before it, so it is the same to the last bit as a
// replay from 0 would give. A track is used under its lock.
type track[S any] struct {
	mu    sync.Mutex
	marks []S // marks[i] is state i·markEvery
	last  S   // state end, where the run stopped if done
	end   int
	done  bool
	a, b  []float64 // the scalars of states 0…end
}

// markEvery spaces a track's marks: state k is at most markEvery − 1
// iterations from one.
const markEvery = 32

// tracks memoise recent runs by everything they depend on (the points,
// labels, method and its numbers); like sweeps, they hold results of pure
// functions and forget the oldest first. A run of MaxStep iterations keeps
// about 320 KB of scalars and 625 small states, so each memo stays under
// about 15 MB.
var (
	logisticTracks = memo[[sha256.Size]byte, *track[logistic.State]]{max: 32}
	softmaxTracks  = memo[[sha256.Size]byte, *track[logistic.SoftmaxState]]{max: 32}
)

// runTracked returns state k of m's run from start (or the last, if the
// run stops before k), its step and the scalars of the states up to it,
// from the track of key in c, which it starts or extends as needed.
func runTracked[S any](c *memo[[sha256.Size]byte, *track[S]], key [sha256.Size]byte, m algos.Method[S], start S, k int,
	scalars func(S) (float64, float64)) (s S, step int, a, b []float64, err error) {
	t, ok := c.get(key)
	if !ok {
		t = &track[S]{}
		c.put(key, t)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	s, step, err = t.at(m, start, k, scalars)
	// The scalars of states 0…step never change once computed, so the
	// caller may read them after the lock is released.
	return s, step, t.a[: step+1 : step+1], t.b[: step+1 : step+1], err
}

// at returns state k of m's run from start (or the last, if the run stops
// before k) and its step, extending the track as far as k first.
func (t *track[S]) at(m algos.Method[S], start S, k int, scalars func(S) (float64, float64)) (S, int, error) {
	if t.a == nil {
		a, b := scalars(start)
		t.marks, t.last, t.a, t.b, t.done = []S{start}, start, []float64{a}, []float64{b}, m.Status(start).Done()
	}
	rec := algos.RecorderFunc[S](func(i int, s S) error {
		if i > 0 {
			a, b := scalars(s)
			t.a, t.b = append(t.a, a), append(t.b, b)
		}
		return nil
	})
	for t.end < k && !t.done {
		want := min(k, (t.end/markEvery+1)*markEvery) - t.end
		s, i, err := algos.Replay(m, t.last, want, rec)
		if err != nil {
			return s, 0, err
		}
		t.last, t.end, t.done = s, t.end+i, m.Status(s).Done()
		if t.end%markEvery == 0 && t.end/markEvery == len(t.marks) {
			t.marks = append(t.marks, s)
		}
	}
	if k >= t.end {
		return t.last, t.end, nil
	}
	base := k / markEvery * markEvery
	s, i, err := algos.Replay(m, t.marks[k/markEvery], k-base)
	return s, base + i, err
}

// sampled returns a track's scalars v (t.a or t.b) at the steps a
// sampleClock picks from 0 to k, and at k: the series a history draws.
func sampled(v []float64, k int) render.Series {
	var s render.Series
	c := newSampleClock(k)
	for i := 0; i <= k; i++ {
		if c.due(i) || i == k {
			s.T, s.Y = append(s.T, float64(i)), append(s.Y, v[i])
		}
	}
	return s
}

// history charts J (its distance above J* on a log scale, when there is a
// minimiser; else J itself, falling to 0) and ‖w‖ (against ‖w*‖) up to
// the state shown.
func (r *logisticRun) history() *render.History {
	k := r.k
	j, w := sampled(r.j, k), sampled(r.w, k)
	w.Label, w.Lines = "‖w‖", true
	j.Label, j.Log, j.Lines = "J (log scale)", true, true
	title := fmt.Sprintf("after iteration %d: J = %s · ‖w‖ = %s", k, sig(r.j[k]), sig(r.w[k]))
	top := "the objective J on a log scale, now " + sig(r.j[k]) + ", falling towards 0 as ‖w‖ grows: there is no minimiser"
	bottom := "‖w‖, now " + sig(r.w[k])
	if r.opt.ok() {
		optJ, optW := r.opt.s.Objective, floats.Norm(r.opt.s.Model.W, 2)
		floats.AddConst(-optJ, j.Y)
		j.Label = "J − J*"
		w.Compare = &render.Series{Label: "‖w*‖", T: []float64{0, float64(k)}, Y: []float64{optW, optW}, Lines: true}
		title += " · J* = " + sig(optJ)
		top = "how far J is above its minimum J* = " + sig(optJ) + ", on a log scale, now " + sig(r.j[k]-optJ)
		bottom += ", against the minimiser's ‖w*‖ = " + sig(optW) + " (dashed)"
	}
	return &render.History{
		Title: title, Name: "Logistic regression history: " + title, XLabel: "iteration k", Now: float64(k),
		Desc:   fmt.Sprintf("Two panels against the iteration k from 0 to %d. Top: %s. Bottom: %s.", k, top, bottom),
		Series: []render.Series{j, w},
	}
}

// logisticRun is the state of a logistic regression run the demo shows.
type logisticRun struct {
	pr      *logistic.Problem
	s       logistic.State
	k       int
	y       []int
	margins []float64 // yᵢf(xᵢ)
	opt     logisticOpt
	j, w    []float64 // J and ‖w‖ of states 0…k
	gd      bool
	eta     float64
}

// method names the solver and its numbers, for the title and panel.
func (r *logisticRun) method() string {
	lam := "λ = " + sig(r.pr.Lambda)
	if r.gd {
		return "gradient descent, η = " + sig(r.eta) + ", " + lam
	}
	return "Newton's method with line search, " + lam
}

func (r *logisticRun) title() string {
	m := r.s.Model
	t := fmt.Sprintf("step %d · J = %s · ", r.k, sig(r.s.Objective))
	if isZero(m.W) && m.B == 0 {
		t += "P = ½ everywhere"
	} else {
		t += "‖w‖ = " + sig(floats.Norm(m.W, 2))
	}
	return t + "\n" + r.method()
}

// draw shades the plane by P(y = +1 | x) with its levels P = 0.1 … 0.9,
// the boundary P = ½ boldest, over the training points, the misclassified
// ones in bold.
func (r *logisticRun) draw(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
	m := r.s.Model
	var levels []render.Level
	if !isZero(m.W) {
		levels = scoreLevels(render.ProbabilityLevels())
	}
	// The field samples the score, which is linear, and reads P off it:
	// its levels P = p are the lines f = logit p, which a linear function
	// puts exactly where they are however steep σ gets, where sampling P
	// itself would squeeze them into one grid cell once ‖w‖ is large.
	field, err := render.NewField(func(x1, x2 float64) float64 { return m.W[0]*x1 + m.W[1]*x2 + m.B },
		func(f float64) color.Color { return render.ProbabilityFill(logistic.Sigmoid(f)) }, levels...)
	if err != nil {
		return render.Frame{}, err
	}
	field.Res = fieldRes
	bold := make([]bool, len(r.margins))
	anyBold := false
	if !isZero(m.W) || m.B != 0 {
		for i, mg := range r.margins {
			bold[i] = mg <= 0
			anyBold = anyBold || bold[i]
		}
	}
	pts, err := render.NewClassPoints(r.pr.X, r.y, bold)
	if err != nil {
		return render.Frame{}, err
	}
	legend := pts.Legend()
	for _, it := range render.ProbabilityLegend() {
		it.Hidden = levels == nil
		legend = append(legend, it)
	}
	legend = append(legend, render.LegendItem{Label: "misclassified", Thumbs: []plot.Thumbnailer{pts.BoldThumb()}, Hidden: !anyBold})
	desc := fmt.Sprintf("The plane shaded by the model's probability P(y = +1 | x) = σ(w·x + b) after %d iterations of %s: "+
		"blue where it favours +1, vermillion where it favours −1, white where P = ½. Thin grey lines mark P = 0.1, 0.2, …, 0.9 "+
		"and a bold black line the boundary P = ½. The %d training points are drawn by class; %.1f %% are misclassified (bold edge).",
		r.k, r.method(), len(r.margins), 100*marginError(r.margins))
	if levels == nil {
		desc = fmt.Sprintf("The %d training points, drawn by class, on a plane where the model gives P(y = +1 | x) = %s everywhere, "+
			"after %d iterations of %s: w = 0, so there is no boundary.", len(r.margins), sig(logistic.Sigmoid(m.B)), r.k, r.method())
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

// fieldRes is the probability field's grid: its contours are exact at
// any resolution (the score is linear), and the fill is a smooth ramp
// that browsers and the PNG writer interpolate, so a coarse grid looks
// like the default one at a ninth of its cells (and of the embedded
// raster's bytes, whose encoding was the figure's largest cost).
const fieldRes = 40

// scoreLevels turns the levels P = p of a probability into the levels
// f = logit p of the score under it.
func scoreLevels(ls []render.Level) []render.Level {
	out := make([]render.Level, len(ls))
	for i, l := range ls {
		out[i] = l
		out[i].Value = math.Log(l.Value / (1 - l.Value))
	}
	return out
}

func isZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// roughCertainty is certainty short enough for a counter: a percentage
// down to 99.99 %, then 1 − 10⁻ⁿ, rounded to the nearest power of ten.
func roughCertainty(doubt float64) string {
	if doubt <= 0 {
		return "1"
	}
	if doubt < 1e-4 {
		return "1 − 10" + superscript(int(math.Round(math.Log10(doubt))))
	}
	return certainty(doubt)
}

// certainty writes a probability near 1 so that its distance from 1
// shows, rounded down: "75.0 %", "99.97 %", and "1 − 3.2·10⁻⁹" past six
// nines. doubt is 1 − p, computed directly (σ(−m), not 1 − σ(m)), so it
// keeps its digits.
func certainty(doubt float64) string {
	switch {
	case doubt <= 0:
		return "1 (to double precision)"
	case doubt < 1e-6:
		return "1 − " + sig(doubt)
	}
	d := min(max(int(math.Ceil(-math.Log10(doubt)))-2, 1), 4)
	scale := math.Pow(10, float64(d))
	// Rounded down, so that "P ≥ 99.99 %" holds.
	return strconv.FormatFloat(math.Floor(100*(1-doubt)*scale)/scale, 'f', d, 64) + " %"
}

// panel states the run in numbers and words: the counters, what the step
// did, and the notes that carry the lesson (no minimiser on separable
// data with λ = 0, the smoothness bound on η).
func (r *logisticRun) panel(st State) Panel {
	s, m := r.s, r.s.Model
	norm := floats.Norm(m.W, 2)
	p := Panel{
		Counters: []Counter{
			{"iteration k", strconv.Itoa(r.k), "step"},
			{"J(w, b)", sig(s.Objective), "objective"},
			{"‖∇J‖", sig(s.GradNorm), "grad"},
			{"‖w‖", sig(norm), "wnorm"},
			{"training error", fmt.Sprintf("%.1f %%", 100*marginError(r.margins)), "error"},
		},
		Status: logisticStatus(s.Status, s.GradNorm),
		Done:   s.Status.Done(),
		Bad:    s.Status == algos.Diverged,
		Start:  "Start: w = 0 and b = 0, so P(y = +1 | x) = ½ everywhere and there is no boundary yet. Press → or Step for the first iteration.",
		Model:  []ModelLine{{Facts: []Fact{{"w", vec(m.W), "w"}, {"b", num(m.B), "b"}}}},
	}
	if tx, ty, ok := heldOut(st); ok {
		p.Counters = append(p.Counters, heldOutCounter(errorRate(m.Score, tx, ty), len(tx)))
	} else {
		p.Counters = append(p.Counters, Counter{"held-out error", "—", "heldout"})
	}
	p.Counters = append(p.Counters, Counter{"largest confidence", roughCertainty(r.leastDoubt()), "confidence"})
	if r.opt.ok() {
		p.Counters = append(p.Counters, Counter{"J* (exact minimum)", sig(r.opt.s.Objective), "optimum"})
	}
	if r.opt.none && s.Status == algos.Converged {
		p.Status, p.Bad = "stopped: J and ‖∇J‖ are ≈ 0, yet J has no minimiser", true
	}
	if r.k > 0 {
		r.describeStep(&p)
	}
	p.Notes = r.notes(norm)
	return p
}

// logisticStatus says where the run stands in words; a Converged run
// with ‖∇J‖ still above the tolerance stalled on rounding.
func logisticStatus(s algos.Status, grad float64) string {
	switch {
	case s == algos.Converged && grad >= logistic.Tol:
		return "stopped: no step lowers J any more (‖∇J‖ = " + sig(grad) + ", its rounding error)"
	}
	switch s {
	case algos.Converged:
		return "converged: ‖∇J‖ < 10⁻¹⁰"
	case algos.Diverged:
		return "diverged: the next iterate overflowed"
	case algos.Running:
		return "running"
	}
	return s.String()
}

// leastDoubt is min over the points of min(P, 1 − P) = σ(−|f(xᵢ)|): one
// minus the largest confidence, computed without cancellation.
func (r *logisticRun) leastDoubt() float64 {
	top := 0.0
	for _, mg := range r.margins {
		top = math.Max(top, math.Abs(mg))
	}
	return logistic.Sigmoid(-top)
}

// describeStep writes out the update that led to the state shown.
func (r *logisticRun) describeStep(p *Panel) {
	p.Changed = true
	if r.gd {
		p.Examined = fmt.Sprintf("Iteration %d is a gradient step (w, b) ← (w, b) − η∇J(w, b) with η = %s.", r.k, sig(r.eta))
		p.Lines = []string{"∇J = (1/n) Σᵢ −yᵢ σ(−yᵢf(xᵢ)) (xᵢ, 1) + λ(w, 0): each point pulls with the probability the model gives its wrong label."}
	} else {
		p.Examined = fmt.Sprintf("Iteration %d is a Newton step (w, b) ← (w, b) − t H⁻¹∇J, with t the first of 1, ½, ¼, … that lowers J enough (Armijo).", r.k)
		p.Lines = []string{"H = (1/n) Σᵢ σᵢ(1 − σᵢ) (xᵢ, 1)(xᵢ, 1)ᵀ + λ diag(1, 1, 0), with σᵢ = σ(f(xᵢ)): the curvature of J."}
	}
	if k := r.k; k > 0 {
		d, verb := r.j[k]-r.j[k-1], "fell"
		if d > 0 {
			verb = "rose"
		}
		p.Lines = append(p.Lines, fmt.Sprintf("J %s by %s, to %s; ‖∇J‖ is now %s.", verb, sig(math.Abs(d)), sig(r.j[k]), sig(r.s.GradNorm)))
	}
}

// notes carry the lesson: whether J has a minimiser and what λ does to
// ‖w‖, gradient descent's step-size bound, and a divergence.
func (r *logisticRun) notes(norm float64) []Note {
	var ns []Note
	lam := r.pr.Lambda
	switch {
	case r.opt.none && r.k > 0 && r.w[r.k] > r.w[r.k-1]:
		ns = append(ns, Note{TestID: "no-minimiser", Alert: true, Text: fmt.Sprintf(
			"The data are separable and λ = 0: J has no minimiser. ‖w‖ = %s and growing; %s: overconfident. "+
				"Set λ > 0 and ‖w‖ stays finite.", sig(norm), r.sureness())})
	case r.opt.none:
		ns = append(ns, Note{TestID: "separable", Text: "The data are separable and λ = 0: J has no minimiser, " +
			"so ‖w‖ will grow without bound as J falls towards 0. Set λ > 0 and ‖w‖ stays finite."})
	case r.opt.ok():
		optW := floats.Norm(r.opt.s.Model.W, 2)
		why := fmt.Sprintf("λ = %s > 0, so J has one minimiser, with ‖w*‖ = %s: finite, whatever the data.", sig(lam), sig(optW))
		if lam == 0 {
			why = fmt.Sprintf("No line separates these classes, so J has a minimiser even with λ = 0: ‖w*‖ = %s.", sig(optW))
		}
		ns = append(ns, Note{TestID: "minimiser", Text: why + " " + gapText(r.s.Objective, r.opt.s.Objective)})
	default:
		ns = append(ns, Note{TestID: "no-optimum", Text: "The exact minimiser could not be computed here: " + r.opt.err.Error()})
	}
	if r.gd {
		ns = append(ns, smoothNote(r.pr.L(), r.eta, "λ_max(X̃ᵀX̃)/(4n) + λ = ", r.j))
	}
	if r.s.Status == algos.Diverged {
		ns = append(ns, divergedNote())
	}
	return ns
}

// sureness says how sure the model is of the training points: of its
// surest, and of every one when it classifies them all correctly.
func (r *logisticRun) sureness() string {
	worst := math.Inf(1)
	for _, mg := range r.margins {
		worst = math.Min(worst, mg)
	}
	s := "its surest prediction already has P = " + certainty(r.leastDoubt())
	if worst > 0 {
		s += ", and it gives every training point its own label with P ≥ " + certainty(logistic.Sigmoid(-worst))
	}
	return s + ", more so at every step"
}

// smoothNote states gradient descent's step-size bound for an L-smooth J
// (formula, when given, says where L comes from): η ≤ 1/L lowers J every
// step and η < 2/L converges; beyond, J can rise, oscillate or blow up.
// L bounds the curvature everywhere, so a larger η may still work: the
// note counts the steps that raised J so far (j holds J of states 0…k).
func smoothNote(L, eta float64, formula string, j []float64) Note {
	n := Note{TestID: "smooth", Text: fmt.Sprintf("J is L-smooth with L = %s%s: gradient descent lowers J at every step "+
		"for η ≤ 1/L = %s and converges for η < 2/L = %s.", formula, sig(L), sig(1/L), sig(2/L))}
	rises := 0
	for i := 1; i < len(j); i++ {
		if j[i] > j[i-1] {
			rises++
		}
	}
	switch {
	case eta >= 2/L && rises > 0:
		n.Alert = true
		n.Text += fmt.Sprintf(" Here η = %s ≥ 2/L overshoots: J rose at %d of the %d steps so far.", sig(eta), rises, len(j)-1)
	case eta >= 2/L:
		n.Text += fmt.Sprintf(" Here η = %s ≥ 2/L, which the bound does not cover; L bounds the steepest curvature anywhere, "+
			"and J has fallen at every step so far.", sig(eta))
	case rises > 0:
		n.Text += fmt.Sprintf(" J rose at %d of the %d steps so far.", rises, len(j)-1)
	}
	return n
}

// gapText says how far J is above the exact minimum J*.
func gapText(j, opt float64) string {
	if math.Abs(j-opt) <= 1e-12*math.Max(1, math.Abs(opt)) {
		return fmt.Sprintf("J equals its minimum J* = %s to rounding (Newton's method finds J* to ‖∇J‖ < 10⁻¹⁰).", sig(opt))
	}
	return fmt.Sprintf("J is %s above its minimum J* = %s, which Newton's method finds to ‖∇J‖ < 10⁻¹⁰.", sig(j-opt), sig(opt))
}

// divergedNote explains a run that stopped on an overflow.
func divergedNote() Note {
	return Note{TestID: "diverged", Alert: true,
		Text: "The next iterate would have overflowed: η is far too large for this J. Lower η below 2/L."}
}

// b2f is 1 for true, for hashing a flag with numbers.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
