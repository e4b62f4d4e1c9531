package gd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// gdNote returns the panel note with testID, failing when there is none.
func gdNote(t *testing.T, p demo.Panel, testID string) demo.Note {
	t.Helper()
	for _, n := range p.Notes {
		if n.TestID == testID {
			return n
		}
	}
	t.Fatalf("no note %q among %v", testID, p.Notes)
	return demo.Note{}
}

// TestRegimeOf: t is placed against 1/L and 2/L, ties to rounding
// counting as equal (L = 10.000000000000002 is what κ = 10 gives).
func TestRegimeOf(t *testing.T) {
	const L = 10.000000000000002
	for _, tt := range []struct {
		t    float64
		want stepRegime
	}{
		{0.05, belowOneOverL}, {0.1, atOneOverL}, {0.1 * (1 + 1e-13), atOneOverL}, {0.1 * (1 + 1e-9), betweenLs},
		{0.19, betweenLs}, {0.2, atTwoOverL}, {0.2 * (1 - 1e-13), atTwoOverL}, {0.2 * (1 - 1e-9), betweenLs},
		{0.2 * (1 + 1e-9), aboveTwoOverL}, {0.21, aboveTwoOverL},
	} {
		if got := regimeOf(tt.t, L); got != tt.want {
			t.Errorf("regimeOf(%v, %v) = %v, want %v", tt.t, L, got, tt.want)
		}
	}
}

// TestGDEdgeNote: at t = 2/L on the default quadratic the panel says the
// run does not converge, and the level f settles at is the one computed
// here independently: A = R_θ diag(1, κ) R_θᵀ has its eigenvalue κ along
// v = (−sin θ, cos θ), so f → ½κ(vᵀx⁽⁰⁾)². The run's own f after 500
// steps is that level too.
func TestGDEdgeNote(t *testing.T) {
	d := gdDemo(t, GDSpec())
	th := 30 * math.Pi / 180
	c := -math.Sin(th)*2 + math.Cos(th)*1.5
	limit := 10 * c * c / 2
	for _, q := range []string{"step=500&t=0.2", "step=500&t=0.2000000000000001"} {
		r := gdExec(t, d, q)
		run, _ := runGD(context.Background(), nil, r.State, r.Step, false)
		if math.Abs(run.s.F-limit) > 1e-9 {
			t.Fatalf("%s: f = %v, want the limit %v", q, run.s.F, limit)
		}
		p := r.Panel()
		n := gdNote(t, p, "edge")
		if !strings.Contains(n.Text, "does not converge") || !strings.Contains(n.Text, "= "+textfmt.Sig(limit)+",") || !strings.Contains(n.Text, textfmt.Sig(math.Abs(c))) {
			t.Errorf("%s: edge note %q, want the limit %s and 'does not converge'", q, n.Text, textfmt.Sig(limit))
		}
		for _, m := range p.Notes {
			if strings.Contains(m.Text, "still converges") || strings.Contains(m.Text, "the run converges") {
				t.Errorf("%s: a note says the run converges: %q", q, m.Text)
			}
		}
	}
	// A start on the flat eigenvector has nothing to bounce: it converges.
	r := gdExec(t, d, "step=10&t=0.2&x0=1.5&y0=0.8660254037844386")
	if n := gdNote(t, r.Panel(), "edge"); !strings.Contains(n.Text, "converges") || strings.Contains(n.Text, "does not converge") {
		t.Errorf("start on the flat axis: %q", n.Text)
	}
}

