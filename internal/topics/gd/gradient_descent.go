package gd

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/gd"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/textfmt"
)

// gdTol stops a run once ‖∇f‖ is this small: the iterate then sits on a
// stationary point to plotting accuracy (Newton's one step on a
// quadratic, a saddle it was started on).
const gdTol = 1e-10

// The gd demo's parameters: the objective and the start, then the method
// and its step sizes.
var (
	objChoice = demo.Choice{Key: "objective", Label: "objective f", Doc: "the function minimised", Group: demo.GroupData, Default: objQuadratic,
		Options: []demo.Option{{objQuadratic, "quadratic ½xᵀAx"}, {objLeastSq, "least squares of 8 points, over (w, b)"},
			{objLogistic, "logistic loss of 8 points, over (w, b)"}, {objDoubleWell, "double well (two minima, a saddle)"}}}
	kappa = demo.Float{Key: "kappa", Label: "condition number κ", Doc: "ratio of the quadratic's eigenvalues (L = κ)", Group: demo.GroupData,
		Default: 10, Min: 1, Max: 100, Step: "any", Log: true, When: isQuad}
	theta = demo.Float{Key: "theta", Label: "rotation θ (degrees)", Doc: "angle of the quadratic's flat axis", Group: demo.GroupData,
		Default: 30, Min: -90, Max: 90, Step: "1", When: isQuad}
	startX1 = demo.Float{Key: "x0", Label: "start x₁⁽⁰⁾", Doc: "first coordinate of the start (a click on the plot sets it)", Group: demo.GroupData,
		Default: 2, Min: -10, Max: 10, Step: "any"}
	startX2 = demo.Float{Key: "y0", Label: "start x₂⁽⁰⁾", Doc: "second coordinate of the start", Group: demo.GroupData,
		Default: 1.5, Min: -10, Max: 10, Step: "any"}
	method = demo.Choice{Key: "method", Label: "method", Doc: "gradient descent, or Newton's method (no step size)", Group: demo.GroupAlgo,
		Default: "gd", Options: []demo.Option{{"gd", "gradient descent"}, {"newton", "Newton's method"}}}
	stepSize = demo.Float{Key: "t", Label: "step size t", Doc: "step size (η₀ of a schedule); above 2/L a quadratic diverges", Group: demo.GroupAlgo,
		Default: 0.1, Min: 1e-4, Max: 10, Step: "any", Log: true, When: isGD}
	schedule = demo.Choice{Key: "schedule", Label: "schedule", Doc: "how the step size changes over the run", Group: demo.GroupAlgo, Default: "constant",
		Options: []demo.Option{{"constant", "constant"}, {"exp-decay", "exponential decay tₖ = t·γᵏ⁻¹"}, {"warmup-linear", "warm-up, plateau, then linear decay to 0"}},
		When:    isGD}
	decay = demo.Float{Key: "decay", Label: "decay factor γ", Doc: "exp-decay's factor γ per step", Group: demo.GroupAlgo, Default: 0.99, Min: 0.5, Max: 1, Step: "any",
		When: func(s demo.State) bool { return isGD(s) && schedule.Is(s, "exp-decay") }}
	warmup = demo.Int{Key: "warmup", Label: "warm-up steps W", Doc: "warmup-linear's rise; at most iters", Group: demo.GroupAlgo, Default: 20, Min: 0, Max: demo.MaxStep,
		When: isWarmup}
	hold = demo.Int{Key: "hold", Label: "plateau steps H", Doc: "warmup-linear's steps at t after the rise; W + H at most iters", Group: demo.GroupAlgo, Default: 80, Min: 0, Max: demo.MaxStep,
		When: isWarmup}
	runLen = demo.Int{Key: "iters", Label: "iterations T", Doc: "warmup-linear's run length: its step reaches 0 at T", Group: demo.GroupAlgo, Default: 200, Min: 1, Max: demo.MaxStep,
		When: isWarmup}
	batch = demo.Int{Key: "batch", Label: "mini-batch size", Doc: "rows per gradient step (8: full batch)", Group: demo.GroupAlgo, Default: gdRows, Min: 1, Max: gdRows,
		When: canBatch}
	// batchSeed is the algorithm's own seed: the demo has no point set.
	batchSeed = demo.Int{Key: "seed", Label: "seed", Doc: "seed of the mini-batch draws", Group: demo.GroupAlgo, Default: 1, Min: 0, Max: 1e6,
		When: func(s demo.State) bool { return canBatch(s) && batch.Get(s) < gdRows }}
)

