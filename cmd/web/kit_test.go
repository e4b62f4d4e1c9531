package main

import (
	"bytes"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/margin-edu/margin/internal/course"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/topics/perceptron"
	"github.com/margin-edu/margin/web/static"
)

// The kit's behaviour through HTTP, shown on the perceptron (the first
// demo, whose numbers the notes work by hand) and on toy demos: canonical
// redirects, edits and uploads, bad queries, plots, the presenter view,
// and the routes any demo gets. TestEveryDemo holds every demo to the
// rest.

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
	course, err := course.With(perceptron.PerceptronSpec(), demotest.ObjectiveSpec("perceptron"),
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

func TestPerceptronPage(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, "/lessons/perceptron")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET = %d: %s", rec.Code, rec.Body)
	}
	doc := parse(t, rec)
	noDuplicateIDs(t, doc)
	if got := doc.Find(`[data-testid="step"]`).Text(); got != "0" {
		t.Errorf("step counter = %q, want 0", got)
	}
	if n := doc.Find(`[data-testid="toc"] a[href="#convergence"]`).Length(); n != 1 {
		t.Error("the table of contents lacks the convergence section")
	}
	if doc.Find(`.prose .katex`).Length() == 0 {
		t.Error("the lesson has no typeset math")
	}
	if doc.Find(`[data-testid="plot"] svg`).Length() != 1 || doc.Find(`[data-testid="history"] svg`).Length() != 1 {
		t.Error("the demo lacks its plot or its history chart")
	}
	if strings.Contains(rec.Body.String(), "<?xml") {
		t.Error("an inlined SVG kept its XML header")
	}
	for _, src := range []string{static.URL("vendor/htmx/htmx.min.js"), static.URL("app.js")} {
		if doc.Find(`script[src="`+src+`"]`).Length() != 1 {
			t.Errorf("page does not load %s", src)
		}
	}
	if strings.Contains(rec.Body.String(), "cdn") || strings.Contains(rec.Body.String(), "https://") {
		t.Error("page refers to the network; everything must be served locally")
	}
	// Step 1 on OR: (0,0) with y = −1 scores 0, a mistake; b becomes −1.
	doc = parse(t, get(t, h, "/lessons/perceptron?step=1"))
	update := doc.Find(`[data-testid="update"]`).Text()
	for _, want := range []string{"y(⟨w, x⟩ + b) = (−1)·(⟨(0, 0), (0, 0)⟩ + 0) = 0 ≤ 0", "b ← b + η·y = 0 + 1·(−1) = −1"} {
		if !strings.Contains(update, want) {
			t.Errorf("step 1 update lacks %q:\n%s", want, update)
		}
	}
	// Step 3: w ← (1, 0) + 1·(+1)·(0, 1) = (1, 1).
	doc = parse(t, get(t, h, "/lessons/perceptron?step=3"))
	if u := doc.Find(`[data-testid="update"]`).Text(); !strings.Contains(u, "w ← w + η·y·x = (1, 0) + 1·(+1)·(0, 1) = (1, 1)") {
		t.Errorf("step 3 update:\n%s", u)
	}
	if u := doc.Find(`[data-testid="update"]`).Text(); !strings.Contains(u, "Step 3 examines x₃ = (0, 1), y = +1.") {
		t.Errorf("step 3 does not name the point as the notes do (x₃):\n%s", u)
	}
	if got := doc.Find(`[data-testid="mistakes"]`).Text(); got != "3" {
		t.Errorf("mistakes after step 3 = %q, want 3", got)
	}
	if b := doc.Find(`[data-testid="bound"]`).Text(); !strings.Contains(b, "C²/γ²") {
		t.Errorf("OR is separable, but no bound is shown: %q", b)
	}
}

func TestPerceptronXORCycle(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, "/lessons/perceptron?data=xor&step=end")
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/lessons/perceptron?data=xor&step=4" {
		t.Fatalf("step=end = %d to %q, want 303 to step 4", rec.Code, rec.Header().Get("Location"))
	}
	doc := parse(t, get(t, h, "/lessons/perceptron?data=xor&step=4"))
	if doc.Find(`[data-testid="cycle"]`).Length() != 1 || doc.Find(`[data-testid="status"]`).Text() != "cycle detected" {
		t.Error("XOR at step 4 does not report the cycle")
	}
	if doc.Find(`a[data-action="next"]`).Length() != 0 {
		t.Error("a finished run still offers a Step link")
	}
}

