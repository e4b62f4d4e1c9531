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

// perceptronHistory charts the run to s, step k of a request for step
// in.Step, from the update counts v RunKept kept of states 0…k: the
// updates at every step, and the training error at the steps
// demo.SampleClock picks for in.Step (up to its maximum, evenly spaced)
// and at the last.
func perceptronHistory(ctx context.Context, in demo.Input, pr *perceptron.Problem, s0, s perceptron.State, k int, v []float64) (*chart.History, error) {
	var upd, errs chart.Series
	clock := demo.NewSampleClock(in.Step)
	for i, m := range v {
		upd.T, upd.Y = append(upd.T, float64(i)), append(upd.Y, m)
		if clock.Due(i) {
			errs.T = append(errs.T, float64(i))
		}
	}
	if n := len(errs.T); n == 0 || errs.T[n-1] != float64(k) {
		errs.T = append(errs.T, float64(k)) // the last state, when the spacing skipped it
	}
	steps := make([]int, len(errs.T))
	for i, t := range errs.T {
		steps[i] = int(t)
	}
	var err error
	if errs.Y, err = keptErrors(ctx, in, pr, s0, steps); err != nil {
		return nil, err
	}
	word := "updates"
	if pr.UpdatesAreMistakes() {
		word = "mistakes"
	}
	lastErr := strconv.FormatFloat(errs.Y[len(errs.Y)-1], 'f', 1, 64)
	upd.Label, upd.Integer = word, true
	errs.Label = "error %"
	// The error the run keeps is that of the classifier it predicts with:
	// w̄, b̄ when averaged.
	errName := "training error"
	if pr.P.Average {
		errName = "training error of w̄, b̄"
		if !pr.Binary() {
			errName = "training error of the averaged classifiers"
		}
	}
	title := fmt.Sprintf("after step %d: %s · %s %s %%", s.T, textfmt.Plural(s.Mistakes, word), errName, lastErr)
	return &chart.History{
		Title:  title,
		Name:   "Perceptron history: " + title,
		XLabel: "iteration t",
		Desc: fmt.Sprintf("Two panels against the iteration t from 0 to %d. Top: the cumulative number of %s, now %d. "+
			"Bottom: the %s in percent, now %s %%.", s.T, word, s.Mistakes, errName, lastErr),
		Now:    float64(s.T),
		Period: float64(len(pr.X)),
		Series: []chart.Series{upd, errs},
	}, nil
}
