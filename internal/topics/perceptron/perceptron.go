package perceptron

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/render/scenes"
)

// Perceptron limits its page in docs/demos lists with the demo's parameters.
const (
	MaxEpochs = 1000  // epoch budget of a demo run
	MaxEta    = 100.0 // learning rate η in (0, MaxEta]
	MaxGamma  = 10.0  // margin γ of the margin perceptron in [0, MaxGamma]
)

// PerceptronSpec declares the perceptron demo: Algorithm 1 and its
// variants on the notes' truth tables, seeded random sets or the
// learner's own points.
func PerceptronSpec() demo.Spec {
	return demo.Spec{
		ID: "perceptron", Title: "Perceptron", Lesson: "perceptron",
		Data: demo.DataSpec{
			Labels: demo.ClassLabels, MaxClasses: perceptron.MaxClasses, Default: "or",
			Sets: []demo.Option{{"or", "or (notes)"}, {"and", "and"}, {"xor", "xor"},
				{"separable", "separable (random)"}, {"noisy", "noisy (random)"}, {"blobs", "blobs (3 classes)"}},
			Make: pointset.Points,
		},
		Params: append(pointset.Params("`separable`, `noisy`, `blobs`", "seeds the random set (and the order, unless `aseed` is set)"),
			demo.Params(order, orderSeed, variant, gamma, eta, multi, epochs, stop)...),
		Examples:    []demo.Example{{Name: "step3", Query: "step=3"}},
		Conventions: perceptronConventions(), Explain: demo.Explain{Section: "perceptron-algorithm"},
		Compute: computePerceptron, Predict: predictPerceptron,
	}
}

// The perceptron demo's parameters.
var (
	order = demo.Choice{Key: "order", Label: "order", Doc: "visiting order (`random`: a fresh seeded permutation each epoch)",
		Group: demo.GroupAlgo, Default: "cyclic", Options: []demo.Option{{"cyclic", "cyclic"}, {"random", "random (seeded)"}}}
	// orderSeed is the shared sampling seed, seeding the random order.
	orderSeed = demo.Aseed.Tweak(func(p *demo.Int) {
		p.Label, p.Doc = "order seed", "seeds the random order (`order=random` only)"
		p.When = func(s demo.State) bool { return order.Is(s, "random") }
	})
	variant = demo.Choice{Key: "variant", Label: "variant", Doc: "perceptron variant", Group: demo.GroupAlgo, Default: "classic",
		Options: []demo.Option{{"classic", "classic (Algorithm 1)"}, {"averaged", "averaged (Algorithm 7)"}, {"margin", "margin γ"}}}
	gamma = demo.Float{Key: "gamma", Label: "γ", Doc: "margin γ (`variant=margin` only)", Group: demo.GroupAlgo,
		Default: 1, Min: 0, Max: MaxGamma, Step: "0.1", When: func(s demo.State) bool { return variant.Is(s, "margin") }}
	eta = demo.Float{Key: "eta", Label: "η", Doc: "learning rate η", Group: demo.GroupAlgo,
		Default: 1, Min: 0, OpenMin: true, Max: MaxEta, Step: "any"}
	multi = demo.Choice{Key: "multi", Label: "classes", Doc: "multiclass scheme: one-vs-all or one-vs-one", Group: demo.GroupAlgo,
		Default: "ova", Options: []demo.Option{{"ova", "one-vs-all"}, {"ovo", "one-vs-one"}}}
	epochs = demo.Int{Key: "epochs", Label: "max epochs", Doc: "epoch budget", Group: demo.GroupAlgo,
		Default: MaxEpochs, Min: 1, Max: MaxEpochs}
	stop = demo.Choice{Key: "stop", Label: "stop", Doc: "`clean`: at the first epoch with no update; `epochs`: after all epochs, as Algorithm 7",
		Group: demo.GroupAlgo, Default: "clean",
		Options: []demo.Option{{"clean", "at the first clean epoch"}, {"epochs", "after all epochs"}}}
)

// perceptronParams returns the algorithm's parameters s selects.
func perceptronParams(s demo.State) perceptron.Params {
	p := perceptron.DefaultParams()
	p.Eta, p.MaxEpochs = eta.Get(s), epochs.Get(s)
	p.Seed = uint64(orderSeed.Get(s))
	if order.Is(s, "random") {
		p.Order = perceptron.Random
	}
	if multi.Is(s, "ovo") {
		p.Multiclass = perceptron.OneVsOne
	}
	switch {
	case variant.Is(s, "averaged"):
		p.Average = true
	case variant.Is(s, "margin"):
		p.Margin = gamma.Get(s)
	}
	p.FixedEpochs = stop.Is(s, "epochs")
	return p
}

