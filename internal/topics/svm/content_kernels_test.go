package svm

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
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
	parts, err := demo.Prose(Topic().Prose, "kernels")
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
	for _, m := range demotest.HrefFrag.FindAllStringSubmatch(all, -1) {
		if ids[m[1]] == 0 {
			t.Errorf("link to #%s, but the prose has no such id", m[1])
		}
	}
}

// TestContentsKernels checks the table of contents: the sections in page
// order, each in the prose part after the demo it follows.
func TestContentsKernels(t *testing.T) {
	secs, err := demo.Contents(Topic().Prose, "kernels")
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
	course, err := topicCourse()
	if err != nil {
		t.Fatal(err)
	}
	parts, err := demo.Prose(Topic().Prose, "kernels")
	if err != nil {
		t.Fatal(err)
	}
	links := demotest.DeepLink.FindAllStringSubmatch(strings.Join(demotest.Strings(parts), ""), -1)
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
	for _, id := range []string{"kernel-map", "kernel-gram", "kernel-svm", "kernel-pegasos"} {
		if !demos[id] {
			t.Errorf("no deep link to demo %s", id)
		}
	}
}

// TestKernelsQ3ClassifiesByTheScore checks Check yourself Q3 against 001's
// example: every point the answer scores has the score psiScore gives and
// the sign the answer names, the asymptotes it quotes are the roots of
// t² + 3t + 1, and the angle of the negative wedge is theirs. (The answer
// said only points near the diagonal were positive; (2, 0) and (3, −0.5)
// are positive too.)
func TestKernelsQ3ClassifiesByTheScore(t *testing.T) {
	src, err := demo.Source(Topic().Prose, "kernels")
	if err != nil {
		t.Fatal(err)
	}
	_, q3, ok := strings.Cut(string(src), "<summary>3. With $\\psi")
	if !ok {
		t.Fatal("no Check yourself question 3 on ψ")
	}
	q3, _, _ = strings.Cut(q3, "</details>")
	claims := regexp.MustCompile(`\$\((-?[0-9.]+), (-?[0-9.]+)\)\$ scores \$[^$]*= (-?[0-9.]+)\$, (positive|negative)`).FindAllStringSubmatch(q3, -1)
	scored := map[[2]float64]bool{}
	for _, c := range claims {
		x1, _ := strconv.ParseFloat(c[1], 64)
		x2, _ := strconv.ParseFloat(c[2], 64)
		v, _ := strconv.ParseFloat(c[3], 64)
		scored[[2]float64{x1, x2}] = true
		got := PsiScore(x1, x2)
		if math.Abs(got-v) > 1e-12 || (got > 0) != (c[4] == "positive") {
			t.Errorf("Q3: (%v, %v) scores %v, %s; w·ψ(x) + b = %v", x1, x2, v, c[4], got)
		}
	}
	for _, p := range [][2]float64{{1, 0}, {1, 1}, {1, -1}, {2, 0}, {3, -0.5}} {
		if !scored[p] {
			t.Errorf("Q3 does not score (%v, %v)", p[0], p[1])
		}
	}
	// x₁² + 3x₁x₂ + x₂² = 0 on x₂ = tx₁ with t² + 3t + 1 = 0.
	lo, hi := (-3-math.Sqrt(5))/2, (-3+math.Sqrt(5))/2
	want := fmt.Sprintf(`\approx %.3f$ and $%.3f$`, hi, lo)
	if !strings.Contains(q3, want) {
		t.Errorf("Q3 does not give the asymptotes' slopes as %q", want)
	}
	angle := (math.Atan(-lo) - math.Atan(-hi)) * 180 / math.Pi
	if want := fmt.Sprintf("about $%.0f°$ wide", angle); !strings.Contains(q3, want) {
		t.Errorf("Q3 does not give the negative wedge's angle as %q (%.2f°)", want, angle)
	}
	if strings.Contains(q3, "Only the points near the diagonal") {
		t.Error("Q3 still says only points near the diagonal are positive")
	}
}

// TestProseKernelsHandComputationLive checks the numbers the "hand
// computation, live" item reads off the linked iteration 3 against a
// fresh replay of kernelized SGD: the score and β₁ of the update, the
// weights ᾱ₁, ᾱ₂ of the panel's table, and the score of (0, 1), which the
// prose works out from them.
func TestProseKernelsHandComputationLive(t *testing.T) {
	const slug, query = "kernels", "aseed=24&data=xor&demo=kernel-pegasos&lambda=0.25&step=3"
	replay := ReplayKernelPegasos
	demotest.CheckClaims(t, demotest.MustCourse(t, topicCourse), []demotest.Claim{
		{Slug: slug, Query: query, From: "the panel shows the score", To: ". Its training error",
			Want: func(t *testing.T, r *demo.Run) []float64 {
				_, s := replay(t, r)
				if s.I != 0 || !s.Violated {
					t.Errorf("iteration 3 draws x%d (violated %v), want x1 with an update", s.I+1, s.Violated)
				}
				return []float64{s.Margin, s.Beta[0], s.Avg[0], s.Avg[1]}
			}},
		{Slug: slug, Query: query, From: `\approx`, To: ", is wrong too",
			Want: func(t *testing.T, r *demo.Run) []float64 {
				kp, s := replay(t, r)
				x, _ := demo.Columns(r.Points)
				if x[2][0] != 0 || x[2][1] != 1 {
					t.Fatalf("x3 = %v, want (0, 1)", x[2])
				}
				f := kp.Score(s, x[2])
				if want := -5.0/9*math.Exp(-1) + 2.0/9*math.Exp(-2); math.Abs(f-want) > 1e-9 {
					t.Errorf("f(0, 1) = %g, want −5/9·e⁻¹ + 2/9·e⁻² = %g", f, want)
				}
				return []float64{f}
			}},
	})
}
