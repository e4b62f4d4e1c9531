package main

import (
	"bytes"

	"github.com/PuerkitoBio/goquery"

	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/topics/perceptron"
)

// TestCanonicalRedirects: one state has one URL. A query that spells a
// state another way is a 301 to the canonical one, on pages and plots
// alike, since plot URLs are cache keys.
func TestCanonicalRedirects(t *testing.T) {
	h := newTestServer(t)
	tests := []struct{ target, want string }{
		{"/lessons/perceptron?seed=007", "/lessons/perceptron?seed=7"},
		{"/lessons/perceptron?n=40", "/lessons/perceptron"},
		{"/lessons/perceptron?data=or&n=80", "/lessons/perceptron"},
		{"/lessons/perceptron?step=0", "/lessons/perceptron"},
		{"/lessons/perceptron?del=", "/lessons/perceptron"},
		{"/lessons/perceptron?del=2,0", "/lessons/perceptron?del=0,2"},
		{"/lessons/perceptron?step=3&data=xor", "/lessons/perceptron?data=xor&step=3"},
		{"/lessons/perceptron?data=xor&step=9", "/lessons/perceptron?data=xor&step=4"}, // past the end: the last step
		{"/lessons/perceptron?eta=0.50", "/lessons/perceptron?eta=0.5"},
		{"/present/perceptron?seed=02", "/present/perceptron?seed=2"},
		{"/plots/perceptron.svg?step=2&data=xor", "/plots/perceptron.svg?data=xor&step=2"},
		{"/plots/perceptron.svg?speed=100&step=2", "/plots/perceptron.svg?step=2"}, // page-only keys leave plot URLs
		{"/plots/perceptron.png?class=-1", "/plots/perceptron.png"},
		{"/plots/perceptron-history.svg?step=0", "/plots/perceptron-history.svg"},
		{"/demos/perceptron/data.csv?step=5&eta=2", "/demos/perceptron/data.csv"},
		{"/lessons/perceptron/data.csv?del=0", "/demos/perceptron/data.csv?del=0"},
	}
	for _, tt := range tests {
		rec := get(t, h, tt.target)
		if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != tt.want {
			t.Errorf("GET %s = %d to %q, want 301 to %q", tt.target, rec.Code, rec.Header().Get("Location"), tt.want)
		}
	}
	for _, ok := range []string{"/lessons/perceptron?seed=7", "/plots/perceptron.svg?data=xor&step=2", "/demos/perceptron/data.csv?del=0"} {
		if rec := get(t, h, ok); rec.Code != http.StatusOK {
			t.Errorf("canonical GET %s = %d", ok, rec.Code)
		}
	}
}

// TestPlotCaching: canonical plot URLs are immutable, with a strong ETag
// that answers If-None-Match with 304.
func TestPlotCaching(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, "/plots/perceptron.svg?step=3")
	etag := rec.Header().Get("ETag")
	if rec.Code != http.StatusOK || !strings.HasPrefix(etag, `"`) || !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
		t.Fatalf("plot = %d, ETag %q, Cache-Control %q", rec.Code, etag, rec.Header().Get("Cache-Control"))
	}
	again := do(t, h, http.MethodGet, "/plots/perceptron.svg?step=3", nil, map[string]string{"If-None-Match": etag})
	if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
		t.Errorf("If-None-Match = %d with %d bytes, want 304 and none", again.Code, again.Body.Len())
	}
	other := get(t, h, "/plots/perceptron.svg?step=4")
	if other.Header().Get("ETag") == etag {
		t.Error("two states share an ETag")
	}
}

// TestHeadAndHeaders: HEAD answers like GET without a body; pages vary on
// both Accept-Encoding and HX-Request; every response has the security
// headers.
func TestHeadAndHeaders(t *testing.T) {
	h := newTestServer(t)
	for _, p := range []string{"/", "/lessons/perceptron", "/plots/perceptron.svg", "/present/perceptron", "/healthz"} {
		rec := do(t, h, http.MethodHead, p, nil, nil)
		if rec.Code != http.StatusOK || rec.Body.Len() != 0 {
			t.Errorf("HEAD %s = %d with %d bytes", p, rec.Code, rec.Body.Len())
		}
	}
	rec := do(t, h, http.MethodGet, "/lessons/perceptron", nil, map[string]string{"Accept-Encoding": "gzip"})
	vary := strings.Join(rec.Header().Values("Vary"), ",")
	if !strings.Contains(vary, "Accept-Encoding") || !strings.Contains(vary, "HX-Request") {
		t.Errorf("Vary = %q, want Accept-Encoding and HX-Request", vary)
	}
	csp := rec.Header().Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-eval") || !strings.Contains(csp, "frame-ancestors 'self'") {
		t.Errorf("CSP = %q", csp)
	}
	if rec.Header().Get("X-Content-Type-Options") != "nosniff" || rec.Header().Get("Referrer-Policy") != "same-origin" {
		t.Errorf("headers = %v", rec.Header())
	}
	if strings.Contains(get(t, h, "/lessons/perceptron").Body.String(), "<script>") {
		t.Error("the page has an inline script, which the policy forbids")
	}
}