// isData reports whether the objective is a loss on one of the fixed sets.
func isData(s demo.State) bool { return objChoice.Is(s, objLeastSq) || objChoice.Is(s, objLogistic) }

// isQuad reports whether the objective is the quadratic.
func isQuad(s demo.State) bool { return objChoice.Is(s, objQuadratic) }

// isGD reports whether the method is gradient descent, which takes steps.
func isGD(s demo.State) bool { return method.Is(s, "gd") }

// isNewton reports whether the method is Newton's.
func isNewton(s demo.State) bool { return method.Is(s, "newton") }

// canBatch reports whether gradient descent runs on a sum of losses,
// which mini-batches can split.
func canBatch(s demo.State) bool { return isData(s) && isGD(s) }

// isWarmup reports whether gradient descent runs the warm-up schedule.
func isWarmup(s demo.State) bool { return isGD(s) && schedule.Is(s, "warmup-linear") }

// GDSpec declares gradient descent on a 2-D objective (notes 000 §1.8):
// contours, the iterate path, the gap f − f* against Theorem 1.8.5's
// bound, schedules, mini-batches and Newton's method. A click on the plot
// sets the start x⁽⁰⁾.
func GDSpec() demo.Spec {
	return demo.Spec{
		ID: "gd", Title: "Gradient descent on a 2-D objective", Lesson: "gradient-descent",
		Data:   demo.DataSpec{Labels: demo.NoLabels, Start: [2]string{startX1.Key, startX2.Key}},
		Params: demo.Params(objChoice, kappa, theta, startX1, startX2, method, stepSize, schedule, decay, warmup, hold, runLen, batch, batchSeed),
		Examples: []demo.Example{{Name: "quadratic", Query: "step=15"}, {Name: "doublewell", Query: "objective=double-well&step=30"},
			{Name: "minibatch", Query: "objective=least-squares&batch=2&step=40"}},
		Conventions: gdConventions(), Explain: demo.Explain{Section: "definition"},
		Compute: computeGD, Predict: predictGD,
	}
}

// gdRun is the state shown, the trail, the series.
type gdRun struct {
	obj   *objective
	m     stepper
	s0    gd.State
	cache *demo.Cache // keeps the run
	s     gd.State
	k     int
	trail *demo.Trail
	gap   chart.Series
	bound *chart.Series // Theorem 1.8.5's bound, when it applies
	t0    float64
	sgd   bool
	st    demo.State
}

// stepper is what GD and SGD share.
type stepper interface {
	algos.Method[gd.State]
	Init(x0 []float64) (gd.State, error)
}

// Runs go on to MaxStep unless they stop sooner; only the warm-up
// schedule has a length of its own, since its step falls to 0 at the end.
func newStepper(s demo.State, obj *objective) (stepper, error) {
	iters := demo.MaxStep
	if isWarmup(s) {
		iters = runLen.Get(s)
	}
	if isNewton(s) {
		return &gd.GD{F: obj.f, Method: gd.Newton, Iters: iters, Tol: gdTol}, nil
	}
	sch := gd.Schedule{}
	switch schedule.Get(s) {
	case "exp-decay":
		sch = gd.Schedule{Kind: gd.ExpDecay, Decay: decay.Get(s)}
	case "warmup-linear":
		w, h := warmup.Get(s), hold.Get(s)
		if w > iters {
			return nil, demo.Problems{warmup.Key: fmt.Sprintf("%d is more than the run's %d iterations; give at most iters", w, iters)}
		}
		if w+h > iters {
			return nil, demo.Problems{hold.Key: fmt.Sprintf("%d plateau steps after %d warm-up steps overrun the run's %d iterations; give at most %d", h, w, iters, iters-w)}
		}
		sch = gd.Schedule{Kind: gd.WarmupLinear, Warmup: w, Hold: h}
	}
	t := stepSize.Get(s)
	if sum, ok := obj.f.(gd.Sum); ok && batch.Get(s) < gdRows {
		return &gd.SGD{F: sum, Eta: t, Schedule: sch, Batch: batch.Get(s), Seed: uint64(batchSeed.Get(s)), Iters: iters, Tol: gdTol}, nil
	}
	return &gd.GD{F: obj.f, Eta: t, Schedule: sch, Iters: iters, Tol: gdTol}, nil
}

