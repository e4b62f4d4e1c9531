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

// regSection is a top-level section of a lesson and the prose part it
// is in.
type regSection struct {
	id   string
	part int
}

// courseLessons are the lessons of issues 9 and 10: their top-level
// sections in page order, each with the prose part it is in (part k
// follows the k-th demo), the demos in page order (each must have a deep
// link), and the links to other lessons the prose must carry.
var courseLessons = []struct {
	slug     string
	sections []regSection
	demos    []string
	links    []string
}{
	{
		slug: "linear-regression",
		sections: []regSection{
			{"regression-problem", 0},
			{"least-squares", 1}, {"instability", 1}, {"ridge", 1},
			{"losses", 2},
			{"gradient-descent", 3},
			{"mle", 4}, {"bias-variance", 4},
			{"lasso", 5},
			{"check-yourself", 6},
		},
		demos: []string{"interpolation", "ridge", "reg-losses", "ls-gd", "bias-variance", "lasso"},
		links: []string{`href="/lessons/gradient-descent"`, `href="/lessons/logistic-regression"`},
	},
	{
		slug: "logistic-regression",
		sections: []regSection{
			{"confidence", 0}, {"sigmoid", 0}, {"mle", 0}, {"labels", 0}, {"fitting", 0}, {"separable", 0},
			{"softmax", 1},
			{"check-yourself", 2},
		},
		demos: []string{"logistic", "softmax"},
		links: []string{`href="/lessons/linear-regression#mle"`, `href="/lessons/perceptron#multiclass"`},
	},
	{
		slug: "gradient-descent",
		sections: []regSection{
			{"problem", 0}, {"definition", 0}, {"step-size", 0}, {"rate", 0},
			{"schedules", 0}, {"sgd", 0}, {"newton", 0}, {"nonconvex", 0},
			{"losses", 1},
			{"check-yourself", 2},
		},
		demos: []string{"gd", "loss-gallery"},
		links: []string{`href="/lessons/logistic-regression"`, `href="/lessons/knn-bayes"`,
			`href="/lessons/soft-margin-svm#sgd"`, `href="/lessons/linear-regression#gradient-descent"`},
	},
	{
		slug: "knn-bayes",
		sections: []regSection{
			{"risk", 0}, {"bayes", 0},
			{"knn", 1},
			{"curse", 2},
			{"check-yourself", 3},
		},
		demos: []string{"bayes", "knn", "curse"},
		links: []string{`href="/lessons/logistic-regression#sigmoid"`, `href="/lessons/gradient-descent#losses"`,
			`href="/lessons/linear-regression#regression-problem"`},
	},
}

