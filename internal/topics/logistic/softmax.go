package logistic

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

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

// MaxProbe bounds |q₁| and |q₂| of the softmax demo's probe point.
const MaxProbe = 10.0

// SoftmaxSpec declares the logistic regression lesson's second demo:
// softmax (multinomial) regression on three classes, trained by gradient
// descent from W = 0, with the plane split by the predicted class and the
// class probabilities of a probe point the learner moves.
func SoftmaxSpec() demo.Spec {
	probe := func(key, label string) demo.Param {
		return demo.Param{Key: key, Label: label, Doc: "a coordinate of the probe point q, whose class probabilities the panel lists",
			Kind: demo.KindFloat, Group: demo.GroupAlgo, Default: "0", Min: -MaxProbe, Max: MaxProbe, Step: "0.1"}
	}
	// The blobs have no gap to set, so the point sets' sep is left out.
	sets := slices.DeleteFunc(pointset.Params("`blobs`", "seeds the random set"), func(p demo.Param) bool { return p.Key == "sep" })
	params := append(sets,
		demo.LambdaParam("penalty λ of (λ/2)‖W‖²; b is not penalised (log slider)", nil),
		etaParam("step size η of gradient descent (log slider)", nil),
		probe("q1", "probe x₁"), probe("q2", "probe x₂"))
	return demo.Spec{
		ID: "softmax", Title: "Softmax regression, three classes", Lesson: "logistic-regression",
		Data: demo.DataSpec{Labels: demo.ClassLabels, MaxClasses: 3, Default: "blobs",
			Sets: []demo.Option{{"blobs", "blobs (3 classes, random)"}}, Make: pointset.Points},
		Params:   params,
		Examples: []demo.Example{{Name: "step100", Query: "n=30&step=100&q1=1&q2=1"}},
		Compute:  computeSoftmax,
	}
}

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
	sm, err := logistic.NewSoftmax(x, y, c, st.Float("lambda"))
	if err != nil {
		return demo.Result{}, err
	}
	opt, optErr := softmaxOptimum(ctx, in.Cache, sm)
	if demo.IsContextErr(optErr) {
		return demo.Result{}, optErr
	}
	gd := logistic.SoftmaxGD{S: sm, Eta: st.Float("eta")}
	key := demo.ProblemKey("softmax-track", sm.X, pointset.FloatLabels(sm.Y), sm.Lambda, float64(sm.C), gd.Eta)
	s, k, j, _, err := demo.RunTracked(ctx, in.Cache, key, gd, sm.Start(), in.Step, softmaxStateBytes(sm.Start()),
		func(s logistic.SoftmaxState) (float64, float64) { return s.Objective, 0 })
	if err != nil {
		return demo.Result{}, err
	}
	r := &softmaxRun{sm: sm, s: s, k: k, j: j, eta: gd.Eta, q: [2]float64{st.Float("q1"), st.Float("q2")}, opt: opt, optErr: optErr}
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

// regions tint each class's region, {x : s_c(x) ≥ s_l(x) for all l}, a
// convex polygon since the scores are affine: class 0 fills the view and
// the others are painted over it, ties going to the smaller class (strict
// against the classes before) as Predict gives them.
func (r *softmaxRun) regions() ([]plot.Plotter, error) {
	m := r.s.Model
	var out []plot.Plotter
	if r.tied() {
		return nil, nil
	}
	for j := range m.W {
		var planes []render.HalfPlane
		for l := range m.W {
			if j == 0 || l == j {
				continue
			}
			planes = append(planes, render.HalfPlane{
				A: [2]float64{m.W[j][0] - m.W[l][0], m.W[j][1] - m.W[l][1]}, B: m.B[j] - m.B[l], Strict: l < j})
		}
		reg, err := render.NewRegion(render.ClassTint(float64(j)), planes...)
		if err != nil {
			return nil, err
		}
		out = append(out, reg)
	}
	return out, nil
}

