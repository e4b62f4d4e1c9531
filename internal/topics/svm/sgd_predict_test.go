package svm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// The Pegasos question names the point the demo's own step t+1 samples,
// and its answer is the one the demo's panel shows at t+1.
func TestPredictPegasosMatchesTheStep(t *testing.T) {
	allYes, allNo := 0, 0
	for _, query := range []string{"", "data=separable&seed=3", "data=xor&lambda=0.001", "lambda=1&aseed=7", "data=or&lambda=0.1&T=30"} {
		yes, no := 0, 0
		for step := 0; step < 40; step++ {
			a := demotest.AskAt(t, SGDSpec(), query, step)
			if a.Q == nil {
				if !a.Now.Done {
					t.Fatalf("?%s step %d: no question before the end", query, step)
				}
				break
			}
			if a.Q.None != "" { // rounding, not the rule, would decide: no question
				continue
			}
			p := a.After.Panel()
			name := strings.Fields(strings.SplitN(p.Examined, "samples i = ", 2)[1])[0]
			if !strings.Contains(a.Q.Prompt, name+" = ") {
				t.Errorf("?%s step %d: prompt %q does not name %s, which the step samples (%q)", query, step, a.Q.Prompt, name, p.Examined)
			}
			inside := strings.Contains(p.Lines[0], "< 1")
			if want := demo.YesOrNo(inside); a.Q.Right != want {
				t.Errorf("?%s step %d: Right = %q, want %q (%q)", query, step, a.Q.Right, want, p.Lines[0])
			}
			if inside {
				yes++
			} else {
				no++
			}
			// The prompt gives W_t and the point, from which the student
			// works out the score: that is the exercise, not a leak.
			if m := strings.Fields(p.Lines[0])[3]; !strings.Contains(a.Q.Why, "= "+m+" ") {
				t.Errorf("?%s step %d: Why %q lacks the panel's y·W·X̃ = %s (%q)", query, step, a.Q.Why, m, p.Lines[0])
			}
			if len(a.Q.Marks) != 1 || a.Q.Marks[0].Label != "i" {
				t.Errorf("?%s step %d: marks %v, want the sampled point i", query, step, a.Q.Marks)
			}
		}
		t.Logf("?%s: %d yes, %d no", query, yes, no)
		allYes, allNo = allYes+yes, allNo+no
	}
	if allYes == 0 || allNo == 0 {
		t.Errorf("%d yes and %d no: the cases do not exercise both answers", allYes, allNo)
	}
}

// The subgradient question's answer is whether the objective the panel
// shows at t+1 is below the one at t.
func TestPredictSubgradientMatchesTheStep(t *testing.T) {
	all := map[string]int{}
	for _, query := range []string{"method=subgradient", "method=subgradient&eta=1&decay=constant", "method=subgradient&data=xor&C=10&eta=0.1",
		"method=subgradient&data=separable&eta=0.5&T=12"} {
		kinds := map[string]int{}
		for step := 0; step < 30; step++ {
			a := demotest.AskAt(t, SGDSpec(), query, step)
			if a.Q == nil {
				break
			}
			if a.Q.None != "" { // rounding, not the rule, would decide: no question
				continue
			}
			before := demotest.ParseSig(t, demotest.Counter(a.Now.Panel(), "objective-primal"))
			after := demotest.ParseSig(t, demotest.Counter(a.After.Panel(), "objective-primal"))
			kinds[a.Q.Right]++
			if before == after {
				continue // equal to the panel's precision: nothing to compare
			}
			if want := demo.YesOrNo(after < before); a.Q.Right != want {
				t.Errorf("?%s step %d: Right = %q, want %q (objective %v then %v)", query, step, a.Q.Right, want, before, after)
			}
			demotest.NoLeak(t, fmt.Sprintf("?%s step %d", query, step), a.Q, textfmt.Sig(after))
		}
		t.Logf("?%s: %v", query, kinds)
		all["yes"], all["no"] = all["yes"]+kinds["yes"], all["no"]+kinds["no"]
	}
	if all["yes"] == 0 || all["no"] == 0 {
		t.Errorf("answers %v: the cases do not exercise both", all)
	}
}

// At the end of a run there is no question, and the last step still has
// one.
func TestPredictSGDEnds(t *testing.T) {
	for _, query := range []string{"T=5", "method=subgradient&T=5"} {
		if a := demotest.AskAt(t, SGDSpec(), query, 4); a.Q == nil {
			t.Errorf("?%s step 4: no question before the last step", query)
		}
		if a := demotest.AskAt(t, SGDSpec(), query, 5); a.Q != nil {
			t.Errorf("?%s step 5: a question %q after the run's end", query, a.Q.Prompt)
		}
	}
}
