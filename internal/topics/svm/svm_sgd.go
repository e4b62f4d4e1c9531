package svm

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/primal"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/render/graphs"
	"github.com/margin-edu/margin/internal/render/scenes"
	"github.com/margin-edu/margin/internal/textfmt"
)

// Limits of the primal trainers' demo, listed in docs/demos/svm-sgd.md.
const (
	MaxSubEta = 1.0 // subgradient descent's step size η in (0, MaxSubEta]
)

// SGDSpec declares the soft-margin lesson's second demo: the primal
// trained by 001's SGD procedure (Pegasos) or by full-batch subgradient
// descent, each against the exact optimum of its own objective, which
// the SMO solver computes.
func SGDSpec() demo.Spec {
	return demo.Spec{
		ID: "svm-sgd", Title: "Soft-margin SVM in the primal: SGD and subgradient descent", Lesson: "soft-margin-svm",
		Data: demo.DataSpec{
			Labels: demo.ClassLabels, MaxClasses: 2, Default: "noisy", Sets: svmSets, Make: pointset.Points,
		},
		Params: append(pointset.Params("`separable`, `noisy`", "seeds the random set (and the sampling, unless `aseed` is set)"),
			demo.Params(primalMethod,
				demo.LambdaParam("regularisation λ of λ‖θ‖² + (1/n)Σ hinge (`pegasos` only; log slider)", pegasos),
				demo.AseedParam("seeds the points SGD samples (`pegasos` only)", pegasos),
				subC, subEta, subDecay, demo.Iterations)...),
		Panels: []string{"losses"}, PanelLabels: map[string]string{"losses": "Losses of the score y·f(x)"},
		Examples:    []demo.Example{{Name: "step200", Query: "step=200"}},
		Conventions: sgdConventions(), Explain: demo.Explain{Section: "sgd"},
		Compute: computeSGD,
		Predict: predictSGD,
	}
}

// The primal trainers' parameters: λ and the sampling seed are the
// shared demo.Lambda and demo.Aseed, applying to Pegasos only.
var (
	primalMethod = demo.Choice{Key: "method", Label: "method",
		Doc:   "`pegasos`: 001's SGD procedure; `subgradient`: full-batch subgradient descent on (1.6.a)",
		Group: demo.GroupAlgo, Default: "pegasos",
		Options: []demo.Option{{"pegasos", "SGD (001, Pegasos)"}, {"subgradient", "full-batch subgradient"}}}
	subC = demo.Float{Key: "C", Label: "C", Doc: "C of ½‖w‖² + CΣ hinge (`subgradient` only; log slider)", Group: demo.GroupAlgo,
		Default: 1, Min: MinC, Max: MaxC, Step: "any", Log: true, When: subgradient}
	subEta = demo.Float{Key: "eta", Label: "η", Doc: "step size η (`subgradient` only)", Group: demo.GroupAlgo,
		Default: 0.01, Min: 0, OpenMin: true, Max: MaxSubEta, Step: "any", When: subgradient}
	subDecay = demo.Choice{Key: "decay", Label: "schedule", Doc: "step size: constant η or η/√t (`subgradient` only)", Group: demo.GroupAlgo,
		Default: "sqrt", Options: []demo.Option{{"sqrt", "η/√t"}, {"constant", "constant η"}}, When: subgradient}
)

// pegasos and subgradient report which trainer a state of svm-sgd runs.
func pegasos(s demo.State) bool     { return primalMethod.Is(s, "pegasos") }
func subgradient(s demo.State) bool { return primalMethod.Is(s, "subgradient") }

// primalRun is what the demo shows of either trainer at the state
// reached, in the same terms: the model, its objective, the optimum.
type primalRun struct {
	t         int
	status    algos.Status
	w         []float64
	b         float64
	objective float64
	optimum   float64
	// objSym names the objective ("F", "(1.6.a)"), objName labels its
	// counter and objID keys it and the optimum's: Pegasos' F and
	// subgradient descent's (1.6.a) are two quantities, which a compare
	// row must not set side by side.
	objSym, objName, objID string
	ref                    reference
	cure                   string // what would make an approximate reference exact
	optW                   []float64
	optB                   float64
	sampled                int // Pegasos: the point iteration t drew; −1 otherwise
	// trainingError is the fraction of points the drawn line predicts
	// wrongly, with sgn(0) = −1.
	trainingError float64
	problem       string   // names the trainer and its parameter, for the figure
	lines         []string // the step written out
	examined      string
	changed       bool
	model         []demo.ModelLine
	history       *chart.History
}