// setupGD returns st's objective, its stepper and state 0.
func setupGD(st demo.State) (*objective, stepper, gd.State, error) {
	obj, err := newObjective(st)
	if err != nil {
		return nil, nil, gd.State{}, err
	}
	m, err := newStepper(st, obj)
	if err != nil {
		return nil, nil, gd.State{}, err
	}
	s0, err := m.Init([]float64{startX1.Get(st), startX2.Get(st)})
	if err != nil {
		return nil, nil, gd.State{}, demo.Problems{startX1.Key: err.Error()}
	}
	return obj, m, s0, nil
}

// gdWidth is the scalars the kept run holds of each state: x₁ and x₂,
// which the trail draws, and f, whose gap the history charts.
const gdWidth = 3

// keptGD returns the state shown at step k of st's run (or the last) and
// its step from the run cache keeps, with x₁, x₂ and f of each state up
// to it: the one way the demo, its notes and its questions reach a step.
// The scalars cost three copies a step, so every request keeps them.
//
// The step returned is always the state's K, the iterations it holds: a
// step the run refuses (Diverged, Stalled) leaves its state on iterate K,
// so that run stops at step K, and state K is shown as the stopped one.
// algos.Replay counts the refusing Step as a step of its own (K + 1), so
// keptGD reads step k + 1 too: when it is refused, state k is where the
// run stops, and the page at step k says so instead of a page at k + 1
// showing x⁽ᵏ⁾ under the counter k + 1.
func keptGD(ctx context.Context, cache *demo.Cache, st demo.State, m stepper, s0 gd.State, k int) (gd.State, int, []float64, error) {
	s, step, v, err := keptSteps(ctx, cache, st, m, s0, k)
	if err != nil {
		return s, step, v, err
	}
	if !s.Status.Done() && step == k {
		next, _, _, err := keptSteps(ctx, cache, st, m, s0, k+1)
		if err != nil {
			return s, step, v, err
		}
		if refused(next) {
			s = next
		}
	}
	if refused(s) && step > s.K {
		step, v = s.K, v[:(s.K+1)*gdWidth:(s.K+1)*gdWidth]
	}
	return s, step, v, nil
}

// refused reports whether s is a state whose last step was refused: it
// holds the iterate before that step.
func refused(s gd.State) bool { return s.Status == algos.Diverged || s.Status == algos.Stalled }

// keptSteps is demo.RunKept on st's run: state k as algos.Replay counts
// steps, a refused step included.
func keptSteps(ctx context.Context, cache *demo.Cache, st demo.State, m stepper, s0 gd.State, k int) (gd.State, int, []float64, error) {
	// Every parameter that applies is the objective's, the start's or
	// the stepper's; the step and the view are left out.
	key := demo.FloatsKey("gd-run\x00" + st.Encode(demo.ForRun))
	b := 0
	if sgd, ok := m.(*gd.SGD); ok {
		b = sgd.Batch
	}
	return demo.RunKept(ctx, cache, key, m, s0, k, gdStateBytes(len(s0.X), b), gdWidth,
		func(s gd.State, v []float64) { v[0], v[1], v[2] = s.X[0], s.X[1], s.F }, true)
}

// gdStateBytes is the memory of a gd.State of d coordinates and batches
// of b rows: 200 bytes of fields, x, ∇f and their spares, a batch and its
// spare.
func gdStateBytes(d, b int) int64 { return 200 + 4*8*int64(d) + 2*8*int64(b) }

