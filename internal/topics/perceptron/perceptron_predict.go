package perceptron

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// predictPerceptron asks about the step after in.Step (issue 20 §1):
// will the point the run examines next cause an update? On every third
// step of a two-class run of Algorithm 1 or the margin perceptron it asks
// instead for the new (w, b) among three candidates built the same way
// whatever happens: w and b unchanged, after w ← w + ηyx, b ← b + ηy,
// and after the same update with the sign of y flipped.
func predictPerceptron(ctx context.Context, in demo.Input) (*demo.Question, error) {
	x, y := demo.Columns(in.Points)
	labels := make([]int, len(y))
	for i, v := range y {
		labels[i] = int(v)
	}
	pr, s0, err := perceptron.Init(perceptron.Data{X: x, Y: labels}, perceptronParams(in.State))
	if err != nil {
		return nil, err // Compute, run first on the same input, says what kind
	}
	s, k, _, err := keptPerceptron(ctx, in, pr, s0, in.Step, false)
	if err != nil || k < in.Step || s.Status.Done() {
		return nil, err
	}
	next := pr.Step(s)
	i := next.Event.I
	updated := false
	for _, u := range next.Event.Updated {
		updated = updated || u
	}
	point := fmt.Sprintf("%s = %s, %s", render.PointName(i), textfmt.Vec(pr.X[i]), labelName(pr, pr.Y[i]))
	why := strings.Join(stepLines(pr, next), "; ") + "."
	if pr.Binary() && !pr.P.Average && askWeights(in) {
		if q := weightsQuestion(pr, s, next, point, why); q != nil {
			return q, nil
		}
	}
	prompt := fmt.Sprintf("Next, step %d looks at %s. Will it cause an update?", next.T, point)
	if len(pr.Tasks) > 1 {
		prompt = fmt.Sprintf("Next, step %d looks at %s. Will it update any of the %d classifiers?", next.T, point, len(pr.Tasks))
	}
	return &demo.Question{Prompt: prompt, Choices: demo.YesNo(), Right: demo.YesOrNo(updated), Why: why}, nil
}

// askWeights picks the steps that ask for (w, b): every third, by a hash
// of the state, so the kind of question never depends on its answer.
func askWeights(in demo.Input) bool {
	h := fnv.New32a()
	h.Write([]byte(in.State.Encode(demo.ForData)))
	return (h.Sum32()+uint32(in.Step))%3 == 2
}

// weightsQuestion asks for the (w, b) after the step, or nil when two of
// the candidates print alike.
func weightsQuestion(pr *perceptron.Problem, s, next perceptron.State, point, why string) *demo.Question {
	m, i := s.Models[0], next.Event.I
	yv, _ := pr.Tasks[0].Label(pr.Y[i])
	cand := func(sign float64) string {
		if sign == 0 {
			return "w = " + textfmt.Vec(m.W) + ", b = " + textfmt.Num(m.B)
		}
		ey := float64(pr.P.Eta * yv * sign)
		w := make([]float64, len(m.W))
		for j := range w {
			w[j] = m.W[j] + float64(ey*pr.X[i][j])
		}
		return "w = " + textfmt.Vec(w) + ", b = " + textfmt.Num(m.B+ey)
	}
	labels := []string{cand(0), cand(1), cand(-1)}
	right := 0
	if next.Event.Updated[0] {
		right = 1
	}
	truth := "w = " + textfmt.Vec(next.Models[0].W) + ", b = " + textfmt.Num(next.Models[0].B)
	if labels[right] != truth || labels[0] == labels[1] || labels[0] == labels[2] || labels[1] == labels[2] {
		return nil
	}
	choices, r := demo.LetteredChoices(labels, right)
	return &demo.Question{
		Prompt:  fmt.Sprintf("Next, step %d looks at %s. What are w and b after it?", next.T, point),
		Choices: choices, Right: r, Why: why,
	}
}

// stepLines is the step's arithmetic as the panel writes it.
func stepLines(pr *perceptron.Problem, next perceptron.State) []string {
	var p demo.Panel
	perceptronStep(&p, pr, next)
	return p.Lines
}
