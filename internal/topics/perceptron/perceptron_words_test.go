package perceptron

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

var svgTexts = regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)

// perceptronGrid is the states whose words TestPanelBySecondRoute checks:
// every data set (the three-class one of issue 27 too), each variant and
// order, and runs that stop each way (converged on OR, a cycle on XOR and
// on three classes, the epoch limit with epochs=4 and stop=epochs).
func perceptronGrid() []string {
	var out []string
	for _, data := range []string{"", "data=and", "data=xor", "data=separable", "data=noisy", "data=blobs", "data=blobs&multi=ovo",
		"add=0,0,1~1,1,1~1,0,0~0,1,2&data=custom"} {
		for _, v := range []string{"", "variant=averaged", "variant=margin", "variant=margin&gamma=0.5&eta=0.5",
			"variant=averaged&stop=epochs&epochs=3", "epochs=4"} {
			for _, o := range []string{"", "order=random"} {
				q := strings.Trim(strings.Join([]string{data, v, o}, "&"), "&")
				out = append(out, strings.ReplaceAll(q, "&&", "&"))
			}
		}
	}
	return out
}

// TestPanelBySecondRoute recomputes, with refRun, every number and
// classifying word the panel and the plot's title quote, at step 0, 1,
// the middle and the end of each run of perceptronGrid: the counters
// (updates, mistakes proper, the training errors of w and of w̄), the
// status, the words of the step (mistake, margin violation, no update),
// the model, the cycle's finding and whether it repeats for ever, and the
// bound note's count.
func TestPanelBySecondRoute(t *testing.T) {
	statuses := map[string]bool{}
	words := map[string]bool{}
	for _, base := range perceptronGrid() {
		end := demotest.Run(t, PerceptronSpec(), base+"&step=end")
		last := end.State.Step
		ref := newRef(end.Points, perceptronParams(end.State))
		states := ref.states(last)
		if len(states) != last+1 {
			t.Errorf("%s: the demo ends at step %d, the reference at %d", base, last, len(states)-1)
			continue
		}
		for _, k := range []int{0, 1, last / 2, last} {
			q := fmt.Sprintf("%s&step=%d", base, k)
			r := demotest.Run(t, PerceptronSpec(), q)
			checkPanel(t, q, ref, states[k], r, words)
			statuses[states[k].status] = true
		}
	}
	for _, want := range []string{"running", "converged", "cycle detected", "iteration limit"} {
		if !statuses[want] {
			t.Errorf("no state of the grid is %q: %v", want, statuses)
		}
	}
	for _, want := range []string{"a mistake", "a margin violation", "no update"} {
		if !words[want] {
			t.Errorf("no step of the grid is %q: %v", want, words)
		}
	}
}

