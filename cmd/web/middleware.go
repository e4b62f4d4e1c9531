package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/margin-edu/margin/internal/serve"
)

// Limits on a request, checked before any handler runs. Each is named in
// the message of the error it causes (errors.go), so a client learns what
// to send instead.
const (
	// maxQuery caps the raw query of a URL. A demo with 500 points, the
	// most one takes, fits its whole state in under 16 KiB.
	maxQuery = 32 << 10
	// maxPath caps the escaped path of a URL; Margin's longest is a few
	// dozen bytes.
	maxPath = 2 << 10
	// maxUpload caps a CSV upload (a form with a file or pasted text):
	// 500 points of CSV take a few KiB, so this is generous.
	maxUpload = 1 << 20
	// maxBody caps every request body. It is above the fit API's 4 MiB
	// (fit.MaxBody), which the API checks itself to answer a precise 400.
	maxBody = 5 << 20
)

// Response headers set by the middleware here.
const (
	headerCSP            = "Content-Security-Policy"
	headerNoSniff        = "X-Content-Type-Options"
	headerReferrerPolicy = "Referrer-Policy"
)

// contentSecurityPolicy is the policy of every response, with
// frame-ancestors set to frameAncestors ("'self'" for all but a view meant
// to be embedded). Scripts come only from /static, never inline, so text
// that slips into a page unescaped still cannot run. Styles allow
// 'unsafe-inline' because KaTeX's HTML and gonum's SVG use style
// attributes; images allow data: because plots embed PNG rasters (the
// decision regions) as data URIs.
func contentSecurityPolicy(frameAncestors string) string {
	return "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data:; font-src 'self'; object-src 'none'; base-uri 'self'; " +
		"form-action 'self'; frame-ancestors " + frameAncestors
}

// securityHeaders sets the security headers on every response. It runs
// first (e.Pre), before the response can be written, so that errors,
// redirects, 404s and static files carry them too.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	policy := contentSecurityPolicy("'self'")
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set(headerCSP, policy)
		h.Set(headerNoSniff, "nosniff")
		h.Set(headerReferrerPolicy, "same-origin")
		return next(c)
	}
}

// allowFraming is route middleware for a view meant to be embedded in
// other sites' pages (slides, a course site): it replaces the policy's
// frame-ancestors with sources, such as "*" or "https://slides.example".
// Every other route may be framed only by Margin itself.
func allowFraming(sources string) echo.MiddlewareFunc {
	policy := contentSecurityPolicy(sources)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.Response().Header().Set(headerCSP, policy)
			return next(c)
		}
	}
}

// headAsGet answers HEAD like GET (RFC 9110 §9.3.2), so that every GET
// route answers HEAD with the same status and headers and no body; link
// checkers and curl -I get 200, not 405. It runs in e.Pre, before routing.
// Echo's router reads the method from the *http.Request that net/http
// passed in, not from c.Request(), so the method is changed in place, to
// GET while the handler runs and back to HEAD after it, which the logger
// and the error handler outside then see. Meanwhile headWriter drops the
// body and holds back flushes, so net/http writes the header only once
// the method is HEAD again and so sends no body. Content-Length is not
// computed.
func headAsGet(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodHead {
			return next(c)
		}
		r.Method = http.MethodGet
		defer func() { r.Method = http.MethodHead }()
		c.Response().Writer = headWriter{c.Response().Writer}
		return next(c)
	}
}

// headWriter discards the body of a response to HEAD and passes on the
// status and headers.
type headWriter struct{ http.ResponseWriter }

func (w headWriter) Write(p []byte) (int, error) { return len(p), nil }

// Flush does nothing: a flush while the method reads GET would make
// net/http choose chunked encoding and end a HEAD response with a chunk.
func (w headWriter) Flush() {}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w headWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// uriTooLong is a request whose URL path or query is longer than limit
// bytes; errors.go answers 414 with its message.
type uriTooLong struct {
	part  string // "path" or "query"
	limit int64
}

func (e uriTooLong) Error() string {
	return fmt.Sprintf("the URL's %s is longer than %s, the most Margin reads; shorten it", e.part, byteSize(e.limit))
}

// limitURL refuses a URL whose escaped path is longer than pathMax bytes or
// whose raw query is longer than queryMax, before routing, so that no
// handler parses a huge query. Go's server caps the request line at its
// MaxHeaderBytes (1 MiB here) already; this is much tighter, and a 414
// with a message beats a 431.
func limitURL(pathMax, queryMax int) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			u := c.Request().URL
			switch {
			case len(u.RawQuery) > queryMax:
				return uriTooLong{"query", int64(queryMax)}
			case len(u.EscapedPath()) > pathMax:
				return uriTooLong{"path", int64(pathMax)}
			}
			return next(c)
		}
	}
}

