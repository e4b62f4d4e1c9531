package serve

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// counting is a handler that renders a body of its URL, gzipped when asked,
// marked immutable, counting its runs.
func counting(runs *atomic.Int64, gate <-chan struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		if gate != nil {
			<-gate
		}
		h := w.Header()
		h.Add("Vary", "Accept-Encoding")
		switch r.URL.Path {
		case "/err":
			w.WriteHeader(http.StatusBadRequest)
			return
		case "/cookie":
			h.Set("Set-Cookie", "a=b")
		case "/page":
			h.Set(KeepHeader, "1")
			h.Add("Vary", "HX-Request")
		case "/other":
			h.Add("Vary", "Accept-Language")
		}
		if r.URL.Path != "/page" {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
			h.Set("ETag", `"t"`)
		}
		if AcceptsGzipEncoding(r.Header) {
			h.Set("Content-Encoding", "gzip")
		}
		_, _ = w.Write([]byte(strings.Repeat(r.URL.RequestURI()+r.Header.Get("HX-Request"), 100)))
	})
}

var testKeys = []KeyHeader{AcceptsGzip, Exact("HX-Request")}

func get(h http.Handler, uri string, hdr ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("GET", uri, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestCacheHitIsIdentical(t *testing.T) {
	var runs atomic.Int64
	c := NewCache(counting(&runs, nil), 1<<20, testKeys, nil)
	for _, hdr := range [][]string{{"Accept-Encoding", "gzip, br"}, {}, {"HX-Request", "true"}} {
		miss := get(c, "/plot?a=1", hdr...)
		hit := get(c, "/plot?a=1", hdr...)
		if miss.Body.String() != hit.Body.String() || !equalHeaders(miss.Header(), hit.Header()) {
			t.Errorf("%v: hit differs from miss:\n%v\n%v", hdr, miss.Header(), hit.Header())
		}
	}
	get(c, "/plot?a=1", "Accept-Encoding", "deflate, gzip") // same entry as "gzip, br"
	if runs.Load() != 3 {
		t.Errorf("handler ran %d times for 3 distinct keys", runs.Load())
	}
	if nm := get(c, "/plot?a=1", "If-None-Match", `W/"t"`); nm.Code != http.StatusNotModified || nm.Header().Get("ETag") != `"t"` || nm.Header().Get("Content-Type") != "" {
		t.Errorf("If-None-Match on a hit: %d %v", nm.Code, nm.Header())
	}
	page := get(c, "/page")
	page2 := get(c, "/page")
	if page.Header().Get(KeepHeader) != "" || page2.Header().Get(KeepHeader) != "" || runs.Load() != 4 {
		t.Errorf("a kept page: runs %d, headers %v", runs.Load(), page2.Header())
	}
	for _, uri := range []string{"/err", "/cookie", "/other"} {
		get(c, uri)
		before := runs.Load()
		get(c, uri)
		if runs.Load() != before+1 {
			t.Errorf("%s was cached", uri)
		}
	}
}

func TestAcceptsGzipEncoding(t *testing.T) {
	for _, tt := range []struct {
		values []string // Accept-Encoding values; nil: no header
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"gzip"}, true},
		{[]string{"GZIP"}, true},
		{[]string{"x-gzip"}, true},
		{[]string{"gzip, deflate, br"}, true},
		{[]string{"br;q=1.0, gzip;q=0.8, *;q=0.1"}, true},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; Q=0.000"}, false},
		{[]string{"gzip;q=0.001"}, true},
		{[]string{"gzip;q=abc"}, false},
		{[]string{"gzip;q=2"}, false},
		{[]string{"*"}, true},
		{[]string{"*;q=0"}, false},
		{[]string{"gzip;q=0, *"}, false}, // * is only what the header does not name
		{[]string{"*;q=0, gzip"}, true},
		{[]string{"identity;q=0"}, false},
		{[]string{"identity;q=0, gzip"}, true},
		{[]string{"identity"}, false},
		{[]string{"deflate", "gzip"}, true}, // the header twice
		{[]string{"br", "gzip;q=0"}, false},
	} {
		h := http.Header{}
		for _, v := range tt.values {
			h.Add("Accept-Encoding", v)
		}
		if got := AcceptsGzipEncoding(h); got != tt.want {
			t.Errorf("Accept-Encoding %q: gzip %v, want %v", tt.values, got, tt.want)
		}
	}
}

