package svm

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/primal"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/scenes"
	"github.com/margin-edu/margin/internal/textfmt"
)

// KernelPegasosSpec declares the kernel lesson's second trainer: 001's
// kernelized SGD procedure, stepped one sampled point at a time, against
// the exact optimum of the same objective.
func KernelPegasosSpec() demo.Spec {
	params := append(pointset.ShapeParams(60, "seeds the random set (and the sampling, unless `aseed` is set)"), kernelParams(false)...)
	params = append(params,
		demo.LambdaParam("regularisation λ of λ αᵀKα + (1/n)Σ hinge (log slider)", nil),
		demo.AseedParam("seeds the points SGD samples", nil),
		demo.Iterations.Param())
	return demo.Spec{
		ID: "kernel-pegasos", Title: "Kernelized SGD (001's procedure)", Lesson: "kernels",
		Data: kernelData(), Params: params, Compute: computeKernelPegasos,
		Predict:     predictKernelPegasos,
		Examples:    []demo.Example{{Name: "end", Query: "step=end"}},
		Conventions: kernelPegasosConventions(), Explain: demo.Explain{Section: "kernel-sgd"},
	}
}

func computeKernelPegasos(ctx context.Context, in demo.Input) (demo.Result, error) {
	x, yf := demo.Columns(in.Points)
	y := pointset.SignLabels(yf)
	if !pointset.BothClasses(y) {
		return demo.OneClassResult(x, y, in, demo.SvmOneClass), nil
	}
	st := in.State
	k := kernelOf(st)
	p := primal.KernelPegasosParams{Kernel: k, Lambda: demo.Lambda.Get(st), T: demo.Iterations.Get(st),
		Seed: uint64(demo.Aseed.Get(st))}
	kp, s0, err := primal.NewKernelPegasosGram(x, y, p, keptGram(ctx, in.Cache, x, y, p))
	if err != nil {
		return demo.Result{}, demo.UncomputableIf(err, svm.ErrNotFinite)
	}
	// The optimum is for the panel and the history; the plot alone (a
	// /plots/ URL) does not quote it, so it does not pay for it.
	var ref reference
	if in.Figure != demo.PlotFigure {
		key := optimumKey("kernel-pegasos-optimum", x, y, p.Lambda, float64(k.Kind), k.Gamma, k.Coef0, float64(k.Degree))
		o, err := memoOptimum(ctx, in.Cache, key, func(ctx context.Context) (optimum, error) {
			_, v, err := primal.KernelPegasosOptimum(ctx, x, y, k, p.Lambda)
			ref, err := newReference(v, err)
			return optimum{ref: ref}, err
		})
		if err != nil {
			return demo.Result{}, err
		}
		ref = o.ref
	}
	// The run is kept in the course's cache with its tracker (Kᾱ, for the
	// objective the history charts), so the next step costs a few
	// iterations, not a replay from 0.
	ts, step, v, err := keptKernelPegasos(ctx, in, x, y, p, kp, s0, in.Wants(demo.HistoryFigure))
	if err != nil {
		return demo.Result{}, err
	}
	s := ts.s
	rec := demo.KeptObjective(in, v, 2)
	ref.track(&rec.Approx, &rec.Gap)
	run := kernelRun{kp: kp, s: s, margins: kp.Margins(s.Avg), optimum: ref.value, ref: ref}
	run.objective = kp.Objective(s.Avg)
	return demo.Result{
		Step:    s.T,
		Done:    s.Status.Done(),
		Plot:    demo.SceneDrawer(run.scene()),
		History: rec.History(step, "objective of ᾱ", ref.value),
		Panel:   func() demo.Panel { return run.panel(st) },
	}, nil
}

// kernelRun is the state of a kernelized SGD run the demo shows.
type kernelRun struct {
	kp                 *primal.KernelPegasos
	s                  primal.KernelPegasosState
	margins            []float64 // yᵢ(Kᾱ)ᵢ
	objective, optimum float64
	ref                reference
}

