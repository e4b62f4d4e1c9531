package main

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestCompareEveryDemo serves two runs of every stepping demo side by
// side, run b differing from run a in one algorithm parameter, and checks
// through HTTP, at steps 0, 1, 3 and the end:
//   - the page, the presenter view and the embed view answer 200 with no
//     id twice, both runs' panels and plots, and one set of step controls
//     whose links step both runs;
//   - the table's values are each run's own counters (and status) at the
//     step it shows, as the demo alone computes them (demotest.Execute);
//   - a run that ends first holds its last state and says where it
//     stopped;
//   - the canonical URL drops a b.<key> equal to run a's, a b.<key> of a
//     data or view parameter (or an unknown one) is a 400 naming it;
//   - the htmx partial is the panel alone, with its permalink pushed.
func TestCompareEveryDemo(t *testing.T) {
	course := testCourse(t)
	h := NewServer(discardLogger(), course)
	stepping := 0
	for _, d := range course.Demos {
		if d.Static {
			if rec := get(t, h, "/compare/"+d.ID); rec.Code != http.StatusNotFound {
				t.Errorf("GET /compare/%s (a static demo) = %d, want 404", d.ID, rec.Code)
			}
			continue
		}
		stepping++
		t.Run(d.ID, func(t *testing.T) {
			key, value := bVariant(t, d)
			for _, step := range []string{"0", "1", "3", "end"} {
				target := d.ComparePath() + "?b." + key + "=" + url.QueryEscape(value) + "&step=" + step
				rec := get(t, h, target)
				if rec.Code == http.StatusMovedPermanently || rec.Code == http.StatusSeeOther {
					target = rec.Header().Get("Location")
					rec = get(t, h, target)
				}
				if rec.Code != http.StatusOK {
					t.Fatalf("GET %s = %d, want 200: %.300s", target, rec.Code, rec.Body)
				}
				checkComparePage(t, d, target, parse(t, rec))
			}
			checkCompareViews(t, h, d, key, value)
			checkCompareLinks(t, h, d)
			checkCompareCanonical(t, h, d, key)
			checkCompareRefusals(t, h, d)
		})
	}
	if stepping < 10 {
		t.Errorf("%d stepping demos compared, want the course's ten or more", stepping)
	}
}

// bVariant picks an algorithm parameter of d that applies at its default
// and a value for run b that differs from run a's and computes: the next
// option of a choice, a number doubled (or halved, or one more or less).
func bVariant(t *testing.T, d *demo.Demo) (key, value string) {
	t.Helper()
	a := d.Default()
	for _, p := range d.Params() {
		if p.Group != demo.GroupAlgo || p.Hidden || !a.Applies(p.Key) {
			continue
		}
		cur := a.Value(p.Key)
		var tries []string
		switch p.Kind {
		case demo.KindChoice:
			for _, o := range p.Options {
				tries = append(tries, o.Value)
			}
		case demo.KindInt:
			v, _ := strconv.Atoi(cur)
			tries = []string{strconv.Itoa(v + 1), strconv.Itoa(v - 1)}
		case demo.KindFloat:
			v, _ := strconv.ParseFloat(cur, 64)
			tries = []string{demo.FmtNum(2 * v), demo.FmtNum(v / 2), "1"}
		}
		for _, try := range tries {
			pair, probs := d.ParseCompare(url.Values{"b." + p.Key: {try}})
			if len(probs) > 0 || len(pair.Differs()) == 0 {
				continue
			}
			if _, err := d.ExecuteCompare(context.Background(), pair.AtStep(3)); err == nil {
				return p.Key, try
			}
		}
	}
	t.Fatalf("%s: no algorithm parameter to vary", d.ID)
	return "", ""
}