func TestPerceptronStepLimit(t *testing.T) {
	h := newTestServer(t)
	doc := parse(t, get(t, h, "/lessons/perceptron?data=noisy&n=100&step=20000"))
	if doc.Find(`[data-testid="limit"]`).Length() != 1 || doc.Find(`a[data-action="next"]`).Length() != 0 {
		t.Error("at the step limit the page neither says so nor stops offering Step")
	}
}

func TestPerceptronEdits(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, "/lessons/perceptron?step=5&op=add&px=2&py=-1&pl=-1")
	if want := "/lessons/perceptron?add=2,-1,-1"; rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != want {
		t.Fatalf("add = %d to %q, want 303 to %q", rec.Code, rec.Header().Get("Location"), want)
	}
	rec = get(t, h, "/lessons/perceptron?op=remove&pi=1")
	if want := "/lessons/perceptron?del=1"; rec.Header().Get("Location") != want {
		t.Errorf("remove = %q, want %q", rec.Header().Get("Location"), want)
	}
	rec = get(t, h, "/lessons/perceptron?add=2,-1,-1&op=remove&pi=4")
	if want := "/lessons/perceptron"; rec.Header().Get("Location") != want {
		t.Errorf("removing the added point = %q, want %q", rec.Header().Get("Location"), want)
	}
	rec = get(t, h, "/demos/perceptron/data.csv?del=0")
	if want := "x1,x2,label\n1,0,1\n0,1,1\n1,1,1\n"; rec.Body.String() != want {
		t.Errorf("CSV = %q, want %q", rec.Body.String(), want)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("csv", "x1,x2,label\n0.5,1,1\n-1,2,-1\n")
	mw.WriteField("eta", "0.5")
	mw.Close()
	rec = do(t, h, http.MethodPost, "/demos/perceptron/data", &buf, map[string]string{"Content-Type": mw.FormDataContentType()})
	if want := "/lessons/perceptron?add=0.5,1,1~-1,2,-1&data=custom&eta=0.5#demo-perceptron"; rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != want {
		t.Errorf("upload = %d to %q, want %q (%s)", rec.Code, rec.Header().Get("Location"), want, rec.Body)
	}
}

func TestBadQueries(t *testing.T) {
	h := newTestServer(t)
	tests := []struct{ target, want string }{
		{"/lessons/perceptron?step=abc", "step"},
		{"/lessons/perceptron?step=20001", "step"},
		{"/lessons/perceptron?eta=0", "eta"},
		{"/lessons/perceptron?eta=NaN", "eta"},
		{"/lessons/perceptron?gamma=Inf", "gamma"},
		{"/lessons/perceptron?data=iris", "data"},
		{"/lessons/perceptron?n=100000&data=noisy", "n"},
		{"/lessons/perceptron?colour=red", "unknown parameter"},
		{"/lessons/perceptron?add=1,2", "add"},
		{"/lessons/perceptron?add=1,2,7~8", "add"},
		{"/lessons/perceptron?add=1e300,2,1", "add"},
		{"/lessons/perceptron?del=99", "does not exist"},
		{"/lessons/perceptron?del=0,1,2,3", "no points left"},
		{"/lessons/perceptron?step=1&step=2", "more than once"},
		{"/lessons/perceptron?add=0,0,1;1,1,1", "not ;"},
		{"/lessons/perceptron?op=add&px=1&py=2", "pl"},
		{"/lessons/perceptron?op=remove&pi=10", "no point 10"},
		{"/lessons/perceptron?op=fly", "op"},
		{"/lessons/perceptron?add=0,0,-1~1,1,2", "label"},
		{"/plots/perceptron.svg?w=10", "w"},
		{"/plots/perceptron.png?h=99999", "h"},
		{"/plots/perceptron.svg?op=add&px=1&py=1&pl=1", "op"},
		{"/demos/perceptron/data.csv?seed=-1", "seed"},
	}
	for _, tt := range tests {
		rec := get(t, h, tt.target)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), tt.want) {
			t.Errorf("GET %s = %d %.200q, want 400 mentioning %q", tt.target, rec.Code, rec.Body.String(), tt.want)
		}
	}
}

