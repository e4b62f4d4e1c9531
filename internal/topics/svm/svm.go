package svm

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/render/scenes"
	"github.com/margin-edu/margin/internal/textfmt"
)

// SVM demo limits docs/demos lists with the parameters.
const (
	MinC = 1e-3 // the soft-margin C runs over [MinC, MaxC] on a log slider
	MaxC = 1e3
	// svmMaxIter is the solver's own budget; the demo shows MaxStep of it.
	svmMaxIter = 1000000
)

// svmSets are the built-in data sets of the SVM demos: two classes only.
var svmSets = []demo.Option{{"separable", "separable (random)"}, {"noisy", "noisy (random)"},
	{"or", "or (notes)"}, {"and", "and"}, {"xor", "xor"}}

// SVMSpec declares an SMO demo: the hard-margin SVM (C = ∞, lesson
// hard-margin-svm) or the soft-margin one with a C control (lesson
// soft-margin-svm). Both are one demo with one flag, so that what the
// lessons share (the solver's stepping, the α and KKT charts, the
// history, the side panel) is written once.
func SVMSpec(hard bool) demo.Spec {
	sp := demo.Spec{
		ID: "svm-soft", Title: "Soft-margin SVM, solved by SMO", Lesson: "soft-margin-svm",
		Data: demo.DataSpec{
			Labels: demo.ClassLabels, MaxClasses: 2, Default: "noisy", Sets: svmSets, Make: pointset.Points,
		},
		Panels: []string{"alpha", "kkt"}, PanelLabels: map[string]string{"alpha": "α of each point", "kkt": "KKT violation of each point"},
		Examples: []demo.Example{{Name: "c0.1", Query: "C=0.1&step=end"}},
		Compute: func(ctx context.Context, in demo.Input) (demo.Result, error) {
			return computeSVM(ctx, in, SvmParams(in.State, hard), compare.Is(in.State, "perceptron"), nil)
		},
		Predict: smoPredictor(func(s demo.State) svm.Params { return SvmParams(s, hard) }),
	}
	sp.Conventions, sp.Explain = smoConventions(hard, false), demo.Explain{Section: "soft-dual"}
	if hard {
		sp.Explain.Section = "smo"
		sp.ID, sp.Title, sp.Lesson, sp.Data.Default = "svm-hard", "Hard-margin SVM, solved by SMO", "hard-margin-svm", "separable"
		sp.Examples = []demo.Example{{Name: "default", Query: ""}, {Name: "compare", Query: "compare=perceptron&step=end"}}
	}
	sp.Params = pointset.Params("`separable`, `noisy`", "seeds the random set")
	if !hard {
		sp.Params = append(sp.Params, boxC.Param())
	}
	sp.Params = append(sp.Params, demo.Params(smoTol, compare)...)
	return sp
}

// The SMO demos' parameters.
var (
	// boxC is the soft margin's C, on a log slider.
	boxC = demo.Float{Key: "C", Label: "C", Doc: "box bound C of the dual (log slider)", Group: demo.GroupAlgo,
		Default: 1, Min: MinC, Max: MaxC, Step: "any", Log: true}
	// smoTol is SMO's stopping tolerance.
	smoTol = demo.Choice{Key: "tol", Label: "tolerance ε", Doc: "SMO stops when the gap m(α) − M(α) ≤ ε (LIBSVM's -e)",
		Group: demo.GroupAlgo, Default: "0.001",
		Options: []demo.Option{{"0.1", "0.1"}, {"0.01", "0.01"}, {"0.001", "0.001 (LIBSVM)"}, {"1e-06", "10⁻⁶"}}}
	// compare draws the perceptron's line beside the SVM's (svm-hard and
	// svm-soft only).
	compare = demo.Choice{Key: "compare", Label: "compare", Doc: "draw the perceptron's line on the same data", Group: demo.GroupAlgo,
		Default: "none", Options: []demo.Option{{"none", "nothing"}, {"perceptron", "perceptron"}}}
)

// SvmParams are the SMO parameters a state of svm-hard (hard) or
// svm-soft selects: a linear kernel, C (soft only), the tolerance and
// the stated tie rule.
// The kernel SVM adds its kernel to the soft margin's.
func SvmParams(s demo.State, hard bool) svm.Params {
	p := svm.DefaultParams()
	p.Hard = hard
	if !hard {
		p.C = boxC.Get(s)
	}
	p.Tol, _ = strconv.ParseFloat(smoTol.Get(s), 64)
	p.MaxIter = svmMaxIter
	// The lessons' rule for ties, stated in the prose: values within
	// 8·2⁻⁵²·max|v| of each other tie, and the last index wins, so that
	// rounding never decides the pair (issue 27 §2).
	p.Ties = true
	return p
}

