package course

import (
	"context"
	"fmt"
	"net/url"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// perceptronKept are the perceptron states TestKeptRunsAreReplays steps
// through, each with the status its run ends in (or "running" while it is
// still going at the test's last step, 1999), which
// TestPerceptronKeptStates checks so that each state keeps exercising
// what it is here for.
var perceptronKept = []struct{ q, end string }{
	{"", "converged"},                          // or: converges in the third epoch
	{"data=blobs&n=60", "converged"},           // three classes, one-vs-all
	{"data=blobs&n=60&multi=ovo", "converged"}, // three perceptrons, one per pair
	{"data=noisy&variant=averaged&order=random&aseed=4", "running"},
	{"data=noisy&n=80&eta=0.5&stop=epochs&variant=averaged&epochs=20", "iteration limit"},
	{"data=noisy&n=200", "running"}, // never converges, no cycle
	{"data=separable&n=300&sep=0.1&variant=margin&gamma=0.5", "converged"},
	// The lateCycle set of internal/algos/perceptron with γ = 1: the
	// weights at the start of epoch 17 (step 119) are those of epoch 14,
	// so the cycle check must find an epoch start that a run resumed
	// from a checkpoint (step 96) did not pass through itself.
	{"data=custom&add=0,0,-1~-2,0,1~0,2,-1~0,2,-1~-2,1,-1~2,2,-1~1,0,1&variant=margin&gamma=1", "cycle detected"},
	{"data=xor&order=random", "cycle detected"},
}

func init() {
	for _, s := range perceptronKept {
		keptDemos["perceptron"] = append(keptDemos["perceptron"], s.q)
	}
	// 500 noisy points never converge: stepping near step 1800 steps a
	// running run.
	stepThroughCases = append(stepThroughCases, struct{ id, q string }{"perceptron", "data=noisy&n=500"})
}

// TestPerceptronKeptStates: each state of perceptronKept ends as it says.
func TestPerceptronKeptStates(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	d := c.Demo("perceptron")
	for _, tt := range perceptronKept {
		v, _ := url.ParseQuery(tt.q)
		s, probs := d.Parse(v)
		if len(probs) > 0 {
			t.Fatalf("%s: %v", tt.q, probs)
		}
		r, err := d.ExecuteFigure(context.Background(), s.AtStep(1999), demo.PlotFigure)
		if err != nil {
			t.Fatal(err)
		}
		got := "running"
		if r.Done {
			got = r.Panel().Status
		}
		if got != tt.end {
			t.Errorf("perceptron?%s at step %d: %q, want %q", tt.q, r.Step, got, tt.end)
		}
	}
}

// TestPerceptronKeptDeep: past step 2000 a history samples the training
// error of 2000 spread states, which the demo computes only where asked
// and keeps: pages, history-only requests and questions deep in a run,
// asked in an order that leaves the kept errors full of holes, are the
// bytes of a cold cache.
func TestPerceptronKeptDeep(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	d := c.Demo("perceptron")
	steps := []int{2500, 2000, 2501, 1999, 4321, 3000, 2999, 40, demo.MaxStep, 2001, demo.StepToEnd, 7000}
	for _, q := range []string{"data=noisy&n=120", "data=noisy&n=60&variant=averaged&order=random&multi=ovo"} {
		v, _ := url.ParseQuery(q)
		s, _ := d.Parse(v)
		at := func(k int) demo.State {
			st := s.AtStep(0)
			st.Step = k
			return st
		}
		cold := map[int]string{}
		for _, k := range steps {
			c.Cache.Reset()
			cold[k] = stateBytes(t, d, at(k), "") + askBytes(t, d, at(k))
		}
		c.Cache.Reset()
		for i, k := range steps {
			if i%3 == 1 {
				// A history alone fills in errors a page then reads.
				c.Cache.Reset()
				stateBytes(t, d, at(k+7), demo.HistoryFigure)
			}
			if got := stateBytes(t, d, at(k), "") + askBytes(t, d, at(k)); got != cold[k] {
				t.Fatalf("perceptron?%s step %d (request %d): the page differs from a replay's", q, k, i)
			}
		}
	}
}

// askBytes is the question d asks at s.
func askBytes(t *testing.T, d *demo.Demo, s demo.State) string {
	t.Helper()
	if s.Step < 0 {
		return ""
	}
	pts, err := s.Points()
	if err != nil {
		t.Fatal(err)
	}
	q, err := d.Predict(context.Background(), demo.Input{State: s, Points: pts, Step: s.Step, Cache: d.Cache})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%#v", q)
}
