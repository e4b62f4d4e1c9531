package static

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func serve(method, target string, header ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	Serve(w, r)
	return w
}

// TestServe: fingerprinted URLs are immutable, unversioned ones revalidate,
// both answer 304 to their ETag; KaTeX's relative font URLs resolve under
// the fingerprint; near misses are 404.
func TestServe(t *testing.T) {
	css := URL("vendor/katex/katex.min.css")
	font := strings.TrimSuffix(css, "katex.min.css") + "fonts/KaTeX_Main-Regular.woff2"
	for target, cache := range map[string]string{css: CacheImmutable, font: CacheImmutable, "/static/app.css": cacheRevalidate} {
		w := serve(http.MethodGet, target)
		etag := w.Header().Get("ETag")
		if w.Code != http.StatusOK || w.Body.Len() < 100 || w.Header().Get("Cache-Control") != cache || !strings.HasPrefix(etag, `W/"`) {
			t.Errorf("GET %s = %d (%d bytes), Cache-Control %q, ETag %q", target, w.Code, w.Body.Len(), w.Header().Get("Cache-Control"), etag)
		}
		for _, inm := range []string{etag, strings.TrimPrefix(etag, "W/"), `"x", ` + etag, "*"} {
			if w := serve(http.MethodGet, target, "If-None-Match", inm); w.Code != http.StatusNotModified || w.Body.Len() != 0 {
				t.Errorf("GET %s If-None-Match %s = %d", target, inm, w.Code)
			}
		}
	}
	if w := serve(http.MethodHead, URL("app.js")); w.Code != http.StatusOK || w.Body.Len() != 0 || !strings.Contains(w.Header().Get("Content-Type"), "javascript") {
		t.Errorf("HEAD app.js = %d, %d bytes, %q", w.Code, w.Body.Len(), w.Header().Get("Content-Type"))
	}
	for _, target := range []string{"/static/app.css/", "/static/", "/static/vendor", "/static/" + Version() + "/", URL("app.css") + "?v=2", "/static/000000000000/app.css", "/app.css"} {
		if w := serve(http.MethodGet, target); w.Code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", target, w.Code)
		}
	}
}

func TestURLPanicsOnAMissingFile(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("URL(missing.css) did not panic")
		}
	}()
	URL("missing.css")
}