// svmExtra adds a demo's own figures and counters to the SMO demo's
// result for the state reached, given its problem (the kernel demo's
// held-out error and γ sweep).
type svmExtra func(ctx context.Context, in demo.Input, pr *svm.Problem, s svm.State, res *demo.Result)

// computeSVM runs SMO with parameters p to the state in asks for;
// withPerceptron draws the perceptron's line beside the SVM's.
func computeSVM(ctx context.Context, in demo.Input, p svm.Params, withPerceptron bool, extra svmExtra) (demo.Result, error) {
	x, yf := demo.Columns(in.Points)
	y := pointset.SignLabels(yf)
	if !pointset.BothClasses(y) {
		return demo.OneClassResult(x, y, in, demo.SvmOneClass), nil
	}
	pr, s0, err := svm.New(x, y, p)
	if err != nil {
		return demo.Result{}, demo.UncomputableIf(err, svm.ErrNotFinite)
	}
	// The run is kept in the course's cache (checkpoints and each state's
	// scalars), so stepping through it costs a few SMO iterations.
	recorded := in.Wants(demo.HistoryFigure)
	s, k, v, err := keptSMO(ctx, in, x, y, p, pr, s0, recorded)
	if err != nil {
		return demo.Result{}, err
	}
	rec := newSVMRecorder(pr, in.Step)
	if recorded {
		for i := 0; i <= k; i++ {
			w := v[i*smoWidth : (i+1)*smoWidth]
			rec.add(i, int(w[0]), w[1], w[2], w[4], func() float64 { return w[3] })
		}
	}
	var cmp *scenes.SceneLine
	if withPerceptron {
		// The perceptron's whole run (up to MaxStep steps) does not depend
		// on the step shown: it is kept in the course's cache.
		line, err := demo.Memoise(ctx, in.Cache, optimumKey("svm-perceptron-line", x, y),
			func(*scenes.SceneLine) int64 { return 256 }, func(context.Context) (*scenes.SceneLine, error) { return perceptronLine(x, y), nil })
		if err != nil {
			return demo.Result{}, err
		}
		cmp = line
	}
	scene := svmScene(pr, s, cmp)
	if in.State.Predict.On && !s.Status.Done() {
		// A question page marks the points it asks about: the previous
		// pair's "i: α = …, j: α = …" labels would compete with them.
		scene.Pair = [2]int{-1, -1}
	}
	res := demo.Result{
		Step: k,
		Done: s.Status.Done(),
		Plot: demo.SceneDrawer(scene),
		Panels: map[string]demo.Drawer{
			"alpha": func(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
				return render.Frame{}, chart.BarsSVG(w, alphaBars(pr, s), barOptions(opt))
			},
			"kkt": func(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
				return render.Frame{}, chart.BarsSVG(w, kktBars(pr, s), barOptions(opt))
			},
		},
		History: rec.history(pr, s, recorded),
		Panel:   func() demo.Panel { return svmPanel(pr, s, in.State, cmp) },
	}
	if s.Status == algos.Infeasible {
		res.Panels = nil // no α to chart: the problem has no solution
	} else if extra != nil {
		extra(ctx, in, pr, s, &res)
	}
	return res, nil
}

// smoWidth is the scalars a kept SMO run holds of each state: T, D(α),
// m − M, the primal objective and the feasible primal value (what its
// history charts).
const smoWidth = 5

// smoRunKey names an SMO run by everything it depends on.
func smoRunKey(x [][]float64, y []int, p svm.Params) demo.CacheKey {
	k := p.Kernel
	return optimumKey("smo-run", x, y, p.C, demo.B2f(p.Hard), p.Tol, float64(p.MaxIter),
		float64(k.Kind), k.Gamma, k.Coef0, float64(k.Degree), demo.B2f(p.Ties))
}

// keptSMO returns state in.Step of the SMO run of pr from s0 (or its last)
// and its step from the run the course's cache keeps, with each state's
// smoWidth scalars when recorded: the one way the demo and its questions
// reach a step.
func keptSMO(ctx context.Context, in demo.Input, x [][]float64, y []int, p svm.Params, pr *svm.Problem, s0 svm.State, recorded bool) (svm.State, int, []float64, error) {
	return demo.RunKept(ctx, in.Cache, smoRunKey(x, y, p), pr, s0, in.Step, smoStateBytes(len(x)), smoWidth,
		func(s svm.State, v []float64) {
			v[0], v[1], v[2], v[3], v[4] = float64(s.T), s.Dual, s.Gap, pr.Primal(s), feasiblePrimal(pr, s)
		}, recorded)
}

