package logistic

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// predictLogistic asks the logistic demo's question about iteration t+1.
// Gradient descent alternates by the parity of the step shown t: at an
// even t, will J go down (it need not when η > 2/L)? At an odd t, which
// class will the point q nearest the boundary be given? Newton's method
// with its line search lowers J at every step it takes, so it is asked
// only the second.
func predictLogistic(ctx context.Context, in demo.Input) (*demo.Question, error) {
	x, yf := demo.Columns(in.Points)
	y := pointset.SignLabels(yf)
	if !pointset.BothClasses(y) || in.Step >= demo.MaxStep {
		return nil, nil
	}
	st := in.State
	pr, err := logistic.New(x, pointset.FloatLabels(y), logisticLambda.Get(st))
	if err != nil {
		return nil, err
	}
	var m algos.Method[logistic.State] = logistic.Newton{P: pr}
	gd, eta := usesGD(st), logisticEta.Get(st)
	if gd {
		m = logistic.GD{P: pr, Eta: eta}
	}
	// The demo's own track: the state shown is the one Compute reached.
	key := demo.ProblemKey("logistic-track", pr.X, pr.Y, pr.Lambda, demo.B2f(gd), eta)
	s, k, _, _, err := demo.RunTracked(ctx, in.Cache, key, m, pr.Start(), in.Step, logisticStateBytes(pr.Start()),
		func(s logistic.State) (float64, float64) { return s.Objective, floats.Norm(s.Model.W, 2) })
	if err != nil || k < in.Step || s.Status.Done() {
		return nil, err
	}
	next := m.Step(s)
	if gd && s.T%2 == 0 {
		return lossQuestion(s.Objective, next.Objective, eta, pr.L(), next.Status == algos.Diverged,
			fmt.Sprintf("Gradient descent is at w = %s, b = %s, where J(w, b) = %s and ‖∇J‖ = %s. Step t = %d moves (w, b) ← (w, b) − η∇J with η = %s.",
				textfmt.Vec(s.Model.W), textfmt.Num(s.Model.B), textfmt.Sig(s.Objective), textfmt.Sig(s.GradNorm), s.T+1, textfmt.Sig(eta))), nil
	}
	qi, f0 := 0, s.Model.Score(x[0])
	for i := 1; i < len(x); i++ {
		if f := s.Model.Score(x[i]); math.Abs(f) < math.Abs(f0) {
			qi, f0 = i, f
		}
	}
	f1 := next.Model.Score(x[qi])
	name := render.PointName(qi)
	return &demo.Question{
		Prompt: fmt.Sprintf("q = %s = %s, the point nearest the boundary, has f(q) = w·q + b = %s and P(y = +1 | q) = σ(f(q)) = %s now. "+
			"Which class will step t = %d give it?", name, textfmt.Vec(x[qi]), textfmt.Sig(f0), textfmt.Sig(logistic.Sigmoid(f0)), s.T+1),
		Choices: []demo.Option{{Value: "pos", Label: "class +1: f(q) > 0, P(y = +1 | q) > ½"},
			{Value: "neg", Label: "class −1: f(q) ≤ 0, P(y = +1 | q) ≤ ½"}},
		Right: map[bool]string{true: "pos", false: "neg"}[demo.Predict(f1) == 1],
		Why: fmt.Sprintf("After step %d, w = %s and b = %s, so f(%s) = %s and P(y = +1 | %s) = %s: class %s (sgn(0) counts as −1).",
			next.T, textfmt.Vec(next.Model.W), textfmt.Num(next.Model.B), name, textfmt.Sig(f1), name,
			textfmt.Sig(logistic.Sigmoid(f1)), textfmt.Signed(float64(demo.Predict(f1)))),
		Marks: []demo.Mark{{Label: "q", X1: x[qi][0], X2: x[qi][1]}},
	}, nil
}

// lossQuestion asks whether a gradient step with step size eta lowers J
// from j0 to j1; l is J's smoothness constant L, and state the prompt's
// account of where the run stands. With η ≤ 1/L every step lowers J
// (000 §1.8); above it a step may overshoot.
func lossQuestion(j0, j1, eta, l float64, diverged bool, state string) *demo.Question {
	down := !diverged && j1 < j0
	q := &demo.Question{
		Prompt:  state + " Will J go down at this step?",
		Choices: demo.YesNoSaying("yes: J will be lower", "no: J will stay or rise"),
		Right:   demo.YesOrNo(down),
	}
	bound := fmt.Sprintf("η = %s and 1/L = %s", textfmt.Sig(eta), textfmt.Sig(1/l))
	switch {
	case diverged:
		q.Why = fmt.Sprintf("The step leaves the range of float64 (%s): η is far too large, and the run stops, diverged.", bound)
	case down && eta <= 1/l:
		q.Why = fmt.Sprintf("J goes down, from %s to %s: %s, and with η ≤ 1/L every gradient step lowers J.", textfmt.Sig(j0), textfmt.Sig(j1), bound)
	case down:
		q.Why = fmt.Sprintf("J goes down, from %s to %s, although %s: above 1/L descent is not guaranteed, but this step does not overshoot.",
			textfmt.Sig(j0), textfmt.Sig(j1), bound)
	case eta <= 1/l:
		q.Why = fmt.Sprintf("J does not go down (%s, then %s): with %s the step would lower it, but J is flat here to float64's precision.",
			textfmt.Sig(j0), textfmt.Sig(j1), bound)
	default:
		q.Why = fmt.Sprintf("J does not go down: from %s to %s. With %s, η > 1/L, and the step η∇J overshoots the valley.",
			textfmt.Sig(j0), textfmt.Sig(j1), bound)
	}
	return q
}