// TestCacheKeysOnEncoding: a client whose Accept-Encoding reads unusually
// ("GZIP", "gzip;q=0") gets the bytes its key stands for, and so does the
// next client of each other key, in both orders; and a handler that
// gzips by another reading of the header than the key's gets its answer
// sent but never kept where it does not fit.
func TestCacheKeysOnEncoding(t *testing.T) {
	for _, tt := range []struct {
		first, then string
	}{
		{"GZIP", ""},
		{"gzip;q=0", "gzip"},
		{"", "GZIP"},
		{"gzip", "gzip;q=0"},
		{"*", "identity"},
	} {
		var runs atomic.Int64
		c := NewCache(counting(&runs, nil), 1<<20, testKeys, nil)
		for _, ae := range []string{tt.first, tt.then, tt.first, tt.then} {
			rec := get(c, "/plot?k=1", "Accept-Encoding", ae)
			want := ""
			if AcceptsGzipEncoding(http.Header{"Accept-Encoding": {ae}}) {
				want = "gzip"
			}
			if got := rec.Header().Get("Content-Encoding"); got != want {
				t.Errorf("%q after %q: Content-Encoding %q, want %q", ae, tt.first, got, want)
			}
		}
		if runs.Load() != 2 {
			t.Errorf("%q, %q: the handler ran %d times, want 2 (one per encoding)", tt.first, tt.then, runs.Load())
		}
	}

	// A compressor that reads the header by substring gzips for "GZIP"
	// nothing, and for "gzip;q=0" everything: what it sends is not kept
	// under a key it does not fit.
	var runs atomic.Int64
	substring := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		w.Header().Set("Vary", "Accept-Encoding")
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			w.Header().Set("Content-Encoding", "gzip")
		}
		_, _ = w.Write([]byte("body"))
	})
	c := NewCache(substring, 1<<20, testKeys, nil)
	if rec := get(c, "/p", "Accept-Encoding", "gzip;q=0"); rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("the substring handler did not gzip for gzip;q=0")
	}
	if rec := get(c, "/p"); rec.Header().Get("Content-Encoding") != "" || runs.Load() != 2 {
		t.Errorf("a plain client after gzip;q=0: Content-Encoding %q, runs %d; want \"\", 2", rec.Header().Get("Content-Encoding"), runs.Load())
	}
	// Now the plain client's bytes are kept, and suit gzip;q=0 too.
	if rec := get(c, "/p", "Accept-Encoding", "gzip;q=0"); rec.Header().Get("Content-Encoding") != "" || runs.Load() != 2 {
		t.Errorf("gzip;q=0 after a plain client: Content-Encoding %q, runs %d; want \"\", 2", rec.Header().Get("Content-Encoding"), runs.Load())
	}
	get(c, "/q", "Accept-Encoding", "GZIP") // identity under the gzip key: fits
	if rec := get(c, "/q", "Accept-Encoding", "gzip"); rec.Header().Get("Content-Encoding") != "" || runs.Load() != 3 {
		t.Errorf("gzip after GZIP: Content-Encoding %q, runs %d; want the kept identity bytes, 3", rec.Header().Get("Content-Encoding"), runs.Load())
	}
}

