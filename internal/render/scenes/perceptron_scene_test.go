package scenes

import (
	"fmt"
	"math"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/render"
)

// sceneOf is state s of problem pr as a plain scene, for tests that draw
// real runs (the goldens are runs of the algorithm). It builds what
// internal/topics/perceptron's perceptronScene builds; its TestPerceptronScene
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

// TestRegionsMatchPredict checks, on a grid over the view, that the
// polygon clipping paints every point in the colour of the class
// perceptron.Predict gives it, for binary, averaged and multiclass runs.
func TestRegionsMatchPredict(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pr, states := c.trajectory(t)
			s := states[len(states)-1]
			sc := newScene(sceneOf(pr, s), render.DefaultTheme())
			v := render.DataView(pr.X)
			for i := 0; i <= 40; i++ {
				for j := 0; j <= 40; j++ {
					p := render.Vec{v.XMin + float64(i)/40*(v.XMax-v.XMin), v.YMin + float64(j)/40*(v.YMax-v.YMin)}
					painted, nearEdge := paintedSlot(sc, p)
					if nearEdge {
						continue
					}
					if want := sc.slot(pr.Predict(s, []float64{p.X, p.Y})); painted != want {
						t.Fatalf("point %v painted in slot %d, Predict says slot %d", p, painted, want)
					}
				}
			}
		})
	}
}

// paintedSlot returns the palette slot of the topmost region containing
// p, and whether p is too close to a region edge to tell.
func paintedSlot(sc *scene, p render.Vec) (slot int, nearEdge bool) {
	slot = -1
	for _, l := range sc.regions {
		r := l.(*render.Region)
		in := true
		for _, h := range r.Planes {
			f := h.A[0]*p.X + h.A[1]*p.Y + h.B
			if math.Abs(f) < 1e-7*(1+math.Abs(h.A[0])+math.Abs(h.A[1])) {
				nearEdge = true
			}
			in = in && (f > 0 || f == 0 && !h.Strict)
		}
		if in {
			slot = slotOfTint(r.Color)
		}
	}
	return slot, nearEdge
}

func slotOfTint(c any) int {
	for k := range 10 {
		if render.RegionTint(k) == c {
			return k
		}
	}
	return -1
}
