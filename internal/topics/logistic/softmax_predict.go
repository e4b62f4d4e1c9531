package logistic

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/textfmt"
)

// predictSoftmax asks the softmax demo's question about iteration t+1,
// by the parity of the step shown t: at an even t, will J go down? At an
// odd t, which class will the probe point q (the demo's q₁, q₂) be
// given, the arg max of its scores w_c·q + b_c?
func predictSoftmax(ctx context.Context, in demo.Input) (*demo.Question, error) {
	x, yf := demo.Columns(in.Points)
	y, c, missing := softmaxClasses(yf)
	if c < 2 || missing >= 0 || in.Step >= demo.MaxStep {
		return nil, nil
	}
	st := in.State
	sm, err := logistic.NewSoftmax(x, y, c, demo.Lambda.Get(st))
	if err != nil {
		return nil, err
	}
	gd := logistic.SoftmaxGD{S: sm, Eta: eta.Get(st)}
	// The demo's own track: the state shown is the one Compute reached.
	key := demo.ProblemKey("softmax-track", sm.X, pointset.FloatLabels(sm.Y), sm.Lambda, float64(sm.C), gd.Eta)
	s, k, _, _, err := demo.RunTracked(ctx, in.Cache, key, gd, sm.Start(), in.Step, softmaxStateBytes(sm.Start()),
		func(s logistic.SoftmaxState) (float64, float64) { return s.Objective, 0 })
	if err != nil || k < in.Step || s.Status.Done() {
		return nil, err
	}
	next := gd.Step(s)
	if s.T%2 == 0 {
		return lossQuestion(s.Objective, next.Objective, gd.Eta, sm.L(), next.Status == algos.Diverged,
			fmt.Sprintf("Gradient descent is at J(W, b) = %s with ‖∇J‖ = %s. Step t = %d moves (W, b) ← (W, b) − η∇J with η = %s.",
				textfmt.Sig(s.Objective), textfmt.Sig(s.GradNorm), s.T+1, textfmt.Sig(gd.Eta))), nil
	}
	q := probe(st)
	choices := make([]demo.Option, c)
	for k := range choices {
		choices[k] = demo.Option{Value: strconv.Itoa(k), Label: "class " + strconv.Itoa(k)}
	}
	return &demo.Question{
		Prompt: fmt.Sprintf("The probe q = %s has scores s_c = w_c·q + b_c = %s now, so P(c | q) = %s. Which class will step t = %d give q?",
			textfmt.Vec(q[:]), scoreList(s.Model.Scores(q[:])), scoreList(s.Model.Proba(q[:])), s.T+1),
		Choices: choices,
		Right:   strconv.Itoa(next.Model.Predict(q[:])),
		Why: fmt.Sprintf("After step %d the scores are %s and P(c | q) = %s; the arg max is class %d (a tie goes to the smallest class).",
			next.T, scoreList(next.Model.Scores(q[:])), scoreList(next.Model.Proba(q[:])), next.Model.Predict(q[:])),
		Marks: []demo.Mark{{Label: "q", X1: q[0], X2: q[1]}},
	}, nil
}

// scoreList writes one number per class: "(0.1, −0.3, 0.2)".
func scoreList(v []float64) string {
	parts := make([]string, len(v))
	for i, s := range v {
		parts[i] = textfmt.Sig(s)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
