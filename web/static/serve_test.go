package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strconv"
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

// TestServeGzipped: a stylesheet or script is sent gzipped to a client
// that takes gzip (compressed once at start-up, so it decompresses to the
// file) and whole to one that does not, with Vary: Accept-Encoding on
// both; a font, compressed already, is sent as it is to both.
func TestServeGzipped(t *testing.T) {
	for _, name := range []string{"app.css", "app.js", "vendor/katex/katex.min.css"} {
		want, err := fs.ReadFile(FS, name)
		if err != nil {
			t.Fatal(err)
		}
		gz := serve(http.MethodGet, URL(name), "Accept-Encoding", "gzip, deflate, br")
		plain := serve(http.MethodGet, URL(name))
		if gz.Header().Get("Content-Encoding") != "gzip" || plain.Header().Get("Content-Encoding") != "" {
			t.Errorf("%s: Content-Encoding %q with gzip, %q without", name, gz.Header().Get("Content-Encoding"), plain.Header().Get("Content-Encoding"))
			continue
		}
		for _, w := range []*httptest.ResponseRecorder{gz, plain} {
			if w.Header().Get("Vary") != "Accept-Encoding" || w.Header().Get("Content-Length") != strconv.Itoa(w.Body.Len()) {
				t.Errorf("%s: Vary %q, Content-Length %q for %d bytes", name, w.Header().Get("Vary"), w.Header().Get("Content-Length"), w.Body.Len())
			}
		}
		if gz.Body.Len() >= len(want)/2 {
			t.Errorf("%s: gzipped to %d of %d bytes", name, gz.Body.Len(), len(want))
		}
		zr, err := gzip.NewReader(gz.Body)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, want) || !bytes.Equal(plain.Body.Bytes(), want) {
			t.Errorf("%s: the gzipped body decompresses to %d bytes (%v), the plain one is %d; the file is %d", name, len(got), err, plain.Body.Len(), len(want))
		}
	}
	css := URL("vendor/katex/katex.min.css")
	font := strings.TrimSuffix(css, "katex.min.css") + "fonts/KaTeX_Main-Regular.woff2"
	if w := serve(http.MethodGet, font, "Accept-Encoding", "gzip"); w.Header().Get("Content-Encoding") != "" || w.Header().Get("Vary") != "" {
		t.Errorf("the font: Content-Encoding %q, Vary %q; want it as it is", w.Header().Get("Content-Encoding"), w.Header().Get("Vary"))
	}
}
