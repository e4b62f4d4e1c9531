package logistic

import (
	"context"
	"fmt"
	"math"
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
// given, the arg max of its scores w_c·q + b_c? Each falls back on the
// other where rounding would decide it (firstDecided).
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
	loss := ask{"on J", func() (*demo.Question, string) {
		return lossQuestion(s.Objective, next.Objective, gd.Eta, sm.L(), len(x), next.Status == algos.Diverged,
			fmt.Sprintf("Gradient descent is at J(W, b) = %s with ‖∇J‖ = %s. Step t = %d moves (W, b) ← (W, b) − η∇J with η = %s.",
				textfmt.Sig(s.Objective), textfmt.Sig(s.GradNorm), s.T+1, textfmt.Sig(gd.Eta)))
	}}
	class := ask{"on the class of q", func() (*demo.Question, string) { return softmaxClassQuestion(sm, s, next, gd.Eta, probe(st)) }}
	if s.T%2 == 0 {
		return firstDecided(loss, class), nil
	}
	return firstDecided(class, loss), nil
}

// softmaxClassQuestion asks which class step s → next gives the probe q,
// or says why rounding would decide it: when the two largest scores are
// within twice their rounding bounds of each other.
func softmaxClassQuestion(sm *logistic.Softmax, s, next logistic.SoftmaxState, eta float64, q [2]float64) (*demo.Question, string) {
	c := sm.C
	scores := next.Model.Scores(q[:])
	pred := next.Model.Predict(q[:])
	tol := softmaxScoreRounding(sm, s.Model, next.Model, eta, q[:])
	for k := range c {
		if k != pred && scores[pred]-scores[k] <= marginFactor*(tol[pred]+tol[k]) {
			return nil, fmt.Sprintf("after the step the scores of classes %d and %d at q are within %s of each other, twice their rounding errors: rounding would decide q's class",
				min(k, pred), max(k, pred), textfmt.Sig(marginFactor*(tol[pred]+tol[k])))
		}
	}
	choices := make([]demo.Option, c)
	for k := range choices {
		choices[k] = demo.Option{Value: strconv.Itoa(k), Label: "class " + strconv.Itoa(k)}
	}
	return &demo.Question{
		Prompt: fmt.Sprintf("The probe q = %s has scores s_c = w_c·q + b_c = %s now, so P(c | q) = %s. Which class will step t = %d give q?",
			textfmt.Vec(q[:]), scoreList(s.Model.Scores(q[:])), scoreList(s.Model.Proba(q[:])), s.T+1),
		Choices: choices,
		Right:   strconv.Itoa(pred),
		Why: fmt.Sprintf("After step %d the scores are %s and P(c | q) = %s; the arg max is class %d.",
			next.T, scoreList(scores), scoreList(next.Model.Proba(q[:])), pred),
		Marks: []demo.Mark{{Label: "q", X1: q[0], X2: q[1]}},
	}, ""
}

// softmaxScoreRounding bounds the rounding error of each class's score
// w'_c·q + b'_c after a gradient step from m to next, as scoreRounding
// does for the binary model: nε times |w_c| + |w'_c| and η times the
// sums of absolute values the gradient adds up,
// (1/n) Σᵢ |P(c | xᵢ) − [yᵢ = c]| |xᵢ| + λ|w_c|.
func softmaxScoreRounding(sm *logistic.Softmax, m, next logistic.SoftmaxModel, eta float64, q []float64) []float64 {
	n, d := len(sm.X), len(q)
	a := make([][]float64, sm.C)
	for c := range a {
		a[c] = make([]float64, d+1)
	}
	for i, x := range sm.X {
		for c, p := range m.Proba(x) {
			if c == sm.Y[i] {
				p--
			}
			for j, v := range x {
				a[c][j] += math.Abs(p * v)
			}
			a[c][d] += math.Abs(p)
		}
	}
	tol := make([]float64, sm.C)
	for c := range tol {
		size := math.Abs(m.B[c]) + math.Abs(next.B[c]) + eta*a[c][d]/float64(n)
		for j, v := range q {
			size += (math.Abs(m.W[c][j]) + math.Abs(next.W[c][j]) + eta*(a[c][j]/float64(n)+sm.Lambda*math.Abs(m.W[c][j]))) * math.Abs(v)
		}
		tol[c] = float64(n) * 0x1p-52 * size
	}
	return tol
}

// scoreList writes one number per class: "(0.1, −0.3, 0.2)".
func scoreList(v []float64) string {
	parts := make([]string, len(v))
	for i, s := range v {
		parts[i] = textfmt.Sig(s)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