// TestGDRateNotes: each range of t gets its own words, and the bound is
// drawn exactly where Theorem 1.8.5 applies.
func TestGDRateNotes(t *testing.T) {
	d := gdDemo(t, GDSpec())
	for _, tt := range []struct {
		query, note string
		want        []string
		bound       bool
	}{
		{"step=20&t=0.05", "rate", []string{"t = 0.05 ≤ 1/L = 0.1", "the dashed curve"}, true},
		{"step=20&t=0.1", "rate", []string{"t = 0.1 = 1/L = 0.1", "the dashed curve"}, true},
		{"step=20&t=0.19", "rate", []string{"1/L = 0.1 < t = 0.19 < 2/L = 0.2", "a decrease for every t < 2/L", "the run converges", "step 2's factor ½", "does not draw it"}, false},
		{"step=20&t=0.19&schedule=exp-decay", "rate", []string{"never exceed t = 0.19"}, false},
		{"step=20&t=0.3&objective=least-squares&batch=2", "rate", []string{"full gradient"}, false},
		{"step=20&t=0.21", "too-large", []string{"grows by |1 − tL| = 1.1 per step"}, false},
		{"step=20&t=0.45&objective=least-squares", "too-large", []string{"t = 0.45 > 2/L = 0.4337", "diverges"}, false},
	} {
		r := gdExec(t, d, tt.query)
		n := gdNote(t, r.Panel(), tt.note)
		for _, w := range tt.want {
			if !strings.Contains(n.Text, w) {
				t.Errorf("%s: note %q lacks %q", tt.query, n.Text, w)
			}
		}
		if got := r.History.Series[0].Compare != nil; got != tt.bound {
			t.Errorf("%s: bound drawn = %v, want %v", tt.query, got, tt.bound)
		}
		if !tt.bound && r.History.Series[0].Compare == nil && strings.Contains(r.History.Desc, "bound ‖x⁽⁰⁾ − x*‖²/(2tk) dashed") {
			t.Errorf("%s: the description promises a bound that is not drawn: %q", tt.query, r.History.Desc)
		}
	}
	r := gdExec(t, d, "step=20&t=0.21")
	if !strings.Contains(r.History.Desc, "without Theorem 1.8.5's bound") {
		t.Errorf("t = 0.21: history description %q does not say the bound is left out", r.History.Desc)
	}
}

// TestGDBoundNow: where Theorem 1.8.5 covers the run the rate note gives
// the bound's value at the current step, ‖x⁽⁰⁾ − x*‖²/(2tk) from the start
// and the minimiser, beside the gap it bounds (which is below it); before
// the first step, and where the theorem does not apply, it gives none.
func TestGDBoundNow(t *testing.T) {
	d := gdDemo(t, GDSpec())
	for _, q := range []string{"step=10", "step=100", "step=7&t=0.05&objective=least-squares", "step=30&objective=logistic&t=2"} {
		r := gdExec(t, d, q)
		run, err := runGD(context.Background(), nil, r.State, r.Step, false)
		if err != nil {
			t.Fatal(err)
		}
		x0, xs := []float64{startX1.Get(r.State), startX2.Get(r.State)}, run.obj.xstar
		d0 := (x0[0]-xs[0])*(x0[0]-xs[0]) + (x0[1]-xs[1])*(x0[1]-xs[1])
		den := 2 * stepSize.Get(r.State) * float64(r.Step)
		gap := run.s.F - run.obj.fstar
		if gap > d0/den {
			t.Errorf("%s: the gap %v is above the bound %v", q, gap, d0/den)
		}
		want := fmt.Sprintf("At step %d the bound is %s/%s = %s, and the gap f(x⁽ᵏ⁾) − f* is %s.", r.Step, textfmt.Sig(d0), textfmt.Sig(den), textfmt.Sig(d0/den), textfmt.Sig(max(gap, 0)))
		if n := gdNote(t, r.Panel(), "rate"); !strings.Contains(n.Text, want) {
			t.Errorf("%s: rate note %q lacks %q", q, n.Text, want)
		}
	}
	for _, q := range []string{"step=0", "step=20&t=0.19", "step=20&t=0.05&schedule=exp-decay", "step=20&objective=least-squares&batch=2&t=0.05"} {
		for _, n := range gdExec(t, d, q).Panel().Notes {
			if strings.Contains(n.Text, "the bound is") {
				t.Errorf("%s: note %q gives a bound the theorem does not promise here", q, n.Text)
			}
		}
	}
	// The default run's numbers, as the prose quotes them.
	if n := gdNote(t, gdExec(t, d, "step=10").Panel(), "rate"); !strings.Contains(n.Text, "6.25/2 = 3.125") {
		t.Errorf("step 10: %q, want (2² + 1.5²)/(2·0.1·10) = 6.25/2 = 3.125", n.Text)
	}
}

