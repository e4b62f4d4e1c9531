package main

import (
	"io"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestPresentNav checks the presenter view's links through the course:
// rel="prev" and rel="next" to the neighbouring demos in lesson order,
// none before the first demo or after the last.
func TestPresentNav(t *testing.T) {
	course := testCourse(t)
	h := NewServer(slog.New(slog.NewTextHandler(io.Discard, nil)), course)
	var order []string
	for _, l := range course.Lessons {
		order = append(order, l.Demos...)
	}
	if len(order) < 3 {
		t.Fatalf("the course has %d demos", len(order))
	}
	for i, id := range order {
		doc := parse(t, follow(t, h, "/present/"+id))
		noDuplicateIDs(t, doc)
		prev, hasPrev := doc.Find(`a[rel="prev"][data-nav="prev"]`).Attr("href")
		next, hasNext := doc.Find(`a[rel="next"][data-nav="next"]`).Attr("href")
		if want := i > 0; hasPrev != want || (want && prev != "/present/"+order[i-1]) {
			t.Errorf("%s: rel=prev %q (%v), want the previous demo's presenter view (%v)", id, prev, hasPrev, want)
		}
		if want := i+1 < len(order); hasNext != want || (want && next != "/present/"+order[i+1]) {
			t.Errorf("%s: rel=next %q (%v), want the next demo's presenter view (%v)", id, next, hasNext, want)
		}
		if doc.Find(`dialog#keys-help kbd`).Length() < 15 {
			t.Errorf("%s: the keys' help dialog lists %d keys", id, doc.Find(`dialog#keys-help kbd`).Length())
		}
	}
}

// TestScrubberForm submits the timeline's form as a browser without
// JavaScript does: its fields, the slider at step 5. The state it lands on
// is the one shown with the step changed.
func TestScrubberForm(t *testing.T) {
	h := NewServer(slog.New(slog.NewTextHandler(io.Discard, nil)), testCourse(t))
	for _, page := range []string{"/present/svm-soft?C=10&step=2", "/lessons/soft-margin-svm?C=10&step=2"} {
		doc := parse(t, follow(t, h, page))
		form := doc.Find(`#panel-svm-soft form[data-role="scrubber"]`)
		if form.Length() != 1 {
			t.Fatalf("%s: %d scrubber forms", page, form.Length())
		}
		action, _ := form.Attr("action")
		if m, _ := form.Attr("method"); m != "get" {
			t.Errorf("%s: the scrubber's form method is %q", page, m)
		}
		q := url.Values{}
		form.Find("input[name]").Each(func(_ int, s *goquery.Selection) {
			name, _ := s.Attr("name")
			v, _ := s.Attr("value")
			if name == "step" {
				if typ, _ := s.Attr("type"); typ != "range" || v != "2" {
					t.Errorf("%s: the step input is %s at %q, want a range at 2", page, typ, v)
				}
				v = "5"
			}
			q.Set(name, v)
		})
		path, _, _ := strings.Cut(action, "#")
		rec := follow(t, h, path+"?"+q.Encode())
		if rec.Code != 200 {
			t.Fatalf("%s: submitting the scrubber: %d", page, rec.Code)
		}
		got := parse(t, rec)
		if self, _ := got.Find("#panel-svm-soft").Attr("data-self"); !strings.Contains(self, "C=10&step=5") {
			t.Errorf("%s: the scrubber at 5 lands on %q, want C=10 at step 5", page, self)
		}
	}
}
