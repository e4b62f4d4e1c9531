package logistic

import (
	"context"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// Questions are asked only where the algorithm decides their answer with
// margin to spare over float64's rounding (issue 27 §2): a change of J
// larger than twice the rounding error nε·J of a mean of n losses (the
// bound the step-size note calls rounding), a score farther from 0 (or
// from the runner-up class's) than twice its rounding bound. A step
// whose first question is not decided asks the other, and a step where
// neither is gets no question.

// marginFactor is how many times its rounding bound a difference must
// exceed for a question on its sign to be asked.
const marginFactor = 2

// ask is one kind of question about a step: nil and why it is not
// asked when rounding would decide it.
type ask struct {
	about string // what it asks, for the prompt of the one asked instead: "whether J goes down"
	make  func() (q *demo.Question, why string)
}

// firstDecided asks the first of asks whose answer is decided; a later
// one asked instead says why the earlier ones are not. With none decided
// it is NoQuestion with every reason.
func firstDecided(asks ...ask) *demo.Question {
	var skipped []string
	for _, a := range asks {
		q, why := a.make()
		if q == nil {
			skipped = append(skipped, why)
			continue
		}
		if len(skipped) > 0 {
			q.Prompt = fmt.Sprintf("No question %s at this step: %s. Instead: %s", asks[0].about, strings.Join(skipped, "; "), q.Prompt)
		}
		return q
	}
	return demo.NoQuestion(strings.Join(skipped, "; and "))
}

// predictLogistic asks the logistic demo's question about iteration t+1.
// Gradient descent alternates by the parity of the step shown t: at an
// even t, will J go down? At an odd t, which class will the point q
// nearest the boundary be given? Each falls back on the other where
// rounding would decide it. Newton's method with its line search lowers
// J at every step it takes, so it is asked only the second.
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
	class := ask{"on the class of q", func() (*demo.Question, string) { return logisticClassQuestion(pr, s, next, gd, eta) }}
	if !gd {
		return firstDecided(class), nil
	}
	loss := ask{"on J", func() (*demo.Question, string) {
		return lossQuestion(s.Objective, next.Objective, eta, pr.L(), len(x), next.Status == algos.Diverged,
			fmt.Sprintf("Gradient descent is at w = %s, b = %s, where J(w, b) = %s and ‖∇J‖ = %s. Step t = %d moves (w, b) ← (w, b) − η∇J with η = %s.",
				textfmt.Vec(s.Model.W), textfmt.Num(s.Model.B), textfmt.Sig(s.Objective), textfmt.Sig(s.GradNorm), s.T+1, textfmt.Sig(eta)))
	}}
	if s.T%2 == 0 {
		return firstDecided(loss, class), nil
	}
	return firstDecided(class, loss), nil
}

// nearestBoundary is the index of the training point with the smallest
// |f(xᵢ)| under m, the first on a tie.
func nearestBoundary(x [][]float64, m logistic.Model) int {
	qi, f0 := 0, m.Score(x[0])
	for i := 1; i < len(x); i++ {
		if f := m.Score(x[i]); math.Abs(f) < math.Abs(f0) {
			qi, f0 = i, f
		}
	}
	return qi
}

// logisticClassQuestion asks the class step s → next gives q, the point
// nearest the boundary at s, or says why rounding would decide it.
func logisticClassQuestion(pr *logistic.Problem, s, next logistic.State, gd bool, eta float64) (*demo.Question, string) {
	x := pr.X
	qi := nearestBoundary(x, s.Model)
	f0, f1 := s.Model.Score(x[qi]), next.Model.Score(x[qi])
	name := render.PointName(qi)
	if tol := marginFactor * scoreRounding(pr, s.Model, next.Model, gd, eta, x[qi]); math.Abs(f1) <= tol {
		return nil, fmt.Sprintf("after the step f(q) for q = %s, the point nearest the boundary, is within %s of 0, twice the rounding error of f(q): rounding would decide its class",
			name, textfmt.Sig(tol))
	}
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
	}, ""
}