// smoStateBytes is the memory of an SMO state of n points: α and G.
func smoStateBytes(n int) int64 { return 128 + 16*int64(n) }

// barOptions draws a bar chart at the plot's width and its own short
// height.
func barOptions(opt render.Options) render.Options {
	return render.Options{Width: opt.Width}
}

// svmScene is what the data figure shows of state s.
func svmScene(pr *svm.Problem, s svm.State, cmp *scenes.SceneLine) scenes.SVMScene {
	n := len(pr.X)
	sc := scenes.SVMScene{
		X: pr.X, Y: labelsOf(pr), Alpha: s.Alpha, C: pr.P.C,
		Kind: make([]string, n), Pair: [2]int{s.I, s.J}, Slack: !pr.P.Hard, Overlay: cmp, Stepping: true,
		Title: svmTitle(pr, s),
	}
	if pr.P.Hard {
		sc.C = math.Inf(1)
	}
	if s.Status == algos.Infeasible {
		sc.Hull = pr.Certificate()
		return sc
	}
	if s.Status == algos.Converged {
		// Kinds by α belong to the optimum, where the KKT conditions tie
		// αᵢ to yᵢf(xᵢ); mid-run the scene names the support vectors by
		// where the current line puts them (Kind nil: by yᵢf(xᵢ)).
		for _, i := range pr.Support(s) {
			sc.Kind[i] = pr.Kind(s, i).String()
		}
	} else {
		sc.Kind = nil
	}
	if _, _, free := pr.BiasRange(s); s.Status == algos.Converged && free == 0 {
		if r, ok := biasInterval(pr, s, scoresWithoutBias(pr, s)); ok {
			sc.Desc = fmt.Sprintf("No multiplier is free, so b is not unique: every b from %s to %s is optimal, "+
				"and the figure draws SMO's midpoint, b = %s.", textfmt.Sig(r.lo), textfmt.Sig(r.hi), textfmt.Sig(r.b))
		}
	}
	if pr.P.Kernel.Kind == svm.Linear {
		sc.W, sc.B = pr.Weights(s), s.B
		return sc
	}
	// A kernel SVM: f is drawn from its expansion over the support
	// vectors, each sized by its αᵢ, the weight the representer theorem
	// puts on it; slack segments belong to a linear picture only.
	e := pr.Expansion(s)
	sc.Decision = func(x1, x2 float64) float64 { return e.Eval([]float64{x1, x2}) }
	sc.DecisionGrid, sc.Size, sc.Slack = e.Grid, s.Alpha, false
	return sc
}

func labelsOf(pr *svm.Problem) []int {
	y := make([]int, len(pr.Y))
	for i, v := range pr.Y {
		y[i] = int(v)
	}
	return y
}

// svmTitle states the state in the figure's title.
func svmTitle(pr *svm.Problem, s svm.State) string {
	if s.Status == algos.Infeasible {
		return "not linearly separable: the hard-margin problem has no solution"
	}
	t := "SMO step " + strconv.Itoa(s.T) + " · " + textfmt.Plural(len(pr.Support(s)), "support vectors")
	if svmAtLimit(s) {
		t += " (step limit: not converged)"
	}
	if w := pr.Weights(s); w != nil && floats.Norm(w, 2) > 0 {
		t += " · band 2/‖w‖ = " + textfmt.Sig(2/floats.Norm(w, 2))
	}
	if k := pr.P.Kernel; k.Kind != svm.Linear {
		t += "\n" + kernelName(k) + ", C = " + textfmt.Sig(pr.P.C)
	}
	return t
}

// perceptronLine runs Algorithm 1 on the same points, as far as the demo
// would show it, for the hard-margin lesson's comparison: a separating
// line, but not the widest.
func perceptronLine(x [][]float64, y []int) *scenes.SceneLine {
	p := perceptron.DefaultParams()
	pr, s0, err := perceptron.Init(perceptron.Data{X: x, Y: y}, p)
	if err != nil {
		return nil
	}
	s, _, err := algos.Replay(pr, s0, demo.MaxStep)
	if err != nil || len(s.Models) != 1 {
		return nil
	}
	m := s.Models[0]
	label := "perceptron"
	if s.Status != algos.Converged {
		label = "perceptron (not converged)"
	}
	return &scenes.SceneLine{W: m.W, B: m.B, Label: label}
}
