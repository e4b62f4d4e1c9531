package main

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/margin-edu/margin/internal/demo"
)

// TestPredictAnswer: an answer redirects (303) to the next step with the
// score counted, on each kind of page; bad answers and keys are 400s
// naming the key.
func TestPredictAnswer(t *testing.T) {
	h := newTestServer(t)
	course := testCourse(t)
	d := course.Demo("perceptron")
	s := d.Default().AtStep(2).WithPredicting(demo.Predicting{On: true, Right: 1, Asked: 2})
	q := question(t, d, s)
	wrong := ""
	for _, c := range q.Choices {
		if c.Value != q.Right {
			wrong = c.Value
		}
	}
	for _, tc := range []struct{ target, want string }{
		{s.URL(d.PresentPath()) + "&answer=" + q.Right, "/present/perceptron?last=right&predict=1&score=2-3&step=3"},
		{s.URL(d.PresentPath()) + "&answer=" + wrong, "/present/perceptron?last=wrong&predict=1&score=1-3&step=3"},
		{s.URL(d.EmbedPath()) + "&answer=" + q.Right, d.EmbedPath() + "?last=right&predict=1&score=2-3&step=3"},
		{s.URL(d.LessonPath()) + "&answer=" + q.Right, "/lessons/perceptron?last=right&predict=1&score=2-3&step=3#demo-perceptron"},
	} {
		rec := get(t, h, tc.target)
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != tc.want {
			t.Errorf("GET %s: %d to %q, want 303 to %q", tc.target, rec.Code, rec.Header().Get("Location"), tc.want)
		}
	}
	// A demo after the first on its lesson page keeps demo= and its anchor.
	ls := testCourse(t).Demo("ls-gd")
	ls0 := ls.Default().WithPredicting(demo.Predicting{On: true})
	lq := question(t, ls, ls0)
	want := "/lessons/linear-regression?demo=ls-gd&last=right&predict=1&score=1-1&step=1#demo-ls-gd"
	if rec := get(t, h, ls0.URL(ls.LessonPath())+"&answer="+lq.Right); rec.Header().Get("Location") != want {
		t.Errorf("ls-gd on its lesson page: %d to %q, want %q", rec.Code, rec.Header().Get("Location"), want)
	}
	// htmx follows the redirect with its header and gets the panel of the
	// next step, whose permalink it pushes.
	rec := do(t, h, http.MethodGet, s.URL(d.PresentPath())+"&answer="+q.Right, nil, map[string]string{hxRequest: "true"})
	loc := rec.Header().Get("Location")
	rec = do(t, h, http.MethodGet, loc, nil, map[string]string{hxRequest: "true"})
	if rec.Code != http.StatusOK || rec.Header().Get(hxPushURL) != loc || !strings.Contains(rec.Body.String(), `data-testid="predict-reveal"`) {
		t.Errorf("htmx answer: %d, pushes %q (want %q), reveal shown: %v", rec.Code, rec.Header().Get(hxPushURL), loc,
			strings.Contains(rec.Body.String(), "predict-reveal"))
	}
	for _, tc := range []struct{ target, key, says string }{
		{"/present/perceptron?predict=1&step=2&answer=zz", "answer", "zz"},
		{"/present/perceptron?step=2&answer=yes", "answer", "predict=1"},
		{"/present/perceptron?predict=1&step=end&answer=yes", "answer", "not end"},
		{"/present/perceptron?predict=1&step=200&answer=yes", "answer", "stops"},
		{"/present/loss-gallery?predict=1", "predict", "asks no questions"},
		{"/present/perceptron?predict=1&score=5-4", "score", "R ≤ A"},
		{"/present/perceptron?predict=1&last=right", "last", "step 0"},
	} {
		rec := get(t, h, tc.target)
		body := html.UnescapeString(rec.Body.String())
		if rec.Code != http.StatusBadRequest || !strings.Contains(body, tc.key+":") || !strings.Contains(body, tc.says) {
			t.Errorf("GET %s: %d, want 400 naming %s and saying %q", tc.target, rec.Code, tc.key, tc.says)
		}
	}
	// The predict keys are the page's: a plot drops them, and the page
	// drops score and last when predicting is off.
	for target, want := range map[string]string{
		"/plots/perceptron.svg?predict=1&score=1-2&step=3": "/plots/perceptron.svg?step=3",
		"/present/perceptron?score=1-2&step=3":             "/present/perceptron?step=3",
	} {
		if rec := get(t, h, target); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != want {
			t.Errorf("GET %s: %d to %q, want 301 to %s", target, rec.Code, rec.Header().Get("Location"), want)
		}
	}
}

// question asks d's question at state s.
func question(t *testing.T, d *demo.Demo, s demo.State) *demo.Question {
	t.Helper()
	pts, err := s.Points()
	if err != nil {
		t.Fatal(err)
	}
	q, err := d.Question(context.Background(), s, pts, s.Step)
	if err != nil || q == nil {
		t.Fatalf("%s at step %d: question %v, %v", d.ID, s.Step, q, err)
	}
	return q
}

