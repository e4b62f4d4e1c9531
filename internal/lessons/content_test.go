package lessons

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"html/template"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos/perceptron"
)

var idAttr = regexp.MustCompile(`\sid="([^"]*)"`)

func TestProsePerceptron(t *testing.T) {
	parts, err := Prose("perceptron")
	if err != nil {
		t.Fatalf("Prose(%q) error: %v", "perceptron", err)
	}
	if len(parts) < 2 {
		t.Fatalf("Prose(%q) has %d parts, want at least 2 (text, demo, text)", "perceptron", len(parts))
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
	for _, id := range []string{"datasets", "perceptron-algorithm", "worked-example", "convergence", "not-separable", "multiclass"} {
		if ids[id] == 0 {
			t.Errorf("prose has no section id %q", id)
		}
	}
}

// TestCatalogAnchors checks that every catalogue entry that points into a
// lesson page names a section that the page's prose has.
func TestCatalogAnchors(t *testing.T) {
	for _, l := range NewCatalog().Lessons {
		page, frag, ok := strings.Cut(l.Anchor, "#")
		if !ok {
			continue
		}
		slug := strings.TrimPrefix(page, "/lessons/")
		parts, err := Prose(slug)
		if err != nil {
			t.Errorf("lesson %q: anchor %q: Prose(%q) error: %v", l.Slug, l.Anchor, slug, err)
			continue
		}
		if !strings.Contains(strings.Join(toStrings(parts), ""), ` id="`+frag+`"`) {
			t.Errorf("lesson %q: anchor %q: no id %q in the prose of %q", l.Slug, l.Anchor, frag, slug)
		}
	}
}

func TestProseRejects(t *testing.T) {
	tests := []struct{ name, slug string }{
		{"empty", ""},
		{"unknown", "no-such-lesson"},
		{"source file", "perceptron.src"},
		{"path", "../content/perceptron"},
		{"slash", "content/perceptron"},
		{"backslash", `content\perceptron`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, err := Prose(tt.slug)
			if !errors.Is(err, ErrNoProse) {
				t.Errorf("Prose(%q) = %d parts, %v; want error %v", tt.slug, len(parts), err, ErrNoProse)
			}
		})
	}
}

// TestGeneratedUpToDate checks, without node, that every source has a
// generated file rendered from its current bytes (the renderer records the
// source's SHA-256 in its header) and that no generated file lacks a source.
// On failure: npm ci && node tools/katex/render.mjs.
func TestGeneratedUpToDate(t *testing.T) {
	names, err := fs.Glob(content, contentDir+"/*"+genSuffix)
	if err != nil {
		t.Fatal(err)
	}
	srcs := 0
	for _, name := range names {
		if strings.HasSuffix(name, srcSuffix) {
			continue
		}
		if _, err := fs.Stat(content, strings.TrimSuffix(name, genSuffix)+srcSuffix); err != nil {
			t.Errorf("%s has no source %s", name, path.Base(strings.TrimSuffix(name, genSuffix)+srcSuffix))
		}
	}
	for _, name := range names {
		if !strings.HasSuffix(name, srcSuffix) {
			continue
		}
		srcs++
		src, err := fs.ReadFile(content, name)
		if err != nil {
			t.Fatal(err)
		}
		gen := strings.TrimSuffix(name, srcSuffix) + genSuffix
		b, err := fs.ReadFile(content, gen)
		if err != nil {
			t.Errorf("%s: no generated %s; run node tools/katex/render.mjs", name, path.Base(gen))
			continue
		}
		header, _, _ := strings.Cut(string(b), "\n")
		sum := sha256.Sum256(src)
		want := "from " + path.Base(name) + " sha256:" + hex.EncodeToString(sum[:]) + ";"
		if !strings.HasPrefix(header, headerPrefix) || !strings.Contains(header, want) {
			t.Errorf("%s is stale or hand-edited: header %q does not contain %q; run node tools/katex/render.mjs", gen, header, want)
		}
	}
	if srcs == 0 {
		t.Error("no lesson sources embedded")
	}
}

