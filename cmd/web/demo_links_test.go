package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/margin-edu/margin/internal/course"
)

// TestDemoLinksCarryAnchor checks that every link and form that leads to
// a state of a demo on a lesson page ends with the demo's anchor, so that
// it lands on the demo without JavaScript, copied or reloaded: a shared
// link to the SGD demo used to open 13,000 px above it. The requests
// htmx makes carry no fragment, and the presenter view needs none.
func TestDemoLinksCarryAnchor(t *testing.T) {
	h := newTestServer(t)
	course, err := course.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{
		"/lessons/soft-margin-svm?demo=svm-sgd&step=3",
		"/lessons/soft-margin-svm?step=2",
		"/lessons/perceptron?step=1",
		"/lessons/kernels?demo=kernel-pegasos&step=5",
		"/lessons/linear-regression?demo=ls-gd&step=2",
	} {
		doc := parse(t, get(t, h, target))
		slug, _, _ := strings.Cut(strings.TrimPrefix(target, "/lessons/"), "?")
		demos := course.LessonDemos(slug)
		if len(demos) == 0 {
			t.Fatalf("%s: no demos", slug)
		}
		for _, d := range demos {
			checkAnchors(t, target, doc.Find("#demo-"+d.ID), "#demo-"+d.ID)
		}
	}
	// The presenter view: the demo is the page, so no fragment.
	doc := parse(t, get(t, h, "/present/svm-sgd?step=3"))
	doc.Find(`a[data-action], [data-action="copy-link"], form[method="get"]`).Each(func(_ int, s *goquery.Selection) {
		for _, attr := range []string{"href", "data-href", "action"} {
			if v, ok := s.Attr(attr); ok && strings.Contains(v, "#") {
				t.Errorf("presenter view: %s=%q has a fragment", attr, v)
			}
		}
	})
	if href, _ := doc.Find(`[data-testid="share"] a[href^="/lessons/"]`).First().Attr("href"); !strings.HasSuffix(href, "#demo-svm-sgd") {
		t.Errorf("presenter view: back to the lesson = %q, want the demo's anchor", href)
	}
}

// checkAnchors checks one demo section's links and forms.
func checkAnchors(t *testing.T, target string, sec *goquery.Selection, anchor string) {
	t.Helper()
	if sec.Length() != 1 {
		t.Errorf("%s: no section %s", target, anchor)
		return
	}
	steps := sec.Find(`a[data-action]`)
	if sec.Find(".stepper").Length() > 0 && steps.Length() < 2 {
		t.Errorf("%s %s: %d step links, want at least 2", target, anchor, steps.Length())
	}
	steps.Each(func(_ int, a *goquery.Selection) {
		href, _ := a.Attr("href")
		get, _ := a.Attr("hx-get")
		if !strings.HasSuffix(href, anchor) || strings.Count(href, "#") != 1 {
			t.Errorf("%s: %s link %q does not end with %s", target, a.AttrOr("data-action", "?"), href, anchor)
		}
		if get+anchor != href {
			t.Errorf("%s: %s link requests %q for %q; want the link without its fragment", target, a.AttrOr("data-action", "?"), get, href)
		}
	})
	copyLink := sec.Find(`[data-action="copy-link"]`).First()
	if v := copyLink.AttrOr("data-href", ""); !strings.HasSuffix(v, anchor) {
		t.Errorf("%s: copy link = %q, want it to end with %s", target, v, anchor)
	}
	forms := sec.Find(`form[method="get"]`)
	if forms.Length() == 0 {
		t.Errorf("%s %s: no forms", target, anchor)
	}
	forms.Each(func(_ int, f *goquery.Selection) {
		action := f.AttrOr("action", "")
		if !strings.HasSuffix(action, anchor) {
			t.Errorf("%s: form action %q does not end with %s", target, action, anchor)
		}
		if g, ok := f.Attr("hx-get"); ok && strings.Contains(g, "#") {
			t.Errorf("%s: form requests %q, with a fragment", target, g)
		}
	})
}

// TestPartialPushesAnchor checks the permalink a step puts in the address
// bar: the state's URL with the demo's anchor on a lesson page, none in
// the presenter view.
func TestPartialPushesAnchor(t *testing.T) {
	h := newTestServer(t)
	hx := map[string]string{"HX-Request": "true"}
	for _, c := range []struct{ target, want string }{
		{"/lessons/soft-margin-svm?demo=svm-sgd&step=3", "/lessons/soft-margin-svm?demo=svm-sgd&step=3#demo-svm-sgd"},
		{"/lessons/perceptron?step=2", "/lessons/perceptron?step=2#demo-perceptron"},
		{"/present/svm-sgd?step=3", "/present/svm-sgd?step=3"},
	} {
		rec := do(t, h, http.MethodGet, c.target, nil, hx)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s = %d", c.target, rec.Code)
		}
		if got := rec.Header().Get("HX-Push-Url"); got != c.want {
			t.Errorf("%s: HX-Push-Url = %q, want %q", c.target, got, c.want)
		}
	}
}

// TestFigureLinkLabels checks that a demo's further figures are linked by
// what they show, not by their internal names ("kkt as SVG").
func TestFigureLinkLabels(t *testing.T) {
	h := newTestServer(t)
	doc := parse(t, get(t, h, "/lessons/soft-margin-svm"))
	for name, want := range map[string]string{"kkt": "KKT violation of each point as SVG", "alpha": "α of each point as SVG"} {
		if got := strings.TrimSpace(doc.Find(`#demo-svm-soft [data-testid="panel-link-` + name + `"]`).Text()); got != want {
			t.Errorf("link to the %s figure reads %q, want %q", name, got, want)
		}
	}
	doc = parse(t, get(t, h, "/lessons/kernels"))
	if got := strings.TrimSpace(doc.Find(`[data-testid="panel-link-gram"]`).Text()); got != "Gram matrix as SVG" {
		t.Errorf("link to the Gram matrix reads %q", got)
	}
}

// TestNoEmptyBoxes renders every demo in its default state and checks
// that no box is drawn empty: the step box of a demo with no step, model
// or start text (the loss gallery showed an empty bordered box), and the
// status of a demo that has none to tell.
func TestNoEmptyBoxes(t *testing.T) {
	h := newTestServer(t)
	course, err := course.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range course.Demos {
		doc := parse(t, get(t, h, d.PresentPath()))
		doc.Find(`[data-testid="update"], [data-testid="status"], .counters dd, .panel-table`).Each(func(_ int, s *goquery.Selection) {
			if strings.TrimSpace(s.Text()) == "" {
				html, _ := goquery.OuterHtml(s)
				t.Errorf("%s: an empty box: %.200s", d.ID, html)
			}
		})
	}
}