// scene draws f(x) = Σᵢ ᾱᵢK(xᵢ, x) with no bias, each point sized by
// |ᾱᵢ|: the representer theorem's weights, on the points that carry them.
// An SGD iterate is not an optimum, so no point is ringed as a kind of
// support vector (the scene marks its sampled point, which tells the
// figure so); the <desc> sorts the points by yᵢf(xᵢ) instead.
func (r kernelRun) scene() scenes.SVMScene {
	e := r.kp.Expansion(r.s)
	w := make([]float64, len(r.s.Avg))
	for i, a := range r.s.Avg {
		w[i] = math.Abs(a)
	}
	return scenes.SVMScene{
		X: r.kp.X, Y: r.labels(), Alpha: r.s.Avg, C: math.Inf(1), Size: w,
		Decision:     func(x1, x2 float64) float64 { return e.Eval([]float64{x1, x2}) },
		DecisionGrid: e.Grid, Pair: [2]int{r.s.I, -1}, Stepping: true,
		Problem: "kernelized SGD (001), " + kernelName(r.kp.P.Kernel) + ", λ = " + textfmt.Sig(r.kp.P.Lambda),
		Title:   fmt.Sprintf("iteration %d · objective %s", r.s.T, textfmt.Sig(r.objective)),
		Desc:    r.marginWords(),
	}
}

// labels are the points' labels as ints.
func (r kernelRun) labels() []int {
	y := make([]int, len(r.kp.Y))
	for i, v := range r.kp.Y {
		y[i] = int(v)
	}
	return y
}

// marginCounts sorts the points by yᵢf(xᵢ) for the averaged iterate:
// active have yᵢf(xᵢ) < 1 (inside the band |f| < 1 or beyond it on the
// wrong side: their hinge loss is positive), wrong are predicted wrong
// (sgn(0) = −1), a subset of them.
func (r kernelRun) marginCounts() (active, wrong int) {
	for i, m := range r.margins {
		if m < 1 {
			active++
		}
		if y := int(r.kp.Y[i]); demo.Predict(float64(y)*m) != y {
			wrong++
		}
	}
	return active, wrong
}

// marginWords describes the iterate's points by yᵢf(xᵢ), for the <desc>.
func (r kernelRun) marginWords() string {
	active, wrong := r.marginCounts()
	return fmt.Sprintf("The averaged iterate ᾱ after %s is not an optimum, so its points are not sorted into kinds of support vector but counted by yᵢf(xᵢ): "+
		"yᵢf(xᵢ) < 1 (hinge loss active) at %s of %d, and %s predicted wrong (sgn(0) = −1).",
		textfmt.Plural(r.s.T, "iterations"), strconv.Itoa(active), len(r.margins), textfmt.Plural(wrong, "points"))
}

func nonzero(v []float64) int {
	n := 0
	for _, a := range v {
		if a != 0 {
			n++
		}
	}
	return n
}

func (r kernelRun) panel(st demo.State) demo.Panel {
	s := r.s
	active, _ := r.marginCounts()
	p := demo.Panel{
		Counters: []demo.Counter{
			{"iteration t", strconv.Itoa(s.T), "step"},
			{"objective", textfmt.Sig(r.objective), "objective"},
			{r.ref.name(), textfmt.Sig(r.optimum), "optimum"},
			{"training error", textfmt.Pct(predictionError(r.margins, r.labels()), 1), "error"},
			{"points with yᵢf(xᵢ) < 1", strconv.Itoa(active), "active"},
			{"points with ᾱᵢ ≠ 0", strconv.Itoa(nonzero(s.Avg)), "weights"},
		},
		Status: s.Status.String(), Done: s.Status.Done(),
		Start: "Start: every βᵢ = 0, so f = 0 and nothing is drawn yet. Press → or Step for the first iteration.",
	}
	if tx, ty, ok := pointset.HeldOut(st); ok {
		f := func(x []float64) float64 { return r.kp.Score(s, x) }
		p.Counters = append(p.Counters, demo.HeldOutCounter(demo.ErrorRate(f, tx, ty), len(tx)))
	}
	if s.Status == algos.IterationLimit {
		p.Status = "ran its T iterations"
	}
	if s.I >= 0 {
		j := s.I
		p.Examined = fmt.Sprintf("Iteration %d samples j = %s (yⱼ = %s); αᵢ⁽ᵗ⁾ = βᵢ⁽ᵗ⁾/(2λt) with 2λt = %s.",
			s.T, render.PointName(j), textfmt.Signed(r.kp.Y[j]), textfmt.Sig(2*r.kp.P.Lambda*float64(s.T)))
		if s.Violated {
			p.Changed = true
			p.Lines = []string{fmt.Sprintf("yⱼ Σᵢ αᵢ⁽ᵗ⁾K(xᵢ, xⱼ) = %s < 1, so βⱼ ← βⱼ + yⱼ = %s.", textfmt.Sig(s.Margin), textfmt.Sig(s.Beta[j]))}
		} else {
			p.Lines = []string{fmt.Sprintf("yⱼ Σᵢ αᵢ⁽ᵗ⁾K(xᵢ, xⱼ) = %s ≥ 1, so β stays.", textfmt.Sig(s.Margin))}
		}
	}
	p.Notes = append(p.Notes, demo.Note{TestID: "gap", Text: fmt.Sprintf(
		"The averaged ᾱ scores f(x) = Σᵢ ᾱᵢK(xᵢ, x), with no bias. Its objective λ ᾱᵀKᾱ + (1/n)Σ max(0, 1 − yᵢf(xᵢ)) is %s above the %s, "+
			"found by coordinate descent on the dual of the same problem.", textfmt.Sig(r.objective-r.optimum), strings.TrimPrefix(r.ref.name(), "exact "))})
	p.Notes = append(p.Notes, r.ref.note("a larger λ (or, for RBF and Laplace, a larger γ)")...)
	p.Notes = append(p.Notes, demo.RuleNote(demo.SignRule))
	p.Tables = append(p.Tables, weightTable(r))
	return p
}