// predictSteps are the steps the leak test asks at: 0, 1, the middle
// and the end of the first scanned steps, and the first step at which
// each choice value is right.
func predictSteps(t *testing.T, d *demo.Demo) []int {
	t.Helper()
	s := d.Default()
	pts, err := s.Points()
	if err != nil {
		t.Fatal(err)
	}
	const scan = 40
	last, firstRight := 0, map[string]int{}
	for k := 0; k <= scan; k++ {
		q, err := d.Question(context.Background(), s.AtStep(k), pts, k)
		if err != nil {
			t.Fatalf("%s at step %d: %v", d.ID, k, err)
		}
		if q == nil {
			break
		}
		if q.None != "" {
			continue // no question here; checkNoLeak checks such a page at steps 0, 1, middle and end
		}
		last = k
		if _, ok := firstRight[q.Right]; !ok {
			firstRight[q.Right] = k
		}
	}
	steps := []int{0, 1, last / 2, last}
	for _, k := range firstRight {
		steps = append(steps, k)
	}
	return steps
}

// TestPredictPagesDoNotLeak holds every demo that asks questions to the
// no-leak rule: at several steps the question page shows the prompt and
// every choice, in one markup, and holds neither Why, nor what step t+1's
// panel says that step t's does not, nor the right value in any attribute
// the question brought (other than its own choice's value); the history
// is step t's, and no control leads past the question but the reveal.
func TestPredictPagesDoNotLeak(t *testing.T) {
	h := newTestServer(t)
	n := 0
	for _, d := range testCourse(t).Demos {
		if d.Predict == nil {
			continue
		}
		n++
		done := map[int]bool{}
		for _, k := range predictSteps(t, d) {
			if done[k] {
				continue
			}
			done[k] = true
			checkNoLeak(t, h, d, d.Default().AtStep(k))
		}
	}
	if n < 4 {
		t.Errorf("%d demos ask questions; want at least the perceptron, gd, ls-gd and lasso", n)
	}
}

func checkNoLeak(t *testing.T, h http.Handler, d *demo.Demo, s demo.State) {
	t.Helper()
	q := question(t, d, s)
	on := s.WithPredicting(demo.Predicting{On: true})
	page := get(t, h, on.URL(d.PresentPath()))
	plain := get(t, h, s.URL(d.PresentPath())).Body.String()
	nextPanel := runAt(t, d, s.AtStep(s.Step+1)).Panel()
	at := d.ID + " step " + strconv.Itoa(s.Step)
	if page.Code != http.StatusOK {
		t.Fatalf("%s: %d", at, page.Code)
	}
	body := page.Body.String()
	if q.None != "" {
		// No question at this step: the page says so and why, offers no
		// choice, and leaves the stepper to go on.
		if !strings.Contains(body, `data-testid="predict-none"`) || !strings.Contains(body, html.EscapeString(q.None)) {
			t.Errorf("%s: no question (%s), but the page does not say so", at, q.None)
		}
		if strings.Contains(body, `data-testid="predict-choice"`) {
			t.Errorf("%s: no question (%s), yet the page offers choices", at, q.None)
		}
		return
	}
	has := func(text string) bool {
		return text != "" && (strings.Contains(body, html.EscapeString(text)) || strings.Contains(body, text))
	}
	inPlain := func(text string) bool {
		return strings.Contains(plain, html.EscapeString(text)) || strings.Contains(plain, text)
	}
	if !has(q.Prompt) {
		t.Errorf("%s: the page lacks the prompt %q", at, q.Prompt)
	}
	for _, c := range q.Choices {
		if !has(c.Label) {
			t.Errorf("%s: the page lacks choice %q", at, c.Label)
		}
	}
	if has(q.Why) {
		t.Errorf("%s: the question page holds the answer's Why: %q", at, q.Why)
	}
	for _, text := range append([]string{nextPanel.Examined}, nextPanel.Lines...) {
		if has(text) && !inPlain(text) {
			t.Errorf("%s: the question page holds step %d's %q", at, s.Step+1, text)
		}
	}
	doc := parse(t, page)
	checkAttributes(t, at, d, doc, plain, q.Right)
	var shapes []string
	doc.Find(`[data-testid="predict-choice"]`).Each(func(_ int, b *goquery.Selection) {
		v, _ := b.Attr("value")
		out, _ := goquery.OuterHtml(b)
		out = strings.Replace(out, `value="`+html.EscapeString(v)+`"`, `value=""`, 1)
		shapes = append(shapes, strings.Replace(out, ">"+html.EscapeString(b.Text())+"<", "><", 1))
	})
	if len(shapes) != len(q.Choices) {
		t.Errorf("%s: %d choices on the page, %d asked", at, len(shapes), len(q.Choices))
	}
	for _, sh := range shapes[1:] {
		if sh != shapes[0] {
			t.Errorf("%s: choices differ in markup: %s and %s", at, shapes[0], sh)
		}
	}
	panel := doc.Find(`[data-testid="demo-panel"]`)
	if n := panel.Find(`a[data-action="next"], a[data-action="end"], [data-testid="scrub"], [data-action="play"]`).Length(); n > 0 {
		t.Errorf("%s: %d controls lead past the question", at, n)
	}
	if panel.Find(`[data-testid="predict-reveal"]`).Length() > 0 {
		t.Errorf("%s: a question reached without answering shows a reveal", at)
	}
	plainDoc, err := goquery.NewDocumentFromReader(strings.NewReader(plain))
	if err != nil {
		t.Fatal(err)
	}
	hist, _ := doc.Find(`[data-testid="history"]`).Html()
	if want, _ := plainDoc.Find(`[data-testid="history"]`).Html(); hist != want {
		t.Errorf("%s: the history chart differs from step %d's", at, s.Step)
	}
}