// limitUpload caps a request body at n bytes. A body that declares a
// larger Content-Length is refused before anything is read; one of
// unknown length (chunked) is cut off by http.MaxBytesReader once it
// passes n, whatever the handler then reports. Either way the answer is a
// 413 naming n (errors.go maps *http.MaxBytesError). Applied more than
// once, the smallest limit wins.
func limitUpload(n int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if r.ContentLength > n {
				return &http.MaxBytesError{Limit: n}
			}
			if r.Body != nil && r.Body != http.NoBody { // a GET has nothing to cap
				// The connection's own writer, so that net/http closes the
				// connection after the reply instead of reading the rest.
				r.Body = http.MaxBytesReader(innermost(c.Response().Writer), r.Body, n)
				watchBody(c)
			}
			return next(c)
		}
	}
}

// innermost unwraps w (echo's gzip writer, headWriter) down to the writer
// net/http gave the handler.
func innermost(w http.ResponseWriter) http.ResponseWriter {
	for {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
}

// bodyWatch remembers the first error, other than io.EOF, that reading the
// request body returned. Handlers and libraries often report it as text
// (fit.Decode says "reading the body: %v"; a form parser says it cannot
// read the form), which would turn a slow or oversized body into a 400
// quoting "read tcp 127.0.0.1:…: i/o timeout". errors.go asks the watch
// first, so the status and message come from the cause.
type bodyWatch struct {
	io.ReadCloser
	err error
}

func (b *bodyWatch) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF && b.err == nil {
		b.err = err
	}
	return n, err
}

// bodyWatchKey holds the request's outermost *bodyWatch in echo.Context.
const bodyWatchKey = "margin.bodyWatch"

// watchBody wraps the request body in a bodyWatch that replaces any
// earlier one: the outermost reader sees every error of the inner ones.
func watchBody(c echo.Context) {
	r := c.Request()
	w := &bodyWatch{ReadCloser: r.Body}
	r.Body = w
	c.Set(bodyWatchKey, w)
}

// bodyError is the first error reading the request body returned, or nil.
func bodyError(c echo.Context) error {
	if w, ok := c.Get(bodyWatchKey).(*bodyWatch); ok {
		return w.err
	}
	return nil
}

// byteSize writes n for a message: "1 MiB", "32 KiB", or "1500 bytes"
// when n is not a whole number of either.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// cacheImmutable is the Cache-Control of a response that its URL alone
// determines: any cache may keep it for a year without asking again.
const cacheImmutable = "public, max-age=31536000, immutable"

// serveImmutable answers 200 with body, for a URL that alone determines
// it: a canonical plot URL holds the whole state of the demo, so its
// picture never changes and may be cached for a year and shared (plots
// are pasted into slides and notes on other sites, hence
// Access-Control-Allow-Origin: *).
//
// The strong ETag is a hash of body, not of the URL, so a release that
// draws the same state differently gets a new tag. A request whose
// If-None-Match lists that tag, or is *, gets 304 with the same caching
// headers and no body. The tag names the unencoded bytes; gzip keeps it,
// which is sound for If-None-Match (a weak comparison) and for caches
// (Vary: Accept-Encoding), and plots are not served in ranges.
func serveImmutable(c echo.Context, contentType string, body []byte) error {
	sum := sha256.Sum256(body)
	etag := `W/"` + hex.EncodeToString(sum[:16]) + `"` // weak: gzip re-encodes the body (issue 18 §1.9)
	h := c.Response().Header()
	h.Set(echo.HeaderCacheControl, cacheImmutable)
	h.Set("ETag", etag)
	h.Set(echo.HeaderAccessControlAllowOrigin, "*")
	if serve.ETagMatches(c.Request().Header.Values("If-None-Match"), etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, contentType, body)
}

// varyOn adds header to the response's Vary list unless it is there
// already (or Vary is *). Handlers call it instead of setting Vary, which
// would drop the Accept-Encoding that the gzip middleware added first: a
// cache that kept only one of the two would hand a gzipped htmx fragment
// to a browser that asked for the whole page, or the reverse.
func varyOn(c echo.Context, header string) {
	h := c.Response().Header()
	for _, v := range h.Values(echo.HeaderVary) {
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if f == "*" || strings.EqualFold(f, header) {
				return
			}
		}
	}
	h.Add(echo.HeaderVary, header)
}