func computeSGD(ctx context.Context, in demo.Input) (demo.Result, error) {
	x, yf := demo.Columns(in.Points)
	y := pointset.SignLabels(yf)
	if !pointset.BothClasses(y) {
		return demo.OneClassResult(x, y, in, demo.SvmOneClass), nil
	}
	var (
		r   primalRun
		err error
	)
	if pegasos(in.State) {
		r, err = runPegasos(ctx, x, y, in)
	} else {
		r, err = runSubgradient(ctx, x, y, in)
	}
	if err != nil {
		return demo.Result{}, err
	}
	scene := scenes.SVMScene{
		X: x, Y: y, C: math.Inf(1), W: r.w, B: r.b, Pair: [2]int{r.sampled, -1}, Stepping: true, Problem: r.problem,
		Overlay: &scenes.SceneLine{W: r.optW, B: r.optB, Label: r.ref.name()},
		Title:   fmt.Sprintf("iteration %d · objective %s · %s", r.t, textfmt.Sig(r.objective), r.ref.inTitle()),
	}
	margins := make([]float64, len(x))
	labels, u := make([]float64, len(x)), make([]float64, len(x))
	for i, row := range x {
		labels[i], u[i] = float64(y[i]), floats.Dot(r.w, row)
		margins[i] = labels[i] * (u[i] + r.b)
	}
	r.trainingError = errorAt(labels, u, r.b)
	return demo.Result{
		Step: r.t,
		Done: r.status.Done(),
		Plot: demo.SceneDrawer(scene),
		Panels: map[string]demo.Drawer{"losses": func(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
			return render.Frame{}, graphs.LossChartSVG(w, graphs.LossChart{
				Losses:  []string{graphs.LossZeroOne, graphs.LossPerceptron, graphs.LossHinge, graphs.LossLogistic},
				Margins: margins,
				Title:   fmt.Sprintf("losses of the score z = y·f(x) · the points at iteration %d", r.t),
			}, render.Options{Width: opt.Width})
		}},
		History: r.history,
		Panel:   func() demo.Panel { return sgdPanel(r, margins) },
	}, nil
}

// keptPegasos and keptSubgradient return state in.Step of their run (or
// its last) and its step from the run the course's cache keeps, with each
// state's T and objective when recorded: the one way the demo and its
// questions reach a step.
func keptPegasos(ctx context.Context, in demo.Input, x [][]float64, y []int, p primal.PegasosParams, pg *primal.Pegasos, s0 primal.PegasosState, recorded bool) (primal.PegasosState, int, []float64, error) {
	key := optimumKey("pegasos-run", x, y, p.Lambda, float64(p.T), float64(p.Seed))
	return demo.RunKept(ctx, in.Cache, key, pg, s0, in.Step, primalStateBytes(len(x[0]), 4), 2,
		func(s primal.PegasosState, v []float64) { v[0], v[1] = float64(s.T), pg.Objective(s.Avg) }, recorded)
}

func keptSubgradient(ctx context.Context, in demo.Input, x [][]float64, y []int, p primal.SubgradientParams, sg *primal.Subgradient, s0 primal.SubgradientState, recorded bool) (primal.SubgradientState, int, []float64, error) {
	key := optimumKey("subgradient-run", x, y, p.C, p.Eta, demo.B2f(p.Decay), float64(p.T))
	return demo.RunKept(ctx, in.Cache, key, sg, s0, in.Step, primalStateBytes(len(x[0]), 1), 2,
		func(s primal.SubgradientState, v []float64) { v[0], v[1] = float64(s.T), s.Objective }, recorded)
}