// TestGDNewtonStalled: Newton on the logistic loss from the default start
// runs off to b ≈ 1.8·10¹² where its step stops moving; the run ends
// there as stalled at step 9, whose next step would not move (not
// "running" to step 500), with the Hessian's eigenvalues and the
// gradient that is left computed from the state.
func TestGDNewtonStalled(t *testing.T) {
	d := gdDemo(t, GDSpec())
	r := gdExec(t, d, "method=newton&objective=logistic&step=500")
	p := r.Panel()
	if !r.Done || r.Step != 9 || p.Status != algos.Stalled.String() || !p.Bad {
		t.Fatalf("step %d, done %v, status %q: want stalled at step 9", r.Step, r.Done, p.Status)
	}
	run, _ := runGD(context.Background(), nil, r.State, r.Step, false)
	// Independently: with every score huge, ∂f/∂w = (1/n)Σ_{y=−1} xᵢ + λw
	// vanishes at w = 3/(8λ) = 7.5, and ∂f/∂b = 4/8.
	if run.s.X[0] != 7.5 || math.Abs(run.s.GradNorm-0.5) > 1e-12 || run.s.X[1] < 1e12 {
		t.Errorf("stalled at %v with ‖∇f‖ = %v, want w = 7.5, b > 10¹², ‖∇f‖ = ½", run.s.X, run.s.GradNorm)
	}
	n := gdNote(t, p, "newton")
	for _, w := range []string{"stalled", "step 10 would leave x", "stops at step 9", "‖∇f‖ = 0.5", "eigenvalues 0 and 0.05", "singular"} {
		if !strings.Contains(n.Text, w) {
			t.Errorf("Newton note %q lacks %q", n.Text, w)
		}
	}
	if strings.Contains(n.Text, "squares each step") {
		t.Errorf("a stalled run promises quadratic convergence: %q", n.Text)
	}
	if !strings.HasPrefix(r.History.Name, "Newton's method: ") {
		t.Errorf("history named %q", r.History.Name)
	}
	// Newton on the double well is Newton's history too.
	if h := gdExec(t, d, "method=newton&objective=double-well&step=3").History; !strings.HasPrefix(h.Name, "Newton's method: ") || !strings.Contains(h.Desc, "of Newton's method") {
		t.Errorf("double well, Newton: history %q / %q", h.Name, h.Desc)
	}
	if h := gdExec(t, d, "objective=least-squares&batch=2&step=3").History; !strings.HasPrefix(h.Name, "Mini-batch gradient descent: ") {
		t.Errorf("mini-batch: history %q", h.Name)
	}
}

// TestGDWarmupPlateau: the warm-up schedule rises over W steps, holds t
// for H steps, then falls to 0 at T, and a plateau overrunning T is a
// problem named "hold".
func TestGDWarmupPlateau(t *testing.T) {
	d := gdDemo(t, GDSpec())
	r := gdExec(t, d, "schedule=warmup-linear&warmup=4&hold=3&iters=10&t=0.1&step=10")
	st := r.State
	want := []float64{0.025, 0.05, 0.075, 0.1, 0.1, 0.1, 0.1, 0.1 * 2 / 3, 0.1 / 3, 0}
	for k := 1; k <= 10; k++ {
		run, err := runGD(context.Background(), nil, st, k, false)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(run.s.Eta-want[k-1]) > 1e-15 {
			t.Errorf("t_%d = %v, want %v", k, run.s.Eta, want[k-1])
		}
	}
	q, _ := url.ParseQuery("schedule=warmup-linear&warmup=4&hold=7&iters=10")
	s, probs := d.Parse(q)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	_, err := demotest.Execute(d, s)
	var list demo.Problems
	if !errors.As(err, &list) || !strings.Contains(list["hold"], "at most 6") {
		t.Errorf("a plateau past the end: %v", err)
	}
}

// TestLossGalleryPanel: the gallery's panel says what the chart draws,
// computed from the choice, instead of an empty box and "static".
func TestLossGalleryPanel(t *testing.T) {
	d := gdDemo(t, LossGallerySpec())
	for _, tt := range []struct {
		query, drawn, calibrated string
		names                    []string
	}{
		{"", "5", "3", []string{"0-1", "perceptron", "hinge", "logistic", "squared"}},
		{"losses=margin", "3", "1", []string{"0-1, perceptron, hinge"}},
		{"losses=calibrated", "3", "3", []string{"hinge, logistic, squared"}},
	} {
		p := gdExec(t, d, tt.query).Panel()
		if p.Status == "static" || !strings.HasPrefix(p.Status, tt.drawn+" of 5") || !p.Done {
			t.Errorf("%q: status %q", tt.query, p.Status)
		}
		got := map[string]string{}
		for _, c := range p.Counters {
			got[c.TestID] = c.Value
		}
		if got["drawn"] != tt.drawn || got["calibrated"] != tt.calibrated {
			t.Errorf("%q: counters %v, want %s drawn, %s calibrated", tt.query, got, tt.drawn, tt.calibrated)
		}
		for _, n := range tt.names {
			if !strings.Contains(p.Start, n) {
				t.Errorf("%q: start %q does not name %s", tt.query, p.Start, n)
			}
		}
	}
}
