package main

import (
	"cmp"
	"html"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/course"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// What TestEveryDemo does not reach, kept as data: the facts of
// particular states, queries across keys, runs that must descend, and
// Run to end for every value of every choice of every stepping demo.

// facts are what a state shows that the loop cannot derive from the
// course: numbers and words worked out by hand, and controls a lesson's
// prose names. sel is a CSS selector on a page ("" for all of its text);
// a figure is its SVG, unescaped. Each of want must be in the text, none
// of not, and is, when set, is all of it. The topics' own tests hold the
// rest of what their panels say.
var facts = []struct {
	target, sel string
	want, not   []string
	is          string
}{
	{target: "/lessons/gradient-descent", sel: `#panel-gd [data-testid="L"]`, is: "10"}, // κ = 10
	{target: "/plots/gd-history.svg?step=10", want: []string{"f(x⁽ᵏ⁾) − f*", "‖x⁽⁰⁾ − x*‖²/(2tk)"}},
	{target: "/plots/kernel-svm.svg?step=end", want: []string{"<image", "Gaussian"}},
	{target: "/plots/kernel-gram-gram.svg?kernel=neg-sqdist", want: []string{"<image"}},
	{target: "/plots/kernel-gram-eigen.svg?coef0=-1&kernel=sigmoid", want: []string{"negative"}},
	{target: "/plots/kernel-svm-gamma.svg", want: []string{"held-out"}},
	{target: "/plots/kernel-pegasos-history.svg?step=50", want: []string{"exact optimum"}},
	// Δ = 2, σ = 1, π = ½: the Bayes error is Φ(−1) = 15.87 %.
	{target: "/lessons/knn-bayes", sel: `#panel-bayes [data-testid="bayes-error"]`, is: "15.87 %"},
	{target: "/lessons/knn-bayes", sel: `#panel-bayes [data-testid="closed-form"]`, is: "15.87 %"},
	{target: "/lessons/knn-bayes", sel: `#panel-knn [data-testid="bayes-error"]`, is: "15.87 %"},
	{target: "/present/knn?k=1", sel: `[data-testid="memorise"]`, want: []string{"memorises"}},
	// The true risk by quadrature (1000 held-out points said 14.5 %).
	{target: "/present/knn?k=101", sel: `[data-testid="heldout"]`, is: "16.48 %"},
	{target: "/present/knn?k=101", want: []string{"risk R(h), by quadrature"}},
	{target: "/present/knn?k=101", sel: `[data-testid="bayes-ref"]`, want: []string{"above it"}},
	{target: "/plots/knn-k.svg", want: []string{"risk R(h)", "200"}}, // the k chart runs to k = n
	{target: "/present/curse", want: []string{"spread of all distances"}},
	{target: "/present/logistic?data=separable&lambda=0.1&step=20", sel: `[data-testid="minimiser"]`, want: []string{"‖w*‖"}},
	{target: "/plots/logistic.svg?step=0", want: []string{"P = ½ everywhere"}},
	{target: "/plots/softmax-history.svg?step=50", want: []string{"exact optimum"}},
	{target: "/lessons/linear-regression", sel: `#panel-ridge [data-testid="formula"]`, is: "−20"}, // −2/ε at ε = 0.1
	{target: "/plots/ls-gd.svg?eta=1.05&step=end", want: []string{"y = 4.88·10⁴⁶·x − 9.81·10⁴⁹"}, not: []string{"+ −"}},
	{target: "/lessons/soft-margin-svm", sel: `#panel-svm-soft input.log-slider[data-log-for="C"]`},
	{target: "/lessons/soft-margin-svm?data=xor", sel: "#panel-svm-soft"}, // where the hard margin's alert on XOR links
	{target: "/present/svm-soft?step=1", sel: `.examined`, want: []string{"optimises the pair"}},
	{target: "/plots/svm-hard-alpha.svg?step=3", want: []string{"pair optimised"}},
	{target: "/plots/svm-soft-kkt.svg?C=0.01&step=4", want: []string{"KKT violation"}},
	{target: "/plots/svm-sgd-losses.svg?step=4", want: []string{"hinge"}},
	{target: "/plots/svm-sgd-history.svg?step=4", want: []string{"exact optimum"}},
	// OR after step 2: w = (0, 1), and x₂ = (1, 0) on the wrong side of x₂ = ½.
	{target: "/present/svm-hard?data=or&step=2", sel: `[data-testid="band"]`, is: "2"},
	{target: "/present/svm-hard?data=or&step=2", sel: `[data-testid="error"]`, is: "25.0 %"},
	{target: "/plots/svm-sgd.svg?step=2000", not: []string{"support vector", "yet"}}, // an SGD iterate has none
	// Further figures are linked by what they show, not by their names.
	{target: "/lessons/soft-margin-svm", sel: `#demo-svm-soft [data-testid="panel-link-kkt"]`, is: "KKT violation of each point as SVG"},
	{target: "/lessons/soft-margin-svm", sel: `#demo-svm-soft [data-testid="panel-link-alpha"]`, is: "α of each point as SVG"},
	{target: "/lessons/kernels", sel: `[data-testid="panel-link-gram"]`, is: "Gram matrix as SVG"},
}

// TestDemoFacts checks the facts table through HTTP, following redirects
// to the canonical URL (and a step=end to the step the run stops at).
func TestDemoFacts(t *testing.T) {
	h := newTestServer(t)
	for _, f := range facts {
		rec := get(t, h, f.target)
		for i := 0; i < 3 && rec.Code >= 300 && rec.Code < 400; i++ {
			rec = get(t, h, rec.Header().Get("Location"))
		}
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s = %d: %.200s", f.target, rec.Code, rec.Body)
			continue
		}
		text := html.UnescapeString(rec.Body.String())
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			sel := parse(t, rec).Find(cmp.Or(f.sel, "body"))
			if sel.Length() == 0 {
				t.Errorf("GET %s: nothing matches %s", f.target, f.sel)
				continue
			}
			text = words(sel.Text())
		}
		if f.is != "" && text != f.is {
			t.Errorf("GET %s %s: %q, want %q", f.target, f.sel, text, f.is)
		}
		for _, w := range f.want {
			if !strings.Contains(text, w) {
				t.Errorf("GET %s %s: no %q in %.300q", f.target, f.sel, w, text)
			}
		}
		for _, n := range f.not {
			if strings.Contains(text, n) {
				t.Errorf("GET %s %s: %q in %.300q", f.target, f.sel, n, text)
			}
		}
	}
}