func checkPanel(t *testing.T, q string, ref *refRun, s refState, r *demo.Run, words map[string]bool) {
	t.Helper()
	p := r.Panel()
	n := len(ref.x)
	counter := func(id, label, want string) {
		t.Helper()
		for _, c := range p.Counters {
			if c.TestID == id {
				if c.Label != label || c.Value != want {
					t.Errorf("%s: counter %s = %q %q, want %q %q", q, id, c.Label, c.Value, label, want)
				}
				return
			}
		}
		t.Errorf("%s: no counter %s, want %q %q", q, id, label, want)
	}
	counter("step", "iteration t", fmt.Sprint(s.t))
	counter("epoch", "epoch", fmt.Sprint(max(1, (s.t+n-1)/n)))
	onlyMistakes := ref.binary() && ref.p.Margin == 0
	if onlyMistakes {
		counter("mistakes", "mistakes", fmt.Sprint(s.updates))
	} else {
		counter("updates", "updates", fmt.Sprint(s.updates))
	}
	if ref.p.Margin > 0 {
		counter("mistakes", "mistakes", fmt.Sprint(s.mistakesProper))
	}
	if got := demotest.Counter(p, "updates"); onlyMistakes && got != "" {
		t.Errorf("%s: an updates counter %q beside mistakes, where every update is one", q, got)
	}
	cur, avg := "w, b", "w̄, b̄"
	if !ref.binary() {
		cur, avg = "the current classifiers", "the averaged classifiers"
	}
	counter("error", "training error of "+cur, textfmt.Pct(s.trainingErr, 1))
	if ref.p.Average {
		counter("error-averaged", "training error of "+avg, textfmt.Pct(s.trainingErrAvg, 1))
	} else if got := demotest.Counter(p, "error-averaged"); got != "" {
		t.Errorf("%s: an averaged error %q without averaging", q, got)
	}
	status := s.status
	if status == "running" && s.t == demo.MaxStep {
		status = "step limit reached" // the kit's, where it stops stepping
	}
	if p.Status != status {
		t.Errorf("%s: status %q, want %q", q, p.Status, status)
	}
	// The model.
	for k := range ref.tasks {
		if got, want := p.Model[k].Facts[0].Value+" "+p.Model[k].Facts[1].Value, textfmt.Vec(s.w[k])+" "+textfmt.Num(s.b[k]); got != want {
			t.Errorf("%s: task %d model %s, want %s", q, k, got, want)
		}
	}
	// The step's words, one line per task that saw the point (two more
	// for the update).
	if s.i >= 0 {
		lines, changed := p.Lines, false
		for k := range ref.tasks {
			if !s.seen[k] {
				continue
			}
			if len(lines) == 0 {
				t.Fatalf("%s: no line for task %d", q, k)
			}
			line := lines[0]
			word := "no update"
			switch {
			case s.updated[k] && s.score[k] <= 0:
				word = "a mistake"
			case s.updated[k]:
				word = "a margin violation"
			}
			words[word] = true
			for _, w := range []string{"a mistake", "a margin violation", "no update"} {
				if strings.Contains(line, w) != (w == word) {
					t.Errorf("%s: task %d line %q, want it to say %q and no other verdict", q, k, line, word)
				}
			}
			if !strings.Contains(line, " = "+textfmt.Num(s.score[k])+" ") {
				t.Errorf("%s: task %d line %q, want the score %s", q, k, line, textfmt.Num(s.score[k]))
			}
			lines = lines[1:]
			if s.updated[k] {
				lines, changed = lines[2:], true
			}
		}
		if len(lines) != 0 || p.Changed != changed {
			t.Errorf("%s: lines left %q, changed %v, want none and %v", q, lines, p.Changed, changed)
		}
	}
	// The notes.
	cycle := demotest.Note(p, "cycle")
	if (cycle != nil) != (s.status == "cycle detected") {
		t.Errorf("%s: cycle note %v with status %q", q, cycle, s.status)
	}
	if cycle != nil {
		var names []string
		for k, tk := range ref.tasks {
			if s.cycleTasks[k] {
				name := fmt.Sprintf("class %d vs %d", tk.Pos, tk.Neg)
				if tk.Rest {
					name = fmt.Sprintf("class %d vs rest", tk.Pos)
				}
				names = append(names, name)
			}
		}
		finding := "no line separates these points"
		if !ref.binary() {
			finding = strings.Join(names, " and ") + map[bool]string{true: " is", false: " are"}[len(names) == 1] + " not linearly separable"
		}
		want := []string{fmt.Sprintf("after epoch %d ", s.epoch), fmt.Sprintf("at the start of epoch %d,", s.cycleFrom+1), finding}
		for _, w := range want {
			if !strings.Contains(cycle.Text, w) {
				t.Errorf("%s: cycle note %q, want %q in it", q, cycle.Text, w)
			}
		}
		if forever := strings.Contains(cycle.Text, "repeat forever"); forever != (ref.p.Order == 0) {
			t.Errorf("%s: cycle note %q says it repeats forever: %v, in order %v", q, cycle.Text, forever, ref.p.Order)
		}
	}
	if b := demotest.Note(p, "bound"); b != nil && strings.Contains(b.Text, "so far") && !strings.HasSuffix(b.Text, fmt.Sprintf("so far %d.", s.updates)) {
		t.Errorf("%s: bound note %q, want so far %d", q, b.Text, s.updates)
	}
	// The plot's heading, its first <text> lines.
	var svg bytes.Buffer
	if _, err := r.WriteFigure(&svg, demo.PlotFigure, false); err != nil {
		t.Fatalf("%s: plot: %v", q, err)
	}
	var texts []string
	for _, m := range svgTexts.FindAllStringSubmatch(svg.String(), -1) {
		texts = append(texts, html.UnescapeString(m[1]))
	}
	heading := strings.Join(texts, "\n")
	word := "updates"
	if onlyMistakes {
		word = "mistakes"
	}
	if want := fmt.Sprintf("step %d", s.t); !strings.Contains(heading, want) {
		t.Errorf("%s: plot heading %q, want %q", q, heading, want)
	}
	if want := fmt.Sprintf(" · epoch %d · %s", max(1, (s.t+n-1)/n), textfmt.Plural(s.updates, word)); !strings.Contains(heading, want) {
		t.Errorf("%s: plot heading %q, want %q", q, heading, want)
	}
	// The history's title names the error it charts, w̄'s when averaged.
	errName, errVal := "training error", s.trainingErr
	if ref.p.Average {
		errName, errVal = "training error of w̄, b̄", s.trainingErrAvg
		if !ref.binary() {
			errName = "training error of the averaged classifiers"
		}
	}
	if title, _ := demotest.FigureText(t, r, demo.HistoryFigure); !strings.Contains(title, fmt.Sprintf("after step %d: %s · %s %.1f %%",
		s.t, textfmt.Plural(s.updates, word), errName, 100*errVal)) {
		t.Errorf("%s: history title %q, want step %d, %s, %s %.1f %%", q, title, s.t, textfmt.Plural(s.updates, word), errName, 100*errVal)
	}
}

