package course

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"github.com/margin-edu/margin/internal/demo"
)

// linkNameProblem says what is wrong with the name of link a, or "":
// a link needs a name (axe's link-name), and a link with an aria-label
// needs one that contains the text it shows (label-content-name-mismatch,
// WCAG 2.5.3: a voice user says what they see). The text a link shows is
// its text without KaTeX's MathML, which is visually hidden; its name
// from content skips what is aria-hidden (KaTeX's HTML) and takes a
// <math> element's aria-label, since the role math takes no name from its
// content. Spaces and case do not count.
func linkNameProblem(a *goquery.Selection) string {
	visible := a.Clone()
	visible.Find(".katex-mathml").Remove()
	shown := squash(visible.Text())
	if label, ok := a.Attr("aria-label"); ok {
		if !strings.Contains(squash(label), shown) {
			return "aria-label " + label + " does not contain the visible text " + shown
		}
		return ""
	}
	if squash(contentName(a.Nodes[0])) == "" {
		return "no name: its text is math without an aria-label on the <math>, or nothing"
	}
	return ""
}

// contentName is the name of n from its content, as accname computes it
// for the markup lessons have.
func contentName(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			for _, at := range n.Attr {
				if at.Key == "aria-hidden" && at.Val == "true" {
					return
				}
			}
			if n.Data == "math" {
				for _, at := range n.Attr {
					if at.Key == "aria-label" {
						b.WriteString(at.Val)
					}
				}
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// squash drops what a reader does not see or say differently: spaces,
// case, and the invisible characters of KaTeX's output (the zero-width
// space after a subscript, MathML's invisible function application).
func squash(s string) string {
	s = strings.Map(func(r rune) rune {
		if (r >= 0x200B && r <= 0x200D) || (r >= 0x2060 && r <= 0x2064) {
			return -1
		}
		return r
	}, s)
	return strings.ToLower(strings.Join(strings.Fields(s), ""))
}

// TestLinkNameRule: the rule catches a link whose aria-label spells its
// math otherwise than KaTeX shows it (what render.mjs wrote before), and
// a link with nothing to name it.
func TestLinkNameRule(t *testing.T) {
	math := func(attr string) string {
		return `<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"` + attr +
			`><semantics><mrow><msup><mn>10</mn><mrow><mo>−</mo><mn>16</mn></mrow></msup></mrow></semantics></math></span>` +
			`<span class="katex-html" aria-hidden="true"><span class="mord">1</span><span class="mord"><span class="mord">0</span>` +
			`<span class="msupsub"><span class="mord mtight">−</span><span class="mord mtight">16</span></span></span></span></span>`
	}
	for _, c := range []struct {
		name, a string
		bad     bool
	}{
		{"label on the math", `<a href="/x">` + math(` aria-label="10^(−16)"`) + `</a>`, false},
		{"label on the link spelling the math otherwise", `<a href="/x" aria-label="10^(−16)">` + math("") + `</a>`, true},
		{"math with no name", `<a href="/x">` + math("") + `</a>`, true},
		{"label containing the visible text", `<a href="/x" aria-label="step 10−16 of the run">` + math("") + `</a>`, false},
		{"plain text", `<a href="/x">converges at step 128</a>`, false},
		{"text and math", `<a href="/x">step ` + math("") + `</a>`, false},
		{"label hiding the text", `<a href="/x" aria-label="next">step 3</a>`, true},
		{"empty", `<a href="/x"></a>`, true},
	} {
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(c.a))
		if err != nil {
			t.Fatal(err)
		}
		if got := linkNameProblem(doc.Find("a")); (got != "") != c.bad {
			t.Errorf("%s: problem %q, want one: %v", c.name, got, c.bad)
		}
	}
}

// TestLessonLinkNames holds every link of every lesson's generated prose
// to the rule, so no lesson page fails link-name or
// label-content-name-mismatch for its math links.
func TestLessonLinkNames(t *testing.T) {
	links := 0
	for _, tp := range topics() {
		names, err := fs.Glob(tp.Prose, "*.html")
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if strings.HasSuffix(name, demo.SrcSuffix) {
				continue
			}
			f, err := tp.Prose.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := goquery.NewDocumentFromReader(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			doc.Find("a").Each(func(_ int, a *goquery.Selection) {
				links++
				if p := linkNameProblem(a); p != "" {
					h, _ := a.Attr("href")
					t.Errorf("%s: link %s: %s", name, h, p)
				}
			})
		}
	}
	if links < 100 {
		t.Errorf("only %d links in the lessons", links)
	}
}
