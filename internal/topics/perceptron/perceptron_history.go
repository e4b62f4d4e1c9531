package perceptron

import (
	"context"
	"fmt"
	"strconv"

	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/textfmt"
)

// The demo keeps its run between requests (demo.RunKept), so a student
// stepping through it pays a few iterations a step, not a replay from 0,
// with three scalars of every state for the history chart.
const (
	vT, vMistakes, vError = 0, 1, 2 // a state's scalars: t, updates, training error %
	perceptronWidth       = 3
)

// keptPerceptron returns state in.Step of pr's run from s0 (or its last)
// and its step from the run the course's cache keeps, with each state's
// perceptronWidth scalars when recorded: the one way the demo and its
// questions reach a step.
func keptPerceptron(ctx context.Context, in demo.Input, pr *perceptron.Problem, s0 perceptron.State, recorded bool) (perceptron.State, int, []float64, error) {
	// A step that updates nothing leaves every task's (w, b), so the
	// error of the classifier Algorithm 1 predicts with is that of the
	// last state with as many updates: within one run the count names
	// the weights. Averaged, the counters move the classifier each step.
	lastM, lastErr := -1, 0.0
	scalars := func(s perceptron.State, v []float64) {
		v[vT], v[vMistakes] = float64(s.T), float64(s.Mistakes)
		if pr.P.Average || s.Mistakes != lastM {
			lastM, lastErr = s.Mistakes, 100*pr.TrainingError(s)
		}
		v[vError] = lastErr
	}
	return demo.RunKept(ctx, in.Cache, perceptronRunKey(pr), pr, s0, in.Step, perceptronStateBytes(pr), perceptronWidth, scalars, recorded)
}

// perceptronRunKey names a run by everything it and its scalars depend
// on: the points, their labels and the parameters (the seed only for a
// random order, which alone reads it; Average for the error it charts).
func perceptronRunKey(pr *perceptron.Problem) demo.CacheKey {
	y := make([]float64, len(pr.Y))
	for i, c := range pr.Y {
		y[i] = float64(c)
	}
	p := pr.P
	seed := 0.0
	if p.Order == perceptron.Random {
		seed = float64(p.Seed)
	}
	return demo.ProblemKey("perceptron-run", pr.X, y, float64(p.Order), seed, float64(p.MaxEpochs), p.Eta, p.Margin,
		demo.B2f(p.Average), float64(p.Multiclass), demo.B2f(p.FixedEpochs))
}

// perceptronStateBytes is the memory of a kept state of pr: its models
// (each a 72-byte Model and w and u), the models before its step that its
// Event keeps (as many again), the Event's per-task slices, a random
// order's n indices, and its share of the run's index of epoch starts
// (about 48 bytes an epoch of n steps, and one model-sized scratch),
// spread over the checkpoints a run to MaxStep keeps.
func perceptronStateBytes(pr *perceptron.Problem) int64 {
	n, d, tasks := int64(len(pr.X)), int64(len(pr.X[0])), int64(len(pr.Tasks))
	model := 72 + 16*d
	b := 160 + 2*tasks*model + 3*24 + 10*tasks
	if pr.P.Order == perceptron.Random {
		b += 8 * n
	}
	epochs := min(int64(pr.P.MaxEpochs), int64(demo.MaxStep)/n+1)
	index := 48*epochs + 8*tasks*(d+1)
	marks := int64(demo.MaxStep/demo.KeptEvery(b) + 1)
	return b + (index+marks-1)/marks
}

// perceptronHistory charts the run to s (step k of a request for step
// `asked`) from the scalars v RunKept kept of states 0…k: the updates at
// every step, and the training error at the steps demo.SampleClock picks
// for `asked` (up to its maximum, evenly spaced) and at the last. nil when
// the request does not draw it.
func perceptronHistory(pr *perceptron.Problem, s perceptron.State, asked int, v []float64, recorded bool) *chart.History {
	if !recorded {
		return nil
	}
	var upd, errs chart.Series
	clock := demo.NewSampleClock(asked)
	for i := range len(v) / perceptronWidth {
		x := v[i*perceptronWidth:]
		upd.T, upd.Y = append(upd.T, x[vT]), append(upd.Y, x[vMistakes])
		if clock.Due(i) {
			errs.T, errs.Y = append(errs.T, x[vT]), append(errs.Y, x[vError])
		}
	}
	if n := len(errs.T); n == 0 || errs.T[n-1] != float64(s.T) {
		// The last state, when the spacing skipped it.
		x := v[len(v)-perceptronWidth:]
		errs.T, errs.Y = append(errs.T, x[vT]), append(errs.Y, x[vError])
	}
	word := "updates"
	if pr.UpdatesAreMistakes() {
		word = "mistakes"
	}
	lastErr := strconv.FormatFloat(errs.Y[len(errs.Y)-1], 'f', 1, 64)
	upd.Label, upd.Integer = word, true
	errs.Label = "error %"
	title := fmt.Sprintf("after step %d: %s · training error %s %%", s.T, textfmt.Plural(s.Mistakes, word), lastErr)
	return &chart.History{
		Title:  title,
		Name:   "Perceptron history: " + title,
		XLabel: "iteration t",
		Desc: fmt.Sprintf("Two panels against the iteration t from 0 to %d. Top: the cumulative number of %s, now %d. "+
			"Bottom: the training error in percent, now %s %%.", s.T, word, s.Mistakes, lastErr),
		Now:    float64(s.T),
		Period: float64(len(pr.X)),
		Series: []chart.Series{upd, errs},
	}
}
