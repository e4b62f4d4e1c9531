package course

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// The prose of every lesson of the course, held to what every lesson must
// do, from one loop: a topic's own expectations (its sections, the links
// its authors promise) are in the topic's tests (demotest.CheckLesson).

// proseLessons are the course's lessons that have a page of their own.
func proseLessons(t *testing.T) (*demo.Course, []demo.Lesson) {
	course := demotest.MustCourse(t, Default)
	var ls []demo.Lesson
	for _, l := range course.Lessons {
		if l.Ready && l.Anchor == "" {
			ls = append(ls, l)
		}
	}
	if len(ls) < 8 {
		t.Fatalf("only %d lessons have pages", len(ls))
	}
	return course, ls
}

// TestProseParts: one part per demo of the lesson plus one, none empty,
// no marker or generated header left, typeset math and no raw dollar
// sign, unique ids, every in-page link resolved, and sections with plain
// titles in page order, each in a part that exists.
func TestProseParts(t *testing.T) {
	course, lessons := proseLessons(t)
	for _, l := range lessons {
		t.Run(l.Slug, func(t *testing.T) {
			parts, err := demo.Prose(l.ProseFS, l.Slug)
			if err != nil {
				t.Fatal(err)
			}
			demos := course.LessonDemos(l.Slug)
			if len(parts) != len(demos)+1 {
				t.Fatalf("%d prose parts for %d demos: want one demo marker per demo", len(parts), len(demos))
			}
			all := ""
			for i, p := range parts {
				s := string(p)
				if strings.TrimSpace(s) == "" {
					t.Errorf("part %d is empty", i)
				}
				for _, bad := range []string{demo.DemoMarker, demo.HeaderPrefix} {
					if strings.Contains(s, bad) {
						t.Errorf("part %d contains %q", i, bad)
					}
				}
				all += s
			}
			for _, class := range []string{`class="katex"`, `class="katex-display"`} {
				if !strings.Contains(all, class) {
					t.Errorf("prose has no KaTeX output (%s)", class)
				}
			}
			if i := strings.IndexByte(all, '$'); i >= 0 {
				t.Errorf("prose contains a raw '$' (untypeset TeX?) near %q", demotest.Excerpt(all, i))
			}
			ids := map[string]int{}
			for _, m := range demotest.IDAttr.FindAllStringSubmatch(all, -1) {
				ids[m[1]]++
			}
			for id, n := range ids {
				if n > 1 {
					t.Errorf("id %q occurs %d times, want once", id, n)
				}
			}
			for _, m := range demotest.HrefFrag.FindAllStringSubmatch(all, -1) {
				if ids[m[1]] == 0 {
					t.Errorf("link to #%s, but the prose has no such id", m[1])
				}
			}
			secs, err := demo.Contents(l.ProseFS, l.Slug)
			if err != nil {
				t.Fatal(err)
			}
			last := -1
			for _, s := range secs {
				if strings.ContainsAny(s.Title, "$\\") {
					t.Errorf("section %q has TeX in its title %q", s.ID, s.Title)
				}
				if s.Part < 0 || s.Part > len(demos) {
					t.Errorf("section %q is in part %d of %d", s.ID, s.Part, len(parts))
				}
				i := strings.Index(all, `id="`+s.ID+`"`)
				if i < last {
					t.Errorf("section %q is out of page order", s.ID)
				}
				last = i
			}
		})
	}
}

// lessonAnchor matches a link to a section of another lesson page,
// capturing the slug and the id.
var lessonAnchor = regexp.MustCompile(`href="/lessons/([a-z0-9-]+)#([^"]+)"`)

// TestProseCrossLinks: every link from a lesson to an anchor of a lesson
// page without a query goes to a section id the page's prose has, or, for
// #demo-<id>, to a demo the page shows.
func TestProseCrossLinks(t *testing.T) {
	course, lessons := proseLessons(t)
	for _, l := range lessons {
		for _, m := range lessonAnchor.FindAllStringSubmatch(demotest.Prose(t, l.ProseFS, l.Slug), -1) {
			slug, id := m[1], m[2]
			if want, ok := strings.CutPrefix(id, "demo-"); ok {
				if !slices.ContainsFunc(course.LessonDemos(slug), func(d *demo.Demo) bool { return d.ID == want }) {
					t.Errorf("%s links to /lessons/%s#%s, but that page has no demo %s", l.Slug, slug, id, want)
				}
				continue
			}
			target, err := demo.Prose(course.ProseFS(slug), slug)
			if err != nil {
				t.Errorf("%s links to /lessons/%s#%s: %v", l.Slug, slug, id, err)
				continue
			}
			if !strings.Contains(strings.Join(demotest.Strings(target), ""), ` id="`+id+`"`) {
				t.Errorf("%s links to /lessons/%s#%s, which has no such id", l.Slug, slug, id)
			}
		}
	}
}

// TestProseDeepLinks: every link from a lesson to a demo state parses, is
// the canonical URL of its state (so the server answers 200, not a
// redirect, and the step exists in the run) and ends with that demo's
// anchor; every demo of a lesson has at least one such link in its
// lesson, so the prose walks the reader through each.
func TestProseDeepLinks(t *testing.T) {
	course, lessons := proseLessons(t)
	for _, l := range lessons {
		linked := map[string]bool{}
		for _, m := range demotest.DeepLink.FindAllStringSubmatch(demotest.Prose(t, l.ProseFS, l.Slug), -1) {
			target, raw, frag := m[1], strings.ReplaceAll(m[2], "&amp;", "&"), m[3]
			t.Run(l.Slug+"→"+target+"?"+raw, func(t *testing.T) {
				q, err := url.ParseQuery(raw)
				if err != nil {
					t.Fatalf("query does not parse: %v", err)
				}
				d, err := course.Active(target, q)
				if err != nil {
					t.Fatalf("no demo: %v", err)
				}
				if target == l.Slug {
					linked[d.ID] = true
				}
				s, probs := d.Parse(q)
				if len(probs) > 0 {
					t.Fatalf("state does not parse: %v", probs)
				}
				run, err := demotest.Execute(d, s)
				if err != nil {
					t.Fatalf("run: %v", err)
				}
				if got := run.State.QueryAt(d.LessonPath()); got != raw {
					t.Errorf("not canonical: the page would redirect to ?%s", got)
				}
				if frag != "#demo-"+d.ID {
					t.Errorf("fragment %q, want #demo-%s", frag, d.ID)
				}
			})
		}
		for _, d := range course.LessonDemos(l.Slug) {
			if !linked[d.ID] {
				t.Errorf("%s: no link to a state of its demo %s", l.Slug, d.ID)
			}
		}
	}
}
