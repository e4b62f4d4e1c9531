package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/web/templates/layout"
)

// These tests build a bare echo with useMiddleware and errorHandler and
// small routes of their own, so that they test the middleware and the
// error mapping without depending on the lessons and their routes.

// logBuffer is a logger whose output a test can read.
func logBuffer() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewTextHandler(&buf, nil)), &buf
}

// newMWEcho returns an echo with Margin's middleware, error handler and
// logger, and the routes add installs.
func newMWEcho(logger *slog.Logger, add func(e *echo.Echo)) *echo.Echo {
	e := echo.New()
	e.HTTPErrorHandler = errorHandler(logger, nil)
	useMiddleware(e, logger)
	add(e)
	return e
}

// mwRequest serves one request and returns the recorded response.
func mwRequest(t *testing.T, h http.Handler, method, target string, body io.Reader, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, body)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// page is a body long enough for gzip (MinLength 2048).
var page = "<!DOCTYPE html><p>" + strings.Repeat("margin ", 600) + "</p>"

func mwRoutes(e *echo.Echo) {
	e.GET("/page", func(c echo.Context) error {
		c.Response().Header().Set("X-Test", "yes")
		return c.HTML(http.StatusOK, page)
	})
	e.GET("/plots/p.svg", func(c echo.Context) error {
		return serveImmutable(c, "image/svg+xml", []byte("<svg/>"))
	})
	e.POST("/form", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })
	e.GET("/bad", func(c echo.Context) error { return bad(io.ErrUnexpectedEOF) })
	e.GET("/panic", func(c echo.Context) error { panic("boom") })
	e.GET("/embed", func(c echo.Context) error { return c.HTML(http.StatusOK, "<p>embed</p>") }, allowFraming("*"))
	e.StaticFS("/static", fstest.MapFS{"app.css": {Data: []byte("body{}")}})
}

func TestMWHead(t *testing.T) {
	logger, logs := logBuffer()
	e := newMWEcho(logger, mwRoutes)
	tests := []struct {
		target, encoding string
		want             int
	}{
		{"/page", "", http.StatusOK},
		{"/page", "gzip", http.StatusOK},
		{"/plots/p.svg", "", http.StatusOK},
		{"/static/app.css", "", http.StatusOK},
		{"/bad", "", http.StatusBadRequest},
		{"/form", "", http.StatusMethodNotAllowed},
		{"/nowhere", "", http.StatusNotFound},
	}
	for _, tt := range tests {
		get := mwRequest(t, e, http.MethodGet, tt.target, nil, "Accept-Encoding", tt.encoding)
		head := mwRequest(t, e, http.MethodHead, tt.target, nil, "Accept-Encoding", tt.encoding)
		if head.Code != tt.want || head.Body.Len() != 0 {
			t.Errorf("HEAD %s = %d with %d bytes of body, want %d and none", tt.target, head.Code, head.Body.Len(), tt.want)
		}
		if tt.want != http.StatusMethodNotAllowed && get.Code != head.Code {
			t.Errorf("GET %s = %d but HEAD = %d", tt.target, get.Code, head.Code)
		}
		for _, k := range []string{"Content-Type", "Content-Encoding", "ETag", "Cache-Control", "X-Test", "Vary"} {
			if tt.want == http.StatusOK && get.Header().Get(k) != head.Header().Get(k) {
				t.Errorf("HEAD %s (%s): %s = %q, GET has %q", tt.target, tt.encoding, k, head.Header().Get(k), get.Header().Get(k))
			}
		}
	}
	if !strings.Contains(logs.String(), "method=HEAD") {
		t.Errorf("the log does not show the HEAD requests as HEAD:\n%s", logs)
	}

	// Over a real connection too: net/http must see HEAD and send no body.
	srv := httptest.NewServer(e)
	defer srv.Close()
	resp, err := http.Head(srv.URL + "/page")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(b) != 0 || resp.Header.Get("X-Test") != "yes" {
		t.Errorf("HEAD over HTTP = %d, %d bytes, X-Test %q; want 200, none, yes", resp.StatusCode, len(b), resp.Header.Get("X-Test"))
	}
	if resp, err := http.Get(srv.URL + "/page"); err != nil {
		t.Errorf("GET after HEAD on a new connection: %v", err)
	} else {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != page {
			t.Errorf("GET /page over HTTP after HEAD returned %d bytes, want %d", len(b), len(page))
		}
	}
}

