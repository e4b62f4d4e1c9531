package main

import (
	"net/http"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/margin-edu/margin/web/static"
)

// TestLessonStretches: every lesson page is a run of stretches
// (issue 20 §5), one per demo in the course's order, the first holding the
// title and the table of contents; read in order, the page is still the
// prose with each demo after its part (what a phone and a reader without
// CSS get), and it loads readrun.js. The presenter and embed views have
// no stretches.
func TestLessonStretches(t *testing.T) {
	h := newTestServer(t)
	for _, l := range testCourse(t).Lessons {
		if len(l.Demos) == 0 {
			continue
		}
		path := "/lessons/" + l.Slug
		rec := get(t, h, path)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s = %d", path, rec.Code)
		}
		doc := parse(t, rec)
		runs := doc.Find(`article.lesson > [data-testid="readrun"]`)
		if runs.Length() != len(l.Demos) {
			t.Fatalf("%s: %d stretches, want one for each of its %d demos", path, runs.Length(), len(l.Demos))
		}
		runs.Each(func(i int, s *goquery.Selection) {
			demos := s.ChildrenFiltered("section.demo")
			if id, _ := demos.Attr("id"); demos.Length() != 1 || id != "demo-"+l.Demos[i] {
				t.Errorf("%s: stretch %d holds %d demos (%q), want demo-%s alone", path, i, demos.Length(), id, l.Demos[i])
			}
			if s.ChildrenFiltered(".prose").Length() == 0 {
				t.Errorf("%s: stretch %d has no prose beside its demo", path, i)
			}
			if head := s.Find(`h1, [data-testid="toc"]`).Length(); (i == 0) != (head == 2) {
				t.Errorf("%s: stretch %d holds %d of the title and contents, want both in the first stretch only", path, i, head)
			}
		})
		// In the page's order: prose, demo, prose, …, demo, prose.
		var order []string
		doc.Find(`article.lesson .prose, article.lesson section.demo`).Each(func(_ int, s *goquery.Selection) {
			order = append(order, goquery.NodeName(s))
		})
		want := []string{"div"}
		for range l.Demos {
			want = append(want, "section", "div")
		}
		if len(order) != len(want) {
			t.Errorf("%s: prose and demos in the order %v, want %v", path, order, want)
		} else {
			for i := range order {
				if order[i] != want[i] {
					t.Errorf("%s: prose and demos in the order %v, want %v", path, order, want)
					break
				}
			}
		}
		if doc.Find(`script[src="`+static.URL("readrun.js")+`"]`).Length() != 1 {
			t.Errorf("%s does not load readrun.js", path)
		}
	}
	for _, path := range []string{"/present/perceptron", "/embed/perceptron"} {
		rec := follow(t, h, path)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s = %d", path, rec.Code)
		}
		if n := parse(t, rec).Find(`[data-testid="readrun"]`).Length(); n != 0 {
			t.Errorf("%s has %d read-and-run stretches, want none: it shows the demo alone", path, n)
		}
	}
}
