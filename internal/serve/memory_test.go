package serve

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestMemoryGuard: with the live heap at 90 % of the limit or more (an
// injected probe), uncached work is a 503 with Retry-After, while a cached
// response and /healthz keep answering; below it, or with no limit,
// work is admitted.
func TestMemoryGuard(t *testing.T) {
	var live, limit atomic.Uint64
	probe := func() (uint64, uint64) { return live.Load(), limit.Load() }
	var runs atomic.Int64
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" {
			_, _ = w.Write([]byte("ok"))
			return
		}
		counting(&runs, nil).ServeHTTP(w, r)
	})
	l := NewLimiter(2, 4, time.Second).GuardMemory(probe)
	c := NewCache(l.Wrap(inner, cheapHealthz), 1<<20, testKeys, cheapHealthz)

	limit.Store(512 << 20)
	live.Store(400 << 20) // 78 %
	if rec := get(c, "/plot?kept=1"); rec.Code != http.StatusOK {
		t.Fatalf("at 78 %% of the limit: %d, want 200", rec.Code)
	}
	for _, tt := range []struct {
		live, limit uint64
		uri         string
		want        int
	}{
		{461 << 20, 512 << 20, "/plot?new=1", http.StatusServiceUnavailable}, // 90 %
		{600 << 20, 512 << 20, "/plot?new=2", http.StatusServiceUnavailable},
		{600 << 20, 512 << 20, "/plot?kept=1", http.StatusOK}, // a cache hit
		{600 << 20, 512 << 20, "/healthz", http.StatusOK},
		{459 << 20, 512 << 20, "/plot?new=3", http.StatusOK}, // 89.6 %
		{600 << 20, 0, "/plot?new=4", http.StatusOK},         // no limit
		{600 << 20, 1<<63 - 1, "/plot?new=5", http.StatusOK}, // GOMEMLIMIT's default
	} {
		live.Store(tt.live)
		limit.Store(tt.limit)
		rec := get(c, tt.uri)
		if rec.Code != tt.want {
			t.Errorf("%s with %d MiB live of %d: %d, want %d", tt.uri, tt.live>>20, tt.limit>>20, rec.Code, tt.want)
		}
		if rec.Code == http.StatusServiceUnavailable {
			if rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "memory") {
				t.Errorf("%s refused: Retry-After %q, body %q", tt.uri, rec.Header().Get("Retry-After"), rec.Body.String())
			}
		}
	}
	// POST bodies are not read while the guard refuses.
	live.Store(600 << 20)
	limit.Store(512 << 20)
	body := &countingReader{r: strings.NewReader("abc")}
	req := httptest.NewRequest("POST", "/api", body)
	l.ReadFirst(1<<20, 1<<20)
	w := httptest.NewRecorder()
	c.ServeHTTP(w, req)
	if w.Code != http.StatusServiceUnavailable || body.n != 0 {
		t.Errorf("a POST near the limit: %d after reading %d bytes; want 503 after 0", w.Code, body.n)
	}
}

type countingReader struct {
	r interface{ Read([]byte) (int, error) }
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestRuntimeMemory: the runtime's probe reads the heap the last
// collection found live, and the limit debug.SetMemoryLimit holds.
func TestRuntimeMemory(t *testing.T) {
	runtime.GC()
	live, limit := RuntimeMemory()()
	if live == 0 || limit == 0 {
		t.Errorf("RuntimeMemory: live %d, limit %d; want both positive", live, limit)
	}
}
