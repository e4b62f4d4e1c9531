package svm

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// svmStates is a grid of states of the three SVM demos: each data set at
// step 0, 1, 2 and the end, and the states issue 16 found wrong (a run at
// the step limit, XOR's w = 0, C = 0.001 where no multiplier is free).
func svmStates() []struct {
	name string
	spec demo.Spec
	q    string
} {
	type st = struct {
		name string
		spec demo.Spec
		q    string
	}
	var out []st
	for _, data := range []string{"separable", "noisy", "or", "and", "xor"} {
		for _, step := range []string{"0", "1", "2", "end"} {
			q := "data=" + data + "&step=" + step
			out = append(out, st{"svm-hard?" + q, SVMSpec(true), q}, st{"svm-soft?" + q, SVMSpec(false), q},
				st{"svm-sgd?" + q, SGDSpec(), q})
		}
	}
	return append(out,
		st{"svm-soft?C=1000&step=20000", SVMSpec(false), "C=1000&step=20000"},
		st{"svm-soft?C=0.001&step=end", SVMSpec(false), "C=0.001&step=end"},
		st{"svm-sgd?method=subgradient&step=end", SGDSpec(), "method=subgradient&step=end"},
		st{"svm-hard?compare=perceptron&step=end", SVMSpec(true), "compare=perceptron&step=end"},
	)
}

// svmWords is every word a state shows: the panel's status, counters,
// step, model, notes and tables, and the plot's and history's titles and
// descriptions.
func svmWords(t *testing.T, r *demo.Run) string {
	t.Helper()
	p := r.Panel()
	var b strings.Builder
	b.WriteString(p.Status + "\n" + p.Examined + "\n" + strings.Join(p.Lines, "\n"))
	if r.Step == 0 {
		b.WriteString("\n" + p.Start) // shown at step 0 only
	}
	for _, c := range p.Counters {
		b.WriteString("\n" + c.Label + ": " + c.Value)
	}
	for _, m := range p.Model {
		b.WriteString("\n" + m.Prefix + " " + m.Extra)
		for _, f := range m.Facts {
			b.WriteString(" " + f.Sym + " = " + f.Value)
		}
	}
	for _, n := range p.Notes {
		b.WriteString("\n" + n.Text + " " + n.Fine)
	}
	for _, tab := range p.Tables {
		b.WriteString("\n" + tab.Caption + " " + tab.More)
	}
	for _, name := range []string{demo.PlotFigure, "history"} {
		var buf bytes.Buffer
		if ok, err := r.WriteFigure(&buf, name, false); err != nil {
			t.Fatalf("figure %q: %v", name, err)
		} else if ok {
			b.WriteString("\n" + html.UnescapeString(demotest.SVGText(buf.String())))
		}
	}
	return b.String()
}

// TestSVMWordsFitTheState renders the grid of states and checks the
// words against the state: a stopped run never says "yet" or "running",
// a run at the step limit says so, 2/‖w‖ is never called the margin, and
// the training error counts wrong predictions with sgn(0) = −1.
func TestSVMWordsFitTheState(t *testing.T) {
	for _, c := range svmStates() {
		t.Run(c.name, func(t *testing.T) {
			r := demotest.Run(t, c.spec, c.q)
			p := r.Panel()
			words := svmWords(t, r)
			if p.Done && strings.Contains(words, "yet") {
				t.Errorf("a stopped run (%s) says \"yet\":\n%s", p.Status, words)
			}
			if strings.Contains(words, "support vectors yet") || strings.Contains(words, "no classifier yet") {
				t.Errorf("words promise a future state:\n%s", words)
			}
			if p.Status == "running" && (r.Done || r.Step >= demo.MaxStep) {
				t.Errorf("status running at step %d, but the run has stopped", r.Step)
			}
			if r.AtLimit() && (p.Status != "step limit reached" || !p.Done || demotest.Note(p, "not-converged") == nil) {
				t.Errorf("at the step limit: status %q, done %v, not-converged note %v", p.Status, p.Done, demotest.Note(p, "not-converged"))
			}
			if regexp.MustCompile(`margin (2/‖w‖|band)`).MatchString(words) {
				t.Errorf("2/‖w‖ called a margin:\n%s", words)
			}
			// At a solved soft margin every training error is a support
			// vector at the cap: misclassified (yᵢf(xᵢ) < 0), or on H with
			// y = +1, which the kinds note must count, so that "0
			// misclassified" never sits beside a training error unexplained.
			if k := demotest.Note(p, "kinds"); k != nil && p.Status == "converged" {
				m := regexp.MustCompile(`(\d+) misclassified`).FindStringSubmatch(k.Text)
				wrong, _ := strconv.Atoi(m[1])
				if h := regexp.MustCompile(`the (\d+|one) with y = \+1 (are training errors|is a training error)`).FindStringSubmatch(k.Text); h != nil {
					n, err := strconv.Atoi(h[1])
					if err != nil {
						n = 1
					}
					wrong += n
				}
				_, yf := demo.Columns(r.Points)
				if got, want := demotest.Counter(p, "error"), fmt.Sprintf("%.1f %%", 100*float64(wrong)/float64(len(yf))); got != want {
					t.Errorf("training error %s, but the kinds note accounts for %s: %q", got, want, k.Text)
				}
			}
			if demotest.Counter(p, "error") != "" && demotest.Note(p, "prediction-rule") == nil || demotest.Note(p, "prediction-rule") != nil && !strings.Contains(demotest.Note(p, "prediction-rule").Fine, "sgn(0) = −1") {
				t.Errorf("no fine print states the prediction rule beside the training error")
			}
		})
	}
}

