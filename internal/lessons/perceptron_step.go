package lessons

import (
	"fmt"
	"strconv"

	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/render"
)

// stepView describes the shown state and writes the last update out with
// its numbers, in the notes' notation, so a student can check it by hand.
func stepView(r *PerceptronRun) StepView {
	s := r.Last()
	pr := r.Problem
	v := StepView{
		T: s.T, Epoch: s.CurrentEpoch(), Mistakes: s.Mistakes,
		Status:      s.Status.String(),
		Done:        s.Status.Done(),
		TrainError:  fmt.Sprintf("%.1f %%", 100*pr.TrainingError(s)),
		UpdatesWord: "mistakes",
	}
	if !pr.UpdatesAreMistakes() {
		v.UpdatesWord = "updates"
	}
	for k, t := range pr.Tasks {
		m := s.Models[k]
		mv := ModelView{Task: taskName(pr, t), W: vec(m.W), B: num(m.B)}
		if pr.P.Average {
			w, b := m.Averaged()
			mv.Averaged = fmt.Sprintf("w̄ = %s, b̄ = %s", vec(w), num(b))
		}
		v.Models = append(v.Models, mv)
	}
	if s.Event.I < 0 {
		return v
	}
	i := s.Event.I
	x := pr.X[i]
	v.Examined = fmt.Sprintf("%s = %s, %s", render.PointName(i), vec(x), labelName(pr, pr.Y[i]))
	for k, t := range pr.Tasks {
		if !s.Event.Seen[k] {
			continue
		}
		y, _ := t.Label(pr.Y[i])
		before := s.Event.Before[k]
		prefix := ""
		if len(pr.Tasks) > 1 {
			prefix = taskName(pr, t) + ": "
		}
		v.Lines = append(v.Lines, prefix+marginLine(y, before, x, s.Event.Margin[k], pr.P.Margin, s.Event.Updated[k]))
		if s.Event.Updated[k] {
			v.Mistake = true
			after := s.Models[k]
			eta := num(pr.P.Eta)
			v.Lines = append(v.Lines,
				fmt.Sprintf("w ← w + η·y·x = %s + %s·%s·%s = %s", vec(before.W), eta, "("+signed(y)+")", vec(x), vec(after.W)),
				fmt.Sprintf("b ← b + η·y = %s + %s·%s = %s", num(before.B), eta, "("+signed(y)+")", num(after.B)))
		}
	}
	return v
}

// marginLine writes y(⟨w, x⟩ + b) with numbers and says what it implies.
func marginLine(y float64, m perceptron.Model, x []float64, marg, gamma float64, updated bool) string {
	calc := fmt.Sprintf("y(⟨w, x⟩ + b) = %s·(⟨%s, %s⟩ + %s) = %s", "("+signed(y)+")", vec(m.W), vec(x), paren(num(m.B)), num(marg))
	threshold := "0"
	if gamma > 0 {
		threshold = "γ = " + num(gamma)
	}
	if updated {
		return fmt.Sprintf("%s ≤ %s: a mistake, so update", calc, threshold)
	}
	return fmt.Sprintf("%s > %s: correct, no update", calc, threshold)
}

// labelName is "y = +1" / "y = −1" for two classes, "class k" otherwise.
func labelName(pr *perceptron.Problem, c int) string {
	if !pr.Binary() {
		return fmt.Sprintf("class %d", c)
	}
	if c == 1 {
		return "y = +1"
	}
	return "y = −1"
}

func taskName(pr *perceptron.Problem, t perceptron.Task) string {
	switch {
	case pr.Binary():
		return "+1 vs −1"
	case t.Rest:
		return fmt.Sprintf("class %d vs rest", t.Pos)
	}
	return fmt.Sprintf("class %d vs %d", t.Pos, t.Neg)
}

// boundView computes γ, C and C²/γ² of Theorem 1.2.8 on the augmented
// points (x, 1), which is the form of the theorem that covers a bias.
func boundView(r *PerceptronRun) *BoundView {
	mb := perceptron.Bound(r.Problem.X, r.Problem.Y)
	bv := &BoundView{Separable: mb.Separable, C: num(mb.C), Mistakes: r.Last().Mistakes}
	if !mb.Separable {
		return bv
	}
	bv.Gamma = num(mb.Gamma)
	bound := mb.Mistakes
	if p := r.Problem.P; p.Margin > 0 {
		// Updates at y(w·x+b) ≤ γ grow ‖w‖² by at most 2ηγ + η²C² each,
		// while ⟨w, w*⟩ still grows by ηγ*: M ≤ (C² + 2γ/η)/γ*².
		term := 2 * p.Margin / p.Eta
		bv.MarginTerm = num(term)
		bound = (mb.C*mb.C + term) / (mb.Gamma * mb.Gamma)
	}
	bv.Bound = strconv.FormatFloat(bound, 'f', 1, 64)
	return bv
}