// borders draws the edges between the regions as the zero lines of
// s_a − max_{l≠a} s_l, one field per class but the last (whose edges all
// border another class's region). The function is continuous, so the
// lines run right into the points where three regions meet, and on an
// edge a|b the fields of a and b are exact negatives, so they cross the
// grid at the same points. It is linear but for kinks on the other
// edges, so marching squares draws its zero line exactly except in the
// cells at a junction, and a coarse grid serves.
func (r *softmaxRun) borders() ([]plot.Plotter, error) {
	if r.flat() {
		return nil, nil
	}
	c := len(r.s.Model.W)
	var out []plot.Plotter
	for a := 0; a < c-1; a++ {
		f, err := fields.NewField(func(x1, x2 float64) float64 {
			best := math.Inf(-1)
			for l := 0; l < c; l++ {
				if l != a {
					best = math.Max(best, r.score(l, x1, x2))
				}
			}
			return r.score(a, x1, x2) - best
		}, nil, fields.Level{Value: 0, LineStyle: render.DefaultBoundaryStyle})
		if err != nil {
			return nil, err
		}
		f.Res = demo.FieldRes
		out = append(out, f)
	}
	return out, nil
}

func (r *softmaxRun) title() string {
	t := fmt.Sprintf("step %d · J = %s", r.k, textfmt.Sig(r.s.Objective))
	switch {
	case r.tied():
		t += fmt.Sprintf(" · P = 1/%d everywhere", r.sm.C)
	case r.flat():
		t += " · W = 0: one class everywhere"
	default:
		t += fmt.Sprintf(" · training error %.1f %%", 100*r.trainingError())
	}
	return t + "\n" + r.method()
}

