package demotest

import (
	"bytes"
	"context"
	"html"
	"html/template"
	"io/fs"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// Execute runs every figure of demo d in state s under a context that
// never ends: a test's run.
func Execute(d *demo.Demo, s demo.State) (*demo.Run, error) {
	return d.ExecuteFigure(context.Background(), s, "")
}

// Run runs demo spec at the state query q gives.
func Run(t *testing.T, spec demo.Spec, q string) *demo.Run {
	t.Helper()
	d, err := demo.NewDemo(spec)
	if err != nil {
		t.Fatal(err)
	}
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	step := v.Get("step")
	v.Del("step")
	s, probs := d.Parse(v)
	if len(probs) > 0 {
		t.Fatalf("Parse(%q): %v", q, probs)
	}
	switch step {
	case "end":
		s.Step = demo.StepToEnd
	case "":
	default:
		s.Step, _ = strconv.Atoi(step)
	}
	r, err := Execute(d, s)
	if err != nil {
		t.Fatalf("Execute(%q): %v", q, err)
	}
	return r
}

func Counter(p demo.Panel, id string) string {
	for _, c := range p.Counters {
		if c.TestID == id {
			return c.Value
		}
	}
	return ""
}

func Note(p demo.Panel, id string) *demo.Note {
	for i := range p.Notes {
		if p.Notes[i].TestID == id {
			return &p.Notes[i]
		}
	}
	return nil
}

// ParseSig reads a number sig or signed wrote (real minus signs).
func ParseSig(t *testing.T, s string) float64 {
	t.Helper()
	s = strings.NewReplacer("−", "-", "+", "", "·10", "e", "⁻", "-", "⁰", "0", "¹", "1", "²", "2", "³", "3",
		"⁴", "4", "⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9").Replace(s)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("number %q: %v", s, err)
	}
	return v
}

// SVGText is the <title> and <desc> of an SVG.
func SVGText(svg string) string {
	var out []string
	for _, tag := range []string{"title", "desc"} {
		if i, j := strings.Index(svg, "<"+tag+">"), strings.Index(svg, "</"+tag+">"); i >= 0 && j > i {
			out = append(out, svg[i+len(tag)+2:j])
		}
	}
	return strings.Join(out, "\n")
}

// HrefFrag matches an in-page link, capturing the id it points to.
var HrefFrag = regexp.MustCompile(`href="#([^"]+)"`)

// DeepLink matches a link from the prose to a lesson page with a demo
// state: the slug, the raw query (HTML-escaped) and the fragment.
var DeepLink = regexp.MustCompile(`href="/lessons/([a-z0-9-]+)\?([^"#]*)(#[^"]*)?"`)

// FigureText writes figure name of r (PlotFigure for the plot) and returns its
// <title> and <desc>, unescaped.
func FigureText(t *testing.T, r *demo.Run, name string) (title, desc string) {
	t.Helper()
	var b bytes.Buffer
	if ok, err := r.WriteFigure(&b, name, false); !ok || err != nil {
		t.Fatalf("figure %q: ok %v, %v", name, ok, err)
	}
	get := func(tag string) string {
		m := regexp.MustCompile(`<` + tag + `>([^<]*)</` + tag + `>`).FindStringSubmatch(b.String())
		if m == nil {
			t.Fatalf("figure %q has no <%s>", name, tag)
		}
		return html.UnescapeString(m[1])
	}
	return get("title"), get("desc")
}

var IDAttr = regexp.MustCompile(`\sid="([^"]*)"`)

func Strings(parts []template.HTML) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = string(p)
	}
	return out
}

func Excerpt(s string, i int) string {
	lo, hi := max(0, i-40), min(len(s), i+40)
	return s[lo:hi]
}

// Claim is a run of numbers the prose quotes from a demo state it
// links to: in the source, in the paragraph or list item of the link
// whose query is Query, the text from From to To holds them, in order, each rounded from what Want
// computes from the linked state.
type Claim struct {
	Slug, Query, From, To string
	Want                  func(t *testing.T, r *demo.Run) []float64
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

// CheckClaims runs each claim's linked state and compares the numbers
// the prose quotes with the ones it computes.
func CheckClaims(t *testing.T, course *demo.Course, claims []Claim) {
	t.Helper()
	for _, c := range claims {
		t.Run(c.Slug+"?"+c.Query, func(t *testing.T) {
			src, err := demo.Source(course.ProseFS(c.Slug), c.Slug)
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
			r, err := Execute(d, s)
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

// ProseNumber reads a number, and the half-width of the interval its
// digits stand for: 0.0311 is [0.03105, 0.03115].
func ProseNumber(s string) (v, half float64, ok bool) {
	s = strings.NewReplacer("−", "-", " ", "", " ", "").Replace(s)
	exp := 0
	if m, e, sci := strings.Cut(s, "·10"); sci {
		neg := strings.HasPrefix(e, "⁻")
		var digits strings.Builder
		for _, r := range strings.TrimPrefix(e, "⁻") {
			i := slices.Index([]rune("⁰¹²³⁴⁵⁶⁷⁸⁹"), r)
			if i < 0 {
				return 0, 0, false
			}
			digits.WriteByte(byte('0' + i))
		}
		k, err := strconv.Atoi(digits.String())
		if err != nil {
			return 0, 0, false
		}
		if neg {
			k = -k
		}
		s, exp = m, k
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, 0, false
	}
	d := 0
	if _, frac, ok := strings.Cut(s, "."); ok {
		d = len(frac)
	}
	scale := math.Pow(10, float64(exp))
	return v * scale, 0.5 * math.Pow(10, float64(-d)) * scale, true
}

// Prose is a lesson's prose as one string (KaTeX keeps each formula's
// TeX source in an annotation, so "$f = 0.043$" is found as "f = 0.043").
func Prose(t *testing.T, fsys fs.FS, slug string) string {
	t.Helper()
	parts, err := demo.Prose(fsys, slug)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(Strings(parts), "")
}

// MustCourse returns the course build makes, or ends the test.
func MustCourse(t *testing.T, build func() (*demo.Course, error)) *demo.Course {
	t.Helper()
	c, err := build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func MustParse(t *testing.T, d *demo.Demo, raw string) demo.State {
	t.Helper()
	v, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	s, probs := d.Parse(v)
	if len(probs) > 0 {
		t.Fatalf("Parse(%q): %v", raw, probs)
	}
	return s
}

// Section is a top-level section a lesson must have: its id and the prose
// part it is in (part k follows the lesson's k-th demo).
type Section struct {
	ID   string
	Part int
}

// Lesson is what a topic expects of one of its lessons' prose: every
// top-level section in page order, and the links to other lessons it must
// carry. The course checks what every lesson must do (internal/course);
// this checks what the topic's authors promise of theirs.
type Lesson struct {
	Slug     string
	Sections []Section
	Links    []string
}

// CheckLesson holds the lesson's prose, in fsys, to l.
func CheckLesson(t *testing.T, fsys fs.FS, l Lesson) {
	t.Helper()
	secs, err := demo.Contents(fsys, l.Slug)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]Section, len(secs))
	for i, s := range secs {
		got[i] = Section{s.ID, s.Part}
	}
	if !slices.Equal(got, l.Sections) {
		t.Errorf("%s: sections (id, part) = %v, want %v", l.Slug, got, l.Sections)
	}
	all := Prose(t, fsys, l.Slug)
	for _, link := range l.Links {
		if !strings.Contains(all, link) {
			t.Errorf("%s: the prose has no link %s", l.Slug, link)
		}
	}
}