// TestDemoQueriesAcrossKeys: what the server refuses or redirects for a
// query whose keys make sense only together, which no one key's range
// says: a 400 naming the key, or a 303 to the state an edit makes.
func TestDemoQueriesAcrossKeys(t *testing.T) {
	h := newTestServer(t)
	for _, c := range []struct{ target, key string }{
		{"/plots/gd.svg?iters=100&schedule=warmup-linear&warmup=300", "warmup"},
		{"/plots/gd.svg?hold=190&iters=200&schedule=warmup-linear&warmup=20", "hold"}, // a plateau past the end
		{"/plots/interpolation.svg?add=1,2,3&data=custom", "add"},                     // graph data are x,y
	} {
		if rec := get(t, h, c.target); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), c.key+": ") {
			t.Errorf("GET %s = %d %.200q, want 400 naming %s", c.target, rec.Code, rec.Body, c.key)
		}
	}
	// A click on a graph demo's plot adds the observation (x, y).
	rec := get(t, h, "/lessons/linear-regression?op=add&pl=1.25&px=0.5")
	if want := "/lessons/linear-regression?add=0.5,1.25"; rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != want {
		t.Errorf("click = %d to %q, want 303 to %q", rec.Code, rec.Header().Get("Location"), want)
	}
}

// TestDemoStepsDescend steps demos whose objective falls at every step
// (SMO's dual D(α); gradient descent on least squares with η < 2/L) and
// reads the counter from each page.
func TestDemoStepsDescend(t *testing.T) {
	h := newTestServer(t)
	for _, c := range []struct {
		page, counter string
		steps         int
		strict        bool
	}{
		{"/present/svm-soft", "dual", 6, false},
		{"/present/kernel-svm", "dual", 5, false},
		{"/present/ls-gd", "objective", 5, true},
	} {
		prev := math.Inf(1)
		for k := 1; k <= c.steps; k++ {
			target := c.page + "?step=" + strconv.Itoa(k)
			got := parse(t, get(t, h, target)).Find(`[data-testid="` + c.counter + `"]`).Text()
			v := demotest.ParseSig(t, got)
			if v > prev+1e-12 || c.strict && v >= prev {
				t.Errorf("%s: %s = %s after %v; it falls every step", target, c.counter, got, prev)
			}
			prev = v
		}
	}
}

