package lessons

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// svmHrefFrag matches an in-page link, capturing the id it points to.
var svmHrefFrag = regexp.MustCompile(`href="#([^"]+)"`)

// TestProseSVM holds the two SVM lessons to the same checks as the
// perceptron's prose: one part per demo marker plus one, typeset math, no
// raw dollar signs, unique ids, the sections the course links to, and the
// cross-links between the two lessons.
func TestProseSVM(t *testing.T) {
	tests := []struct {
		slug  string
		parts int // demo markers + 1
		ids   []string
		links []string
	}{
		{
			slug:  "hard-margin-svm",
			parts: 2,
			ids:   []string{"max-margin", "distance", "qp", "dual", "kkt", "smo", "try-it", "worked-example", "not-separable", "check-yourself"},
			links: []string{`href="/lessons/soft-margin-svm"`, `href="/lessons/perceptron"`},
		},
		{
			slug:  "soft-margin-svm",
			parts: 3,
			ids:   []string{"slack", "hinge", "role-of-c", "soft-dual", "three-kinds", "worked-example", "try-soft", "calibration", "sgd", "subgradient", "try-sgd", "check-yourself"},
			links: []string{`href="/lessons/hard-margin-svm"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.slug, func(t *testing.T) {
			parts, err := Prose(tt.slug)
			if err != nil {
				t.Fatalf("Prose(%q) error: %v", tt.slug, err)
			}
			if len(parts) != tt.parts {
				t.Fatalf("Prose(%q) has %d parts, want %d", tt.slug, len(parts), tt.parts)
			}
			all := ""
			for i, p := range parts {
				s := string(p)
				if strings.TrimSpace(s) == "" {
					t.Errorf("part %d is empty", i)
				}
				for _, bad := range []string{demoMarker, headerPrefix} {
					if strings.Contains(s, bad) {
						t.Errorf("part %d contains %q", i, bad)
					}
				}
				all += s
			}
			if !strings.Contains(all, `class="katex"`) {
				t.Error(`prose has no KaTeX output (class="katex")`)
			}
			if !strings.Contains(all, `class="katex-display"`) {
				t.Error(`prose has no display math (class="katex-display")`)
			}
			if i := strings.IndexByte(all, '$'); i >= 0 {
				t.Errorf("prose contains a raw '$' (untypeset TeX?) near %q", excerpt(all, i))
			}
			ids := map[string]int{}
			for _, m := range idAttr.FindAllStringSubmatch(all, -1) {
				ids[m[1]]++
			}
			for id, n := range ids {
				if n > 1 {
					t.Errorf("id %q occurs %d times, want once", id, n)
				}
			}
			for _, id := range tt.ids {
				if ids[id] == 0 {
					t.Errorf("prose has no section id %q", id)
				}
			}
			for _, l := range tt.links {
				if !strings.Contains(all, l) {
					t.Errorf("prose has no link %s", l)
				}
			}
			// Every in-page link must name a section that exists.
			for _, m := range svmHrefFrag.FindAllStringSubmatch(all, -1) {
				if ids[m[1]] == 0 {
					t.Errorf("link to #%s, but the prose has no such id", m[1])
				}
			}
		})
	}
}

// TestContentsSVM checks that the tables of contents of the SVM lessons
// list their sections in page order, each present in the served prose.
func TestContentsSVM(t *testing.T) {
	tests := []struct {
		slug  string
		first Section
		n     int
	}{
		{"hard-margin-svm", Section{"max-margin", "From any separator to the widest one", 0}, 10},
		{"soft-margin-svm", Section{"slack", "Slack variables", 0}, 12},
	}
	for _, tt := range tests {
		t.Run(tt.slug, func(t *testing.T) {
			secs, err := Contents(tt.slug)
			if err != nil {
				t.Fatalf("Contents(%q) error: %v", tt.slug, err)
			}
			if len(secs) != tt.n || secs[0] != tt.first {
				t.Fatalf("Contents(%q) = %v, want %d sections starting with %v", tt.slug, secs, tt.n, tt.first)
			}
			parts, _ := Prose(tt.slug)
			all := strings.Join(toStrings(parts), "")
			last := -1
			for _, s := range secs {
				i := strings.Index(all, `id="`+s.ID+`"`)
				if i < 0 {
					t.Errorf("section %q is not in the served prose", s.ID)
					continue
				}
				if i < last {
					t.Errorf("section %q is out of order", s.ID)
				}
				last = i
				if strings.ContainsAny(s.Title, "$\\") {
					t.Errorf("section %q has TeX in its title %q", s.ID, s.Title)
				}
			}
		})
	}
}

// svmDeepLink matches a link from the prose to a lesson page with a demo
// state: the slug, the raw query (HTML-escaped) and the fragment.
var svmDeepLink = regexp.MustCompile(`href="/lessons/([a-z0-9-]+)\?([^"#]*)(#[^"]*)?"`)

// TestProseSVMDeepLinks checks every link from the SVM lessons to a demo
// state: the query parses, it is the canonical URL of the state it shows
// (so the server answers 200, not a redirect, and the step exists in the
// run), and its fragment, if any, is that demo's anchor on the page.
func TestProseSVMDeepLinks(t *testing.T) {
	course, err := DefaultCourse()
	if err != nil {
		t.Fatal(err)
	}
	for _, slug := range []string{"hard-margin-svm", "soft-margin-svm"} {
		parts, err := Prose(slug)
		if err != nil {
			t.Fatalf("Prose(%q) error: %v", slug, err)
		}
		all := strings.Join(toStrings(parts), "")
		links := svmDeepLink.FindAllStringSubmatch(all, -1)
		if len(links) == 0 {
			t.Errorf("%s: no deep links to demo states", slug)
		}
		for _, m := range links {
			target, raw, frag := m[1], strings.ReplaceAll(m[2], "&amp;", "&"), m[3]
			t.Run(slug+"→"+target+"?"+raw, func(t *testing.T) {
				q, err := url.ParseQuery(raw)
				if err != nil {
					t.Fatalf("query does not parse: %v", err)
				}
				d, err := course.Active(target, q)
				if err != nil {
					t.Fatalf("no demo: %v", err)
				}
				s, probs := d.Parse(q)
				if len(probs) > 0 {
					t.Fatalf("state does not parse: %v", probs)
				}
				run, err := d.Execute(s)
				if err != nil {
					t.Fatalf("run: %v", err)
				}
				if got := run.State.QueryAt(d.LessonPath()); got != raw {
					t.Errorf("not canonical: the page would redirect to ?%s", got)
				}
				if frag != "" && frag != "#demo-"+d.ID {
					t.Errorf("fragment %s, want #demo-%s", frag, d.ID)
				}
			})
		}
	}
}

// TestContentsParts: each section knows which prose part it is in, so the
// table of contents can list each demo where it appears: on the soft
// margin page, the first demo after "three-kinds"/"worked-example" and
// the second after "subgradient".
func TestContentsParts(t *testing.T) {
	secs, err := Contents("soft-margin-svm")
	if err != nil {
		t.Fatal(err)
	}
	part := map[string]int{}
	for _, s := range secs {
		part[s.ID] = s.Part
	}
	if part["slack"] != 0 || part["try-soft"] != 1 || part["subgradient"] != 1 || part["try-sgd"] != 2 {
		t.Errorf("parts %v: want slack in part 0, try-soft and subgradient in 1, try-sgd in 2", part)
	}
}