func TestMWSecurityHeaders(t *testing.T) {
	logger, _ := logBuffer()
	e := newMWEcho(logger, mwRoutes)
	tests := []struct {
		method, target string
		want           int
	}{
		{http.MethodGet, "/page", http.StatusOK},
		{http.MethodHead, "/page", http.StatusOK},
		{http.MethodGet, "/plots/p.svg", http.StatusOK},
		{http.MethodGet, "/static/app.css", http.StatusOK},
		{http.MethodGet, "/static/missing.css", http.StatusNotFound},
		{http.MethodGet, "/bad", http.StatusBadRequest},
		{http.MethodGet, "/panic", http.StatusInternalServerError},
		{http.MethodGet, "/form", http.StatusMethodNotAllowed},
		{http.MethodGet, "/nowhere", http.StatusNotFound},
		{http.MethodGet, "/page?q=" + strings.Repeat("x", maxQuery), http.StatusRequestURITooLong},
	}
	for _, tt := range tests {
		rec := mwRequest(t, e, tt.method, tt.target, nil)
		if rec.Code != tt.want {
			t.Errorf("%s %.40s = %d, want %d", tt.method, tt.target, rec.Code, tt.want)
		}
		h := rec.Header()
		if got, want := h.Get(headerCSP), contentSecurityPolicy("'self'"); got != want {
			t.Errorf("%s %.40s: CSP = %q, want %q", tt.method, tt.target, got, want)
		}
		if h.Get(headerNoSniff) != "nosniff" || h.Get(headerReferrerPolicy) != "same-origin" {
			t.Errorf("%s %.40s: X-Content-Type-Options %q, Referrer-Policy %q", tt.method, tt.target, h.Get(headerNoSniff), h.Get(headerReferrerPolicy))
		}
	}
	if got := mwRequest(t, e, http.MethodGet, "/embed", nil).Header().Get(headerCSP); !strings.HasSuffix(got, "; frame-ancestors *") {
		t.Errorf("allowFraming: CSP = %q, want frame-ancestors *", got)
	}
}

func TestMWPolicy(t *testing.T) {
	p := contentSecurityPolicy("'self'")
	directives := map[string]string{}
	for _, d := range strings.Split(p, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		directives[name] = value
	}
	want := map[string]string{
		"default-src": "'self'", "script-src": "'self'", "style-src": "'self' 'unsafe-inline'",
		"img-src": "'self' data:", "font-src": "'self'", "object-src": "'none'",
		"base-uri": "'self'", "form-action": "'self'", "frame-ancestors": "'self'",
	}
	for k, v := range want {
		if directives[k] != v {
			t.Errorf("%s = %q, want %q (policy %q)", k, directives[k], v, p)
		}
	}
	if len(directives) != len(want) {
		t.Errorf("policy has %d directives, want %d: %q", len(directives), len(want), p)
	}
}

// TestMWTemplatesFitPolicy checks that no page needs more than the policy
// allows: no inline script, no inline event handler, no javascript: URL,
// and htmx told not to inject its <style> or to eval.
func TestMWTemplatesFitPolicy(t *testing.T) {
	bad := regexp.MustCompile(`(?i)<script(\s[^>]*)?>\s*[^<\s]|<script(?:\s+(?:defer|async|type="[^"]*"))*\s*>|\son[a-z]+\s*=|javascript:`)
	files, _ := filepath.Glob("../../web/templates/*/*.templ")
	if len(files) == 0 {
		t.Fatal("no templates found under ../../web/templates")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := bad.Find(b); m != nil {
			t.Errorf("%s: %q breaks the Content-Security-Policy", f, m)
		}
	}

	var buf bytes.Buffer
	if err := layout.Base(layout.Page{Title: "t", Math: true}).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, want := range []string{`name="htmx-config"`, `includeIndicatorStyles&#34;:false`, `allowEval&#34;:false`} {
		if !strings.Contains(html, want) {
			t.Errorf("layout.Base lacks %s:\n%s", want, html)
		}
	}
	if n, m := strings.Count(html, "<script"), strings.Count(html, `<script src="/static/`); n != m {
		t.Errorf("layout.Base has %d scripts, only %d from /static", n, m)
	}
}