// TestSourceMarkup holds the lesson sources to the house rules: HTML
// fragments with no document tags, scripts or inline styles, and classes
// only from the small set the stylesheet knows.
func TestSourceMarkup(t *testing.T) {
	allowed := map[string]bool{"lesson-table": true, "algorithm": true, "theorem": true, "proof": true, "note": true}
	classAttr := regexp.MustCompile(`\sclass="([^"]*)"`)
	names, err := fs.Glob(content, contentDir+"/*"+srcSuffix)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		b, err := fs.ReadFile(content, name)
		if err != nil {
			t.Fatal(err)
		}
		src := strings.ToLower(string(b))
		for _, bad := range []string{"<html", "<head", "<body", "<script", "<style", " style=", "<h1"} {
			if strings.Contains(src, bad) {
				t.Errorf("%s contains %q", name, bad)
			}
		}
		for _, m := range classAttr.FindAllStringSubmatch(string(b), -1) {
			for _, c := range strings.Fields(m[1]) {
				if !allowed[c] {
					t.Errorf("%s uses class %q; allowed: lesson-table, algorithm, theorem, proof, note", name, c)
				}
			}
		}
	}
}

func toStrings(parts []template.HTML) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = string(p)
	}
	return out
}

func excerpt(s string, i int) string {
	lo, hi := max(0, i-40), min(len(s), i+40)
	return s[lo:hi]
}

func TestContents(t *testing.T) {
	secs, err := Contents("perceptron")
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) < 8 || secs[0] != (Section{"datasets", "Datasets and labels", 0}) {
		t.Errorf("Contents(perceptron) = %v", secs)
	}
	parts, _ := Prose("perceptron")
	var all string
	for _, p := range parts {
		all += string(p)
	}
	for _, s := range secs {
		if !strings.Contains(all, `id="`+s.ID+`"`) {
			t.Errorf("section %q is not in the served prose", s.ID)
		}
	}
	if _, err := Contents("perceptron.src"); err == nil {
		t.Error("Contents accepted a file name")
	}
}

// proseClaim is a run of numbers the prose quotes from a demo state it
// links to: in the source, in the paragraph or list item of the link
// whose query is Query, the text from From to To holds them, in order, each rounded from what Want
// computes from the linked state.
type proseClaim struct {
	Slug, Query, From, To string
	Want                  func(t *testing.T, r *Run) []float64
}

// texNumber matches a number in TeX source: 33\,566.5, -0.166,
// 4.9 \cdot 10^{-11}; texSkip the exponents and indices that are not
// quoted numbers (C^2, \gamma^2, x_1).
var texNumber = regexp.MustCompile(`\\cdot\s*10\^\{(-?\d+)\}|[\^_](?:\{[^}]*\}|\d)|(-?\d+(?:\\,\d{3})*(?:\.\d+)?)`)

// quotedNumbers returns the numbers of TeX source s, each with the
// rounding its digits imply (half a unit in its last place).
func quotedNumbers(t *testing.T, s string) (vals, tols []float64) {
	t.Helper()
	for _, m := range texNumber.FindAllStringSubmatch(s, -1) {
		switch {
		case m[1] != "" && len(vals) > 0:
			e, _ := strconv.Atoi(m[1])
			vals[len(vals)-1] *= math.Pow(10, float64(e))
			tols[len(tols)-1] *= math.Pow(10, float64(e))
		case m[2] != "":
			raw := strings.ReplaceAll(m[2], `\,`, "")
			v, err := strconv.ParseFloat(raw, 64)
			if err != nil {
				t.Fatalf("quoted number %q: %v", m[2], err)
			}
			d := 0
			if _, frac, ok := strings.Cut(raw, "."); ok {
				d = len(frac)
			}
			vals, tols = append(vals, v), append(tols, 0.5*math.Pow(10, float64(-d))*(1+1e-9))
		}
	}
	return vals, tols
}

// checkClaims runs each claim's linked state and compares the numbers
// the prose quotes with the ones it computes.
func checkClaims(t *testing.T, claims []proseClaim) {
	t.Helper()
	course, err := DefaultCourse()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range claims {
		t.Run(c.Slug+"?"+c.Query, func(t *testing.T) {
			src, err := os.ReadFile("content/" + c.Slug + ".src.html")
			if err != nil {
				t.Fatal(err)
			}
			text := string(src)
			link := `href="/lessons/` + c.Slug + "?" + strings.ReplaceAll(c.Query, "&", "&amp;") + `#`
			i := strings.Index(text, link)
			if i < 0 {
				t.Fatalf("the prose has no link %s", link)
			}
			// The claim is in the paragraph or list item of the link.
			i = max(strings.LastIndex(text[:i], "<p>"), strings.LastIndex(text[:i], "<li>"))
			j := strings.Index(text[i:], c.From)
			if j < 0 {
				t.Fatalf("no %q in the paragraph of the link", c.From)
			}
			rest := text[i+j+len(c.From):]
			k := strings.Index(rest, c.To)
			if k < 0 {
				t.Fatalf("no %q after %q", c.To, c.From)
			}
			got, tols := quotedNumbers(t, rest[:k])
			q, err := url.ParseQuery(c.Query)
			if err != nil {
				t.Fatal(err)
			}
			d, err := course.Active(c.Slug, q)
			if err != nil {
				t.Fatal(err)
			}
			s, probs := d.Parse(q)
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			r, err := d.Execute(s)
			if err != nil {
				t.Fatal(err)
			}
			want := c.Want(t, r)
			if len(got) != len(want) {
				t.Fatalf("the prose quotes %v in %q, the test computes %v", got, rest[:k], want)
			}
			for n := range got {
				if math.Abs(got[n]-want[n]) > tols[n] {
					t.Errorf("number %d: the prose says %g, the linked state has %g (%q)", n+1, got[n], want[n], rest[:k])
				}
			}
		})
	}
}

