package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/margin-edu/margin/internal/course"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/topics/perceptron"

	"github.com/margin-edu/margin/internal/topics/regression"
	"github.com/margin-edu/margin/web/static"

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

// syncBuffer is a bytes.Buffer safe to write from the server goroutine
// and read from the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRunServesAndShutsDown starts the real server on a free port, checks
// /healthz and the request log, then cancels: run must return nil. The
// start-up builds the whole course, which a busy machine can stretch to
// seconds, so the wait for the address is generous.
func TestRunServesAndShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0"}, func(string) string { return "" }, &out, io.Discard)
	}()
	re := regexp.MustCompile(`url=(http://\S+)`)
	var base string
	for deadline := time.Now().Add(60 * time.Second); base == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		t.Fatalf("server did not log its address: %q", out.String())
	}
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("healthz = %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run returned %v after shutdown, want nil", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("run did not return after cancel")
	}
	if !regexp.MustCompile(`uri=/healthz status=200`).MatchString(out.String()) {
		t.Errorf("request not logged: %q", out.String())
	}
}

func TestRunFlags(t *testing.T) {
	if err := run(context.Background(), []string{"-nope"}, func(string) string { return "" }, io.Discard, io.Discard); err == nil {
		t.Error("unknown flag accepted")
	}
	// PORT is used when -addr is not given; a taken or bad port fails fast.
	err := run(context.Background(), nil, func(k string) string {
		if k == "PORT" {
			return "not-a-port"
		}
		return ""
	}, io.Discard, io.Discard)
	if err == nil {
		t.Error("PORT=not-a-port accepted")
	}
}

// countingSpec is the toy objective demo with its Compute calls counted.
func countingSpec(calls *atomic.Int32) demo.Spec {
	s := demotest.ObjectiveSpec("perceptron")
	compute := s.Compute
	s.Compute = func(ctx context.Context, in demo.Input) (demo.Result, error) {
		calls.Add(1)
		return compute(ctx, in)
	}
	return s
}

// TestNewServerBuildsNothing: NewServer runs no demo; the course, built
// once by checkCourse, serves a lesson page's other demos from the
// default views it made, so a request computes only the demo it asks for.
func TestNewServerBuildsNothing(t *testing.T) {
	var calls atomic.Int32
	course, err := course.With(perceptron.PerceptronSpec(), countingSpec(&calls))
	if err != nil {
		t.Fatal(err)
	}
	h := NewServer(discardLogger(), course)
	if n := calls.Load(); n != 0 {
		t.Errorf("NewServer ran the toy demo %d times, want 0", n)
	}
	if err := checkCourse(t.Context(), course, 1<<20); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("checkCourse ran the toy demo %d times, want once, in its default state", n)
	}
	if course.Cache.Budget() != 1<<20 {
		t.Errorf("cache budget = %d, want the 1 MiB asked for", course.Cache.Budget())
	}
	for range 3 {
		rec := get(t, h, "/lessons/perceptron?step=2")
		if rec.Code != http.StatusOK || parse(t, rec).Find(`#panel-toy-gd`).Length() != 1 {
			t.Fatalf("lesson page = %d, or without the toy demo", rec.Code)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("three pages showing the toy demo at its default ran it %d times in all, want the 1 of the build", n)
	}
}

// TestBrokenLessonStopsStart: a demo whose default state fails stops the
// server before it serves, with a message naming the demo and the cause.
func TestBrokenLessonStopsStart(t *testing.T) {
	broken := demotest.ObjectiveSpec("perceptron")
	broken.Compute = func(context.Context, demo.Input) (demo.Result, error) {
		return demo.Result{}, errors.New("the table of losses is empty")
	}
	course, err := course.With(perceptron.PerceptronSpec(), broken)
	if err != nil {
		t.Fatal(err)
	}
	err = checkCourse(t.Context(), course, demo.DefaultCacheBytes)
	for _, want := range []string{"a lesson is broken", "toy-gd", "the table of losses is empty"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("checkCourse = %v, want it to say %q", err, want)
		}
	}
	if err := run(t.Context(), []string{"-cache", "0"}, func(string) string { return "" }, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "-cache") {
		t.Errorf("run -cache 0 = %v, want an error naming -cache", err)
	}
}

// TestStaticAndExactURLs (issue 18 §1.9): pages link fingerprinted static
// URLs served immutable with an ETag; the old URL still answers; near-miss
// URLs are not 200; a static demo's history is 404 before any work.
func TestStaticAndExactURLs(t *testing.T) {
	h := newTestServer(t)
	css := static.URL("app.css")
	if page := get(t, h, "/lessons/perceptron").Body.String(); !strings.Contains(page, `href="`+css+`"`) || !strings.Contains(css, static.Version()) {
		t.Errorf("the page does not link %s", css)
	}
	rec := get(t, h, css)
	if et := rec.Header().Get("ETag"); rec.Code != 200 || et == "" || rec.Header().Get("Cache-Control") != static.CacheImmutable ||
		do(t, h, "GET", css, nil, map[string]string{"If-None-Match": et}).Code != http.StatusNotModified {
		t.Errorf("GET %s = %d, ETag %q, Cache-Control %q; want immutable with a 304", css, rec.Code, et, rec.Header().Get("Cache-Control"))
	}
	for target, want := range map[string]int{"/static/app.css": 200, "/static/app.css/": 404, "/static/vendor/": 404,
		"/static/0123456789ab/app.css": 404, "/healthz?x=1": 404, "/healthz": 200, "/?x=1": 301, "/knn-history.svg": 404,
		"/plots/knn-history.svg?bogus=1": 404, "/plots/knn-history.svg": 404} {
		if rec := get(t, h, target); rec.Code != want || want == 301 && rec.Header().Get("Location") != "/" {
			t.Errorf("GET %s = %d %q, want %d", target, rec.Code, rec.Header().Get("Location"), want)
		}
	}
}
