package perceptron

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/big"
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
	if why := roundingDecides(pr, s, next); why != "" {
		return demo.NoQuestion(why), nil
	}
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

// roundingDecides says why float64 rounding, not the rule, decides the
// step from s to next, or "" when the rule does with margin to spare. A
// task updates when y(⟨w, x⟩ + b) ≤ γ, and its verdict names a mistake
// at a score ≤ 0: the score the step computed in float64 is compared
// with the exact score of the weights as stored (math/big.Rat), and
// where the two differ and the exact one lies within the computation's
// error bound of γ (or of 0 with a margin) the comparison is rounding's.
// An exact computation, as on the truth tables' integers, decides
// exactly even at the threshold: OR's first score is 0 ≤ 0 exactly.
func roundingDecides(pr *perceptron.Problem, s, next perceptron.State) string {
	i := next.Event.I
	x := pr.X[i]
	for k, t := range pr.Tasks {
		if !next.Event.Seen[k] {
			continue
		}
		y, _ := t.Label(pr.Y[i])
		m := s.Models[k]
		exact, bound := exactScore(m.W, m.B, x, y)
		computed := new(big.Rat).SetFloat64(next.Event.Margin[k])
		if computed.Cmp(exact) == 0 {
			continue
		}
		for _, thr := range thresholds(pr.P.Margin) {
			d := new(big.Rat).Sub(exact, new(big.Rat).SetFloat64(thr))
			if f, _ := d.Float64(); math.Abs(f) <= bound {
				name := "γ = " + textfmt.Num(thr)
				if thr == 0 {
					name = "0"
				}
				return fmt.Sprintf("the score y(⟨w, x⟩ + b) of %s is within float64 rounding of %s "+
					"(%s off it for the weights as stored, against a rounding error of up to %s), so rounding, not the rule, decides it",
					render.PointName(i), name, textfmt.Sig(math.Abs(f)), textfmt.Sig(bound))
			}
		}
	}
	return ""
}

// thresholds are the scores at which a step's verdict changes: γ (update
// or not) and, for the margin perceptron, 0 (a mistake or a margin
// violation).
func thresholds(gamma float64) []float64 {
	if gamma > 0 {
		return []float64{gamma, 0}
	}
	return []float64{0}
}

// exactScore is y(⟨w, x⟩ + b) in exact arithmetic for w, b and x as
// stored, and a bound on the error of its float64 computation (b plus
// one rounded product a coordinate, each rounded once more when added):
// 2(d + 1)·2⁻⁵³·(|b| + Σ|wⱼxⱼ|), twice the classical bound.
func exactScore(w []float64, b float64, x []float64, y float64) (*big.Rat, float64) {
	sum := new(big.Rat).SetFloat64(b)
	abs := math.Abs(b)
	for j, v := range w {
		sum.Add(sum, new(big.Rat).Mul(new(big.Rat).SetFloat64(v), new(big.Rat).SetFloat64(x[j])))
		abs += math.Abs(v * x[j])
	}
	if y < 0 {
		sum.Neg(sum)
	}
	return sum, 2 * float64(len(w)+1) * 0x1p-53 * abs
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
