package demotest

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// StoppedStep checks that the state q (without step) of d, whose run
// stops by itself at step k, shows k wherever a step number is written
// when a page asks for step k+5: the run's state, its step counter
// (TestID "step"), the history's last iteration, the page's step, its
// links (Prev at k−1, no Next or End), its downloads' names and the
// GIF's last frame, the predict page (no question after the last step,
// its form and links at k) and a comparison of the run with itself (its
// caption's step, both runs' steps, no run held). A topic's own texts
// (the explanation, the plot's title) it leaves to the topic's tests.
func StoppedStep(t *testing.T, d *demo.Demo, q string, k int) {
	t.Helper()
	ask := k + 5
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	v.Del("step")
	s, probs := d.Parse(v)
	if len(probs) > 0 {
		t.Fatalf("Parse(%q): %v", q, probs)
	}
	at := func(what string, got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("%s at step=%d (the run stops at %d): %s is %d", q, ask, k, what, got)
		}
	}
	hasStep := func(what, link string, want int) {
		t.Helper()
		u, err := url.Parse(link)
		if err != nil {
			t.Fatal(err)
		}
		got := u.Query().Get("step")
		if got == "" {
			got = "0"
		}
		if got != strconv.Itoa(want) {
			t.Errorf("%s at step=%d (the run stops at %d): %s %q has step %s, want %d", q, ask, k, what, link, got, want)
		}
	}
	s.Step = ask
	r, err := Execute(d, s)
	if err != nil {
		t.Fatal(err)
	}
	at("the run's step", r.State.Step, k)
	if !r.Done {
		t.Errorf("%s: the run at step %d has not stopped", q, r.State.Step)
	}
	p := r.Panel()
	if c := Counter(p, "step"); c != "" && c != strconv.Itoa(k) {
		t.Errorf("%s at step=%d (the run stops at %d): the step counter says %s", q, ask, k, c)
	}
	if r.History != nil {
		at("the history's last iteration", int(r.History.Now), k)
	}
	view, err := demo.NewView(r, d.LessonPath())
	if err != nil {
		t.Fatal(err)
	}
	at("the page's step", view.Step, k)
	hasStep("Self", view.Links.Self, k)
	hasStep("Lesson", view.Links.Lesson, k)
	hasStep("Present", view.Links.Present, k)
	if k > 0 {
		hasStep("Prev", view.Links.Prev, k-1)
	}
	if view.Links.Next != "" || view.Links.End != "" {
		t.Errorf("%s at step=%d: a stopped run links Next %q, End %q", q, ask, view.Links.Next, view.Links.End)
	}
	for _, f := range []string{view.Links.Files.SVG, view.Links.Files.PNG, view.Links.Files.HistorySVG} {
		if k > 0 && !strings.Contains(f, "-step"+strconv.Itoa(k)+".") {
			t.Errorf("%s at step=%d (the run stops at %d): download %q", q, ask, k, f)
		}
	}
	if view.Links.GIF != "" {
		u, _ := url.Parse(view.Links.GIF)
		from, _ := strconv.Atoi(u.Query().Get(demo.KeyFrom))
		to := min(from+demo.DefaultGIFFrames-1, demo.MaxStep) // the default
		if raw := u.Query().Get(demo.KeyTo); raw != "" {
			to, _ = strconv.Atoi(raw)
		}
		at("the GIF's last frame", to, k)
		if !strings.HasSuffix(view.Links.Files.GIF, "-"+strconv.Itoa(k)+".gif") {
			t.Errorf("%s at step=%d (the run stops at %d): GIF download %q", q, ask, k, view.Links.Files.GIF)
		}
	}
	if d.Predict != nil {
		ps := s
		ps.Predict = demo.Predicting{On: true}
		pr, err := Execute(d, ps)
		if err != nil {
			t.Fatal(err)
		}
		at("the predict page's step", pr.State.Step, k)
		pv, err := demo.NewView(pr, d.LessonPath())
		if err != nil {
			t.Fatal(err)
		}
		at("the predict page's view step", pv.Step, k)
		if pv.Predict == nil || pv.Predict.Ask != nil || pv.Predict.None != "" {
			t.Errorf("%s at step=%d (the run stops at %d): the predict page asks %+v", q, ask, k, pv.Predict)
		} else {
			hasStep("predict toggle", pv.Predict.Toggle, k)
		}
	}
	if d.Static {
		return
	}
	cmp, err := d.ExecuteCompare(context.Background(), demo.Pair{A: s, B: s})
	if err != nil {
		t.Fatal(err)
	}
	cv, err := demo.CompareViewOn(cmp, d.ComparePath())
	if err != nil {
		t.Fatal(err)
	}
	at("the comparison's step", cmp.Step, k)
	at("the comparison's controls' step", cv.Controls.Step, k)
	at("run a's step in the comparison", cv.A.View.Step, k)
	at("run b's step in the comparison", cv.B.View.Step, k)
	hasStep("the comparison's Self", cv.Self, k)
	if cv.A.Held != "" || cv.B.Held != "" || !cmp.Done || cv.Controls.Links.Next != "" {
		t.Errorf("%s at step=%d: a comparison of a run stopped at %d with itself says held %q, %q, done %v, Next %q",
			q, ask, k, cv.A.Held, cv.B.Held, cmp.Done, cv.Controls.Links.Next)
	}
	for _, row := range cv.Table.Rows {
		if row.TestID == "step" && (row.A != strconv.Itoa(k) || row.B != strconv.Itoa(k)) {
			t.Errorf("%s at step=%d: the comparison's step row says %s | %s, want %d", q, ask, row.A, row.B, k)
		}
	}
}
