package lessons

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// gdKNNLessons are the last two lessons (issue 10): their top-level
// sections in page order, each with the prose part it is in (part k
// follows the k-th demo), the demos in page order, the demos that must
// have a deep link (all but a demo without keys, which has no state to
// link to), and the links to other lessons the prose must carry.
var gdKNNLessons = []struct {
	slug     string
	sections []regSection
	demos    []string
	linked   []string
	links    []string
}{
	{
		slug: "gradient-descent",
		sections: []regSection{
			{"problem", 0}, {"definition", 0}, {"step-size", 0}, {"rate", 0},
			{"schedules", 0}, {"sgd", 0}, {"newton", 0}, {"nonconvex", 0},
			{"losses", 1},
			{"check-yourself", 2},
		},
		demos:  []string{"gd", "loss-gallery"},
		linked: []string{"gd", "loss-gallery"},
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
		demos:  []string{"bayes", "knn", "curse"},
		linked: []string{"bayes", "knn", "curse"},
		links: []string{`href="/lessons/logistic-regression#sigmoid"`, `href="/lessons/gradient-descent#losses"`,
			`href="/lessons/linear-regression#regression-problem"`},
	},
}

// gdKNNProse returns the lesson's typeset prose, joined, after checking
// that it has one part per demo of the course plus one.
func gdKNNProse(t *testing.T, course *Course, slug string, demos []string) string {
	t.Helper()
	parts, err := Prose(slug)
	if err != nil {
		t.Fatalf("Prose(%q) error: %v", slug, err)
	}
	if want := len(demos) + 1; len(parts) != want {
		t.Fatalf("Prose(%q) has %d parts, want %d (one demo marker per demo)", slug, len(parts), want)
	}
	if ds := course.LessonDemos(slug); len(ds) != len(demos) {
		t.Errorf("the course has %d demos on %s, the prose places %d", len(ds), slug, len(demos))
	} else {
		for i, d := range ds {
			if d.ID != demos[i] {
				t.Errorf("demo %d of %s is %s, the prose expects %s there", i, slug, d.ID, demos[i])
			}
		}
	}
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
	}
	return strings.Join(toStrings(parts), "")
}

// TestProseGDKNN holds the two lessons to the checks of the others:
// one part per demo plus one, none empty, typeset math and no raw dollar
// signs, unique ids, every in-page link resolved, and the links to the
// other lessons.
func TestProseGDKNN(t *testing.T) {
	course, err := DefaultCourse()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range gdKNNLessons {
		t.Run(tt.slug, func(t *testing.T) {
			all := gdKNNProse(t, course, tt.slug, tt.demos)
			for _, class := range []string{`class="katex"`, `class="katex-display"`} {
				if !strings.Contains(all, class) {
					t.Errorf("prose has no KaTeX output (%s)", class)
				}
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
			for _, l := range tt.links {
				if !strings.Contains(all, l) {
					t.Errorf("prose has no link %s", l)
				}
			}
			for _, m := range svmHrefFrag.FindAllStringSubmatch(all, -1) {
				if ids[m[1]] == 0 {
					t.Errorf("link to #%s, but the prose has no such id", m[1])
				}
			}
		})
	}
}

// TestProseGDKNNCrossLinks checks every link from the two lessons to an
// anchor of a lesson page without a query: a section id that page's prose
// has, or, for #demo-<id>, a demo that page shows.
func TestProseGDKNNCrossLinks(t *testing.T) {
	course, err := DefaultCourse()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range gdKNNLessons {
		parts, err := Prose(tt.slug)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range lessonAnchor.FindAllStringSubmatch(strings.Join(toStrings(parts), ""), -1) {
			slug, id := m[1], m[2]
			if demo, ok := strings.CutPrefix(id, "demo-"); ok {
				if !slices.ContainsFunc(course.LessonDemos(slug), func(d *Demo) bool { return d.ID == demo }) {
					t.Errorf("%s links to /lessons/%s#%s, but that page has no demo %s", tt.slug, slug, id, demo)
				}
				continue
			}
			target, err := Prose(slug)
			if err != nil {
				t.Errorf("%s links to /lessons/%s#%s: %v", tt.slug, slug, id, err)
				continue
			}
			if !strings.Contains(strings.Join(toStrings(target), ""), ` id="`+id+`"`) {
				t.Errorf("%s links to /lessons/%s#%s, which has no such id", tt.slug, slug, id)
			}
		}
	}
}

// TestContentsGDKNN checks the tables of contents: the sections in page
// order, each in the prose part after the demo it follows, with
// plain-text titles.
func TestContentsGDKNN(t *testing.T) {
	for _, tt := range gdKNNLessons {
		t.Run(tt.slug, func(t *testing.T) {
			secs, err := Contents(tt.slug)
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

// TestProseGDKNNDeepLinks checks every link from the two lessons to a
// demo state, as the other lessons' tests do: the query parses, it is the
// canonical URL of its state (so the server answers 200, not a redirect,
// and the step exists in the run), and its fragment is that demo's
// anchor. Every demo in linked must have at least one such link.
func TestProseGDKNNDeepLinks(t *testing.T) {
	course, err := DefaultCourse()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range gdKNNLessons {
		parts, err := Prose(tt.slug)
		if err != nil {
			t.Fatal(err)
		}
		links := svmDeepLink.FindAllStringSubmatch(strings.Join(toStrings(parts), ""), -1)
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
				run, err := d.Execute(s)
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
		for _, id := range tt.linked {
			if !demos[id] {
				t.Errorf("%s: no deep link to demo %s", tt.slug, id)
			}
		}
	}
}

// TestProseBayesTable checks the prose's table of Bayes errors of two
// equally likely Gaussian clouds against Φ(−Δ/2σ) computed here by gonum:
// each value the table prints must be the closed form rounded to the
// digits shown, so a typo in the hand-copied numbers fails.
func TestProseBayesTable(t *testing.T) {
	parts, err := Prose("knn-bayes")
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(toStrings(parts), "")
	for _, tt := range []struct {
		ratio  float64 // Δ/σ
		format string  // the digits the table shows
	}{
		{0, "%.1f"}, {1, "%.4f"}, {2, "%.4f"}, {3, "%.4f"}, {4, "%.4f"}, {6, "%.5f"},
	} {
		want := fmt.Sprintf(tt.format, distuv.UnitNormal.CDF(-tt.ratio/2))
		// KaTeX keeps the TeX source in an annotation: the cell reads
		// <td>$0.1587$</td> in the source.
		if !strings.Contains(all, `<annotation encoding="application/x-tex">`+want+`</annotation>`) {
			t.Errorf("Δ/σ = %v: the table has no cell %s = Φ(−%v/2)", tt.ratio, want, tt.ratio)
		}
	}
}