func TestMWLimitURL(t *testing.T) {
	logger, _ := logBuffer()
	e := newMWEcho(logger, mwRoutes)
	tests := []struct {
		target string
		want   int
		msg    string
	}{
		{"/page?q=" + strings.Repeat("x", maxQuery-2), http.StatusOK, ""},
		{"/page?q=" + strings.Repeat("x", maxQuery-1), http.StatusRequestURITooLong, "query is longer than 32 KiB"},
		{"/plots/p.svg?q=" + strings.Repeat("%41", maxQuery), http.StatusRequestURITooLong, "query is longer than 32 KiB"},
		{"/" + strings.Repeat("a", maxPath-1), http.StatusNotFound, ""},
		{"/" + strings.Repeat("a", maxPath), http.StatusRequestURITooLong, "path is longer than 2 KiB"},
		{"/" + strings.Repeat("%C3%A9", maxPath/4), http.StatusRequestURITooLong, "path is longer than 2 KiB"},
	}
	for _, tt := range tests {
		rec := mwRequest(t, e, http.MethodGet, tt.target, nil)
		if rec.Code != tt.want || !strings.Contains(rec.Body.String(), tt.msg) {
			t.Errorf("GET %.30s… (%d bytes) = %d %.200q, want %d mentioning %q", tt.target, len(tt.target), rec.Code, rec.Body, tt.want, tt.msg)
		}
		if tt.want == http.StatusRequestURITooLong && strings.Contains(rec.Body.String(), "xxxxxxxxxx") {
			t.Errorf("the 414 quotes the query back")
		}
	}
}

func TestMWByteSize(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{1 << 20, "1 MiB"}, {5 << 20, "5 MiB"}, {32 << 10, "32 KiB"}, {1536, "1536 bytes"}, {1 << 10, "1 KiB"}, {3 << 19, "1536 KiB"}, {100, "100 bytes"},
	}
	for _, tt := range tests {
		if got := byteSize(tt.in); got != tt.want {
			t.Errorf("byteSize(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCacheServeImmutable(t *testing.T) {
	small := []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)
	large := []byte(`<svg xmlns="http://www.w3.org/2000/svg">` + strings.Repeat("<g/>", 1000) + `</svg>`)
	logger, _ := logBuffer()
	e := newMWEcho(logger, func(e *echo.Echo) {
		e.GET("/plots/small.svg", func(c echo.Context) error { return serveImmutable(c, "image/svg+xml", small) })
		e.GET("/plots/large.svg", func(c echo.Context) error { return serveImmutable(c, "image/svg+xml", large) })
	})
	sum := sha256.Sum256(small)
	etag := `W/"` + hex.EncodeToString(sum[:16]) + `"` // weak: gzip re-encodes it

	first := mwRequest(t, e, http.MethodGet, "/plots/small.svg", nil)
	if first.Code != http.StatusOK || !bytes.Equal(first.Body.Bytes(), small) {
		t.Fatalf("GET = %d %q, want 200 and the body", first.Code, first.Body)
	}
	if got := first.Header().Get("ETag"); got != etag || !regexp.MustCompile(`^W/"[0-9a-f]{32}"$`).MatchString(got) {
		t.Errorf("ETag = %q, want %q (quoted hex, weak)", got, etag)
	}
	tests := []struct {
		name, ifNoneMatch string
		want              int
	}{
		{"none", "", http.StatusOK},
		{"same", etag, http.StatusNotModified},
		{"strong form", strings.TrimPrefix(etag, "W/"), http.StatusNotModified},
		{"in a list", `"0000", ` + etag + `, "ffff"`, http.StatusNotModified},
		{"list without spaces", `"0000",` + etag, http.StatusNotModified},
		{"star", "*", http.StatusNotModified},
		{"other", `"0123456789abcdef0123456789abcdef"`, http.StatusOK},
		{"unquoted", strings.Trim(etag, `"`), http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := mwRequest(t, e, http.MethodGet, "/plots/small.svg", nil, "If-None-Match", tt.ifNoneMatch)
			if rec.Code != tt.want {
				t.Errorf("If-None-Match %q = %d, want %d", tt.ifNoneMatch, rec.Code, tt.want)
			}
			if tt.want == http.StatusNotModified && rec.Body.Len() != 0 {
				t.Errorf("304 has a body: %q", rec.Body)
			}
			h := rec.Header()
			if h.Get("ETag") != etag || h.Get("Cache-Control") != "public, max-age=31536000, immutable" || h.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("ETag %q, Cache-Control %q, Access-Control-Allow-Origin %q", h.Get("ETag"), h.Get("Cache-Control"), h.Get("Access-Control-Allow-Origin"))
			}
		})
	}

	// Gzipped, the tag is the same and Vary says the encoding matters.
	plain := mwRequest(t, e, http.MethodGet, "/plots/large.svg", nil)
	zipped := mwRequest(t, e, http.MethodGet, "/plots/large.svg", nil, "Accept-Encoding", "gzip")
	if zipped.Header().Get("Content-Encoding") != "gzip" || zipped.Header().Get("ETag") != plain.Header().Get("ETag") {
		t.Errorf("gzipped: Content-Encoding %q, ETag %q vs %q", zipped.Header().Get("Content-Encoding"), zipped.Header().Get("ETag"), plain.Header().Get("ETag"))
	}
	if got := gunzip(t, zipped.Body.Bytes()); !bytes.Equal(got, large) {
		t.Errorf("gzipped body does not unzip to the plot")
	}
	again := mwRequest(t, e, http.MethodGet, "/plots/large.svg", nil, "Accept-Encoding", "gzip", "If-None-Match", zipped.Header().Get("ETag"))
	if again.Code != http.StatusNotModified || again.Body.Len() != 0 || again.Header().Get("Content-Encoding") != "" {
		t.Errorf("gzipped revalidation = %d, %d bytes, Content-Encoding %q; want 304, none, none", again.Code, again.Body.Len(), again.Header().Get("Content-Encoding"))
	}
	if !slices.Contains(again.Header().Values("Vary"), "Accept-Encoding") {
		t.Errorf("304 Vary = %q, want Accept-Encoding as on the 200", again.Header().Values("Vary"))
	}
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// varyList flattens Vary header values into names.
func varyList(h http.Header) []string {
	var out []string
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			out = append(out, strings.TrimSpace(f))
		}
	}
	return out
}

