package logistic

import (
	"context"
	"fmt"
	"io"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
)

// MaxProbe bounds |q₁| and |q₂| of the softmax demo's probe point.
const MaxProbe = 10.0

// probeX1 and probeX2 are the coordinates of the softmax demo's probe
// point q, whose class probabilities the panel lists.
var (
	probeX1 = demo.Float{Key: "q1", Label: "probe x₁", Doc: "a coordinate of the probe point q, whose class probabilities the panel lists",
		Group: demo.GroupAlgo, Default: 0, Min: -MaxProbe, Max: MaxProbe, Step: "0.1"}
	probeX2 = func() demo.Float { p := probeX1; p.Key, p.Label = "q2", "probe x₂"; return p }()
)

// probe is the probe point q of s.
func probe(s demo.State) [2]float64 { return [2]float64{probeX1.Get(s), probeX2.Get(s)} }

// SoftmaxSpec declares the logistic regression lesson's second demo:
// softmax (multinomial) regression on three classes, trained by gradient
// descent from W = 0, with the plane split by the predicted class and the
// class probabilities of a probe point the learner moves.
func SoftmaxSpec() demo.Spec {
	// The blobs have no gap to set, so the point sets' sep is left out.
	sets := slices.DeleteFunc(pointset.Params("`blobs`", "seeds the random set"), func(p demo.Param) bool { return p.Key == pointset.Sep.Key })
	params := append(sets, demo.LambdaParam("penalty λ of (λ/2)‖W‖²; b is not penalised (log slider)", nil))
	params = append(params, demo.Params(eta, probeX1, probeX2)...)
	return demo.Spec{
		ID: "softmax", Title: "Softmax regression, three classes", Lesson: "logistic-regression",
		Data: demo.DataSpec{Labels: demo.ClassLabels, MaxClasses: 3, Default: "blobs",
			Sets: []demo.Option{{"blobs", "blobs (3 classes, random)"}}, Make: pointset.Points},
		Params:      params,
		Examples:    []demo.Example{{Name: "step100", Query: "n=30&step=100&q1=1&q2=1"}},
		Conventions: softmaxConventions(), Explain: demo.Explain{Section: "softmax"},
		Compute:  computeSoftmax,
		Predict:  predictSoftmax,
		StepWork: softmaxStepWork,
	}
}

// softmaxStepWork is the nominal work of one gradient step on n points:
// about 50 µs at n = 500 (three scores, their exponentials and a log a
// point, and the gradient), charged 120 units a point so that a
// comparison of two runs (demo.CompareWork) shows at most 10,833 steps
// on 500 points, about 1.1 s of CPU, where 20,000 steps of both took 3 s.
func softmaxStepWork(_ demo.State, n int) int64 { return 120 * int64(n) }

// softmaxClasses reads a demo's labels as classes 0…C−1, C being the
// largest class plus one. Labels that are all ±1 (a two-class CSV) are
// read as class 0 for +1 and class 1 for −1, the colours the page draws
// them in; among other labels a −1 counts as class 0. missing is the
// first class below C with no point, or −1.
func softmaxClasses(yf []float64) (y []int, c, missing int) {
	y = make([]int, len(yf))
	signs := !slices.ContainsFunc(yf, func(v float64) bool { return v != 1 && v != -1 })
	seen := map[int]bool{}
	for i, v := range yf {
		switch {
		case signs:
			y[i] = int(1-v) / 2
		default:
			y[i] = max(int(v), 0)
		}
		c = max(c, y[i]+1)
		seen[y[i]] = true
	}
	for k := range c {
		if !seen[k] {
			return y, c, k
		}
	}
	return y, c, -1
}

func computeSoftmax(ctx context.Context, in demo.Input) (demo.Result, error) {
	x, yf := demo.Columns(in.Points)
	y, c, missing := softmaxClasses(yf)
	st := in.State
	switch {
	case c < 2:
		return softmaxMissing(x, y, "one class only: add a point of another class",
			"Softmax regression spreads probability over the classes it sees; these points have one."), nil
	case missing >= 0:
		return softmaxMissing(x, y, fmt.Sprintf("class %d has no points: add one", missing),
			fmt.Sprintf("The classes run from 0 to %d, but class %d has no point: its score would fall without bound.", c-1, missing)), nil
	}
	sm, err := logistic.NewSoftmax(x, y, c, demo.Lambda.Get(st))
	if err != nil {
		return demo.Result{}, err
	}
	opt, optErr := softmaxOptimum(ctx, in.Cache, sm)
	if demo.IsContextErr(optErr) {
		return demo.Result{}, optErr
	}
	gd := logistic.SoftmaxGD{S: sm, Eta: eta.Get(st)}
	key := demo.ProblemKey("softmax-track", sm.X, pointset.FloatLabels(sm.Y), sm.Lambda, float64(sm.C), gd.Eta)
	s, k, j, _, err := demo.RunTracked(ctx, in.Cache, key, gd, sm.Start(), in.Step, softmaxStateBytes(sm.Start()),
		func(s logistic.SoftmaxState) (float64, float64) { return s.Objective, 0 })
	if err != nil {
		return demo.Result{}, err
	}
	r := &softmaxRun{sm: sm, s: s, k: k, j: j, eta: gd.Eta, q: probe(st), opt: opt, optErr: optErr}
	res := demo.Result{Step: k, Done: s.Status.Done(), Plot: r.draw, Panel: r.panel}
	if optErr == nil && in.Wants(demo.HistoryFigure) {
		res.History = objectiveHistory(j, "J", opt.Objective)
	}
	return res, nil
}

