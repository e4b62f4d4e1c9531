package regression

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// TestLSGDDemo: gradient descent reaches the normal equation's answer
// with a safe step, and a step above 2/L stops as diverged with finite
// numbers on screen.
func TestLSGDDemo(t *testing.T) {
	r := demotest.Run(t, LSGDSpec(), "step=end")
	p := r.Panel()
	if !r.Done || demotest.ParseSig(t, demotest.Counter(p, "distance")) > 1e-6 {
		t.Errorf("η = 0.25 to the end: done %v, ‖θ − θ*‖ = %s", r.Done, demotest.Counter(p, "distance"))
	}
	L := demotest.ParseSig(t, demotest.Counter(p, "L"))
	r = demotest.Run(t, LSGDSpec(), "eta="+textfmt.Sig(2.2/L)+"&step=end")
	p = r.Panel()
	if p.Status != "diverged" || demotest.Note(p, "diverged") == nil || strings.Contains(demotest.Counter(p, "objective"), "NaN") {
		t.Errorf("η = 2.2/L: status %q, objective %s", p.Status, demotest.Counter(p, "objective"))
	}
	var b bytes.Buffer
	if _, err := r.Plot(&b, false, r.PlotOptions()); err != nil || bytes.Contains(b.Bytes(), []byte("NaN")) {
		t.Errorf("diverged plot: %v", err)
	}
	h := demotest.Run(t, LSGDSpec(), "step=50").History
	if h == nil || len(h.Series) != 2 || h.Series[0].Y[len(h.Series[0].Y)-1] >= h.Series[0].Y[0] {
		t.Errorf("history after 50 steps: %+v", h)
	}
}

// etaVs2L reads "η = a is above|below 2/L = b" from a note.
var etaVs2L = regexp.MustCompile(`η = (\S+) is (above|below) 2/L = ([^\s:,]+)`)

// TestLSGDNotesAgreeWithTheirNumbers: whatever η, the note's "above" or
// "below" holds between the numbers it prints (η = 1 against 2/L =
// 0.99999985 used to read "1 is above 1"), and so do the counters; the
// printed L is the Hessian's largest eigenvalue computed apart.
func TestLSGDNotesAgreeWithTheirNumbers(t *testing.T) {
	for _, q := range []string{"step=50", "eta=0.999&step=50", "eta=1&step=50", "eta=1.0000001&step=3", "eta=1.05&step=50",
		"eta=1.05&step=end", "eta=2.2&step=end", "eta=0.5&lambda=0.1&step=3", "eta=1&lambda=0.5&step=3"} {
		r := demotest.Run(t, LSGDSpec(), q)
		p := r.Panel()
		var text string
		for _, n := range p.Notes {
			text += n.Text
		}
		m := etaVs2L.FindStringSubmatch(text)
		if m == nil {
			t.Errorf("%s: no comparison of η with 2/L in %q", q, text)
			continue
		}
		eta, twoL := demotest.ParseSig(t, m[1]), demotest.ParseSig(t, m[3])
		if (m[2] == "above") != (eta > twoL) || eta == twoL {
			t.Errorf("%s: the note says η = %s is %s 2/L = %s", q, m[1], m[2], m[3])
		}
		if c := demotest.ParseSig(t, demotest.Counter(p, "two-over-L")); (c < eta) != (m[2] == "above") || m[3] != demotest.Counter(p, "two-over-L") {
			t.Errorf("%s: counter 2/L = %s, note 2/L = %s, η = %s", q, demotest.Counter(p, "two-over-L"), m[3], m[1])
		}
		// L from the Hessian (2/n)Σ(xᵢ, 1)ᵀ(xᵢ, 1) + 2λ·diag(1, 0), by its
		// closed-form largest eigenvalue.
		_, xs, _ := graphXY(r.Points)
		var a, b, c float64
		for _, x := range xs {
			a, b, c = a+x*x, b+x, c+1
		}
		n, lambda := float64(len(xs)), lsgdLambda.Get(r.State)
		a, b, c = 2*a/n+2*lambda, 2*b/n, 2*c/n
		L := (a+c)/2 + math.Sqrt((a-c)*(a-c)/4+b*b)
		if got := demotest.ParseSig(t, demotest.Counter(p, "L")); math.Abs(got-L) > 1e-3*L {
			t.Errorf("%s: L printed %v, the 2×2 Hessian's largest eigenvalue is %v", q, got, L)
		}
		if strings.Contains(q, "eta=1&step=50") {
			if L <= 2 || demotest.Counter(p, "L") == "2" {
				t.Errorf("η = 1: L = %v printed %q; it is a little above 2, and must print so", L, demotest.Counter(p, "L"))
			}
		}
	}
}

