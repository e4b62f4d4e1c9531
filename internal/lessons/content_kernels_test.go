package lessons

import (
	"net/url"
	"strings"
	"testing"
)

// kernelsSections are the kernel lesson's top-level sections, in page
// order, with the prose part each is in: the four demos follow
// "lifting", "mercer", "gamma" and "kernel-sgd".
var kernelsSections = []struct {
	id   string
	part int
}{
	{"beyond-lines", 0}, {"quadratic", 0}, {"lifting", 0},
	{"mercer", 1},
	{"kernel-svms", 2}, {"representer", 2}, {"gamma", 2},
	{"kernel-sgd", 3},
	{"try-kernels", 4}, {"check-yourself", 4},
}

// TestProseKernels holds the kernel lesson to the SVM lessons' checks:
// one part per demo plus one, typeset math, no raw dollar signs, unique
// ids, every in-page link resolved, and the links back to the SVM lessons.
func TestProseKernels(t *testing.T) {
	parts, err := Prose("kernels")
	if err != nil {
		t.Fatalf("Prose(%q) error: %v", "kernels", err)
	}
	if len(parts) != 5 {
		t.Fatalf("Prose(%q) has %d parts, want 5 (four demos)", "kernels", len(parts))
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
	for _, s := range kernelsSections {
		if ids[s.id] == 0 {
			t.Errorf("prose has no section id %q", s.id)
		}
	}
	for _, l := range []string{`href="/lessons/hard-margin-svm"`, `href="/lessons/soft-margin-svm"`} {
		if !strings.Contains(all, l) {
			t.Errorf("prose has no link %s", l)
		}
	}
	for _, m := range svmHrefFrag.FindAllStringSubmatch(all, -1) {
		if ids[m[1]] == 0 {
			t.Errorf("link to #%s, but the prose has no such id", m[1])
		}
	}
}

// TestContentsKernels checks the table of contents: the sections in page
// order, each in the prose part after the demo it follows.
func TestContentsKernels(t *testing.T) {
	secs, err := Contents("kernels")
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) != len(kernelsSections) {
		t.Fatalf("Contents(%q) has %d sections, want %d: %v", "kernels", len(secs), len(kernelsSections), secs)
	}
	for i, want := range kernelsSections {
		if got := secs[i]; got.ID != want.id || got.Part != want.part {
			t.Errorf("section %d = %q in part %d, want %q in part %d", i, got.ID, got.Part, want.id, want.part)
		}
		if strings.ContainsAny(secs[i].Title, "$\\") {
			t.Errorf("section %q has TeX in its title %q", secs[i].ID, secs[i].Title)
		}
	}
}

// TestProseKernelsDeepLinks checks every link from the kernel lesson to a
// demo state, as TestProseSVMDeepLinks does for the SVM lessons: the
// query parses, it is the canonical URL of its state (so the server
// answers 200, not a redirect, and the step exists in the run), and its
// fragment is that demo's anchor.
func TestProseKernelsDeepLinks(t *testing.T) {
	course, err := DefaultCourse()
	if err != nil {
		t.Fatal(err)
	}
	parts, err := Prose("kernels")
	if err != nil {
		t.Fatal(err)
	}
	links := svmDeepLink.FindAllStringSubmatch(strings.Join(toStrings(parts), ""), -1)
	if len(links) == 0 {
		t.Fatal("no deep links to demo states")
	}
	demos := map[string]bool{}
	for _, m := range links {
		target, raw, frag := m[1], strings.ReplaceAll(m[2], "&amp;", "&"), m[3]
		t.Run(target+"?"+raw, func(t *testing.T) {
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
	for _, id := range []string{"kernel-map", "kernel-gram", "kernel-svm", "kernel-pegasos"} {
		if !demos[id] {
			t.Errorf("no deep link to demo %s", id)
		}
	}
}