// TestSVMErrorAtZero: at w = 0, b = 0 every prediction is sgn(0) = −1, so
// the training error is the share of points labelled +1.
func TestSVMErrorAtZero(t *testing.T) {
	for _, c := range []struct {
		spec demo.Spec
		q    string
	}{{SVMSpec(true), "step=0"}, {SVMSpec(false), "data=noisy&step=0"}, {SVMSpec(false), "data=xor&step=end"}, {SGDSpec(), "step=0"}} {
		r := demotest.Run(t, c.spec, c.q)
		_, yf := demo.Columns(r.Points)
		pos := 0
		for _, y := range yf {
			if y > 0 {
				pos++
			}
		}
		want := fmt.Sprintf("%.1f %%", 100*float64(pos)/float64(len(yf)))
		if got := demotest.Counter(r.Panel(), "error"); got != want {
			t.Errorf("%s %s: training error %q at w = 0, b = 0; want %s, the share of +1 points", c.spec.ID, c.q, got, want)
		}
	}
}

// TestSVMHistoryNames checks the SMO history's words against its panels:
// the middle one is the duality gap, the bottom one the KKT violation
// m − M, and a value a log panel cannot show is said to be off it, never
// printed as if it were on it.
func TestSVMHistoryNames(t *testing.T) {
	for _, c := range []struct {
		hard bool
		q    string
	}{{true, "step=end"}, {true, "data=or&step=2"}, {false, "C=0.001&step=20"}, {false, "data=xor&step=end"}, {false, "step=5"}} {
		r := demotest.Run(t, SVMSpec(c.hard), c.q)
		h := r.History
		if h == nil {
			t.Fatalf("%s: no history", c.q)
		}
		if !strings.HasPrefix(h.Series[1].Label, "duality gap") || h.Series[2].Label != "KKT violation m − M" {
			t.Errorf("%s: panels %q, %q", c.q, h.Series[1].Label, h.Series[2].Label)
		}
		gap := demotest.ParseSig(t, demotest.Counter(r.Panel(), "gap"))
		m := regexp.MustCompile(`m − M = (\S+)( \([^)]*off the log axis\))?`).FindStringSubmatch(h.Title)
		if m == nil {
			t.Fatalf("%s: title %q does not name m − M", c.q, h.Title)
		}
		if demotest.ParseSig(t, m[1]) != gap {
			t.Errorf("%s: title has m − M = %s, the counter %v", c.q, m[1], gap)
		}
		if (gap <= 0) != (m[2] != "") {
			t.Errorf("%s: m − M = %v, title %q: a value ≤ 0 must be said to be off the log axis, and only such", c.q, gap, h.Title)
		}
		if strings.Contains(h.Title, "· gap") {
			t.Errorf("%s: title %q has an unnamed gap", c.q, h.Title)
		}
	}
}

// TestSVMPlurals renders the grid of states and finds no "1 points",
// "1 steps" or the like: a count of one takes the singular (issue 27 §4).
func TestSVMPlurals(t *testing.T) {
	bad := regexp.MustCompile(`(^|[^0-9.,·⁻+−])1 (more )?(points|steps|support vectors|iterations|solves|are|ar|multipliers|violators)\b`)
	for _, c := range svmStates() {
		r := demotest.Run(t, c.spec, c.q)
		if m := bad.FindString(svmWords(t, r)); m != "" {
			t.Errorf("%s: %q", c.name, m)
		}
	}
	if bad.FindString("after 1 steps") == "" || bad.FindString("x 11 points") != "" {
		t.Error("the plural pattern does not tell 1 from 11")
	}
	if got := pointsHave(1) + "; " + pointsHave(3); got != "1 point has; 3 points have" {
		t.Errorf("pointsHave: %q", got)
	}
}
