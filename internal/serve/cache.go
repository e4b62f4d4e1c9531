package serve

import (
	"bytes"
	"container/list"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/singleflight"
)

// KeepHeader is the response header by which a handler marks a 200 that
// its URL and the Cache's key headers alone determine, when it does not
// say so with Cache-Control: immutable (a page may change with a release,
// so browsers must not keep it for a year, but one process may). The
// Cache removes it from every response it passes on.
const KeepHeader = "Margin-Cache-Keep"

// KeyHeader is a request header a cached response may depend on, with the
// function that reduces its value to what the response depends on (so
// that "gzip, deflate" and "gzip, br" share an entry when only gzip
// matters). Fits, when not nil, reports whether a response may be kept
// under the reduced value v: the cache keeps nothing that a later request
// of the same key must not get, whatever the handler did.
type KeyHeader struct {
	Name  string
	Value func(http.Header) string
	Fits  func(v string, response http.Header) bool
}

// Exact is a key header whose whole (first) value counts.
func Exact(name string) KeyHeader {
	return KeyHeader{Name: name, Value: func(h http.Header) string { return h.Get(name) }}
}

// AcceptsGzip is Accept-Encoding reduced to whether it lets the answer be
// gzipped (AcceptsGzipEncoding, by which cmd/web's compressor decides
// too). Under the key of a client that takes no gzip only uncompressed
// bytes are kept; under a gzip client's, gzip or the uncompressed bytes
// the compressor leaves small or compressed answers in. So "GZIP" and
// "gzip;q=0" each get their own bytes, and a plain client never gets
// gzip.
var AcceptsGzip = KeyHeader{
	Name: "Accept-Encoding",
	Value: func(h http.Header) string {
		if AcceptsGzipEncoding(h) {
			return "gzip"
		}
		return ""
	},
	Fits: func(v string, response http.Header) bool {
		switch ce := strings.ToLower(strings.TrimSpace(response.Get("Content-Encoding"))); ce {
		case "", "identity":
			return true
		case "gzip":
			return v == "gzip"
		default:
			return false
		}
	},
}

// Cache keeps rendered responses in memory, bounded in bytes, least
// recently used first out, keyed by method, the request URI as sent and
// the key headers, a HEAD sharing GET's entries. It stores only what is
// safe to replay: a 200 to a GET (or to a HEAD, run as a GET)
// that carries Cache-Control: immutable or KeepHeader, sets no cookie,
// says neither no-store nor private, and whose Vary names only key
// headers. It holds the bytes exactly as the handler wrote them (gzipped
// when the handler gzipped them), with the handler's headers, so a hit
// sends what a miss would have sent. Concurrent misses of one key run the
// handler once (singleflight); the others wait and share its answer when
// it can be kept, and run the handler themselves when it cannot.
type Cache struct {
	next    http.Handler
	max     int64
	keys    []KeyHeader
	bypass  func(*http.Request) bool
	flights singleflight.Group

	mu    sync.Mutex
	lru   *list.List // of *entry, most recent first
	items map[string]*list.Element
	size  int64

	hits, misses, runs atomic.Int64
}

// entry is a kept response.
type entry struct {
	key    string
	header http.Header
	body   []byte
	etag   string
}

func (e *entry) cost() int64 {
	n := int64(len(e.key) + len(e.body) + 256)
	for k, vs := range e.header {
		n += int64(len(k))
		for _, v := range vs {
			n += int64(len(v)) + 16
		}
	}
	return n
}

// NewCache returns next behind a cache of at most maxBytes, keyed also by
// keys; bypass reports requests never looked up or kept (static files,
// health checks: cheaper to serve than to keep).
func NewCache(next http.Handler, maxBytes int64, keys []KeyHeader, bypass func(*http.Request) bool) *Cache {
	return &Cache{next: next, max: maxBytes, keys: keys, bypass: bypass, lru: list.New(), items: map[string]*list.Element{}}
}