// runGD returns the demo at step k from the run cache keeps (nil: a
// replay), with the trail and, when the history is drawn, the gap and the
// bound.
func runGD(ctx context.Context, cache *demo.Cache, st demo.State, k int, history bool) (*gdRun, error) {
	obj, m, s0, err := setupGD(st)
	if err != nil {
		return nil, err
	}
	_, isSGD := m.(*gd.SGD)
	r := &gdRun{obj: obj, m: m, s0: s0, cache: cache, trail: demo.NewTrail(), t0: stepSize.Get(st), sgd: isSGD, st: st}
	r.gap = chart.Series{Label: "f(x⁽ᵏ⁾) − f*", Log: true, Lines: true}
	if r.boundApplies() {
		r.bound = &chart.Series{Label: "‖x⁽⁰⁾ − x*‖²/(2tk)", Lines: true}
	}
	var v []float64
	if r.s, r.k, v, err = keptGD(ctx, cache, st, m, s0, k); err != nil {
		return nil, err
	}
	d0 := obj.dist2(s0.X)
	for i := range r.k + 1 {
		x := v[i*gdWidth : (i+1)*gdWidth]
		r.trail.Add(i, [2]float64{x[0], x[1]})
		if history {
			r.gap.T, r.gap.Y = append(r.gap.T, float64(i)), append(r.gap.Y, obj.gap(x[2]))
			if r.bound != nil && i > 0 {
				r.bound.T, r.bound.Y = append(r.bound.T, float64(i)), append(r.bound.Y, d0/(2*r.t0*float64(i)))
			}
		}
	}
	return r, nil
}

func computeGD(ctx context.Context, in demo.Input) (demo.Result, error) {
	r, err := runGD(ctx, in.Cache, in.State, in.Step, in.Wants(demo.HistoryFigure))
	if err != nil {
		return demo.Result{}, err
	}
	plotFig := func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
		f, err := r.figure()
		if err != nil {
			return render.Frame{}, err
		}
		return f.Write(w, png, opt)
	}
	return demo.Result{
		Step: r.k, Done: r.s.Status.Done(), Plot: plotFig,
		History: r.history(),
		Panel:   r.panel,
	}, nil
}

// constantGD reports whether the run is full-batch gradient descent
// with a constant step, the method Theorem 1.8.5 is about.
func (r *gdRun) constantGD() bool {
	return isGD(r.st) && schedule.Is(r.st, "constant") && !r.sgd
}

// boundApplies reports whether Theorem 1.8.5 covers the run: full-batch
// constant steps t ≤ 1/L on a convex L-smooth f (t = 1/L up to rounding
// counts, see regimeOf).
func (r *gdRun) boundApplies() bool {
	return r.obj.convex && r.obj.hasL && r.constantGD() && regimeOf(r.t0, r.obj.L) <= atOneOverL
}

// methodName is the run's method as the history names it.
func (r *gdRun) methodName() string {
	switch {
	case isNewton(r.st):
		return "Newton's method"
	case r.sgd:
		return "mini-batch gradient descent"
	}
	return "gradient descent"
}

// history is the gap per iteration on a log scale, with the bound where
// Theorem 1.8.5 applies.
func (r *gdRun) history() *chart.History {
	if len(r.gap.T) == 0 {
		return nil
	}
	g := r.gap
	g.Compare = r.bound
	title := fmt.Sprintf("after iteration %d: f − f* = %s", r.k, textfmt.Sig(r.obj.gap(r.s.F)))
	desc := fmt.Sprintf("The gap f(x⁽ᵏ⁾) − f* of %s for k = 0 to %d on a log scale (zeros are left out)", r.methodName(), r.k)
	switch {
	case r.bound != nil:
		desc += ", with Theorem 1.8.5's bound ‖x⁽⁰⁾ − x*‖²/(2tk) dashed: it holds for convex f and t ≤ 1/L"
	case r.obj.convex && r.obj.hasL && r.constantGD():
		desc += fmt.Sprintf(", without Theorem 1.8.5's bound: it is proved only for t ≤ 1/L = %s, and this run's t = %s is larger", textfmt.Sig(1/r.obj.L), textfmt.Sig(r.t0))
	}
	return &chart.History{Title: title, Name: strings.ToUpper(r.methodName()[:1]) + r.methodName()[1:] + ": " + title, Desc: desc + ".",
		XLabel: "iteration k", Now: float64(r.k), Series: []chart.Series{g}}
}