// TestOneIsSingular: a count of one takes the singular in every text a
// state shows (issue 27 §4: "1 points", "after 1 steps"): one point, one
// step, one mistake, one update, one epoch.
func TestOneIsSingular(t *testing.T) {
	for _, q := range []string{"step=1", "add=0,0,1&data=custom&step=1", "add=1,1,1&data=custom&variant=margin&step=1",
		"add=0,0,1&data=custom&step=end", "variant=margin&step=1", "data=blobs&step=1", "variant=averaged&step=1"} {
		r := demotest.Run(t, PerceptronSpec(), q)
		for _, s := range demotest.StateWords(t, r) {
			if m := demotest.OnePlural.FindString(s); m != "" {
				t.Errorf("%s: %q says %q", q, s, m)
			}
		}
	}
}

// TestModelBoxWords: the model box calls an update at a score in (0, γ]
// a margin violation, as the lesson does, and only a score ≤ 0 a mistake.
func TestModelBoxWords(t *testing.T) {
	for _, tt := range []struct{ q, want, not string }{
		{"", "on a mistake, yᵢ(⟨w, xᵢ⟩ + b) ≤ 0,", "margin violation"},
		{"variant=margin&gamma=0.5", "on a mistake, yᵢ(⟨w, xᵢ⟩ + b) ≤ 0, or a margin violation, 0 < yᵢ(⟨w, xᵢ⟩ + b) ≤ γ = 0.5,", "on a mistake, yᵢ(⟨w, xᵢ⟩ + b) ≤ γ"},
	} {
		r := demotest.Run(t, PerceptronSpec(), tt.q)
		box := PerceptronSpec().Conventions.Procedure(r.State)
		if !strings.Contains(box, tt.want) || strings.Contains(box, tt.not) {
			t.Errorf("%q: box %q, want %q and not %q", tt.q, box, tt.want, tt.not)
		}
	}
}

// TestProseAveragedCounters: the lesson's step 13 of the averaged run on
// OR, where the prose quotes both training errors, shows them so.
func TestProseAveragedCounters(t *testing.T) {
	src, err := prose.ReadFile("prose/perceptron.src.html")
	if err != nil {
		t.Fatal(err)
	}
	p := demotest.Run(t, PerceptronSpec(), "step=13&variant=averaged").Panel()
	avg, cur := demotest.Counter(p, "error-averaged"), demotest.Counter(p, "error")
	want := fmt.Sprintf("the training error of $\\bar{\\mathbf{w}}, \\bar{b}$ reads %s, that of $\\mathbf{w}, b$ %s.", avg, cur)
	if !strings.Contains(string(src), want) || avg != "0.0 %" {
		t.Errorf("step 13 averaged: w̄ errs %s, w %s; the prose lacks %q", avg, cur, want)
	}
}