// TestCacheAnswersHead: a HEAD is answered from GET's entry, headers
// alone, and a HEAD miss runs the handler once as a GET and fills the
// entry, so GET then HEAD×3, or HEAD×3 then GET, compute once (issue 28
// §3: HEAD re-rendered a cached GIF each time).
func TestCacheAnswersHead(t *testing.T) {
	for _, order := range [][]string{
		{"GET", "HEAD", "HEAD", "HEAD"},
		{"HEAD", "HEAD", "HEAD", "GET"},
	} {
		var runs atomic.Int64
		c := NewCache(counting(&runs, nil), 1<<20, testKeys, nil)
		var got *httptest.ResponseRecorder
		heads := []*httptest.ResponseRecorder{}
		for _, m := range order {
			w := httptest.NewRecorder()
			c.ServeHTTP(w, httptest.NewRequest(m, "/plot?gif=1", nil))
			if m == "GET" {
				got = w
			} else {
				heads = append(heads, w)
			}
		}
		if runs.Load() != 1 {
			t.Errorf("%v: the handler ran %d times, want 1", order, runs.Load())
		}
		for i, hd := range heads {
			if hd.Code != http.StatusOK || hd.Body.Len() != 0 {
				t.Errorf("%v: HEAD %d: %d with %d bytes of body", order, i, hd.Code, hd.Body.Len())
			}
			if cl := hd.Header().Get("Content-Length"); cl != strconv.Itoa(got.Body.Len()) {
				t.Errorf("%v: HEAD %d: Content-Length %q, GET sent %d bytes", order, i, cl, got.Body.Len())
			}
			hd.Header().Del("Content-Length")
			if !equalHeaders(hd.Header(), got.Header()) {
				t.Errorf("%v: HEAD %d headers %v, GET's %v", order, i, hd.Header(), got.Header())
			}
		}
	}
	// A HEAD of what is not kept runs the handler each time, as a GET would.
	var runs atomic.Int64
	c := NewCache(counting(&runs, nil), 1<<20, testKeys, nil)
	for i := 0; i < 2; i++ {
		w := httptest.NewRecorder()
		c.ServeHTTP(w, httptest.NewRequest("HEAD", "/err", nil))
		if w.Code != http.StatusBadRequest || w.Body.Len() != 0 {
			t.Errorf("HEAD /err: %d with %d bytes", w.Code, w.Body.Len())
		}
	}
	if runs.Load() != 2 {
		t.Errorf("HEAD /err twice ran the handler %d times, want 2", runs.Load())
	}
}

func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if strings.Join(a[k], "|") != strings.Join(b[k], "|") {
			return false
		}
	}
	return true
}

func TestCacheSingleflight(t *testing.T) {
	var runs atomic.Int64
	gate := make(chan struct{})
	c := NewCache(counting(&runs, gate), 1<<20, testKeys, nil)
	const n = 20
	var wg sync.WaitGroup
	bodies := make([]string, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); bodies[i] = get(c, "/plot?b=2").Body.String() }()
	}
	for c.misses.Load() != n {
		time.Sleep(time.Millisecond)
	}
	close(gate)
	wg.Wait()
	if runs.Load() != 1 {
		t.Errorf("%d concurrent misses ran the handler %d times, want 1", n, runs.Load())
	}
	for i := range bodies {
		if bodies[i] != bodies[0] || bodies[i] == "" {
			t.Fatalf("request %d got different bytes", i)
		}
	}
}

func TestCacheEvictsByBytes(t *testing.T) {
	var runs atomic.Int64
	const max = 256 << 10
	c := NewCache(counting(&runs, nil), max, testKeys, nil)
	for i := 0; i < 200; i++ {
		get(c, "/plot?i="+strings.Repeat("x", i))
		if c.Size() > max {
			t.Fatalf("after %d responses the cache holds %d bytes, over its %d", i+1, c.Size(), max)
		}
	}
	before := runs.Load()
	get(c, "/plot?i=") // the first, long evicted
	if runs.Load() != before+1 {
		t.Error("the least recently used entry was not evicted")
	}
	get(c, "/plot?i="+strings.Repeat("x", 199)) // the latest, kept
	if runs.Load() != before+1 {
		t.Error("the most recent entry was evicted")
	}
}

func BenchmarkCacheHit(b *testing.B) {
	var runs atomic.Int64
	c := NewCache(counting(&runs, nil), 1<<20, testKeys, nil)
	r := httptest.NewRequest("GET", "/plot?C=0.1&step=14", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	c.ServeHTTP(httptest.NewRecorder(), r)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.ServeHTTP(discard{http.Header{}}, r)
	}
}

type discard struct{ h http.Header }

func (d discard) Header() http.Header         { return d.h }
func (d discard) Write(p []byte) (int, error) { return len(p), nil }
func (d discard) WriteHeader(int)             {}
