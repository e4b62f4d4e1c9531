package svm

import (
	"bytes"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
)

// smoCase is an SMO demo in one setting, with its parameters for a
// replay of the solver of the test's own.
type smoCase struct {
	spec   demo.Spec
	query  string
	params func(demo.State) svm.Params
}

func smoCases() []smoCase {
	hard := func(s demo.State) svm.Params { return SvmParams(s, true) }
	soft := func(s demo.State) svm.Params { return SvmParams(s, false) }
	var cs []smoCase
	for _, q := range []string{"", "data=or", "data=and", "seed=5&n=30", "data=separable&tol=1e-06"} {
		cs = append(cs, smoCase{SVMSpec(true), q, hard})
	}
	for _, q := range []string{"", "C=0.1", "C=100&data=xor", "data=or&C=0.5", "seed=9&C=3"} {
		cs = append(cs, smoCase{SVMSpec(false), q, soft})
	}
	for _, q := range []string{"", "kernel=poly&degree=2", "data=xor&gamma=3&C=10", "kernel=laplace&C=0.3", "kernel=linear&data=moons"} {
		cs = append(cs, smoCase{KernelSVMSpec(), q, kernelSVMParams})
	}
	return cs
}

// replayTo is the solver's state at step k, replayed from state 0.
func replayTo(t *testing.T, in demo.Input, params func(demo.State) svm.Params, k int) (*svm.Problem, svm.State) {
	t.Helper()
	x, yf := demo.Columns(in.Points)
	pr, s0, err := svm.New(x, pointset.SignLabels(yf), params(in.State))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := algos.Replay(pr, s0, k)
	if err != nil {
		t.Fatal(err)
	}
	return pr, s
}

// SMO asks, by the parity of t, which pair step t+1 optimises (checked
// against the pair the panel at t+1 names, and the candidates' ranking
// against the solver's) or how many of the pair's α end at a bound
// (checked against a replay to t+1).
func TestPredictSMOMatchesTheStep(t *testing.T) {
	kinds := map[string]int{}
	for _, c := range smoCases() {
		for step := 0; step < 30; step++ {
			a := demotest.AskAt(t, c.spec, c.query, step)
			where := fmt.Sprintf("%s?%s step %d", c.spec.ID, c.query, step)
			if a.Q == nil {
				if !a.Now.Done {
					t.Fatalf("%s: no question before the end", where)
				}
				break
			}
			if a.Q.None != "" {
				kinds["no question"]++
				continue
			}
			p := a.After.Panel()
			pair := strings.Fields(p.Examined)
			// "Step k optimises the pair i = x₃ (y = +1) and j = x₇ (y = −1): …"
			names := pair[7] + "-" + pair[14]
			if strings.HasPrefix(a.Q.Prompt, "After step") {
				got := a.Q.Choices[0].Label
				var right string
				for _, ch := range a.Q.Choices {
					if ch.Value == a.Q.Right {
						right = ch.Label
					}
				}
				if want := "i = " + pair[7] + ", j = " + pair[14]; right != want {
					t.Errorf("%s: the right choice is %q, the panel at t+1 says %q (%q)", where, right, want, p.Examined)
				}
				if got != right {
					t.Errorf("%s: the rule ranks %q first, the solver takes %q", where, got, right)
				}
				kinds["pair"]++
				if strictMode(a.Q.Choices, 0, a.Q.Right) {
					kinds["right i stands out"]++
				}
				if strictMode(a.Q.Choices, 1, a.Q.Right) {
					kinds["right j stands out"]++
				}
				kinds[fmt.Sprintf("pair of %d", len(a.Q.Choices))]++
				continue
			}
			if step%2 == 0 && len(smoCandidates(replayTo(t, a.In, c.params, step)).pairs) >= 2 {
				t.Errorf("%s: a clip question at an even step with a choice of pairs", where)
			}
			if !strings.Contains(a.Q.Prompt, "pair i = "+strings.Split(names, "-")[0]+" = ") {
				t.Errorf("%s: prompt %q does not name the pair of the panel at t+1 (%q)", where, a.Q.Prompt, p.Examined)
			}
			pr, s := replayTo(t, a.In, c.params, step+1)
			n := 0
			for _, v := range []float64{s.Alpha[s.I], s.Alpha[s.J]} {
				if v <= 0 || !pr.P.Hard && v >= pr.P.C {
					n++
				}
			}
			if want := []string{"none", "one", "both"}[n]; a.Q.Right != want {
				t.Errorf("%s: Right = %q, want %q (α = %v, %v after the step)", where, a.Q.Right, want, s.Alpha[s.I], s.Alpha[s.J])
			}
			if strings.Contains(a.Q.Why, "clipped") && a.Q.Right == "none" {
				t.Errorf("%s: a clipped step that leaves both α inside the box: %s", where, a.Q.Why)
			}
			kinds["clip "+a.Q.Right]++
		}
	}
	t.Logf("answers: %v", kinds)
	for _, k := range []string{"pair", "pair of 4", "clip none", "clip one", "clip both"} {
		if kinds[k] == 0 {
			t.Errorf("no question answered %q: the cases do not exercise it", k)
		}
	}
	// The distractors are built like the answer: counting how often an
	// index appears among the choices must not find the right pair.
	for _, k := range []string{"right i stands out", "right j stands out"} {
		if 5*kinds[k] > kinds["pair"] {
			t.Errorf("%s in %d of %d pair questions", k, kinds[k], kinds["pair"])
		}
	}
}