func (r *softmaxRun) method() string {
	return "softmax regression by gradient descent, η = " + textfmt.Sig(r.eta) + ", λ = " + textfmt.Sig(r.sm.Lambda)
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

// draw shows the regions of the predicted class with crisp edges, the
// points (misclassified ones in bold) and the probe q.
func (r *softmaxRun) draw(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
	layers, err := r.regions()
	if err != nil {
		return render.Frame{}, err
	}
	borders, err := r.borders()
	if err != nil {
		return render.Frame{}, err
	}
	layers = append(layers, borders...)
	var wrong []bool
	if !r.tied() {
		wrong = r.wrong()
	}
	pts, err := render.NewClassPoints(r.sm.X, r.sm.Y, wrong)
	if err != nil {
		return render.Frame{}, err
	}
	picks, err := render.NewPicks([][2]float64{r.q}, []string{"q"})
	if err != nil {
		return render.Frame{}, err
	}
	avoid := make([][2]float64, len(r.sm.X))
	for i, x := range r.sm.X {
		avoid[i] = [2]float64{x[0], x[1]}
	}
	picks.Avoid = avoid
	anyWrong := slices.Contains(wrong, true)
	edge := fields.Level{LineStyle: render.DefaultBoundaryStyle}
	legend := append(pts.Legend(),
		render.LegendItem{Label: "boundary between classes", Thumbs: []plot.Thumbnailer{edge}, Hidden: borders == nil},
		render.LegendItem{Label: "misclassified", Thumbs: []plot.Thumbnailer{pts.BoldThumb()}, Hidden: !anyWrong},
		render.LegendItem{Label: "probe q", Thumbs: []plot.Thumbnailer{picks}})
	f := render.DataFigure{
		Title:  r.title(),
		View:   render.DataView(append(append([][]float64{}, r.sm.X...), r.q[:])),
		Layers: append(layers, pts, picks),
		Legend: legend,
		Desc: fmt.Sprintf("The plane split by the class softmax regression predicts, arg max_c P(c | x), after %d iterations of %s: "+
			"each region tinted in its class's colour, with black lines between regions. The %d training points are drawn by class; "+
			"%.1f %% are misclassified (bold edge). A yellow diamond marks the probe q = %s, predicted class %d.",
			r.k, r.method(), len(r.sm.X), 100*r.trainingError(), textfmt.Vec(r.q[:]), r.s.Model.Predict(r.q[:])),
	}
	return f.Write(w, png, opt)
}

// panel lists the probe's class probabilities and the run's numbers.
func (r *softmaxRun) panel() demo.Panel {
	s := r.s
	p := demo.Panel{
		Counters: []demo.Counter{
			{"iteration k", strconv.Itoa(r.k), "step"},
			{"J(W, b)", textfmt.Sig(s.Objective), "objective"},
			{"‖∇J‖", textfmt.Sig(s.GradNorm), "grad"},
			{"training error", textfmt.Pct(r.trainingError(), 1), "error"},
			{"prediction at q", "class " + strconv.Itoa(s.Model.Predict(r.q[:])), "probe-class"},
		},
		Status: logisticStatus(s.Status, s.GradNorm), Done: s.Status.Done(), Bad: s.Status == algos.Diverged,
		Start:  fmt.Sprintf("Start: W = 0 and b = 0, so every class has probability 1/%d everywhere. Press → or Step for the first iteration.", r.sm.C),
		Tables: []demo.Table{r.probeTable()},
		Notes:  []demo.Note{demo.RuleNote(demo.ArgmaxRule)},
	}
	for c, w := range s.Model.W {
		p.Model = append(p.Model, demo.ModelLine{Prefix: "class " + strconv.Itoa(c) + ":",
			Facts: []demo.Fact{{"w", textfmt.Vec(w), "w" + strconv.Itoa(c)}, {"b", textfmt.Num(s.Model.B[c]), "b" + strconv.Itoa(c)}}})
	}
	if r.k > 0 {
		p.Changed = true
		p.Examined = fmt.Sprintf("Iteration %d is a gradient step (W, b) ← (W, b) − η∇J(W, b) with η = %s.", r.k, textfmt.Sig(r.eta))
		p.Lines = []string{"The gradient in w_c is (1/n) Σᵢ (P(c | xᵢ) − [yᵢ = c]) xᵢ + λw_c: each point raises its own class's score " +
			"and lowers the others' by as much as their probabilities miss."}
	}
	if r.optErr == nil {
		p.Counters = append(p.Counters, demo.Counter{"J* (exact minimum)", textfmt.Sig(r.opt.Objective), "optimum"})
		p.Notes = append(p.Notes, demo.Note{TestID: "minimiser", Text: fmt.Sprintf("With λ = %s > 0, J has one minimiser (taking Σ_c b_c = 0). ",
			textfmt.Sig(r.sm.Lambda)) + gapText(s.Objective, r.opt.Objective)})
	} else {
		p.Notes = append(p.Notes, demo.Note{TestID: "no-optimum", Text: "The exact minimiser could not be computed here: " + r.optErr.Error()})
	}
	p.Notes = append(p.Notes, smoothNote(r.sm.L(), r.eta, "λ_max(X̃ᵀX̃)/(2n) + λ = ", r.j, len(r.sm.X), true))
	if s.Status == algos.Diverged {
		p.Notes = append(p.Notes, divergedNote())
	}
	return p
}

// probeTable lists P(c | q) and the scores behind it at the probe q, the
// arg max marked: the prediction is the likeliest class.
func (r *softmaxRun) probeTable() demo.Table {
	m, q := r.s.Model, r.q[:]
	scores, probs, pred := m.Scores(q), m.Proba(q), m.Predict(q)
	t := demo.Table{TestID: "probe", Caption: "The probe q = " + textfmt.Vec(q) + ": P(c | q) = exp(s_c) / Σ_l exp(s_l)",
		Head: []string{"class c", "score s_c = w_c·q + b_c", "P(c | q)", ""}}
	for c := range probs {
		mark := ""
		if c == pred {
			mark = "◀ arg max: the prediction"
			if slices.Index(probs[c+1:], probs[c]) >= 0 {
				mark += " (a tie, which goes to the smallest class)"
			}
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(c), textfmt.Sig(scores[c]), textfmt.Sig(probs[c]), mark})
	}
	return t
}

// softmaxStateBytes estimates the memory of a softmax state: its weights,
// biases and the gradient it keeps.
func softmaxStateBytes(s logistic.SoftmaxState) int64 {
	return 128 + 2*(demo.FloatsBytes(s.Model.W...)+demo.FloatsBytes(s.Model.B))
}