func runPegasos(ctx context.Context, x [][]float64, y []int, in demo.Input) (primalRun, error) {
	st := in.State
	p := primal.PegasosParams{Lambda: demo.Lambda.Get(st), T: demo.Iterations.Get(st), Seed: uint64(demo.Aseed.Get(st))}
	pg, s0, err := primal.NewPegasos(x, y, p)
	if err != nil {
		return primalRun{}, demo.UncomputableIf(err, svm.ErrNotFinite)
	}
	o, err := memoOptimum(ctx, in.Cache, optimumKey("pegasos-optimum", x, y, p.Lambda), func(ctx context.Context) (optimum, error) {
		theta, v, err := primal.PegasosOptimum(ctx, x, y, p.Lambda)
		ref, err := newReference(v, err)
		return optimum{ref: ref, w: theta}, err
	})
	if err != nil {
		return primalRun{}, err
	}
	ref, opt := o.ref, o.w
	s, k, v, err := keptPegasos(ctx, in, x, y, p, pg, s0, in.Wants(demo.HistoryFigure))
	if err != nil {
		return primalRun{}, err
	}
	rec := demo.KeptObjective(in, v, 2)
	ref.track(&rec.Approx, &rec.Gap)
	d := len(x[0])
	r := primalRun{
		t: s.T, status: s.Status, w: s.Avg[:d], b: s.Avg[d], objective: pg.Objective(s.Avg), optimum: ref.value, ref: ref,
		optW: opt[:d], optB: opt[d], sampled: s.I, problem: "Pegasos (001's SGD), λ = " + textfmt.Sig(p.Lambda),
		objSym: "F", objName: "objective F(W̄) = λ‖W̄‖² + mean hinge", objID: "f",
		history: rec.History(k, "objective of W̄", ref.value), cure: "a larger λ",
		model: []demo.ModelLine{
			{Prefix: "answer W̄ = average of W₁…W_t:", Facts: []demo.Fact{{"w", textfmt.Vec(s.Avg[:d]), "w"}, {"b", textfmt.Num(s.Avg[d]), "b"}}},
			{Prefix: "current:", Facts: []demo.Fact{{"θ", textfmt.Vec(s.Theta), "theta"}}},
		},
	}
	if s.I >= 0 {
		i := s.I
		m := pg.Y[i] * (floats.Dot(s.W[:d], x[i]) + s.W[d])
		r.examined = fmt.Sprintf("Iteration %d samples i = %s (y = %s). W_t = θ_t/(2λt) = %s.", s.T, render.PointName(i), textfmt.Signed(pg.Y[i]), textfmt.Vec(s.W))
		if s.Violated {
			r.changed = true
			r.lines = []string{fmt.Sprintf("yᵢ W_t·X̃ᵢ = %s < 1, so θ ← θ + yᵢX̃ᵢ = %s.", textfmt.Sig(m), textfmt.Vec(s.Theta))}
		} else {
			r.lines = []string{fmt.Sprintf("yᵢ W_t·X̃ᵢ = %s ≥ 1, so θ stays.", textfmt.Sig(m))}
		}
	}
	return r, nil
}

