package gd

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/gd"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// stopOf steps st's run by the stepper alone, without the kit's kept run
// or its step count, and returns the last state the run accepted, its
// iterations K, and the state of the step that stopped it.
func stopOf(t *testing.T, st demo.State) (last gd.State, stop gd.State) {
	t.Helper()
	obj, err := newObjective(st)
	if err != nil {
		t.Fatal(err)
	}
	m, err := newStepper(st, obj)
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Init([]float64{startX1.Get(st), startX2.Get(st)})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i <= demo.MaxStep && !s.Status.Done(); i++ {
		next := m.Step(s)
		if next.K == s.K {
			return s, next
		}
		s = next
	}
	return s, s
}

// TestGDStoppedRunOneStep: a run whose step k + 1 is refused (the cap, a
// Newton stall) stops at step k, and every place names that one step:
// the page at k and at k + 1 (which shows k), the counter, the plot's
// title, the history, the note, the predict page and the compare page.
// k and the refused step's f come from stepping the stepper directly.
func TestGDStoppedRunOneStep(t *testing.T) {
	d := gdDemo(t, GDSpec())
	for _, tc := range []struct {
		query  string
		status algos.Status
	}{
		{"t=0.21", algos.Diverged},
		{"objective=double-well&t=0.2", algos.Diverged},
		{"objective=least-squares&t=0.45", algos.Diverged},
		{"objective=least-squares&t=0.6&batch=2", algos.Diverged},
		{"schedule=exp-decay&decay=0.9999&t=0.25", algos.Diverged},
		{"method=newton&objective=logistic", algos.Stalled},
	} {
		t.Run(tc.query, func(t *testing.T) {
			last, stop := stopOf(t, demotest.MustParse(t, d, tc.query))
			k := last.K
			if stop.Status != tc.status || k == 0 {
				t.Fatalf("stepping alone: %v after %d steps, want %v", stop.Status, k, tc.status)
			}
			for _, step := range []string{strconv.Itoa(k), strconv.Itoa(k + 1), "end"} {
				r := gdExec(t, d, tc.query+"&step="+step)
				if r.Step != k || !r.Done {
					t.Fatalf("step=%s: shown as step %d (done %v), want %d", step, r.Step, r.Done, k)
				}
				p := r.Panel()
				if demotest.Counter(p, "step") != strconv.Itoa(k) || p.Status != tc.status.String() {
					t.Errorf("step=%s: counter k = %s, status %q", step, demotest.Counter(p, "step"), p.Status)
				}
				if x := p.Model[0].Facts; x[0].Value != iterateCoord(last.X[0]) || x[1].Value != iterateCoord(last.X[1]) {
					t.Errorf("step=%s: x⁽ᵏ⁾ = (%s, %s), want x⁽%d⁾ = %v", step, x[0].Value, x[1].Value, k, last.X)
				}
				if demotest.Counter(p, "objective") != textfmt.Sig(last.F) || !strings.HasPrefix(p.Examined, fmt.Sprintf("Iteration %d moved", k)) {
					t.Errorf("step=%s: f = %s, %q", step, demotest.Counter(p, "objective"), p.Examined)
				}
				if h := r.History; h.Now != float64(k) || len(h.Series[0].T) != k+1 || !strings.Contains(h.Title, fmt.Sprintf("iteration %d:", k)) {
					t.Errorf("step=%s: history at %v with %d samples, %q", step, h.Now, len(h.Series[0].T), h.Title)
				}
				if title, _ := demotest.FigureText(t, r, demo.PlotFigure); !strings.HasPrefix(title, fmt.Sprintf("step %d ·", k)) ||
					!strings.Contains(title, fmt.Sprintf("step %d", k+1)) {
					t.Errorf("step=%s: plot title %q", step, title)
				}
				var text string
				for _, n := range p.Notes {
					text += n.Text + "\n"
				}
				for _, w := range []string{fmt.Sprintf("tep %d would", k+1), fmt.Sprintf("stops at step %d", k)} {
					if !strings.Contains(text, w) {
						t.Errorf("step=%s: the notes lack %q: %s", step, w, text)
					}
				}
				if strings.Contains(text, "float can hold") || strings.Contains(text, "last finite") {
					t.Errorf("step=%s: a note blames float64's range: %s", step, text)
				}
				if tc.status == algos.Diverged {
					// The refused step's f, from the stepper's own state.
					if !(math.Abs(stop.NextF) > gd.Blowup) && !(math.Abs(stop.Next[0]) > gd.Blowup) && !(math.Abs(stop.Next[1]) > gd.Blowup) {
						t.Fatalf("the refused step %v, f = %v, is within the cap", stop.Next, stop.NextF)
					}
					if math.Abs(stop.NextF) > gd.Blowup && !strings.Contains(text, "f to "+textfmt.Sig(stop.NextF)+", past the cap of 10¹⁰⁰") {
						t.Errorf("step=%s: the notes do not give f = %s past the cap: %s", step, textfmt.Sig(stop.NextF), text)
					}
				}
			}
			if r := gdExec(t, d, tc.query+"&step="+strconv.Itoa(k-1)); r.Done || r.Step != k-1 {
				t.Errorf("step %d: done %v at step %d, want running", k-1, r.Done, r.Step)
			}
			if a := demotest.AskAt(t, GDSpec(), tc.query, k-1); a.Q == nil || a.Q.None == "" &&
				!strings.Contains(a.Q.Prompt, fmt.Sprintf("Iteration %d starts at x⁽%s⁾", k, textfmt.Sup(k-1))) {
				t.Errorf("predict at step %d: %+v", k-1, a.Q)
			} else if strings.Contains(a.Q.Why, "float64") {
				t.Errorf("predict at step %d: the reveal blames float64: %q", k-1, a.Q.Why)
			}
			if a := demotest.AskAt(t, GDSpec(), tc.query, k); a.Q != nil {
				t.Errorf("predict at step %d, where the run stops: %+v", k, a.Q)
			}
			// Compare: run b is this run, a runs on with a tiny t.
			q, _ := url.ParseQuery(tc.query)
			for _, key := range []string{"t", "method", "batch", "schedule", "decay"} {
				if v := q.Get(key); v != "" {
					q.Set("b."+key, v)
				}
			}
			q.Set("t", "0.0001")
			q.Set("method", "gd")
			q.Set("step", strconv.Itoa(k+5))
			pair, probs := d.ParseCompare(q)
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			c, err := d.ExecuteCompare(context.Background(), pair)
			if err != nil {
				t.Fatal(err)
			}
			if c.Step != k+5 || c.B.State.Step != k || !c.B.Done || !strings.Contains(c.HeldText(c.B), fmt.Sprintf("stopped at step %d;", k)) {
				t.Errorf("compare: run b at step %d (done %v), %q", c.B.State.Step, c.B.Done, c.HeldText(c.B))
			}
		})
	}
}