// Stats reports hits, misses and handler runs so far (runs ≤ misses:
// misses that waited on another's run share it).
func (c *Cache) Stats() (hits, misses, runs int64) {
	return c.hits.Load(), c.misses.Load(), c.runs.Load()
}

// Size is the bytes the cache holds now, as it counts them.
func (c *Cache) Size() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

// key is the request's cache key, of its key headers' values vs.
func (c *Cache) key(r *http.Request, vs []string) string {
	var b strings.Builder
	if r.Method == http.MethodHead {
		b.WriteString(http.MethodGet) // a HEAD is answered from GET's entry
	} else {
		b.WriteString(r.Method)
	}
	b.WriteByte(' ')
	b.WriteString(r.URL.RequestURI())
	for i, k := range c.keys {
		b.WriteByte('\n')
		b.WriteString(k.Name)
		b.WriteByte(':')
		b.WriteString(vs[i])
	}
	return b.String()
}

// values are the request's key headers reduced, in the order of c.keys.
func (c *Cache) values(r *http.Request) []string {
	vs := make([]string, len(c.keys))
	for i, k := range c.keys {
		vs[i] = k.Value(r.Header)
	}
	return vs
}

// ServeHTTP answers GET and HEAD from the cache, and runs the handler
// for the rest. A HEAD shares GET's entries: a hit sends the kept
// headers without the body, and a miss runs the handler as a GET, keeps
// what it may and sends the headers, so a HEAD never costs more than the
// GET it stands for (it re-rendered a cached GIF each time, 1 s of CPU).
func (c *Cache) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if (r.Method != http.MethodGet && r.Method != http.MethodHead) || (c.bypass != nil && c.bypass(r)) {
		c.next.ServeHTTP(stripKeep{w}, r)
		return
	}
	vs := c.values(r)
	key := c.key(r, vs)
	if e := c.get(key); e != nil {
		c.hits.Add(1)
		e.serve(w, r)
		return
	}
	c.misses.Add(1)
	leader := false
	v, _, _ := c.flights.Do(key, func() (any, error) {
		leader = true
		c.runs.Add(1)
		rec := &recorder{header: http.Header{}}
		c.next.ServeHTTP(rec, asGet(r))
		e := rec.entry(key, c.keys, vs)
		if e != nil && e.cost() <= c.max/8 {
			c.put(e)
		}
		return rec, nil
	})
	rec := v.(*recorder)
	switch {
	case leader:
		rec.send(w, r)
	case rec.kept != nil:
		c.hits.Add(1)
		rec.kept.serve(w, r)
	default:
		// The run could not be shared (an error, a redirect, the
		// leader's client gone): answer this request on its own.
		c.runs.Add(1)
		c.next.ServeHTTP(stripKeep{w}, r)
	}
}

// asGet is r as a GET: a HEAD's miss runs the handler for the whole
// answer, which the cache keeps and the HEAD's client gets the headers
// of. (The handler, and its log line, see a GET.)
func asGet(r *http.Request) *http.Request {
	if r.Method == http.MethodGet {
		return r
	}
	g := *r
	g.Method = http.MethodGet
	return &g
}

func (c *Cache) get(key string) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil
	}
	c.lru.MoveToFront(el)
	return el.Value.(*entry)
}

func (c *Cache) put(e *entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[e.key]; ok {
		c.size -= el.Value.(*entry).cost()
		c.lru.Remove(el)
	}
	c.items[e.key] = c.lru.PushFront(e)
	c.size += e.cost()
	for c.size > c.max {
		old := c.lru.Back()
		oe := old.Value.(*entry)
		c.lru.Remove(old)
		delete(c.items, oe.key)
		c.size -= oe.cost()
	}
}