// maxWeightRows bounds the representer table: the heaviest points.
const maxWeightRows = 12

// weightTable lists the points with the largest |ᾱᵢ|: the training points
// the answer is a weighted sum over.
func weightTable(r kernelRun) demo.Table {
	idx := make([]int, 0, len(r.s.Avg))
	for i, a := range r.s.Avg {
		if a != 0 {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Compare(math.Abs(r.s.Avg[b]), math.Abs(r.s.Avg[a]))
	})
	t := demo.Table{TestID: "weights", Caption: "The heaviest weights of f = Σᵢ ᾱᵢK(xᵢ, ·)",
		Head: []string{"point", "y", "ᾱᵢ", "βᵢ", "yᵢf(xᵢ)"}}
	for n, i := range idx {
		if n == maxWeightRows {
			t.More = "and " + textfmt.Plural(len(idx)-n, "more points") + " with a weight"
			break
		}
		t.Rows = append(t.Rows, []string{render.PointName(i), textfmt.Signed(r.kp.Y[i]), textfmt.Sig(r.s.Avg[i]), textfmt.Sig(r.s.Beta[i]), textfmt.Sig(r.margins[i])})
	}
	return t
}

// kernelTracker follows a kernelized SGD run step by step and keeps Kᾱ
// without recomputing it: g = Kβ changes by yⱼK(·, xⱼ) when iteration t
// updates βⱼ, and the sum of Kα⁽ᵗ⁾ = g/(2λt) over t is Kᾱ times t. The
// objective of ᾱ at a sampled step then costs O(n), not O(n²).
type kernelTracker struct {
	kp          *primal.KernelPegasos
	g, sum, col []float64
}

func newKernelTracker(kp *primal.KernelPegasos) *kernelTracker {
	n := len(kp.X)
	return &kernelTracker{kp: kp, g: make([]float64, n), sum: make([]float64, n)}
}

// Record implements algos.Recorder; it must see every step in order.
func (t *kernelTracker) Record(k int, s primal.KernelPegasosState) error {
	if k == 0 {
		return nil
	}
	c := 2 * t.kp.P.Lambda * float64(k)
	for i, v := range t.g {
		t.sum[i] += v / c
	}
	if s.Violated {
		yj := t.kp.Y[s.I]
		t.col = t.kp.Column(s.I, t.col)
		for i, v := range t.col {
			t.g[i] += yj * v
		}
	}
	return nil
}

// objective is λ ᾱᵀKᾱ + (1/n)Σ max(0, 1 − yᵢ(Kᾱ)ᵢ) at state s, which the
// tracker has recorded: Kᾱ is the tracked sum over the T iterations.
func (t *kernelTracker) objective(s primal.KernelPegasosState) float64 {
	if s.T == 0 {
		return 1 // ᾱ = 0: every hinge is 1
	}
	var quad, hinge float64
	for i, a := range s.Avg {
		ka := t.sum[i] / float64(s.T)
		quad += a * ka
		hinge += math.Max(0, 1-t.kp.Y[i]*ka)
	}
	return t.kp.P.Lambda*quad + hinge/float64(len(s.Avg))
}

