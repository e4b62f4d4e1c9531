package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

func TestCacheServeImmutable(t *testing.T) {
	small := []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)
	large := []byte(`<svg xmlns="http://www.w3.org/2000/svg">` + strings.Repeat("<g/>", 1000) + `</svg>`)
	logger, _ := logBuffer()
	e := newMWEcho(logger, func(e *echo.Echo) {
		e.GET("/plots/small.svg", func(c echo.Context) error { return serveImmutable(c, "image/svg+xml", small) })
		e.GET("/plots/large.svg", func(c echo.Context) error { return serveImmutable(c, "image/svg+xml", large) })
	})
	sum := sha256.Sum256(small)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`

	first := mwRequest(t, e, http.MethodGet, "/plots/small.svg", nil)
	if first.Code != http.StatusOK || !bytes.Equal(first.Body.Bytes(), small) {
		t.Fatalf("GET = %d %q, want 200 and the body", first.Code, first.Body)
	}
	if got := first.Header().Get("ETag"); got != etag || !regexp.MustCompile(`^"[0-9a-f]{32}"$`).MatchString(got) {
		t.Errorf("ETag = %q, want %q (quoted hex, strong)", got, etag)
	}
	tests := []struct {
		name, ifNoneMatch string
		want              int
	}{
		{"none", "", http.StatusOK},
		{"same", etag, http.StatusNotModified},
		{"weak form", "W/" + etag, http.StatusNotModified},
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