// TestLSGDStopsAtTheCap: a diverging run is stopped by the cap on J, and
// the note says so with the cap and the numbers, not that the floats
// overflowed; huge weights print in significant figures.
func TestLSGDStopsAtTheCap(t *testing.T) {
	r := demotest.Run(t, LSGDSpec(), "eta=1.05&step=end")
	p := r.Panel()
	n := demotest.Note(p, "diverged")
	if n == nil || p.Status != "diverged" {
		t.Fatalf("η = 1.05 to the end: status %q, notes %v", p.Status, p.Notes)
	}
	if strings.Contains(n.Text, "float can hold") || !strings.Contains(n.Text, "cap of 10¹⁰⁰") ||
		!strings.Contains(n.Text, "stopped at iteration "+demotest.Counter(p, "step")) || !strings.Contains(n.Text, "J = "+demotest.Counter(p, "objective")) {
		t.Errorf("diverged note: %q", n.Text)
	}
	if j := demotest.ParseSig(t, demotest.Counter(p, "objective")); j > 1e100 || j < 1e98 {
		t.Errorf("stopped at J = %v; want just under the cap 10¹⁰⁰", j)
	}
	for _, f := range p.Model[0].Facts {
		if len([]rune(f.Value)) > 12 {
			t.Errorf("%s = %s: a huge weight should print in significant figures", f.Sym, f.Value)
		}
		demotest.ParseSig(t, f.Value)
	}
	var b bytes.Buffer
	if _, err := r.Plot(&b, false, r.PlotOptions()); err != nil || !bytes.Contains(b.Bytes(), []byte("cap of 10¹⁰⁰")) {
		t.Errorf("diverged plot says nothing of the cap: %v", err)
	}
}

// TestLSGDExactlyTwoOverL: a step of exactly 2/L is neither above nor
// below it, and the note says the run bounces for ever.
func TestLSGDExactlyTwoOverL(t *testing.T) {
	d := mustDemo(t, LSGDSpec())
	r := demotest.Run(t, LSGDSpec(), "")
	_, xs, ys := graphXY(r.Points)
	g, _, err := linreg.NewGD(linreg.PolyRows(xs, 1), ys, 0, 0.25, true)
	if err != nil {
		t.Fatal(err)
	}
	eta := strconv.FormatFloat(2/g.L(), 'g', -1, 64)
	s := demotest.MustParse(t, d, "eta="+eta).AtStep(20)
	if lsgdEta.Get(s) != 2/g.L() {
		t.Skipf("η = %s does not parse back to 2/L exactly", eta)
	}
	run, err := demotest.Execute(d, s)
	if err != nil {
		t.Fatal(err)
	}
	p := run.Panel()
	if n := demotest.Note(p, "edge"); n == nil || !strings.Contains(n.Text, "exactly 2/L") || demotest.Note(p, "rate") != nil || demotest.Note(p, "too-large") != nil {
		t.Errorf("η = 2/L: notes %v", p.Notes)
	}
}

