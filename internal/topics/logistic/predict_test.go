package logistic

import (
	"fmt"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/textfmt"
)

// checkLoss checks a "will J go down" answer against the objective the
// panel shows at t and at t+1; it returns the answer.
func checkLoss(t *testing.T, where string, a demotest.Asked) string {
	t.Helper()
	before := demotest.ParseSig(t, demotest.Counter(a.Now.Panel(), "objective"))
	after := demotest.ParseSig(t, demotest.Counter(a.After.Panel(), "objective"))
	if before != after {
		if want := map[bool]string{true: "yes", false: "no"}[after < before]; a.Q.Right != want {
			t.Errorf("%s: Right = %q, want %q (J = %v then %v)", where, a.Q.Right, want, before, after)
		}
		demotest.NoLeak(t, where, a.Q, textfmt.Sig(after))
	}
	return "loss " + a.Q.Right
}

// The logistic demo asks, by the parity of t (gradient descent) or always
// (Newton), whether J falls, checked against the panel at t+1, or the
// class of the point nearest the boundary, checked against a replay of
// the solver to t+1.
func TestPredictLogisticMatchesTheStep(t *testing.T) {
	kinds := map[string]int{}
	for _, query := range []string{"", "eta=20", "eta=100&data=separable", "method=newton", "data=moons&eta=5&lambda=0.1",
		"data=separable&n=30&method=newton", "eta=8&seed=4"} {
		for step := 0; step < 24; step++ {
			a := demotest.AskAt(t, LogisticSpec(), query, step)
			where := fmt.Sprintf("?%s step %d", query, step)
			if a.Q == nil {
				if !a.Now.Done {
					t.Fatalf("%s: no question before the end", where)
				}
				break
			}
			if a.Q.None != "" {
				kinds["none"]++
				continue
			}
			if isLoss(a.Q) {
				if !usesGD(a.In.State) || step%2 != 0 && !strings.HasPrefix(a.Q.Prompt, "No question on the class of q at this step") {
					t.Errorf("%s: a loss question for Newton, or at an odd step without saying why: %q", where, a.Q.Prompt)
				}
				kinds[checkLoss(t, where, a)]++
				continue
			}
			if len(a.Q.Marks) != 1 || a.Q.Marks[0].Label != "q" {
				t.Fatalf("%s: marks %v, want q", where, a.Q.Marks)
			}
			f := logisticScoreAfter(t, a.In, a.Q.Marks[0])
			if want := map[int]string{1: "pos", -1: "neg"}[demo.Predict(f)]; a.Q.Right != want {
				t.Errorf("%s: Right = %q, want %q (f(q) = %v after the step)", where, a.Q.Right, want, f)
			}
			kinds["class "+a.Q.Right]++
		}
	}
	t.Logf("answers: %v", kinds)
	for _, k := range []string{"loss yes", "loss no", "class pos", "class neg"} {
		if kinds[k] == 0 {
			t.Errorf("no question answered %q: the cases do not exercise it", k)
		}
	}
}

// logisticScoreAfter is f(q) after step in.Step+1, replayed from state 0.
func logisticScoreAfter(t *testing.T, in demo.Input, q demo.Mark) float64 {
	t.Helper()
	x, yf := demo.Columns(in.Points)
	pr, err := logistic.New(x, pointset.FloatLabels(pointset.SignLabels(yf)), logisticLambda.Get(in.State))
	if err != nil {
		t.Fatal(err)
	}
	var m algos.Method[logistic.State] = logistic.Newton{P: pr}
	if usesGD(in.State) {
		m = logistic.GD{P: pr, Eta: logisticEta.Get(in.State)}
	}
	s, _, err := algos.Replay(m, pr.Start(), in.Step+1)
	if err != nil {
		t.Fatal(err)
	}
	return s.Model.Score([]float64{q.X1, q.X2})
}

// The softmax demo asks whether J falls (even t) or the probe's class
// (odd t), checked against the panel at t+1.
func TestPredictSoftmaxMatchesTheStep(t *testing.T) {
	kinds := map[string]int{}
	for _, query := range []string{"", "eta=30", "q1=1&q2=1&eta=3", "n=30&q1=-2&q2=0.5&eta=10", "eta=100&seed=2&q1=0.3", "lambda=0.5&q2=-1"} {
		for step := 0; step < 24; step++ {
			a := demotest.AskAt(t, SoftmaxSpec(), query, step)
			where := fmt.Sprintf("?%s step %d", query, step)
			if a.Q == nil {
				if !a.Now.Done {
					t.Fatalf("%s: no question before the end", where)
				}
				break
			}
			if a.Q.None != "" {
				kinds["none"]++
				continue
			}
			if isLoss(a.Q) {
				kinds[checkLoss(t, where, a)]++
				continue
			}
			if got, want := "class "+a.Q.Right, demotest.Counter(a.After.Panel(), "probe-class"); got != want {
				t.Errorf("%s: Right is %s, the panel at t+1 says %s", where, got, want)
			}
			if len(a.Q.Marks) != 1 || a.Q.Marks[0] != (demo.Mark{Label: "q", X1: probe(a.In.State)[0], X2: probe(a.In.State)[1]}) {
				t.Errorf("%s: marks %v, want the probe q", where, a.Q.Marks)
			}
			kinds["class "+a.Q.Right]++
		}
	}
	t.Logf("answers: %v", kinds)
	for _, k := range []string{"loss yes", "loss no", "class 0", "class 1", "class 2"} {
		if kinds[k] == 0 {
			t.Errorf("no question answered %q: the cases do not exercise it", k)
		}
	}
}

