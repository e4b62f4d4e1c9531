package course

import (
	"fmt"
	"html"
	"math"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// TestDeepLinkNumbers holds every number a lesson quotes beside a link to
// a demo state to that state: each decimal in a paragraph (or list item,
// or table cell) that links to /lessons/…?<state> or /present/…?<state>
// must be shown by one of the linked states (its panel, or the title and
// text of its figures) to the precision the prose writes it, or be in a
// link's own query, or be listed in notFromState with the reason it is
// not read off a state. So prose and demo cannot drift apart.
func TestDeepLinkNumbers(t *testing.T) {
	t.Parallel() // one of the course-wide loops: they share the two cores
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	states := map[string][]float64{} // link → the numbers its state shows
	used := map[string]bool{}
	checked := 0
	for _, l := range c.Lessons {
		if l.ProseFS == nil || l.Anchor != "" {
			continue // no page of its own
		}
		slug := l.Slug
		src, err := demo.Source(l.ProseFS, slug)
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range blockRe.FindAllString(string(src), -1) {
			links := deepLinkRe.FindAllStringSubmatch(block, -1)
			if len(links) == 0 {
				continue
			}
			var shown []float64
			var queries string
			for _, l := range links {
				link := html.UnescapeString(l[1] + l[2])
				queries += " " + link
				if _, done := states[link]; !done {
					states[link] = linkedNumbers(t, c, slug, link)
				}
				shown = append(shown, states[link]...)
			}
			text := proseText(block)
			for _, loc := range decimalRe.FindAllStringIndex(text, -1) {
				num := text[loc[0]:loc[1]]
				if strings.Contains(queries, "="+strings.TrimPrefix(num, "−")) {
					continue
				}
				key := slug + " " + num
				if _, ok := notFromState[key]; ok {
					used[key] = true
					continue
				}
				checked++
				want, half, ok := demotest.ProseNumber(num)
				if !ok {
					t.Errorf("%s: cannot read %q", slug, num)
					continue
				}
				if !showsNumber(shown, want, half) && !(subtracted(text, loc) && showsNumber(shown, -want, half)) {
					t.Errorf("%s: the prose quotes %s («%s») beside %s, whose states do not show it (list it in notFromState if it is not read off them)",
						slug, num, around(text, loc), strings.TrimSpace(queries))
				}
			}
		}
	}
	for key := range notFromState {
		if !used[key] {
			t.Errorf("notFromState lists %q, which no linked paragraph quotes any more", key)
		}
	}
	t.Logf("%d quoted numbers checked against their states", checked)
	if checked < 100 {
		t.Errorf("only %d quoted numbers checked; the lessons quote more", checked)
	}
}

// notFromState lists the decimals in linked paragraphs that are not read
// off the linked state, by "<lesson> <number as written>", with why.
var notFromState = map[string]string{
	// gradient-descent
	"gradient-descent 0.99": "the decay parameter's default, which the linked state uses without naming it in its query; the control shows it, the panel does not",

	// knn-bayes
	"knn-bayes −1.69":  "(−0.69 − 1)/σ, the boundary's offset from the +1 centre: a step of the projection argument the prose works; the panel gives its result, 11.21 %, by quadrature",
	"knn-bayes −0.31":  "(−1 + 0.69)/σ, the −1 centre's offset from the boundary: a step of the projection argument the prose works",
	"knn-bayes 0.0452": "Φ(−1.69), a step of the projection argument the prose works",
	"knn-bayes 0.379":  "Φ(−0.31), a step of the projection argument the prose works",

	// linear-regression
	"linear-regression 0.04":   "derived: the noise floor σ² = 0.2² of the default data, not the held-out MSE beside it",
	"linear-regression 0.1414": "derived: √(nλ) = √0.02 for n = 2, λ = 0.01; the note writes the extra columns as √(nλ)·eᵢ",
	"linear-regression 0.30":   "arithmetic on the quoted intercept: (0.279 + 6)/21",
	"linear-regression 0.83":   "derived: 1 − η·μ = 1 − 0.25·2/3, with μ ≈ 2/3 (0.6734) the Hessian's smaller eigenvalue, which the panel does not show",

	// kernels
	"kernels −0.17": "f(0, 1) = −5/9·e⁻¹ + 2/9·e⁻², worked out in the prose from the weights the linked panel lists",

	// logistic-regression
	"logistic-regression 1.5":     "the growth of ‖w‖ per Newton step past the tolerance (31.98 − 30.45 between the linked steps 23 and 24); TestProseLogisticClaims runs the steps on",
	"logistic-regression 2.7":     "the factor J falls by per Newton step past the tolerance (about e; 2.014·10⁻¹⁰/7.415·10⁻¹¹ between the linked steps 23 and 24); TestProseLogisticClaims runs the steps on",
	"logistic-regression 11.8":    "the bound √(2 log 2/λ) on ‖w*‖ at λ = 0.01, derived in the prose; TestProseLogisticClaims computes it",
	"logistic-regression −0.0001": "the sum of the three rounded weight vectors the linked panel lists (the exact sum is 0); TestProseLogisticClaims adds them up",
}

var (
	blockRe = regexp.MustCompile(`(?s)<(p|li|td|th|figcaption|dd)\b[^>]*>.*?</(?:p|li|td|th|figcaption|dd)>`)
	// deepLinkRe finds a link to a demo state: a query, or (the canonical
	// link to a lesson's demo in its default state) none but a #demo-… anchor.
	deepLinkRe = regexp.MustCompile(`href="(?:(/(?:lessons|present)/[^"?#]+\?[^"#]*)(?:#[^"]*)?|(/lessons/[^"?#]+#demo-[^"]*))"`)
	tagRe      = regexp.MustCompile(`<[^>]*>`)
	texSciRe   = regexp.MustCompile(`(\d(?:\.\d+)?)\s*\\(?:cdot|times)\s*10\^\{?([−-]?)(\d+)\}?`)
	// decimalRe finds a decimal as the prose writes it: a minus, digits
	// (grouped by thin spaces or not), decimals, and ·10ⁿ.
	decimalRe = regexp.MustCompile(`−?\d+(?:[  ]\d{3})*\.\d+(?:·10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?`)
	// numRe is any number in a state's words.
	numRe = regexp.MustCompile(`[−-]?\d+(?:\.\d+)?(?:·10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?`)
)

// proseText is a block's words with TeX's ways of writing numbers made
// plain: tags dropped, 10^{-4} as ·10⁻⁴, \, as a thin space, - as −.
func proseText(block string) string {
	s := html.UnescapeString(tagRe.ReplaceAllString(block, ""))
	s = strings.NewReplacer(`\,`, " ", `{,}`, ",", `\%`, "%").Replace(s)
	s = texSciRe.ReplaceAllStringFunc(s, func(m string) string {
		p := texSciRe.FindStringSubmatch(m)
		k, _ := strconv.Atoi(p[3])
		if p[2] != "" {
			k = -k
		}
		return p[1] + "·10" + textfmt.Sup(k)
	})
	return strings.ReplaceAll(s, "-", "−")
}

func around(s string, loc []int) string {
	lo, hi := max(0, loc[0]-50), min(len(s), loc[1]+20)
	for lo > 0 && !utf8Start(s[lo]) {
		lo--
	}
	for hi < len(s) && !utf8Start(s[hi]) {
		hi++
	}
	return strings.Join(strings.Fields(s[lo:hi]), " ")
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// subtracted reports whether the number at loc follows a binary minus
// ("0.82x − 0.19x³"): the prose may write a negative coefficient the
// state shows, −0.19, as a positive number subtracted.
func subtracted(text string, loc []int) bool { return strings.HasSuffix(text[:loc[0]], "− ") }

// showsNumber reports whether a shown number rounds to want, or is want
// as a percentage (0.125 shown, 12.5 % quoted, or the other way).
func showsNumber(shown []float64, want, half float64) bool {
	for _, v := range shown {
		for _, x := range []float64{v, 100 * v, v / 100} {
			if math.Abs(x-want) <= half*(1+1e-9) {
				return true
			}
		}
	}
	return false
}

// linkedNumbers runs a deep link's state and returns every number it shows.
func linkedNumbers(t *testing.T, c *demo.Course, slug, link string) []float64 {
	t.Helper()
	d, s, err := stateOfLink(c, link)
	if err != nil {
		t.Errorf("%s: link %s: %v", slug, link, err)
		return nil
	}
	r, err := demotest.Execute(d, s)
	if err != nil {
		t.Errorf("%s: link %s: %v", slug, link, err)
		return nil
	}
	st, ok := safeTexts(t, r)
	if !ok {
		return nil
	}
	texts := st.all()
	// The panel's tables are on the page too (textsOf keeps only their
	// captions).
	for _, tb := range r.Panel().Tables {
		texts = append(texts, tb.Head...)
		for _, row := range tb.Rows {
			texts = append(texts, row...)
		}
	}
	var out []float64
	for _, x := range texts {
		for _, m := range numRe.FindAllString(x, -1) {
			if v, _, ok := demotest.ProseNumber(m); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

// stateOfLink parses a deep link's state.
func stateOfLink(c *demo.Course, link string) (*demo.Demo, demo.State, error) {
	u, err := url.Parse(link)
	if err != nil {
		return nil, demo.State{}, err
	}
	q := u.Query()
	var d *demo.Demo
	switch dir, name := path.Split(u.Path); dir {
	case "/lessons/":
		// A link without a query shows its anchor's demo in its default state.
		if id, ok := strings.CutPrefix(u.Fragment, "demo-"); ok && u.RawQuery == "" {
			if first, err := c.Active(name, q); err == nil && first.ID != id {
				q.Set(demo.KeyDemo, id)
			}
		}
		if d, err = c.Active(name, q); err != nil {
			return nil, demo.State{}, err
		}
	case "/present/":
		if d = c.Demo(name); d == nil {
			return nil, demo.State{}, fmt.Errorf("%s is no demo", name)
		}
	default:
		return nil, demo.State{}, fmt.Errorf("%s is no demo page", u.Path)
	}
	s, probs := d.Parse(q)
	if len(probs) > 0 {
		return nil, demo.State{}, probs
	}
	return d, s, nil
}

func TestProseNumber(t *testing.T) {
	for _, tt := range []struct {
		in      string
		v, half float64
	}{
		{"0.0311", 0.0311, 0.00005}, {"−0.543", -0.543, 0.0005}, {"33 566.5", 33566.5, 0.05},
		{"4.9·10⁻¹¹", 4.9e-11, 0.05e-11}, {"12", 12, 0.5},
	} {
		v, half, ok := demotest.ProseNumber(tt.in)
		if !ok || math.Abs(v-tt.v) > 1e-12*math.Abs(tt.v) || math.Abs(half-tt.half) > 1e-9*tt.half {
			t.Errorf("proseNumber(%q) = %v, %v, %v; want %v, %v", tt.in, v, half, ok, tt.v, tt.half)
		}
	}
	if got := proseText(`<a href="x">f</a> $= 2.2 \cdot 10^{-9}$, $33\,566.5$ and $-1$`); got != "f $= 2.2·10⁻⁹$, $33 566.5$ and $−1$" {
		t.Errorf("proseText = %q", got)
	}
}

// TestDeepLinkForms checks what TestDeepLinkNumbers counts as a link to a
// state and what it reads off one: a link without a query to a #demo-…
// anchor is that demo's default state, the panel's table cells are
// shown numbers, and a number after a binary minus may be shown negative.
func TestDeepLinkForms(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	first, err := c.Active("linear-regression", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ href, demo string }{
		{`href="/lessons/linear-regression?demo=ridge#demo-ridge"`, "ridge"},
		{`href="/lessons/linear-regression#demo-` + first.ID + `"`, first.ID},
		{`href="/lessons/linear-regression#demo-ridge"`, "ridge"},
		{`href="/lessons/linear-regression#mle"`, ""},
		{`href="/lessons/linear-regression"`, ""},
	} {
		m := deepLinkRe.FindStringSubmatch(tt.href)
		if m == nil {
			if tt.demo != "" {
				t.Errorf("%s: not read as a link to a state", tt.href)
			}
			continue
		}
		if tt.demo == "" {
			t.Errorf("%s: read as a link to a state", tt.href)
			continue
		}
		d, s, err := stateOfLink(c, m[1]+m[2])
		if err != nil {
			t.Errorf("%s: %v", tt.href, err)
			continue
		}
		if d.ID != tt.demo {
			t.Errorf("%s: demo %s, want %s", tt.href, d.ID, tt.demo)
		}
		if tt.href == `href="/lessons/linear-regression#demo-ridge"` && s.Encode(demo.ForPage) != d.Default().Encode(demo.ForPage) {
			t.Errorf("%s: state %q, want the default", tt.href, s.Encode(demo.ForPage))
		}
	}

	link := "/lessons/linear-regression?demo=ridge"
	d, s, err := stateOfLink(c, link)
	if err != nil {
		t.Fatal(err)
	}
	r, err := demotest.Execute(d, s)
	if err != nil {
		t.Fatal(err)
	}
	shown := linkedNumbers(t, c, "linear-regression", link)
	cells := 0
	for _, tb := range r.Panel().Tables {
		for _, row := range tb.Rows {
			for _, cell := range row {
				for _, n := range numRe.FindAllString(cell, -1) {
					v, half, _ := demotest.ProseNumber(n)
					if cells++; !showsNumber(shown, v, half) {
						t.Errorf("%s: the table shows %s, the test reads no such number", link, n)
					}
				}
			}
		}
	}
	if cells == 0 {
		t.Errorf("%s: no table to read", link)
	}

	text := proseText(`shrunk to $0.82x - 0.19x^3$, between $-0.5$ and $1 - 0.25$`)
	var after []bool
	for _, loc := range decimalRe.FindAllStringIndex(text, -1) {
		after = append(after, subtracted(text, loc))
	}
	if fmt.Sprint(after) != "[false true false true]" {
		t.Errorf("after a binary minus in %q: %v, want [false true false true]", text, after)
	}
}