// TestLSGDStoppedRunOneStep: a run the cap stops has one step number
// everywhere (issue 27 §3, §4): the page at its last iterate, the page a
// step past it and the page at the end are the same state, done, with
// the counter, the note and the kit's step agreeing; the question before
// it says the cap stops the run (the next iterate is finite, so not that
// it leaves float64), and no question is asked about a step the run does
// not take.
func TestLSGDStoppedRunOneStep(t *testing.T) {
	for _, eta := range []string{"1.05", "1.2", "2.2"} {
		end := demotest.Run(t, LSGDSpec(), "eta="+eta+"&step=end")
		last := end.State.Step
		_, xs, ys := graphXY(end.Points)
		g, s, err := linreg.NewGD(linreg.PolyRows(xs, 1), ys, 0, lsgdEta.Get(end.State), true)
		if err != nil {
			t.Fatal(err)
		}
		// The stopping rule by a second route: step until the next
		// iterate's J passes the cap, counted here.
		k := 0
		for ; ; k++ {
			next := g.Step(s)
			if next.Status == algos.Diverged {
				if next.T != k || !(next.Refused > g.Limit()) || s.Objective > g.Limit() {
					t.Fatalf("η = %s: refused at T = %d (k = %d), J = %v against the cap %v", eta, next.T, k, next.Refused, g.Limit())
				}
				break
			}
			s = next
		}
		if last != k {
			t.Errorf("η = %s: the run ends at step %d; the cap refuses iteration %d", eta, last, k+1)
		}
		for _, q := range []string{"step=" + strconv.Itoa(k), "step=" + strconv.Itoa(k+1), "step=end"} {
			r := demotest.Run(t, LSGDSpec(), "eta="+eta+"&"+q)
			p := r.Panel()
			n := demotest.Note(p, "diverged")
			if !r.Done || r.State.Step != k || demotest.Counter(p, "step") != strconv.Itoa(k) || n == nil ||
				!strings.Contains(n.Text, "stopped at iteration "+strconv.Itoa(k)+",") || !strings.Contains(n.Text, "iteration "+strconv.Itoa(k+1)+" would have J = "+textfmt.Sig(g.Step(s).Refused)) {
				t.Errorf("η = %s, %s: step %d, done %v, counter %s, note %v; want the run stopped at %d", eta, q, r.State.Step, r.Done, demotest.Counter(p, "step"), n, k)
			}
		}
		if a := demotest.AskAt(t, LSGDSpec(), "eta="+eta, k); a.Q != nil {
			t.Errorf("η = %s: a question at step %d, where the run has stopped: %+v", eta, k, a.Q)
		}
		a := demotest.AskAt(t, LSGDSpec(), "eta="+eta, k-1)
		if a.Q == nil || a.Q.None != "" {
			t.Fatalf("η = %s: no question at step %d", eta, k-1)
		}
		if strings.Contains(a.Q.Why, "float64") || !strings.Contains(a.Q.Why, "cap of "+power(g.Limit())) ||
			!strings.Contains(a.Q.Why, "stopped at iteration "+strconv.Itoa(k)) {
			t.Errorf("η = %s: the reveal of step %d: %q", eta, k, a.Q.Why)
		}
	}
}

// TestLSGDStopRuleStated: the model box states the cap the code applies,
// max(10¹⁰⁰, 10¹⁰·J(0, 0)) with its value, and a diverging run stops
// where that value says: its last J is under it, the refused one above.
// At η = 1.05 J first passes 10¹⁰·J(0, 0) at iteration 129, yet the run
// goes on to 1222 (issue 27 §3).
func TestLSGDStopRuleStated(t *testing.T) {
	d := mustDemo(t, LSGDSpec())
	for _, q := range []string{"eta=1.05", "eta=2.2&data=cubic", "eta=1.5&data=sine&n=60"} {
		r := demotest.Run(t, LSGDSpec(), q+"&step=end")
		var stop string
		for _, l := range d.ConventionLines(r.State, len(r.Points)) {
			if l.TestID == "conv-stop" {
				stop = l.Text
			}
		}
		_, _, ys := graphXY(r.Points)
		var j0 float64 // J(0, 0) = mean y², by a second route
		for _, y := range ys {
			j0 += y * y / float64(len(ys))
		}
		limit := math.Max(1e100, 1e10*j0)
		if !strings.Contains(stop, "max(10¹⁰⁰, 10¹⁰·J(0, 0)) = "+power(limit)+", with J(0, 0) = "+textfmt.Sig(j0)) {
			t.Errorf("%s: the stop rule %q does not state the cap %v", q, stop, limit)
		}
		p := r.Panel()
		if j := demotest.ParseSig(t, demotest.Counter(p, "objective")); p.Status != "diverged" || j > limit || j < limit/1e3 {
			t.Errorf("%s: stopped %q at J = %v; the cap is %v", q, p.Status, j, limit)
		}
	}
}