// At the end of a run (converged or diverged) there is no question.
func TestPredictLogisticEnds(t *testing.T) {
	a := demotest.AskAt(t, LogisticSpec(), "method=newton", 100)
	if a.Q != nil || !a.Now.Done {
		t.Errorf("Newton at step 100: question %v, done %v; want none and a finished run", a.Q, a.Now.Done)
	}
}

// TestLossQuestionWhy: the reveal states the descent lemma as it is:
// every η < 2/L lowers J, so between 1/L and 2/L a fall is no surprise,
// and only at or above 2/L is a fall or a rise down to this step; a
// change within twice J's rounding gets no question.
func TestLossQuestionWhy(t *testing.T) {
	const l = 1.0 // 1/L = 1, 2/L = 2
	for _, tt := range []struct {
		j0, j1, eta float64
		want        []string // in the Why, or in the reason for none
		right       string   // "" for no question
	}{
		{1, 0.9, 0.5, []string{"J goes down", "descent lemma", "η < 2/L", "2/L = 2"}, "yes"},
		{1, 0.9, 1.5, []string{"J goes down", "descent lemma", "η < 2/L", "η = 1.5"}, "yes"},
		{1, 0.9, 2.5, []string{"although", "does not cover η ≥ 2/L"}, "yes"},
		{1, 1.1, 2.5, []string{"does not go down", "overshoots"}, "no"},
		{1, 1 + 0x1p-52, 1.5, []string{"within twice the rounding error", "of a mean of 40 losses"}, ""},
		{1, 1 - 0x1p-50, 2.5, []string{"within twice the rounding error"}, ""},
	} {
		q, why := lossQuestion(tt.j0, tt.j1, tt.eta, l, 40, false, "Here.")
		text := why
		switch {
		case tt.right == "" && q != nil, tt.right != "" && q == nil:
			t.Errorf("J %v → %v, η = %v: question %v (none because %q), want right answer %q", tt.j0, tt.j1, tt.eta, q, why, tt.right)
			continue
		case q != nil:
			text = q.Why
			if q.Right != tt.right {
				t.Errorf("J %v → %v, η = %v: Right %q, want %q", tt.j0, tt.j1, tt.eta, q.Right, tt.right)
			}
		}
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("J %v → %v, η = %v: %q lacks %q", tt.j0, tt.j1, tt.eta, text, w)
			}
		}
		if strings.Contains(text, "not guaranteed") || strings.Contains(text, "1/L") {
			t.Errorf("J %v → %v, η = %v: %q speaks of 1/L as a bound on descent", tt.j0, tt.j1, tt.eta, text)
		}
	}
}

// TestLossRevealOnThePage: at the states, η = 2.5 (logistic) and
// η = 0.6 (softmax) lie between 1/L and 2/L, and the reveal says the step
// lowers J by the descent lemma, with the 2/L of the problem's L.
func TestLossRevealOnThePage(t *testing.T) {
	for _, tt := range []struct {
		spec demo.Spec
		q    string
		l    func(r *demo.Run) float64
	}{
		{LogisticSpec(), "eta=2.5", func(r *demo.Run) float64 { pr, _, _ := logisticProblem(t, r); return pr.L() }},
		{SoftmaxSpec(), "eta=0.6", func(r *demo.Run) float64 { sm, _ := softmaxReplay(t, r); return sm.L() }},
	} {
		a := demotest.AskAt(t, tt.spec, tt.q, 2)
		if a.Q == nil || !isLoss(a.Q) {
			t.Fatalf("%s?%s step 2: %+v, want a loss question", tt.spec.ID, tt.q, a.Q)
		}
		l := tt.l(a.Now)
		if e := eta.Get(a.In.State); !(1/l < e && e < 2/l) {
			t.Fatalf("%s?%s: η = %v is not between 1/L = %v and 2/L = %v", tt.spec.ID, tt.q, e, 1/l, 2/l)
		}
		if want := "2/L = " + textfmt.Sig(2/l); !strings.Contains(a.Q.Why, want) || !strings.Contains(a.Q.Why, "descent lemma") || a.Q.Right != "yes" {
			t.Errorf("%s?%s step 2: Right %q, Why %q; want yes, the descent lemma and %q", tt.spec.ID, tt.q, a.Q.Right, a.Q.Why, want)
		}
		note := demotest.Note(a.Now.Panel(), "smooth")
		if want := "for every η < 2/L = " + textfmt.Sig(2/l) + " gradient descent lowers J at every step"; note == nil || !strings.Contains(note.Text, want) {
			t.Errorf("%s?%s: smooth note %+v, want %q", tt.spec.ID, tt.q, note, want)
		}
	}
}