// scoreRounding bounds the rounding error of f(q) = w'·q + b' after the
// step from m to next: nε times the sizes that enter it, |w| + |w'|
// (which bound the step w' − w too) and, for gradient descent, η times
// the sums of absolute values the gradient adds up, (1/n) Σᵢ σ(−yᵢfᵢ)|xᵢ|
// + λ|w|, which bound its rounding where its terms cancel.
func scoreRounding(pr *logistic.Problem, m, next logistic.Model, gd bool, eta float64, q []float64) float64 {
	n, d := len(pr.X), len(m.W)
	a := make([]float64, d+1)
	if gd {
		for i, x := range pr.X {
			r := logistic.Sigmoid(-pr.Y[i] * m.Score(x))
			for j, v := range x {
				a[j] += r * math.Abs(v)
			}
			a[d] += r
		}
		floats.Scale(eta/float64(n), a)
		for j := range d {
			a[j] += eta * pr.Lambda * math.Abs(m.W[j])
		}
	}
	size := math.Abs(m.B) + math.Abs(next.B) + a[d]
	for j, v := range q {
		size += (math.Abs(m.W[j]) + math.Abs(next.W[j]) + a[j]) * math.Abs(v)
	}
	return float64(n) * 0x1p-52 * size
}

// jRounding is the rounding error nε·max(|j0|, |j1|) of J computed as a
// mean of n losses (the classical bound for a sum of n terms).
func jRounding(j0, j1 float64, n int) float64 {
	return float64(max(n, 1)) * 0x1p-52 * math.Max(math.Abs(j0), math.Abs(j1))
}

// lossQuestion asks whether a gradient step with step size eta lowers J
// from j0 (a mean of n losses) to j1, or says why rounding would decide
// it; l is J's smoothness constant L, and state the prompt's account of
// where the run stands. By the descent lemma every η < 2/L lowers J
// (000 §1.8); at or above it a step may overshoot.
func lossQuestion(j0, j1, eta, l float64, n int, diverged bool, state string) (*demo.Question, string) {
	if r := jRounding(j0, j1, n); !diverged && math.Abs(j1-j0) <= marginFactor*r {
		return nil, fmt.Sprintf("J changes by %s, within twice the rounding error nε·J = %s of a mean of %d losses: "+
			"float64's rounding, not gradient descent, would decide whether it goes down", textfmt.Sig(math.Abs(j1-j0)), textfmt.Sig(r), n)
	}
	down := !diverged && j1 < j0
	q := &demo.Question{
		Prompt:  state + " Will J go down at this step?",
		Choices: demo.YesNoSaying("yes: J will be lower", "no: J will stay or rise"),
		Right:   demo.YesOrNo(down),
	}
	bound := fmt.Sprintf("η = %s and 2/L = %s", textfmt.Sig(eta), textfmt.Sig(2/l))
	covered := eta < 2/l
	switch {
	case diverged:
		q.Why = fmt.Sprintf("The step leaves the range of float64 (%s): η is far too large, and the run stops, diverged.", bound)
	case down && covered:
		q.Why = fmt.Sprintf("J goes down, from %s to %s: %s, and by the descent lemma every gradient step with η < 2/L lowers J "+
			"(by at least η(1 − ηL/2)‖∇J‖²).", textfmt.Sig(j0), textfmt.Sig(j1), bound)
	case down:
		q.Why = fmt.Sprintf("J goes down, from %s to %s, although %s: the descent lemma does not cover η ≥ 2/L, "+
			"but L bounds the steepest curvature anywhere, and this step does not overshoot.", textfmt.Sig(j0), textfmt.Sig(j1), bound)
	case covered:
		// The descent lemma rules this out beyond rounding; were it to
		// happen, say so rather than blame η.
		q.Why = fmt.Sprintf("J does not go down (%s, then %s), although %s, where the descent lemma says every step lowers J: "+
			"float64's rounding of J decided it.", textfmt.Sig(j0), textfmt.Sig(j1), bound)
	default:
		q.Why = fmt.Sprintf("J does not go down: from %s to %s. With %s, η ≥ 2/L, and the step η∇J overshoots the valley.",
			textfmt.Sig(j0), textfmt.Sig(j1), bound)
	}
	return q, ""
}
