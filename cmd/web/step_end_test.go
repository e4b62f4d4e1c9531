package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/course"
	"github.com/margin-edu/margin/internal/demo"
)

// TestStepEndEveryDemo runs every stepping demo of the course to its end
// the way the "Run to end" button does, with htmx (HX-Request: the
// panel, in place) and without (a 303 to the step the run stopped at), on
// its lesson page and in the presenter view, for every built-in data set
// and every value of each of its choices. With htmx the perceptron once
// answered 500: the run to the end replayed a different problem than the
// panel drew.
func TestStepEndEveryDemo(t *testing.T) {
	course, err := course.Default()
	if err != nil {
		t.Fatal(err)
	}
	h := NewServer(discardLogger(), course)
	for _, d := range course.Demos {
		if d.Static {
			continue
		}
		for _, q := range stepEndQueries(d) {
			page := d.LessonPath()
			if l, _ := course.Find(d.Lesson); l.Demos[0] != d.ID {
				q.Set("demo", d.ID)
			}
			q.Set("step", "end")
			for _, base := range []string{page, d.PresentPath()} {
				qq := url.Values{}
				for k, v := range q {
					if k != "demo" || base == page {
						qq[k] = v
					}
				}
				target := base + "?" + qq.Encode()
				rec := do(t, h, http.MethodGet, target, nil, map[string]string{"HX-Request": "true"})
				if rec.Code != http.StatusOK {
					t.Errorf("htmx GET %s = %d: %.200s", target, rec.Code, rec.Body)
					continue
				}
				if !strings.HasPrefix(strings.TrimSpace(rec.Body.String()), `<div id="panel-`+d.ID+`"`) {
					t.Errorf("htmx GET %s: no panel: %.80s", target, rec.Body)
				}
				pushed := rec.Header().Get("HX-Push-Url")
				if strings.Contains(pushed, "step=end") || !strings.HasPrefix(pushed, base) {
					t.Errorf("htmx GET %s pushes %q, want the step the run stopped at", target, pushed)
				}
				rec = get(t, h, target)
				if rec.Code != http.StatusSeeOther {
					t.Errorf("GET %s = %d, want 303", target, rec.Code)
					continue
				}
				// A lesson page pushes the demo's #anchor; a redirect leaves
				// it to the browser, which keeps the request's fragment.
				loc := rec.Header().Get("Location")
				if base == page && !strings.HasSuffix(pushed, "#demo-"+d.ID) {
					t.Errorf("htmx GET %s pushes %q, without the demo's anchor", target, pushed)
				}
				if pushed, _, _ = strings.Cut(pushed, "#"); loc != pushed {
					t.Errorf("GET %s redirects to %q, htmx pushes %q", target, loc, pushed)
				}
				if rec = get(t, h, loc); rec.Code != http.StatusOK || parse(t, rec).Find("#panel-"+d.ID).Length() != 1 {
					t.Errorf("GET %s = %d, or no panel", loc, rec.Code)
				}
			}
		}
	}
}

// stepEndQueries returns the queries the test runs a demo's end at: each
// built-in data set, and each value of each other choice on the default
// set.
func stepEndQueries(d *demo.Demo) []url.Values {
	var qs []url.Values
	for _, p := range d.Params() {
		if p.Kind != demo.KindChoice || p.PageOnly || p.Hidden {
			continue
		}
		for _, o := range p.Options {
			if o.Value == demo.Custom || o.Value == p.Default {
				continue
			}
			qs = append(qs, url.Values{p.Key: {o.Value}})
		}
	}
	return append(qs, url.Values{})
}