// TestLimits: oversized input gets a clear 4xx naming the limit.
func TestLimits(t *testing.T) {
	h := newTestServer(t)
	long := "/lessons/perceptron?add=" + strings.Repeat("123456.789,-123456.789,1~", 2000) + "0,0,1"
	if rec := get(t, h, long); rec.Code != http.StatusRequestURITooLong || !strings.Contains(rec.Body.String(), "KiB") {
		t.Errorf("long query = %d %.100s", rec.Code, rec.Body)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("csv", strings.Repeat("1,1,1\n", 400000))
	mw.Close()
	rec := do(t, h, http.MethodPost, "/demos/perceptron/data", &buf, map[string]string{"Content-Type": mw.FormDataContentType()})
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "MiB") {
		t.Errorf("big upload = %d %.200s", rec.Code, rec.Body)
	}
	rec = get(t, h, "/lessons/perceptron?eta="+strings.Repeat("7", 20000))
	if rec.Code != http.StatusBadRequest || rec.Body.Len() > 20000 {
		t.Errorf("a long bad value = %d with %d bytes; the message must not echo it whole", rec.Code, rec.Body.Len())
	}
}

// TestCustomDataKeepsPoints: on data=custom every form carries the added
// points, so changing the seed or η never loses them.
func TestCustomDataKeepsPoints(t *testing.T) {
	h := newTestServer(t)
	doc := parse(t, get(t, h, "/lessons/perceptron?add=0,0,-1~1,1,1&data=custom"))
	forms := doc.Find(`form.controls`)
	if forms.Length() < 2 {
		t.Fatalf("%d parameter forms, want the data and algorithm forms", forms.Length())
	}
	forms.Each(func(i int, f *goquery.Selection) {
		if v, _ := f.Find(`input[name="add"]`).Attr("value"); v != "0,0,-1~1,1,1" {
			t.Errorf("form %d carries add = %q", i, v)
		}
	})
}

// TestAlgorithmSeed: the order seed defaults to the data seed, and can be
// set apart to reshuffle the order on the same data.
func TestAlgorithmSeed(t *testing.T) {
	h := newTestServer(t)
	base := get(t, h, "/plots/perceptron.svg?data=noisy&order=random&seed=3&step=30").Body.String()
	same := get(t, h, "/plots/perceptron.svg?aseed=3&data=noisy&order=random&seed=3&step=30")
	if same.Code != http.StatusMovedPermanently {
		t.Errorf("aseed equal to seed is not canonical, yet = %d", same.Code)
	}
	other := get(t, h, "/plots/perceptron.svg?aseed=4&data=noisy&order=random&seed=3&step=30")
	if other.Code != http.StatusOK || other.Body.String() == base {
		t.Errorf("aseed=4 = %d, same plot: %v", other.Code, other.Body.String() == base)
	}
	csvA := get(t, h, "/demos/perceptron/data.csv?data=noisy&seed=3").Body.String()
	if !strings.Contains(csvA, "x1,x2,label") {
		t.Fatalf("csv = %q", csvA)
	}
}

// TestKitServesAnyDemo: the routes come from one loop over the course, so
// a second demo on a lesson page (one without points) and a regression
// demo get pages, plots, panels and edits with no handler of their own.
func TestKitServesAnyDemo(t *testing.T) {
	course, err := demo.NewCourse(perceptron.PerceptronSpec(), demotest.ObjectiveSpec("perceptron"),
		demotest.RegressionSpec("linear-regression"))
	if err != nil {
		t.Fatal(err)
	}
	h := NewServer(discardLogger(), course)
	doc := parse(t, get(t, h, "/lessons/perceptron?demo=toy-gd&step=2"))
	noDuplicateIDs(t, doc)
	if doc.Find(`#panel-perceptron`).Length() != 1 || doc.Find(`#panel-toy-gd`).Length() != 1 {
		t.Fatal("the lesson page does not hold both demos")
	}
	if href, _ := doc.Find(`#panel-toy-gd a[data-action="next"]`).Attr("href"); href != "/lessons/perceptron?demo=toy-gd&step=3#demo-toy-gd" {
		t.Errorf("toy next = %q", href)
	}
	if href, _ := doc.Find(`#panel-perceptron a[data-action="next"]`).Attr("href"); href != "/lessons/perceptron?step=1#demo-perceptron" {
		t.Errorf("perceptron next = %q (the other demo stays at its default)", href)
	}
	if c, _ := doc.Find(`#panel-toy-gd figure.plot`).Attr("data-click"); c != "start" {
		t.Errorf("toy plot click mode = %q", c)
	}
	rec := get(t, h, "/lessons/perceptron?demo=toy-gd&op=add&px=1.5&py=-2")
	if want := "/lessons/perceptron?demo=toy-gd&x0=1.5&y0=-2"; rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != want {
		t.Errorf("start click = %d to %q, want %q", rec.Code, rec.Header().Get("Location"), want)
	}
	rec = do(t, h, http.MethodGet, "/lessons/perceptron?demo=toy-gd&step=1", nil, map[string]string{"HX-Request": "true"})
	if !strings.HasPrefix(strings.TrimSpace(rec.Body.String()), `<div id="panel-toy-gd"`) {
		t.Errorf("partial = %.80s", rec.Body.String())
	}
	for _, p := range []string{"/plots/toy-gd.svg?step=2", "/plots/toy-gd-iterate.svg?step=2", "/plots/toy-gd-history.svg?step=2",
		"/present/toy-gd?step=2", "/lessons/linear-regression?add=1,1,-2.5", "/demos/toy-mean/data.csv?add=1,1,-2.5"} {
		if rec := get(t, h, p); rec.Code != http.StatusOK {
			t.Errorf("GET %s = %d %.100s", p, rec.Code, rec.Body)
		}
	}
	if rec := get(t, h, "/plots/toy-mean-history.svg"); rec.Code != http.StatusNotFound {
		t.Errorf("history of a demo that keeps none = %d", rec.Code)
	}
	if rec := get(t, h, "/lessons/perceptron?demo=perceptron"); rec.Code != http.StatusBadRequest {
		t.Errorf("demo= naming the first demo = %d, want 400", rec.Code)
	}
}