// strictMode reports whether the right choice's index (part 0 for i, 1
// for j of a value "i-j") appears among the choices more often than any
// other index in that part.
func strictMode(choices []demo.Option, part int, right string) bool {
	count := map[string]int{}
	for _, c := range choices {
		count[strings.Split(c.Value, "-")[part]]++
	}
	r := strings.Split(right, "-")[part]
	for k, n := range count {
		if k != r && n >= count[r] {
			return false
		}
	}
	return true
}

// On the notes' OR (the lesson's worked example), step 1 pairs x₄ (the
// last of the tied +1 points) with x₁, the only −1 point, against the
// runner-up x₃ with x₁; step 2 pairs x₃ with x₄, and α₄ lands on 0. The
// run ends at step 4, with no question after it.
func TestPredictSMOOnOR(t *testing.T) {
	a := demotest.AskAt(t, SVMSpec(true), "data=or", 0)
	if a.Q == nil || a.Q.Right != "4-1" || len(a.Q.Choices) != 2 || a.Q.Choices[1].Value != "3-1" {
		t.Fatalf("OR step 0: %+v, want the pair question, right 4-1 against 3-1", a.Q)
	}
	a = demotest.AskAt(t, SVMSpec(true), "data=or", 1)
	if a.Q == nil || !strings.Contains(a.Q.Prompt, "i = x₃ = (0, 1)") || !strings.Contains(a.Q.Prompt, "j = x₄ = (1, 1)") {
		t.Fatalf("OR step 1: %+v, want the clip question on the pair (x₃, x₄)", a.Q)
	}
	if a.Q.Right != "one" || !strings.Contains(a.Q.Why, "(vᵢ − vⱼ)/aᵢⱼ = (0 − (−1))/1 = 1") {
		t.Errorf("OR step 1: Right = %q, want one (α₄ lands on 0 by the full step τ* = 1): %s", a.Q.Right, a.Q.Why)
	}
	if a := demotest.AskAt(t, SVMSpec(true), "data=or", 4); a.Q != nil {
		t.Errorf("OR step 4: a question %q after the end", a.Q.Prompt)
	}
	if a := demotest.AskAt(t, SVMSpec(true), "data=xor", 0); a.Q != nil {
		t.Errorf("XOR, hard margin: a question %q on an infeasible problem", a.Q.Prompt)
	}
}