// checkComparePage checks a comparison page against each run computed
// alone, at the step it shows.
func checkComparePage(t *testing.T, d *demo.Demo, target string, doc *goquery.Document) {
	t.Helper()
	noDuplicateIDs(t, doc)
	u, _ := url.Parse(target)
	pair, probs := d.ParseCompare(u.Query())
	if len(probs) > 0 {
		t.Fatalf("%s: %v", target, probs)
	}
	panel := doc.Find(`[data-testid="compare-panel"]`)
	if panel.Length() != 1 {
		t.Fatalf("%s: %d comparison panels, want 1", target, panel.Length())
	}
	if n := panel.Find(".stepper").Length(); n != 1 {
		t.Errorf("%s: %d sets of step controls, want one for both runs", target, n)
	}
	if next, ok := panel.Find(`a[data-action="next"]`).Attr("href"); ok {
		want := pair.AtStep(pair.A.Step + 1).URL(d.ComparePath())
		if next != want {
			t.Errorf("%s: Step leads to %s, want %s", target, next, want)
		}
	}
	shown := pair.A.Step
	for _, run := range []struct {
		name string
		s    demo.State
	}{{"a", pair.A}, {"b", pair.B}} {
		own, err := demotest.Execute(d, run.s)
		if err != nil {
			t.Fatalf("%s: run %s alone: %v", target, run.name, err)
		}
		box := panel.Find(`[data-testid="run-` + run.name + `"]`)
		if box.Length() != 1 || box.Find(`[data-testid="plot-`+run.name+`"] svg`).Length() != 1 {
			t.Fatalf("%s: run %s has no panel with a plot", target, run.name)
		}
		if got := box.AttrOr("data-step", ""); got != strconv.Itoa(own.State.Step) {
			t.Errorf("%s: run %s shows step %s, want %d (its own)", target, run.name, got, own.State.Step)
		}
		held := box.Find(`[data-testid="held-` + run.name + `"]`)
		switch {
		case own.State.Step < shown && !strings.Contains(held.Text(), "stopped at step "+strconv.Itoa(own.State.Step)):
			t.Errorf("%s: run %s ends at %d before step %d, but says %q", target, run.name, own.State.Step, shown, held.Text())
		case own.State.Step >= shown && held.Length() > 0:
			t.Errorf("%s: run %s keeps pace but says %q", target, run.name, held.Text())
		}
		p := own.Panel()
		for _, c := range p.Counters {
			id := c.TestID
			if id == "" {
				id = strings.Join(strings.Fields(c.Label), "-")
			}
			if got := strings.TrimSpace(panel.Find(`[data-testid="` + run.name + "-" + id + `"]`).Text()); got != c.Value {
				t.Errorf("%s: table says run %s's %s is %q, the run alone %q", target, run.name, c.Label, got, c.Value)
			}
		}
		if p.Status != "" {
			if got := strings.TrimSpace(panel.Find(`[data-testid="` + run.name + `-status"]`).Text()); got != p.Status {
				t.Errorf("%s: table says run %s's status is %q, the run alone %q", target, run.name, got, p.Status)
			}
		}
	}
	if head := panel.Find(`[data-testid="head-b"]`).Text(); len(pair.Differs()) > 0 && !strings.Contains(head, " = ") {
		t.Errorf("%s: run b's column head %q does not name what differs", target, head)
	}
}

