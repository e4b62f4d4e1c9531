package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestExplainAndModelBoxes: on every demo's presenter view the step's
// explanation has words and links to a section that exists on its lesson
// page, and the model box states what the demo minimises (or computes),
// folded there; on the lesson page the link stays on the page and the box
// is open.
func TestExplainAndModelBoxes(t *testing.T) {
	c := testCourse(t)
	h := newTestServer(t)
	lessons := map[string]map[string]bool{} // slug → ids on its page
	for _, d := range c.Demos {
		t.Run(d.ID, func(t *testing.T) {
			rec := follow(t, h, d.PresentPath())
			if rec.Code != http.StatusOK {
				t.Fatalf("GET %s = %d", d.PresentPath(), rec.Code)
			}
			doc := parse(t, rec)
			if text := strings.TrimSpace(doc.Find(`[data-testid="explain"] [data-testid="update"]`).Text()); text == "" {
				t.Error("the explain box has no text")
			}
			href, _ := doc.Find(`[data-testid="explain-link"]`).Attr("href")
			slug, id, ok := strings.Cut(strings.TrimPrefix(href, "/lessons/"), "#")
			if !ok || slug != d.Lesson {
				t.Fatalf("explain link %q, want /lessons/%s#<section>", href, d.Lesson)
			}
			if lessons[slug] == nil {
				ids := map[string]bool{}
				lp := parse(t, follow(t, h, "/lessons/"+slug))
				lp.Find("[id]").Each(func(_ int, s *goquery.Selection) { v, _ := s.Attr("id"); ids[v] = true })
				lessons[slug] = ids
			}
			if !lessons[slug][id] {
				t.Errorf("explain link %q: the lesson page has no element with id %q", href, id)
			}
			box := doc.Find(`details[data-testid="conventions"]`)
			if strings.TrimSpace(box.Find(`[data-testid="conv-loss"]`).Text()) == "" {
				t.Error("the model box states nothing minimised or computed")
			}
			if _, open := box.Attr("open"); open {
				t.Error("the model box is open in the presenter view, where it would take the plot's room")
			}
			lp := parse(t, follow(t, h, d.Default().URL(d.LessonPath())))
			sec := lp.Find("#" + d.SectionID())
			if got, _ := sec.Find(`[data-testid="explain-link"]`).Attr("href"); got != "#"+id {
				t.Errorf("on the lesson page the explain link is %q, want #%s", got, id)
			}
			if _, open := sec.Find(`details[data-testid="conventions"]`).Attr("open"); !open {
				t.Error("the model box is folded on the lesson page")
			}
		})
	}
}