func runSubgradient(ctx context.Context, x [][]float64, y []int, in demo.Input) (primalRun, error) {
	st := in.State
	p := primal.SubgradientParams{C: subC.Get(st), Eta: subEta.Get(st), Decay: subDecay.Is(st, "sqrt"), T: demo.Iterations.Get(st)}
	sg, s0, err := primal.NewSubgradient(x, y, p)
	if err != nil {
		return primalRun{}, demo.UncomputableIf(err, svm.ErrNotFinite)
	}
	o, err := memoOptimum(ctx, in.Cache, optimumKey("svm-optimum", x, y, p.C), func(ctx context.Context) (optimum, error) {
		w, b, v, err := primal.SubgradientOptimum(ctx, x, y, p.C)
		ref, err := newReference(v, err)
		return optimum{ref: ref, w: w, b: b}, err
	})
	if err != nil {
		return primalRun{}, demo.UncomputableIf(err, svm.ErrNotFinite)
	}
	ref, optW, optB := o.ref, o.w, o.b
	s, k, v, err := keptSubgradient(ctx, in, x, y, p, sg, s0, in.Wants(demo.HistoryFigure))
	if err != nil {
		return primalRun{}, err
	}
	rec := demo.KeptObjective(in, v, 2)
	ref.track(&rec.Approx, &rec.Gap)
	r := primalRun{
		t: s.T, status: s.Status, w: s.W, b: s.B, objective: s.Objective, optimum: ref.value, ref: ref, cure: "a smaller C",
		optW: optW, optB: optB, sampled: -1, problem: "subgradient descent on (1.6.a), C = " + textfmt.Sig(p.C),
		objSym: "(1.6.a)", objName: "objective (1.6.a) = ½‖w‖² + C Σ hinge", objID: "primal",
		history: rec.History(k, "primal (1.6.a)", ref.value),
		model:   []demo.ModelLine{{Facts: []demo.Fact{{"w", textfmt.Vec(s.W), "w"}, {"b", textfmt.Num(s.B), "b"}}}},
	}
	if s.T > 0 {
		eta := p.Eta
		if p.Decay {
			eta /= math.Sqrt(float64(s.T))
		}
		r.changed = true
		r.examined = fmt.Sprintf("Iteration %d steps along minus a subgradient of the whole objective, with η_t = %s.", s.T, textfmt.Sig(eta))
		r.lines = []string{
			"w ← w − η_t (w − C Σ yᵢxᵢ) and b ← b + η_t C Σ yᵢ, both sums over the points with yᵢf(xᵢ) ≤ 1.",
			fmt.Sprintf("Now %s yᵢf(xᵢ) ≤ 1; the best objective so far is %s.", pointsHave(s.Violators), textfmt.Sig(s.Best)),
		}
	}
	return r, nil
}

// primalStateBytes is the memory of a primal trainer's state with vecs
// vectors of d+1 numbers.
func primalStateBytes(d, vecs int) int64 { return 128 + int64(vecs)*(32+8*int64(d+1)) }

// sgdPanel describes the primal trainer's state; margins are the points'
// yᵢf(xᵢ), which the loss chart draws too.
func sgdPanel(r primalRun, margins []float64) demo.Panel {
	p := demo.Panel{
		Counters: []demo.Counter{
			{"iteration t", strconv.Itoa(r.t), "step"},
			{r.objName, textfmt.Sig(r.objective), "objective-" + r.objID},
			{r.ref.name() + " of " + r.objSym, textfmt.Sig(r.optimum), "optimum-" + r.objID},
			{"training error", textfmt.Pct(r.trainingError, 1), "error"},
		},
		Status:   r.status.String(),
		Done:     r.status.Done(),
		Bad:      r.status.Done() && r.status != algos.IterationLimit,
		Start:    "Start: θ = 0, so the line is not drawn yet. Press → or Step for the first iteration.",
		Examined: r.examined, Lines: r.lines, Changed: r.changed, Model: r.model,
	}
	if r.status == algos.IterationLimit {
		p.Status = "ran its T iterations"
	}
	p.Notes = append(p.Notes, errorRuleNote()) // under the training error it defines
	if r.status == algos.Diverged {
		p.Notes = append(p.Notes, demo.Note{TestID: "diverged", Alert: true,
			Text: "The iterates grew past what a computer can hold: the step size η is too large. Lower η or use η/√t."})
	}
	p.Notes = append(p.Notes, demo.Note{TestID: "gap", Text: fmt.Sprintf("The objective is %s above the %s, which SMO computes for the same objective (dashed grey line).",
		textfmt.Sig(r.objective-r.optimum), strings.TrimPrefix(r.ref.name(), "exact "))})
	p.Notes = append(p.Notes, r.ref.note(r.cure)...)
	return p
}

// pointsHave counts points before a verb in the plural: "1 point has",
// "3 points have".
func pointsHave(n int) string {
	if n == 1 {
		return "1 point has"
	}
	return strconv.Itoa(n) + " points have"
}
