package svm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/primal"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
)

// Kernel SGD asks, by the parity of t, whether the sampled point is
// inside the margin (checked against the panel at t+1) or the sign of f
// at the point nearest the boundary (checked against a run of the
// stepper to t+1 of its own).
func TestPredictKernelPegasosMatchesTheStep(t *testing.T) {
	kinds := map[string]int{}
	for _, query := range []string{"", "kernel=poly&degree=2", "data=xor&lambda=0.01", "kernel=linear&data=moons", "data=checkerboard&kernel=laplace", "aseed=5&lambda=1&T=25"} {
		for step := 0; step < 30; step++ {
			a := demotest.AskAt(t, KernelPegasosSpec(), query, step)
			where := fmt.Sprintf("?%s step %d", query, step)
			if a.Q == nil {
				if !a.Now.Done {
					t.Fatalf("%s: no question before the end", where)
				}
				break
			}
			if a.Q.None != "" { // rounding, not the rule, would decide: no question
				continue
			}
			if step%2 == 0 {
				p := a.After.Panel()
				name := strings.Fields(strings.SplitN(p.Examined, "samples j = ", 2)[1])[0]
				if !strings.Contains(a.Q.Prompt, name+" = ") {
					t.Errorf("%s: prompt %q does not name %s, which the step samples (%q)", where, a.Q.Prompt, name, p.Examined)
				}
				if want := demo.YesOrNo(strings.Contains(p.Lines[0], "< 1")); a.Q.Right != want {
					t.Errorf("%s: Right = %q, want %q (%q)", where, a.Q.Right, want, p.Lines[0])
				}
				kinds["margin "+a.Q.Right]++
				continue
			}
			if len(a.Q.Marks) != 1 || a.Q.Marks[0].Label != "q" {
				t.Fatalf("%s: marks %v, want q", where, a.Q.Marks)
			}
			f := scoreAfter(t, a.In, a.Q.Marks[0])
			if want := signOf(f); a.Q.Right != want {
				t.Errorf("%s: Right = %q, want %q (f(q) = %v after the step)", where, a.Q.Right, want, f)
			}
			kinds["sign "+a.Q.Right]++
		}
	}
	t.Logf("answers: %v", kinds)
	for _, k := range []string{"margin yes", "margin no", "sign pos", "sign neg"} {
		if kinds[k] == 0 {
			t.Errorf("no question answered %q: the cases do not exercise it", k)
		}
	}
}

// scoreAfter is f(q) = Σᵢ ᾱᵢK(xᵢ, q) after step in.Step+1, replayed from
// state 0.
func scoreAfter(t *testing.T, in demo.Input, q demo.Mark) float64 {
	t.Helper()
	x, yf := demo.Columns(in.Points)
	st := in.State
	kp, s0, err := primal.NewKernelPegasos(x, pointset.SignLabels(yf), primal.KernelPegasosParams{Kernel: kernelOf(st),
		Lambda: demo.Lambda.Get(st), T: demo.Iterations.Get(st), Seed: uint64(demo.Aseed.Get(st))})
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := algos.Replay(kp, s0, in.Step+1)
	if err != nil {
		t.Fatal(err)
	}
	return kp.Score(s, []float64{q.X1, q.X2})
}