func TestCacheVaryOn(t *testing.T) {
	logger, _ := logBuffer()
	e := newMWEcho(logger, func(e *echo.Echo) {
		e.GET("/page", func(c echo.Context) error {
			varyOn(c, "HX-Request")
			varyOn(c, "hx-request")
			varyOn(c, "Accept-Encoding")
			varyOn(c, "HX-Request")
			return c.HTML(http.StatusOK, page)
		})
		e.GET("/plots/p.png", func(c echo.Context) error { // gzip skips PNGs
			varyOn(c, "HX-Request")
			return c.Blob(http.StatusOK, "image/png", []byte("png"))
		})
	})
	tests := []struct {
		target, encoding string
		want             []string
	}{
		{"/page", "gzip", []string{"Accept-Encoding", "HX-Request"}},
		{"/page", "", []string{"Accept-Encoding", "HX-Request"}},
		{"/plots/p.png", "gzip", []string{"HX-Request"}},
	}
	for _, tt := range tests {
		rec := mwRequest(t, e, http.MethodGet, tt.target, nil, "Accept-Encoding", tt.encoding)
		if got := varyList(rec.Header()); !slices.Equal(got, tt.want) {
			t.Errorf("GET %s (Accept-Encoding %q): Vary = %q, want %q", tt.target, tt.encoding, got, tt.want)
		}
		if tt.target == "/page" && tt.encoding == "gzip" && rec.Header().Get("Content-Encoding") != "gzip" {
			t.Errorf("GET /page was not gzipped")
		}
	}

	h := http.Header{"Vary": {"*"}}
	c := echo.New().NewContext(nil, echo.NewResponse(headerRecorder(h), nil))
	varyOn(c, "HX-Request")
	if got := h.Values("Vary"); !slices.Equal(got, []string{"*"}) {
		t.Errorf("varyOn after Vary: * = %q, want [*]", got)
	}
}

// headerRecorder is a ResponseWriter that is only its header.
type headerRecorder http.Header

func (h headerRecorder) Header() http.Header         { return http.Header(h) }
func (h headerRecorder) Write(p []byte) (int, error) { return len(p), nil }
func (h headerRecorder) WriteHeader(int)             {}