// serve writes the kept response, or 304 Not Modified when the request's
// If-None-Match matches its ETag, with the headers the handler's own 304
// sends (the kept ones less those describing a body).
func (e *entry) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	for k, vs := range e.header {
		h[k] = vs // shared, read-only: net/http only reads them
	}
	if e.etag != "" && ETagMatches(r.Header.Values("If-None-Match"), e.etag) {
		h.Del("Content-Type")
		h.Del("Content-Encoding")
		h.Del("Content-Length")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	writeBody(w, r, http.StatusOK, e.body)
}

// writeBody sends status and body, or for a HEAD the status and the
// Content-Length the body has, which net/http cannot count without it.
func writeBody(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	if r.Method == http.MethodHead {
		if status == http.StatusOK && w.Header().Get("Content-Length") == "" {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.WriteHeader(status)
		return
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// ETagMatches reports whether If-None-Match header values (each a
// comma-separated list of entity tags, or *) match etag by the weak
// comparison RFC 9110 §13.1.2 prescribes: W/ prefixes are ignored. The
// server's handlers use it too, so a cache hit answers 304 exactly when
// the handler would.
func ETagMatches(ifNoneMatch []string, etag string) bool {
	for _, v := range ifNoneMatch {
		for _, t := range strings.Split(v, ",") {
			t = strings.TrimSpace(t)
			if t == "*" || strings.TrimPrefix(t, "W/") == strings.TrimPrefix(etag, "W/") {
				return true
			}
		}
	}
	return false
}

// recorder holds a response while the handler writes it.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	kept   *entry // set when the response was kept
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(p)
}

// Flush does nothing: the response goes out whole once the handler ends.
func (r *recorder) Flush() {}

// send writes the recorded response to w, whatever it was, as the answer
// to req (its headers alone to a HEAD).
func (r *recorder) send(w http.ResponseWriter, req *http.Request) {
	h := w.Header()
	for k, vs := range r.header {
		if k != KeepHeader {
			h[k] = vs
		}
	}
	status := r.status
	if status == 0 {
		status = http.StatusOK
	}
	writeBody(w, req, status, r.body.Bytes())
}

// entry returns the recorded response as an entry when it may be kept,
// and nil when not; see Cache.
func (r *recorder) entry(key string, keys []KeyHeader, values []string) *entry {
	h := r.header
	for i, k := range keys {
		if k.Fits != nil && !k.Fits(values[i], h) {
			return nil // the bytes do not suit every request of this key
		}
	}
	if r.status != http.StatusOK || len(h.Values("Set-Cookie")) > 0 {
		return nil
	}
	cc := strings.ToLower(strings.Join(h.Values("Cache-Control"), ","))
	if strings.Contains(cc, "no-store") || strings.Contains(cc, "private") || strings.Contains(cc, "no-cache") {
		return nil
	}
	if !strings.Contains(cc, "immutable") && h.Get(KeepHeader) == "" {
		return nil
	}
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f != "" && !named(keys, f) {
				return nil // the bytes depend on a header the key leaves out
			}
		}
	}
	header := h.Clone()
	header.Del(KeepHeader)
	r.header = header
	r.kept = &entry{key: key, header: header, body: bytes.Clone(r.body.Bytes()), etag: h.Get("ETag")}
	return r.kept
}

func named(keys []KeyHeader, name string) bool {
	for _, k := range keys {
		if strings.EqualFold(k.Name, name) {
			return true
		}
	}
	return false
}

// stripKeep removes KeepHeader from a response the cache passes through.
type stripKeep struct{ http.ResponseWriter }

func (s stripKeep) WriteHeader(status int) {
	s.ResponseWriter.Header().Del(KeepHeader)
	s.ResponseWriter.WriteHeader(status)
}

func (s stripKeep) Write(p []byte) (int, error) {
	s.ResponseWriter.Header().Del(KeepHeader)
	return s.ResponseWriter.Write(p)
}

// Flush passes a flush on; Unwrap lets http.ResponseController and
// cmd/web's limits reach the connection's writer.
func (s stripKeep) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s stripKeep) Unwrap() http.ResponseWriter { return s.ResponseWriter }