// objectiveHistory charts the objectives j of states 0…len(j)−1 against
// the optimum, as the primal trainers' history does, sampling them as
// their recorder would.
func objectiveHistory(j []float64, name string, optimum float64) *chart.History {
	k := len(j) - 1
	rec := demo.NewObjectiveRecorder(k, func(i int) (int, float64) { return i, j[i] })
	rec.On = true
	for i := range j {
		rec.Record(i, i)
	}
	h := rec.History(k, name, optimum)
	h.XLabel = "iteration k"
	return h
}

// softmaxOptimum solves sm exactly, memoised in cache as logisticOptimum
// does for the binary problems. A failed solve is not memoised.
func softmaxOptimum(ctx context.Context, cache *demo.Cache, sm *logistic.Softmax) (logistic.SoftmaxState, error) {
	key := demo.ProblemKey("softmax-optimum", sm.X, pointset.FloatLabels(sm.Y), sm.Lambda, float64(sm.C))
	return demo.Memoise(ctx, cache, key, softmaxStateBytes, sm.Solve)
}

// softmaxMissing shows points that lack a class softmax regression needs:
// every class from 0 to the largest must have a point, and there must be
// two.
func softmaxMissing(x [][]float64, y []int, title, why string) demo.Result {
	return demo.Result{
		Done: true,
		Plot: func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
			pts, err := render.NewClassPoints(x, y, nil)
			if err != nil {
				return render.Frame{}, err
			}
			f := render.DataFigure{Title: title, View: render.DataView(x),
				Layers: []plot.Plotter{pts}, Legend: pts.Legend()}
			return f.Write(w, png, opt)
		},
		Panel: func() demo.Panel {
			return demo.Panel{Status: "needs a point of every class", Done: true, Bad: true, Start: why,
				Notes: []demo.Note{{TestID: "one-class", Alert: true,
					Text: "Add a point of the missing class: choose its class under the plot and click where it goes."}}}
		},
	}
}

// softmaxRun is the state of a softmax regression run the demo shows.
type softmaxRun struct {
	sm     *logistic.Softmax
	s      logistic.SoftmaxState
	k      int
	j      []float64 // J of states 0…k
	eta    float64
	q      [2]float64
	opt    logistic.SoftmaxState
	optErr error
}

// score is class c's score w_c·x + b_c, without allocating.
func (r *softmaxRun) score(c int, x1, x2 float64) float64 {
	m := r.s.Model
	return m.W[c][0]*x1 + m.W[c][1]*x2 + m.B[c]
}

// flat reports whether W = 0: every class scores the same at every x, so
// there are no boundaries to draw.
func (r *softmaxRun) flat() bool {
	for _, w := range r.s.Model.W {
		if !isZero(w) {
			return false
		}
	}
	return true
}

// tied reports whether every class scores the same everywhere (W = 0 and
// equal biases, as at the start): Predict then says class 0 by its tie
// rule, but the model prefers none, so the figure tints nothing.
func (r *softmaxRun) tied() bool {
	b := r.s.Model.B
	return r.flat() && floats.Max(b) == floats.Min(b)
}

// wrong flags the points whose predicted class is not their own.
func (r *softmaxRun) wrong() []bool {
	out := make([]bool, len(r.sm.X))
	for i, x := range r.sm.X {
		out[i] = r.s.Model.Predict(x) != r.sm.Y[i]
	}
	return out
}

func (r *softmaxRun) trainingError() float64 {
	n := 0
	for _, w := range r.wrong() {
		if w {
			n++
		}
	}
	return float64(n) / float64(len(r.sm.X))
}

// softmaxStateBytes estimates the memory of a softmax state: its weights,
// biases and the gradient it keeps.
func softmaxStateBytes(s logistic.SoftmaxState) int64 {
	return 128 + 2*(demo.FloatsBytes(s.Model.W...)+demo.FloatsBytes(s.Model.B))
}