// words is s with its runs of white space made one space.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestStepEndEveryDemo runs every stepping demo of the course to its end
// the way the "Run to end" button does, with htmx (HX-Request: the
// panel, in place) and without (a 303 to the step the run stopped at), on
// its lesson page and in the presenter view, for every built-in data set
// and every value of each of its choices. With htmx the perceptron once
// answered 500: the run to the end replayed a different problem than the
// panel drew.
func TestStepEndEveryDemo(t *testing.T) {
	course, err := course.Default()
	if err != nil {
		t.Fatal(err)
	}
	h := NewServer(discardLogger(), course)
	for _, d := range course.Demos {
		if d.Static {
			continue
		}
		for _, q := range stepEndQueries(d) {
			page := d.LessonPath()
			if l, _ := course.Find(d.Lesson); l.Demos[0] != d.ID {
				q.Set("demo", d.ID)
			}
			q.Set("step", "end")
			for _, base := range []string{page, d.PresentPath()} {
				qq := url.Values{}
				for k, v := range q {
					if k != "demo" || base == page {
						qq[k] = v
					}
				}
				target := base + "?" + qq.Encode()
				rec := do(t, h, http.MethodGet, target, nil, map[string]string{"HX-Request": "true"})
				if rec.Code != http.StatusOK {
					t.Errorf("htmx GET %s = %d: %.200s", target, rec.Code, rec.Body)
					continue
				}
				if !strings.HasPrefix(strings.TrimSpace(rec.Body.String()), `<div id="panel-`+d.ID+`"`) {
					t.Errorf("htmx GET %s: no panel: %.80s", target, rec.Body)
				}
				pushed := rec.Header().Get("HX-Push-Url")
				if strings.Contains(pushed, "step=end") || !strings.HasPrefix(pushed, base) {
					t.Errorf("htmx GET %s pushes %q, want the step the run stopped at", target, pushed)
				}
				rec = get(t, h, target)
				if rec.Code != http.StatusSeeOther {
					t.Errorf("GET %s = %d, want 303", target, rec.Code)
					continue
				}
				// A lesson page pushes the demo's #anchor; a redirect leaves
				// it to the browser, which keeps the request's fragment.
				loc := rec.Header().Get("Location")
				if base == page && !strings.HasSuffix(pushed, "#demo-"+d.ID) {
					t.Errorf("htmx GET %s pushes %q, without the demo's anchor", target, pushed)
				}
				if pushed, _, _ = strings.Cut(pushed, "#"); loc != pushed {
					t.Errorf("GET %s redirects to %q, htmx pushes %q", target, loc, pushed)
				}
				if rec = get(t, h, loc); rec.Code != http.StatusOK || parse(t, rec).Find("#panel-"+d.ID).Length() != 1 {
					t.Errorf("GET %s = %d, or no panel", loc, rec.Code)
				}
			}
		}
	}
}

// stepEndQueries returns the queries the test runs a demo's end at: each
// built-in data set, and each value of each other choice on the default
// set.
func stepEndQueries(d *demo.Demo) []url.Values {
	var qs []url.Values
	for _, p := range d.Params() {
		if p.Kind != demo.KindChoice || p.PageOnly || p.Hidden {
			continue
		}
		for _, o := range p.Options {
			if o.Value == demo.Custom || o.Value == p.Default {
				continue
			}
			qs = append(qs, url.Values{p.Key: {o.Value}})
		}
	}
	return append(qs, url.Values{})
}