// TestProsePerceptronClaims checks the numbers the perceptron lesson
// quotes from the states it links to: the margin γ and radius C of the
// 200 separable points with no gap, the bound C²/γ² they give, and the
// run's end; γ is also found apart from the demo's SMO, by dual
// coordinate ascent on the bias-free hard-margin problem of the
// augmented points, whose primal and dual values bracket it.
func TestProsePerceptronClaims(t *testing.T) {
	bound := func(t *testing.T, r *Run) perceptron.MarginBound {
		x, y := Columns(r.Points)
		labels := make([]int, len(y))
		for i, v := range y {
			labels[i] = int(v)
		}
		lo, hi := marginBracket(x, labels)
		mb := perceptron.Bound(context.Background(), x, labels)
		if mb.Gamma < lo*(1-1e-6) || mb.Gamma > hi*(1+1e-6) {
			t.Errorf("the demo's γ = %g is outside [%g, %g], where dual coordinate ascent puts it", mb.Gamma, lo, hi)
		}
		return mb
	}
	const sep = "data=separable&n=200&seed=2&sep=0&step=5600"
	checkClaims(t, []proseClaim{
		{Slug: "perceptron", Query: sep, From: "</a> have", To: "(on the augmented", Want: func(t *testing.T, r *Run) []float64 {
			mb := bound(t, r)
			return []float64{mb.Gamma, mb.C}
		}},
		{Slug: "perceptron", Query: sep, From: "allows up to", To: "mistakes;", Want: func(t *testing.T, r *Run) []float64 {
			mb := bound(t, r)
			return []float64{mb.C * mb.C / (mb.Gamma * mb.Gamma)}
		}},
		{Slug: "perceptron", Query: sep, From: "the run converges at", To: "</p>", Want: func(t *testing.T, r *Run) []float64 {
			p := r.Panel()
			ep, _ := strconv.Atoi(counter(p, "epoch"))
			m, _ := strconv.Atoi(counter(p, "mistakes"))
			if p.Status != "converged" {
				t.Errorf("status %q, want converged", p.Status)
			}
			return []float64{float64(r.Step), float64(ep), float64(m)}
		}},
	})
}

// marginBracket brackets the margin γ of the augmented points (xᵢ, 1):
// dual coordinate ascent on max Σα − ½‖Σ αᵢyᵢx̃ᵢ‖², α ≥ 0, whose
// optimum is 1/(2γ²), gives v = Σ αᵢyᵢx̃ᵢ; min yᵢ⟨v, x̃ᵢ⟩/‖v‖ is the
// margin of a separator (at most γ) and 1/√(2D(α)) is at least γ.
func marginBracket(x [][]float64, y []int) (lo, hi float64) {
	aug := make([][]float64, len(x))
	for i, row := range x {
		aug[i] = append(append([]float64{}, row...), 1)
	}
	alpha := make([]float64, len(x))
	v := make([]float64, len(aug[0]))
	for range 20000 {
		for i, a := range aug {
			yi := float64(y[i])
			na := floats.Dot(a, a)
			next := math.Max(0, alpha[i]+(1-yi*floats.Dot(v, a))/na)
			floats.AddScaled(v, (next-alpha[i])*yi, a)
			alpha[i] = next
		}
	}
	norm := floats.Norm(v, 2)
	lo = math.Inf(1)
	for i, a := range aug {
		lo = math.Min(lo, float64(y[i])*floats.Dot(v, a)/norm)
	}
	dual := floats.Sum(alpha) - 0.5*norm*norm
	return lo, 1 / math.Sqrt(2*dual)
}