func TestPlots(t *testing.T) {
	h := newTestServer(t)
	a := get(t, h, "/plots/perceptron.svg?data=separable&n=60&step=17")
	b := get(t, h, "/plots/perceptron.svg?data=separable&n=60&step=17")
	if a.Code != http.StatusOK || a.Header().Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("svg = %d %s", a.Code, a.Header().Get("Content-Type"))
	}
	if !bytes.Equal(a.Body.Bytes(), b.Body.Bytes()) {
		t.Error("the same plot URL gave different bytes")
	}
	svg := a.Body.String()
	for _, want := range []string{"<svg", "<title>", "<desc>", "step 17"} {
		if !strings.Contains(svg, want) {
			t.Errorf("svg lacks %q", want)
		}
	}
	if c := get(t, h, "/plots/perceptron.svg?data=separable&n=60&step=18"); bytes.Equal(c.Body.Bytes(), a.Body.Bytes()) {
		t.Error("steps 17 and 18 gave the same plot")
	}
	p := get(t, h, "/plots/perceptron.png?h=300&step=2&w=400")
	img, err := png.Decode(bytes.NewReader(p.Body.Bytes()))
	if p.Code != http.StatusOK || err != nil {
		t.Fatalf("png = %d, %v", p.Code, err)
	}
	if s := img.Bounds().Size(); s.X != 400 || s.Y != 300 {
		t.Errorf("png is %v, want 400×300", s)
	}
	if hist := get(t, h, "/plots/perceptron-history.svg?step=9"); hist.Code != http.StatusOK || !strings.Contains(hist.Body.String(), "<svg") {
		t.Errorf("history = %d", hist.Code)
	}
}

func TestUploadFile(t *testing.T) {
	h := newTestServer(t)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "pts.csv")
	io.WriteString(fw, "0,0,-1\n2,2,1\n")
	mw.WriteField("csv", "")
	mw.Close()
	rec := do(t, h, http.MethodPost, "/demos/perceptron/data", &buf, map[string]string{"Content-Type": mw.FormDataContentType()})
	if want := "/lessons/perceptron?add=0,0,-1~2,2,1&data=custom#demo-perceptron"; rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != want {
		t.Errorf("file upload = %d to %q, want %q (%s)", rec.Code, rec.Header().Get("Location"), want, rec.Body)
	}
	rec = do(t, h, http.MethodPost, "/demos/perceptron/data", strings.NewReader("csv=1,2,3,4"), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "x1,x2,label") {
		t.Errorf("bad CSV = %d %.200s", rec.Code, rec.Body)
	}
}

func TestPresenterView(t *testing.T) {
	h := newTestServer(t)
	doc := parse(t, get(t, h, "/present/perceptron?step=2"))
	if !doc.Find("body").HasClass("present") || doc.Find(`[data-testid="lesson"]`).Length() != 0 {
		t.Error("presenter view is not the bare demo")
	}
	if href, _ := doc.Find(`a[data-action="next"]`).Attr("href"); href != "/present/perceptron?step=3" {
		t.Errorf("next in presenter view = %q, want it to stay in the presenter view", href)
	}
	doc = parse(t, get(t, h, "/lessons/perceptron?step=2"))
	if href, _ := doc.Find(`[data-testid="present"]`).Attr("href"); href != "/present/perceptron?step=2" {
		t.Errorf("presenter link = %q", href)
	}
	if href, _ := doc.Find(`[data-testid="download-svg"]`).Attr("href"); href != "/plots/perceptron.svg?step=2" {
		t.Errorf("SVG link = %q", href)
	}
}

// TestPlotCaching: canonical plot URLs are immutable, with a weak ETag (one
// tag for the gzip and identity bodies, issue 18 §1.9) that answers If-None-Match with 304.
func TestPlotCaching(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, "/plots/perceptron.svg?step=3")
	etag := rec.Header().Get("ETag")
	if rec.Code != http.StatusOK || !strings.HasPrefix(etag, `W/"`) || !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
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
