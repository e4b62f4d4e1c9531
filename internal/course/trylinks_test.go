package course

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// stateLinkRe finds the links of a lesson's prose to a demo state on its
// own page: /lessons/<slug>?<state>#demo-<id>.
var stateLinkRe = regexp.MustCompile(`href="/lessons/([a-z0-9-]+)\?[^"#]*#demo-([a-z0-9-]+)"`)

// TestTryLinksBesideTheirDemo: on a lesson page from 1200 px wide, each
// demo is pinned beside the prose that follows it, up to the next demo
// (read and run), and a link to a state of a demo on the same page loads
// it in place. So every such link after a demo must be to that demo: one
// to another demo would load it out of sight, or scroll the reader away
// from the text they are reading. (The kernels lesson had its links to
// all four demos in its last section.)
func TestTryLinksBesideTheirDemo(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, l := range c.Lessons {
		if l.ProseFS == nil || l.Anchor != "" {
			continue
		}
		src, err := demo.Source(l.ProseFS, l.Slug)
		if err != nil {
			t.Fatal(err)
		}
		demos := c.LessonDemos(l.Slug)
		parts := strings.Split(string(src), "<!-- demo -->")
		for i, part := range parts {
			for _, m := range stateLinkRe.FindAllStringSubmatch(part, -1) {
				if m[1] != l.Slug {
					continue // another lesson's page
				}
				checked++
				// Before the first demo nothing is pinned yet: a link
				// there may go on to the first demo, the next thing on
				// the page.
				if want := demos[max(min(i, len(demos))-1, 0)].ID; m[2] != want {
					t.Errorf("%s: %s sits beside the %s demo", l.Slug, html.UnescapeString(m[0]), want)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d links to demo states checked", checked)
	}
}
