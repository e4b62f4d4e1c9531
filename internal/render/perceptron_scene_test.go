package render

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/perceptron"
)

// sceneOf is state s of problem pr as a plain scene, for tests that draw
// real runs (the goldens are runs of the algorithm). It builds what
// internal/lessons' perceptronScene builds; lessons' TestPerceptronScene
// renders these golden cases through its own builder and wants the same
// bytes, so the two cannot drift apart unnoticed.
func sceneOf(pr *perceptron.Problem, s perceptron.State) PerceptronScene {
	ps := PerceptronScene{
		X: pr.X, Y: pr.Y, Classes: pr.Classes, Binary: pr.Binary(), Scheme: "one-vs-all",
		Eta: pr.P.Eta, Margin: pr.P.Margin, Average: pr.P.Average, UpdatesAreMistakes: pr.UpdatesAreMistakes(),
		T: s.T, Epoch: s.CurrentEpoch(), Mistakes: s.Mistakes, Event: PerceptronEvent{I: s.Event.I},
		Wrong: make([]bool, len(pr.X)),
	}
	if pr.P.Multiclass == perceptron.OneVsOne {
		ps.Scheme = "one-vs-one"
	}
	if s.Status.Done() {
		ps.Stopped = s.Status.String()
	}
	ps.StoppedNote = map[algos.Status]string{
		algos.Converged:      "Converged: a whole epoch made no update.",
		algos.CycleDetected:  "Cycle detected: the weights repeat an earlier epoch's, so the data are not linearly separable.",
		algos.IterationLimit: "Stopped at the epoch limit without converging.",
	}[s.Status]
	for i, x := range pr.X {
		ps.Wrong[i] = pr.Predict(s, x) != pr.Y[i]
	}
	ev := s.Event
	for k, t := range pr.Tasks {
		w, b := pr.Classifier(s, k)
		pt := PerceptronTask{Pos: t.Pos, Neg: t.Neg, Rest: t.Rest, W: w, B: b,
			CurW: s.Models[k].W, CurB: s.Models[k].B, Name: fmt.Sprintf("%d vs %d", t.Pos, t.Neg)}
		if t.Rest {
			pt.Name = fmt.Sprintf("%d vs rest", t.Pos)
		}
		if ev.I >= 0 {
			pt.Updated, pt.Margin, pt.BeforeW, pt.BeforeB = ev.Updated[k], ev.Margin[k], ev.Before[k].W, ev.Before[k].B
		}
		ps.Tasks = append(ps.Tasks, pt)
	}
	if ev.I >= 0 && ps.Binary {
		a := pr.P.Eta * float64(pr.Y[ev.I])
		for _, v := range pr.X[ev.I] {
			ps.Event.DeltaW = append(ps.Event.DeltaW, a*v)
		}
		ps.Event.DeltaB = a
	}
	return ps
}