// trackedKP steps a kernelized SGD run and its kernelTracker together, so
// that a run kept between requests carries the tracker's Kᾱ with each
// state: it is an algos.Method of trackedKPState. The tracker's numbers are
// computed as its Record would compute them on a replay, in the same
// order, so they have the same bits.
type trackedKP struct {
	tr *kernelTracker // its g and sum are unused: each state has its own
}

// trackedKPState is a state of the run with the tracker's g = Kβ and the
// sum of Kα⁽ᵗ⁾ over the iterations so far. Its slices are read-only.
type trackedKPState struct {
	s      primal.KernelPegasosState
	g, sum []float64
}

func (m *trackedKP) Status(ts trackedKPState) algos.Status { return m.tr.kp.Status(ts.s) }

func (m *trackedKP) Step(ts trackedKPState) trackedKPState {
	if ts.s.Status.Done() {
		return ts
	}
	next := m.Clone(ts)
	m.Advance(&next)
	return next
}

// Clone and Advance make trackedKP an algos.InPlace, so that a long
// extension of the run reuses one state's storage, as a replay does.
func (m *trackedKP) Clone(ts trackedKPState) trackedKPState {
	return trackedKPState{s: m.tr.kp.Clone(ts.s), g: slices.Clone(ts.g), sum: slices.Clone(ts.sum)}
}

func (m *trackedKP) Advance(ts *trackedKPState) {
	if ts.s.Status.Done() {
		return
	}
	m.tr.kp.Advance(&ts.s)
	t := kernelTracker{kp: m.tr.kp, g: ts.g, sum: ts.sum, col: m.tr.col}
	t.Record(ts.s.T, ts.s)
	m.tr.col = t.col
}

// objective is the tracker's objective of ᾱ at ts.
func (m *trackedKP) objective(ts trackedKPState) float64 {
	t := kernelTracker{kp: m.tr.kp, g: ts.g, sum: ts.sum}
	return t.objective(ts.s)
}

// keptGram is the Gram matrix of x under p's kernel, kept in the course's
// cache so that each step of a run does not compute its n² kernel values
// again; nil when there is none to keep (more than the trainer's
// fullGramMax points, or a problem NewKernelPegasos refuses, which the
// caller then reports).
// keptKernelPegasos returns state in.Step of kp's run from s0 (or its
// last), with its tracker, and its step from the run the course's cache
// keeps, with each state's T and objective when recorded: the one way the
// demo and its questions reach a step.
func keptKernelPegasos(ctx context.Context, in demo.Input, x [][]float64, y []int, p primal.KernelPegasosParams,
	kp *primal.KernelPegasos, s0 primal.KernelPegasosState, recorded bool) (trackedKPState, int, []float64, error) {
	k := p.Kernel
	m := &trackedKP{tr: newKernelTracker(kp)}
	n := int64(len(x))
	key := optimumKey("kernel-pegasos-run", x, y, p.Lambda, float64(p.T), float64(p.Seed),
		float64(k.Kind), k.Gamma, k.Coef0, float64(k.Degree))
	return demo.RunKept(ctx, in.Cache, key, m, trackedKPState{s: s0, g: make([]float64, n), sum: make([]float64, n)},
		in.Step, 256+48*n, 2, func(ts trackedKPState, v []float64) { v[0], v[1] = float64(ts.s.T), m.objective(ts) }, recorded)
}

func keptGram(ctx context.Context, cache *demo.Cache, x [][]float64, y []int, p primal.KernelPegasosParams) []float64 {
	k := p.Kernel
	key := optimumKey("kernel-pegasos-gram", x, y, float64(k.Kind), k.Gamma, k.Coef0, float64(k.Degree))
	g, err := demo.Memoise(ctx, cache, key, func(g []float64) int64 { return demo.FloatsBytes(g) },
		func(context.Context) ([]float64, error) {
			kp, _, err := primal.NewKernelPegasos(x, y, p)
			if err != nil {
				return nil, err
			}
			return kp.Gram(), nil
		})
	if err != nil {
		return nil
	}
	return g
}