func computePerceptron(ctx context.Context, in demo.Input) (demo.Result, error) {
	x, y := demo.Columns(in.Points)
	labels := make([]int, len(y))
	for i, v := range y {
		labels[i] = int(v)
	}
	pr, s0, err := perceptron.Init(perceptron.Data{X: x, Y: labels}, perceptronParams(in.State))
	if errors.Is(err, perceptron.ErrLabel) {
		// Each label is allowed alone, but added points mix −1/+1 with
		// classes 0, 2, ….
		return demo.Result{}, demo.BadInput(demo.KeyAdd, "%s", strings.TrimPrefix(err.Error(), perceptron.ErrLabel.Error()+": "))
	}
	if err != nil {
		return demo.Result{}, err
	}
	recorded := in.Wants(demo.HistoryFigure)
	s, k, v, err := keptPerceptron(ctx, in, pr, s0, in.Step, recorded)
	if err != nil {
		return demo.Result{}, err
	}
	var history *chart.History
	if recorded {
		if history, err = perceptronHistory(ctx, in, pr, s0, s, k, v); err != nil {
			return demo.Result{}, err
		}
	}
	return demo.Result{
		Step: k,
		Done: s.Status.Done(),
		Plot: func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
			sc := perceptronScene(pr, s)
			if png {
				return render.Frame{}, scenes.PerceptronPNG(w, sc, opt)
			}
			return scenes.PerceptronSVGFrame(w, sc, opt)
		},
		History: history,
		Panel:   func() demo.Panel { return perceptronPanel(ctx, pr, s, in.State) },
	}, nil
}

// perceptronScene is state s of problem pr as the plain data the plot
// draws: render knows nothing of the algorithm, so whatever needs its
// types (the classifier a task predicts with, which points it gets wrong,
// the tasks' names, whether an update is a mistake, what a status means)
// is worked out here. A state not from pr gives a scene render refuses
// (ErrNoState, ErrShape), never a panic.
func perceptronScene(pr *perceptron.Problem, s perceptron.State) scenes.PerceptronScene {
	ps := scenes.PerceptronScene{
		X: pr.X, Y: pr.Y, Classes: pr.Classes, Binary: pr.Binary(),
		Scheme: "one-vs-all",
		Eta:    pr.P.Eta, Margin: pr.P.Margin, Average: pr.P.Average,
		UpdatesAreMistakes: pr.UpdatesAreMistakes(),
		T:                  s.T, Mistakes: s.Mistakes,
		Event: scenes.PerceptronEvent{I: s.Event.I},
	}
	if pr.P.Multiclass == perceptron.OneVsOne {
		ps.Scheme = "one-vs-one"
	}
	ev := s.Event
	if len(s.Order()) == 0 || len(s.Models) != len(pr.Tasks) || len(pr.X) == 0 || ev.I >= len(pr.X) ||
		ev.I >= 0 && (len(ev.Updated) < len(pr.Tasks) || len(ev.Margin) < len(pr.Tasks) || len(ev.Before) < len(pr.Tasks)) {
		return ps // no tasks: render says the state is not from this problem
	}
	for _, m := range s.Models {
		if len(m.W) != len(pr.X[0]) {
			return ps
		}
	}
	ps.Epoch = s.CurrentEpoch()
	if s.Status.Done() {
		ps.Stopped = s.Status.String()
	}
	switch s.Status {
	case algos.Converged:
		ps.StoppedNote = "Converged: a whole epoch made no update."
	case algos.CycleDetected:
		ps.StoppedNote = "Cycle detected: the weights repeat an earlier epoch's, so the data are not linearly separable."
		if _, updated, ok := pr.Cycle(s); ok && !pr.Binary() {
			ps.StoppedNote = "Cycle detected: the weights repeat an earlier epoch's, so " + cycleFinding(pr, updated) + "."
		}
	case algos.IterationLimit:
		ps.StoppedNote = "Stopped at the epoch limit without converging."
	}
	ps.Wrong = make([]bool, len(pr.X))
	for i, x := range pr.X {
		ps.Wrong[i] = pr.Predict(s, x) != pr.Y[i]
	}
	for k, t := range pr.Tasks {
		w, b := pr.Classifier(s, k)
		pt := scenes.PerceptronTask{Pos: t.Pos, Neg: t.Neg, Rest: t.Rest, W: w, B: b,
			CurW: s.Models[k].W, CurB: s.Models[k].B, Name: fmt.Sprintf("%d vs %d", t.Pos, t.Neg)}
		if t.Rest {
			pt.Name = fmt.Sprintf("%d vs rest", t.Pos)
		}
		if ev.I >= 0 {
			pt.Updated, pt.Margin = ev.Updated[k], ev.Margin[k]
			pt.BeforeW, pt.BeforeB = ev.Before[k].W, ev.Before[k].B
		}
		ps.Tasks = append(ps.Tasks, pt)
	}
	if ev.I >= 0 && ps.Binary {
		// The two-class update η·y·x, η·y the step made or would have made.
		a := pr.P.Eta * float64(pr.Y[ev.I])
		ps.Event.DeltaW = make([]float64, len(pr.X[ev.I]))
		for j, v := range pr.X[ev.I] {
			ps.Event.DeltaW[j] = a * v
		}
		ps.Event.DeltaB = a
	}
	return ps
}