// TestProseRegression holds the regression lessons to the checks of the
// other lessons: one part per demo of the course plus one, none empty,
// typeset math and no raw dollar signs, unique ids, every in-page link
// resolved, and the links to the other lessons.
func TestProseRegression(t *testing.T) {
	course, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range courseLessons {
		t.Run(tt.slug, func(t *testing.T) {
			parts, err := demo.Prose(tt.slug)
			if err != nil {
				t.Fatalf("Prose(%q) error: %v", tt.slug, err)
			}
			if want := len(tt.demos) + 1; len(parts) != want {
				t.Fatalf("Prose(%q) has %d parts, want %d (one demo marker per demo)", tt.slug, len(parts), want)
			}
			if ds := course.LessonDemos(tt.slug); len(ds) != len(tt.demos) {
				t.Errorf("the course has %d demos on %s, the prose places %d", len(ds), tt.slug, len(tt.demos))
			} else {
				for i, d := range ds {
					if d.ID != tt.demos[i] {
						t.Errorf("demo %d of %s is %s, the prose expects %s there", i, tt.slug, d.ID, tt.demos[i])
					}
				}
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
			for _, l := range tt.links {
				if !strings.Contains(all, l) {
					t.Errorf("prose has no link %s", l)
				}
			}
			for _, m := range demotest.HrefFrag.FindAllStringSubmatch(all, -1) {
				if ids[m[1]] == 0 {
					t.Errorf("link to #%s, but the prose has no such id", m[1])
				}
			}
		})
	}
}

// lessonAnchor matches a link to a section of another lesson page,
// capturing the slug and the id.
var lessonAnchor = regexp.MustCompile(`href="/lessons/([a-z0-9-]+)#([^"]+)"`)

// TestProseRegressionCrossLinks checks every link from the regression
// lessons to an anchor of a lesson page without a query: a section id the
// page's prose has, or, for #demo-<id>, a demo the page shows (a link to a
// demo's default state, which TestProseRegressionDeepLinks cannot see).
func TestProseRegressionCrossLinks(t *testing.T) {
	course, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range courseLessons {
		parts, err := demo.Prose(tt.slug)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range lessonAnchor.FindAllStringSubmatch(strings.Join(demotest.Strings(parts), ""), -1) {
			slug, id := m[1], m[2]
			if id0, ok := strings.CutPrefix(id, "demo-"); ok {
				if !slices.ContainsFunc(course.LessonDemos(slug), func(d *demo.Demo) bool { return d.ID == id0 }) {
					t.Errorf("%s links to /lessons/%s#%s, but that page has no demo %s", tt.slug, slug, id, id0)
				}
				continue
			}
			target, err := demo.Prose(slug)
			if err != nil {
				t.Errorf("%s links to /lessons/%s#%s: %v", tt.slug, slug, id, err)
				continue
			}
			if !strings.Contains(strings.Join(demotest.Strings(target), ""), ` id="`+id+`"`) {
				t.Errorf("%s links to /lessons/%s#%s, which has no such id", tt.slug, slug, id)
			}
		}
	}
}

// TestContentsRegression checks the tables of contents: the sections in
// page order, each in the prose part after the demo it follows, with
// plain-text titles.
func TestContentsRegression(t *testing.T) {
	for _, tt := range courseLessons {
		t.Run(tt.slug, func(t *testing.T) {
			secs, err := demo.Contents(tt.slug)
			if err != nil {
				t.Fatal(err)
			}
			if len(secs) != len(tt.sections) {
				t.Fatalf("Contents(%q) has %d sections, want %d: %v", tt.slug, len(secs), len(tt.sections), secs)
			}
			for i, want := range tt.sections {
				if got := secs[i]; got.ID != want.id || got.Part != want.part {
					t.Errorf("section %d = %q in part %d, want %q in part %d", i, got.ID, got.Part, want.id, want.part)
				}
				if strings.ContainsAny(secs[i].Title, "$\\") {
					t.Errorf("section %q has TeX in its title %q", secs[i].ID, secs[i].Title)
				}
			}
		})
	}
}

// TestProseRegressionDeepLinks checks every link from the regression
// lessons to a demo state, as the SVM and kernel lessons' tests do: the
// query parses, it is the canonical URL of its state (so the server
// answers 200, not a redirect, and the step exists in the run), and its
// fragment is that demo's anchor. Every demo of the two lessons must have
// at least one such link.
func TestProseRegressionDeepLinks(t *testing.T) {
	course, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range courseLessons {
		parts, err := demo.Prose(tt.slug)
		if err != nil {
			t.Fatal(err)
		}
		links := demotest.DeepLink.FindAllStringSubmatch(strings.Join(demotest.Strings(parts), ""), -1)
		demos := map[string]bool{}
		for _, m := range links {
			target, raw, frag := m[1], strings.ReplaceAll(m[2], "&amp;", "&"), m[3]
			t.Run(tt.slug+"→"+target+"?"+raw, func(t *testing.T) {
				q, err := url.ParseQuery(raw)
				if err != nil {
					t.Fatalf("query does not parse: %v", err)
				}
				d, err := course.Active(target, q)
				if err != nil {
					t.Fatalf("no demo: %v", err)
				}
				demos[d.ID] = true
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
		for _, id := range tt.demos {
			if !demos[id] {
				t.Errorf("%s: no deep link to demo %s", tt.slug, id)
			}
		}
	}
}