// The default runs' pair questions at a tie (issue 27 §2): the reveal
// names the tied points, the answer's i (or j) is the last of them, and
// the candidates hold no tied runner-up said to come second.
func TestPredictSMOTies(t *testing.T) {
	for _, spec := range []demo.Spec{SVMSpec(true), SVMSpec(false)} {
		tiesI, none := 0, 0
		for step := 0; step < 40; step += 2 {
			a := demotest.AskAt(t, spec, "", step)
			if a.Q == nil {
				break
			}
			if a.Q.None != "" {
				none++
				continue
			}
			if !strings.HasPrefix(a.Q.Prompt, "After step") {
				continue
			}
			pr, s := replayTo(t, a.In, func(s demo.State) svm.Params { return SvmParams(s, spec.ID == "svm-hard") }, step)
			ch := smoCandidates(pr, s)
			right := strings.Split(a.Q.Right, "-")
			if len(ch.tiedI) > 1 {
				tiesI++
				last := ch.tiedI[len(ch.tiedI)-1]
				if want := fmt.Sprint(last + 1); right[0] != want || !strings.Contains(a.Q.Why, "tie: their v agree") {
					t.Errorf("%s step %d: i tied among %v, answer %s, why %q", spec.ID, step, ch.tiedI, a.Q.Right, a.Q.Why)
				}
			}
			if len(ch.tiedJ) > 1 && right[1] != fmt.Sprint(ch.tiedJ[len(ch.tiedJ)-1]+1) {
				t.Errorf("%s step %d: j tied among %v, answer %s", spec.ID, step, ch.tiedJ, a.Q.Right)
			}
		}
		t.Logf("%s: %d pair questions at a tie for i, %d steps without a question", spec.ID, tiesI, none)
		if spec.ID == "svm-hard" && tiesI == 0 {
			t.Errorf("%s: no pair question at a tie in the first 40 steps; the test exercises nothing", spec.ID)
		}
	}
}

// On a question page (issue 27 §2) the plot leaves out the previous
// pair's labels, and the question marks the points it asks about: the
// clip question its pair as i and j, the pair question each candidate by
// its name, once.
func TestPredictSMOMarks(t *testing.T) {
	for _, step := range []int{4, 5, 12, 13} {
		q := "predict=1&step=" + fmt.Sprint(step)
		r := demotest.Run(t, SVMSpec(false), q)
		var buf bytes.Buffer
		if _, err := r.WriteFigure(&buf, demo.PlotFigure, false); err != nil {
			t.Fatal(err)
		}
		if desc := demotest.SVGText(buf.String()); strings.Contains(desc, "This step optimised the pair") {
			t.Errorf("%s: the question page's plot labels the previous pair: %q", q, desc)
		}
		a := demotest.AskAt(t, SVMSpec(false), "", step)
		if a.Q == nil || a.Q.None != "" {
			continue
		}
		want := map[string]bool{}
		if strings.HasPrefix(a.Q.Prompt, "After step") {
			for _, c := range a.Q.Choices {
				for _, n := range strings.Split(c.Value, "-") {
					k, _ := strconv.Atoi(n)
					want[render.PointName(k-1)] = true
				}
			}
		} else {
			want["i"], want["j"] = true, true
		}
		got := map[string]bool{}
		for _, m := range a.Q.Marks {
			if got[m.Label] {
				t.Errorf("%s: point %s marked twice", q, m.Label)
			}
			got[m.Label] = true
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: marks %v, want %v", q, got, want)
		}
	}
	// Off predict mode the pair keeps its labels.
	r := demotest.Run(t, SVMSpec(false), "step=5")
	var buf bytes.Buffer
	if _, err := r.WriteFigure(&buf, demo.PlotFigure, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(demotest.SVGText(buf.String()), "This step optimised the pair") {
		t.Error("step 5 without predict: the plot does not name the pair")
	}
}