// checkCompareViews serves the presenter and embed views and the htmx
// partial of a comparison.
func checkCompareViews(t *testing.T, h http.Handler, d *demo.Demo, key, value string) {
	t.Helper()
	pair, _ := d.ParseCompare(url.Values{"b." + key: {value}, "step": {"2"}})
	for _, page := range []string{d.PresentComparePath(), d.EmbedComparePath()} {
		target := pair.URL(page)
		rec := get(t, h, target)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s = %d, want 200", target, rec.Code)
		}
		doc := parse(t, rec)
		noDuplicateIDs(t, doc)
		if n := doc.Find(`[data-testid="run-a"], [data-testid="run-b"]`).Length(); n != 2 {
			t.Errorf("%s: %d runs, want 2", target, n)
		}
		if next := doc.Find(`a[data-action="next"]`).AttrOr("href", page); !strings.HasPrefix(next, page+"?") {
			t.Errorf("%s: Step leads to %s, off the view", target, next)
		}
	}
	target := pair.URL(d.ComparePath())
	rec := do(t, h, http.MethodGet, target, nil, map[string]string{hxRequest: "true"})
	if rec.Code != http.StatusOK || rec.Header().Get(hxPushURL) != target {
		t.Fatalf("htmx GET %s = %d, pushes %q; want 200 pushing itself", target, rec.Code, rec.Header().Get(hxPushURL))
	}
	if body := rec.Body.String(); !strings.HasPrefix(body, `<div id="panel-compare-`+d.ID+`"`) || strings.Contains(body, "<html") {
		t.Errorf("htmx GET %s is not the panel alone: %.120s", target, body)
	}
}

// checkCompareLinks: the demo's own panel links to the comparison of its
// state with itself (run b a copy of run a), in the presenter view to the
// presenter view's, and the link answers 200.
func checkCompareLinks(t *testing.T, h http.Handler, d *demo.Demo) {
	t.Helper()
	s := demotest.MustParse(t, d, "step=2")
	for page, want := range map[string]string{d.LessonPath(): d.ComparePath(), d.PresentPath(): d.PresentComparePath()} {
		target := s.URL(page)
		doc := parse(t, get(t, h, target))
		href := doc.Find("#panel-"+d.ID+` [data-testid="compare-link"]`).AttrOr("href", "")
		if href != want+"?step=2" {
			t.Errorf("%s: compare link %q, want %s?step=2", target, href, want)
			continue
		}
		if rec := get(t, h, href); rec.Code != http.StatusOK {
			t.Errorf("%s: compare link %s = %d", target, href, rec.Code)
		}
	}
}

// checkCompareCanonical: a b.<key> equal to run a's value is dropped (a
// 301 to the URL without it), as are keys out of order.
func checkCompareCanonical(t *testing.T, h http.Handler, d *demo.Demo, key string) {
	t.Helper()
	a := d.Default()
	target := d.ComparePath() + "?b." + key + "=" + url.QueryEscape(a.Value(key)) + "&step=1"
	rec := get(t, h, target)
	if want := d.ComparePath() + "?step=1"; rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != want {
		t.Errorf("GET %s = %d to %q, want 301 to %s", target, rec.Code, rec.Header().Get("Location"), want)
	}
}

// checkCompareRefusals: a b.<key> that is not an algorithm parameter, or
// a bad value, is a 400 naming b.<key>; nothing a URL says is a 500.
func checkCompareRefusals(t *testing.T, h http.Handler, d *demo.Demo) {
	t.Helper()
	var bads []string
	for _, p := range d.Params() {
		if p.Group != demo.GroupAlgo {
			bads = append(bads, "b."+p.Key)
			if len(bads) == 2 {
				break
			}
		}
	}
	bads = append(bads, "b.nosuch", "b.step")
	for _, k := range bads {
		target := d.ComparePath() + "?" + url.QueryEscape(k) + "=1"
		rec := get(t, h, target)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), k+": run b takes only algorithm parameters") {
			t.Errorf("GET %s = %d, want 400 naming %s: %.300s", target, rec.Code, k, rec.Body)
		}
	}
	for _, q := range []string{"b.", "op=add&px=1&py=1&pl=1", "step=99999", "step=-1", "b." + bKey(d) + "=x", "b." + bKey(d) + "=1&b." + bKey(d) + "=2", "%zz"} {
		target := d.ComparePath() + "?" + q
		if rec := get(t, h, target); rec.Code/100 != 4 && rec.Code/100 != 3 {
			t.Errorf("GET %s = %d, want a 4xx (or a redirect)", target, rec.Code)
		}
	}
}

