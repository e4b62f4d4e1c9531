package perceptron

import (
	"fmt"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestPredictAgreesWithNextStep checks each question's Right against the
// demo's own next step: the panel of step t+1 says whether the model
// changed, and its model line the w and b after it.
func TestPredictAgreesWithNextStep(t *testing.T) {
	kinds := map[string]map[string]bool{}
	for _, base := range []string{"", "data=and", "data=xor", "data=separable&n=12", "data=noisy&n=10&order=random",
		"data=blobs&n=9", "variant=margin&gamma=0.5", "eta=0.5&data=separable&seed=3"} {
		for k := 0; k <= 30; k++ {
			q := strings.TrimPrefix(base+fmt.Sprintf("&predict=1&step=%d", k), "&")
			r := demotest.Run(t, PerceptronSpec(), q)
			if r.State.Step < k {
				break
			}
			ask := r.Quiz.Ask
			if ask == nil {
				if !r.Done {
					t.Errorf("%s: no question, but the run goes on", q)
				}
				break
			}
			if ask.None != "" {
				continue // rounding decides: TestPredictExactReplay checks these
			}
			next := demotest.Run(t, PerceptronSpec(), strings.TrimPrefix(base+fmt.Sprintf("&step=%d", k+1), "&"))
			p := next.Panel()
			kind := "update"
			switch {
			case strings.HasSuffix(ask.Prompt, "What are w and b after it?"):
				kind = "weights"
				right, _ := ask.Choice(ask.Right)
				want := "w = " + p.Model[0].Facts[0].Value + ", b = " + p.Model[0].Facts[1].Value
				if got := right.Label[len("a: "):]; got != want {
					t.Errorf("%s: right choice %q, but step %d has %s", q, got, k+1, want)
				}
			case ask.Right != map[bool]string{true: "yes", false: "no"}[p.Changed]:
				t.Errorf("%s: %q answers %s, but step %d changed the model: %v", q, ask.Prompt, ask.Right, k+1, p.Changed)
			}
			if kinds[kind] == nil {
				kinds[kind] = map[string]bool{}
			}
			kinds[kind][ask.Right] = true
		}
	}
	for kind, want := range map[string][]string{"update": {"yes", "no"}, "weights": {"a", "b", "c"}} {
		for _, v := range want {
			if !kinds[kind][v] {
				t.Errorf("no %s question has %q right over the states tried: %v", kind, v, kinds[kind])
			}
		}
	}
}
