package main

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/topics/perceptron"

	"github.com/PuerkitoBio/goquery"
)

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newTestServer(t *testing.T) http.Handler {
	t.Helper()
	return NewServer(discardLogger(), testCourse(t))
}

// theCourse is Margin's course, built and checked once per test binary:
// building it runs every demo's default state.
var theCourse struct {
	once   sync.Once
	course *demo.Course
	err    error
}

// testCourse returns Margin's course as run builds it, shared by the
// tests of this binary (its cache too: results are pure, so sharing
// changes no answer).
func testCourse(t testing.TB) *demo.Course {
	t.Helper()
	theCourse.once.Do(func() {
		theCourse.course, theCourse.err = buildCourse(context.Background(), demo.DefaultCacheBytes)
	})
	if theCourse.err != nil {
		t.Fatal(theCourse.err)
	}
	return theCourse.course
}

func do(t *testing.T, h http.Handler, method, target string, body io.Reader, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, body)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func get(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	return do(t, h, http.MethodGet, target, nil, nil)
}

// follow gets target, following redirects to the canonical URL.
func follow(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	rec := get(t, h, target)
	for i := 0; i < 3 && rec.Code == http.StatusMovedPermanently; i++ {
		rec = get(t, h, rec.Header().Get("Location"))
	}
	return rec
}

func parse(t *testing.T, rec *httptest.ResponseRecorder) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// noDuplicateIDs fails when two elements share an id (plots are inlined
// several to a page, so this catches an SVG that brings ids along).
func noDuplicateIDs(t *testing.T, doc *goquery.Document) {
	t.Helper()
	seen := map[string]bool{}
	doc.Find("[id]").Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("id")
		if seen[id] {
			t.Errorf("duplicate id %q", id)
		}
		seen[id] = true
	})
}

func TestIndexListsCourseInOrder(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, "/")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET / = %d", rec.Code)
	}
	doc := parse(t, rec)
	var slugs []string
	doc.Find(`[data-testid="catalog"] li`).Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("data-testid")
		slugs = append(slugs, strings.TrimPrefix(id, "lesson-"))
	})
	want := "datasets perceptron linear-regression logistic-regression hard-margin-svm soft-margin-svm kernels gradient-descent knn-bayes"
	if got := strings.Join(slugs, " "); got != want {
		t.Errorf("lessons = %s\nwant %s", got, want)
	}
	// The lessons with demos link to their pages; the rest are coming.
	if n := doc.Find(`li.coming`).Length(); n != 0 {
		t.Errorf("%d lessons marked coming, want none: the course is complete", n)
	}
	for _, slug := range []string{"perceptron", "hard-margin-svm", "soft-margin-svm", "kernels"} {
		if href, _ := doc.Find(`[data-testid="lesson-` + slug + `"] a`).Attr("href"); href != "/lessons/"+slug {
			t.Errorf("%s link = %q, want its page", slug, href)
		}
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
	for _, src := range []string{"/static/vendor/htmx/htmx.min.js", "/static/app.js"} {
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

func TestPerceptronPartial(t *testing.T) {
	h := newTestServer(t)
	rec := do(t, h, http.MethodGet, "/lessons/perceptron?step=2", nil, map[string]string{"HX-Request": "true"})
	if rec.Code != http.StatusOK {
		t.Fatalf("partial = %d", rec.Code)
	}
	body := rec.Body.String()
	if strings.Contains(body, "<html") || !strings.HasPrefix(strings.TrimSpace(body), `<div id="panel-perceptron"`) {
		t.Errorf("partial is not just the demo panel: %.100s", body)
	}
	if got := rec.Header().Get("HX-Push-Url"); got != "/lessons/perceptron?step=2#demo-perceptron" {
		t.Errorf("HX-Push-Url = %q", got)
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

func TestMisc(t *testing.T) {
	h := newTestServer(t)
	if rec := get(t, h, "/healthz"); rec.Code != http.StatusOK || rec.Body.String() != "ok\n" {
		t.Errorf("healthz = %d %q", rec.Code, rec.Body)
	}
	// Every lesson of the course is written; a course of one demo has the
	// others coming.
	course, err := demo.NewCourse(perceptron.PerceptronSpec())
	if err != nil {
		t.Fatal(err)
	}
	if rec := get(t, NewServer(discardLogger(), course), "/lessons/gradient-descent"); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "coming") {
		t.Errorf("coming lesson = %d", rec.Code)
	}
	if rec := get(t, h, "/lessons/astrology"); rec.Code != http.StatusNotFound {
		t.Errorf("unknown lesson = %d", rec.Code)
	}
	if rec := get(t, h, "/lessons/datasets"); rec.Code != http.StatusFound || rec.Header().Get("Location") != "/lessons/perceptron#datasets" {
		t.Errorf("datasets = %d %q", rec.Code, rec.Header().Get("Location"))
	}
	for _, p := range []string{"/static/app.css", "/static/app.js", "/static/vendor/katex/katex.min.css", "/static/vendor/htmx/htmx.min.js"} {
		if rec := get(t, h, p); rec.Code != http.StatusOK || rec.Body.Len() < 100 {
			t.Errorf("GET %s = %d (%d bytes)", p, rec.Code, rec.Body.Len())
		}
	}
}

func TestGzip(t *testing.T) {
	h := newTestServer(t)
	plain := get(t, h, "/lessons/perceptron")
	rec := do(t, h, http.MethodGet, "/lessons/perceptron", nil, map[string]string{"Accept-Encoding": "gzip"})
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Body.Len() > plain.Body.Len()/4 {
		t.Errorf("lesson page: encoding %q, %d bytes gzipped vs %d plain", rec.Header().Get("Content-Encoding"), rec.Body.Len(), plain.Body.Len())
	}
	t.Logf("lesson page: %d bytes, %d gzipped", plain.Body.Len(), rec.Body.Len())
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