var tokenSep = regexp.MustCompile(`[\s&=?#/,;:()]+`)

// checkAttributes fails when an attribute the question page adds to the
// plain page holds right as a token, other than a choice's own value and
// the state the form carries (hidden inputs, and the state keys of a
// link's query: a link may carry nothing else, not even in its fragment).
func checkAttributes(t *testing.T, at string, d *demo.Demo, doc *goquery.Document, plain, right string) {
	t.Helper()
	state := map[string]bool{demo.KeyStep: true, demo.KeyAdd: true, "del": true, demo.KeyDemo: true,
		demo.KeyPredict: true, demo.KeyScore: true, demo.KeyLast: true}
	for _, p := range d.Params() {
		state[p.Key] = true
	}
	leaks := func(el *goquery.Selection, key, val string) {
		for _, tok := range tokenSep.Split(val, -1) {
			if tok == right {
				t.Errorf("%s: attribute %s=%q of <%s> holds the right answer %q", at, key, val, goquery.NodeName(el), right)
			}
		}
	}
	// checkURL holds a link to the demo's pages to the state's keys and
	// the demo's anchor, and any other link's query values (a share link
	// holding a permalink, say) to the same rules.
	var checkURL func(el *goquery.Selection, key, val string)
	checkURL = func(el *goquery.Selection, key, val string) {
		u, err := url.Parse(val)
		if err != nil {
			t.Errorf("%s: %s=%q: %v", at, key, val, err)
			return
		}
		if u.Fragment != "" && u.Fragment != d.SectionID() {
			leaks(el, key+" fragment", u.Fragment)
		}
		ours := u.Path == d.LessonPath() || u.Path == d.PresentPath() || u.Path == d.EmbedPath() ||
			strings.HasPrefix(u.Path, "/plots/") || strings.HasPrefix(u.Path, "/demos/")
		for k, vs := range u.Query() {
			switch {
			case ours && !state[k]:
				t.Errorf("%s: %s=%q carries %s, not a key of the state", at, key, val, k)
			case !ours:
				for _, v := range vs {
					if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "http") {
						checkURL(el, key+" "+k, v)
					} else {
						leaks(el, key+" "+k, v)
					}
				}
			}
		}
	}
	doc.Find("*").Each(func(_ int, el *goquery.Selection) {
		for _, a := range el.Nodes[0].Attr {
			switch {
			case a.Key == "value" && (el.Is(`[data-testid="predict-choice"]`) || el.Is(`input[type="hidden"]`)),
				strings.Contains(plain, a.Key+`="`+html.EscapeString(a.Val)+`"`):
				continue
			case a.Key == "href" || a.Key == "hx-get" || a.Key == "action" || a.Key == "data-self":
				checkURL(el, a.Key, a.Val)
				continue
			}
			leaks(el, a.Key, a.Val)
		}
	})
}

// runAt runs d at s.
func runAt(t *testing.T, d *demo.Demo, s demo.State) *demo.Run {
	t.Helper()
	r, err := d.ExecuteFigure(context.Background(), s, "")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPredictReveal: the step after an answer says whether it was right,
// the right choice and why, the score, and asks the next question.
func TestPredictReveal(t *testing.T) {
	h := newTestServer(t)
	for _, id := range []string{"perceptron", "gd", "ls-gd", "lasso"} {
		d := testCourse(t).Demo(id)
		s := d.Default().AtStep(1).WithPredicting(demo.Predicting{On: true})
		q := question(t, d, s)
		rec := get(t, h, s.URL(d.PresentPath())+"&answer="+url.QueryEscape(q.Right))
		page := get(t, h, rec.Header().Get("Location"))
		doc := parse(t, page)
		right, _ := q.Choice(q.Right)
		for sel, want := range map[string]string{
			`[data-testid="predict-verdict"]`: "Right", `[data-testid="predict-answer"]`: right.Label,
			`[data-testid="predict-why"]`: q.Why, `[data-testid="predict-score"]`: "1 of 1 right",
		} {
			if got := doc.Find(sel).Text(); got != want {
				t.Errorf("%s reveal: %s = %q, want %q", id, sel, got, want)
			}
		}
		next := question(t, d, s.AtStep(2))
		if got := doc.Find(`[data-testid="predict-prompt"]`).Text(); got != next.Prompt {
			t.Errorf("%s reveal: asks %q, want the next question %q", id, got, next.Prompt)
		}
		if strings.Contains(page.Body.String(), html.EscapeString(next.Why)) {
			t.Errorf("%s reveal: holds the next question's Why %q", id, next.Why)
		}
	}
}
