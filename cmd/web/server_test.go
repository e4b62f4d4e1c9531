package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/margin-edu/margin/internal/course"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/topics/perceptron"
	"github.com/margin-edu/margin/internal/topics/regression"

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

func TestMisc(t *testing.T) {
	h := newTestServer(t)
	if rec := get(t, h, "/healthz"); rec.Code != http.StatusOK || rec.Body.String() != "ok\n" {
		t.Errorf("healthz = %d %q", rec.Code, rec.Body)
	}
	// Every lesson of the course is written; a course of one demo has the
	// others coming.
	course, err := course.With(perceptron.PerceptronSpec())
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

// TestNavListsCourse: the navigation bar lists the lessons of the course
// served, each with a page of its own, in order, on the index, a lesson
// page (marked current) and the error page alike: a course without the
// perceptron links to no perceptron.
func TestNavListsCourse(t *testing.T) {
	course, err := course.With(regression.BiasVarianceSpec(), demotest.ObjectiveSpec("gradient-descent"))
	if err != nil {
		t.Fatal(err)
	}
	h := NewServer(discardLogger(), course)
	want := []string{"/lessons/linear-regression Linear and ridge regression", "/lessons/gradient-descent Gradient descent"}
	for _, tc := range []struct{ url, current string }{
		{"/", ""},
		{"/lessons/gradient-descent", "/lessons/gradient-descent"},
		{"/lessons/no-such-lesson", ""}, // a 404
		{"/lessons/linear-regression?fits=0", ""},
	} {
		doc := parse(t, get(t, h, tc.url))
		var got []string
		current := ""
		doc.Find("header.site nav a").Each(func(i int, a *goquery.Selection) {
			href, _ := a.Attr("href")
			if i > 0 {
				got = append(got, href+" "+a.Text())
			}
			if v, _ := a.Attr("aria-current"); v == "page" {
				current = href
			}
		})
		if strings.Join(got, "|") != strings.Join(want, "|") || current != tc.current {
			t.Errorf("GET %s: nav %q (current %q), want %q (current %q)", tc.url, got, current, want, tc.current)
		}
	}
}