// bKey is d's first algorithm parameter.
func bKey(d *demo.Demo) string {
	for _, p := range d.Params() {
		if p.Group == demo.GroupAlgo {
			return p.Key
		}
	}
	return "none"
}

// TestCompareRunEndsFirst: in the soft-margin SVM, C = 1 stops long
// before C = 10; at run b's end, run a holds its last state and says so,
// and the table shows each run's own numbers.
func TestCompareRunEndsFirst(t *testing.T) {
	course := testCourse(t)
	h := NewServer(discardLogger(), course)
	d := course.Demo("svm-soft")
	rec := get(t, h, "/compare/svm-soft?b.C=10&step=end")
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("step=end = %d, want 303", rec.Code)
	}
	target := rec.Header().Get("Location")
	pair, probs := d.ParseCompare(mustQuery(t, target))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	a, err := demotest.Execute(d, pair.A.AtStep(demo.StepToEnd))
	if err != nil {
		t.Fatal(err)
	}
	if a.State.Step >= pair.A.Step {
		t.Fatalf("run a (C = 1) ends at %d, not before run b's end %d", a.State.Step, pair.A.Step)
	}
	doc := parse(t, get(t, h, target))
	checkComparePage(t, d, target, doc)
	if doc.Find(`[data-testid="held-a"]`).Length() != 1 || doc.Find(`[data-testid="held-b"]`).Length() != 0 {
		t.Errorf("%s: want run a held and run b not", target)
	}
	if doc.Find(`a[data-action="next"]`).Length() != 0 {
		t.Errorf("%s: both runs have stopped, yet Step leads on", target)
	}
	// A step past both ends shows the later end.
	past := get(t, h, "/compare/svm-soft?b.C=10&step=19999")
	if past.Code != http.StatusMovedPermanently || past.Header().Get("Location") != target {
		t.Errorf("a step past both ends = %d to %q, want 301 to %s", past.Code, past.Header().Get("Location"), target)
	}
}

func mustQuery(t *testing.T, target string) url.Values {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query()
}

// TestCompareKit: run b inherits run a's values, several b.<key> apply
// together whatever their order, and the b form carries the run's state.
func TestCompareKit(t *testing.T) {
	d := testCourse(t).Demo("kernel-svm")
	pair, probs := d.ParseCompare(url.Values{"b.gamma": {"2"}, "b.kernel": {"rbf"}, "kernel": {"linear"}, "C": {"3"}})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	if got, want := pair.Query(), "C=3&b.gamma=2&b.kernel=rbf&kernel=linear"; got != want {
		t.Errorf("Query() = %q, want %q", got, want)
	}
	if pair.B.Value("C") != "3" {
		t.Errorf("run b's C = %s, want run a's 3", pair.B.Value("C"))
	}
	cmp, err := d.ExecuteCompare(context.Background(), pair)
	if err != nil {
		t.Fatal(err)
	}
	v, err := demo.CompareViewOn(cmp, d.ComparePath())
	if err != nil {
		t.Fatal(err)
	}
	var b *demo.Form
	for i, f := range v.Controls.Forms {
		if strings.Contains(f.Class, "b-form") {
			b = &v.Controls.Forms[i]
		}
	}
	if b == nil {
		t.Fatal("no run b form")
	}
	keys := map[string]string{}
	for _, c := range b.Controls {
		keys[c.Key] = c.Value
	}
	if keys["b.gamma"] != "2" || keys["b.C"] != "3" || keys["gamma"] != "" {
		t.Errorf("run b's form has %v, want b.gamma=2 and b.C=3 and no run a key", keys)
	}
	if v.Table.HeadA != "a: kernel = linear" {
		t.Errorf("run a's head = %q", v.Table.HeadA)
	}
	_, probs = d.ParseCompare(url.Values{"b.data": {"xor"}})
	if probs["b.data"] == "" {
		t.Errorf("b.data accepted: %v", probs)
	}
}
