package main

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/klauspost/compress/gzhttp"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/serve"
	"github.com/margin-edu/margin/web/static"
)

// NewServer returns Margin's HTTP handler for course, with every route
// installed. It builds nothing: run builds the course (and Course.Build
// checks it and makes its default views) before serving it; tests serve
// demos of their own. It holds no per-user state: everything a page shows
// comes from its URL.
func NewServer(logger *slog.Logger, course *demo.Course) *echo.Echo {
	return NewServerConfig(logger, course, Config{})
}

// NewServerConfig is NewServer with what run's flags set (Config).
func NewServerConfig(logger *slog.Logger, course *demo.Course, cfg Config) *echo.Echo {
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = errorHandler(logger, navLinks(course.Catalog, ""))
	useMiddleware(e, logger)
	e.Use(publicOrigin(cfg.PublicURL))
	addRoutes(e, course)
	addShareRoutes(e, course, cfg)
	return e
}

// limits are the server's admission control and response cache (flags
// of run; docs/performance.md).
type limits struct {
	workPerCore int           // expensive computations at once, per core
	queue       int           // expensive requests waiting for a slot, at most
	wait        time.Duration // how long one waits before a 503
	cacheBytes  int64         // the response cache's bound
}

// crowdHandler puts e behind the response cache and then admission
// control (internal/serve): a cache hit never waits for a slot, and a
// HEAD is answered from GET's entry; static files and /healthz never
// touch the cache and never wait. Page routes mark their 200s as keepable
// (keepRendered); plots say so with Cache-Control: immutable.
//
// A slot is held only while a request computes: its body (up to maxBody,
// at most bodyBudget bytes of bodies at once) is read before it waits for
// a slot, and its answer is written after the slot is given back (the
// cache's copy for a GET, the limiter's for the rest), so slow clients
// cost goroutines and bytes, not slots. Near the memory limit (-memory),
// uncached work is refused with 503 while cache hits and /healthz answer.
func crowdHandler(e *echo.Echo, l limits) http.Handler {
	h, _ := crowd(e, l)
	return h
}

// bodyBudget bounds the request bodies read ahead of admission at once:
// a dozen of the largest (maxBody) or thousands of the fit API's usual
// few KiB.
const bodyBudget = 64 << 20

// crowd is crowdHandler, with its limiter for tests to watch.
func crowd(e *echo.Echo, l limits) (http.Handler, *serve.Limiter) {
	cheap := func(r *http.Request) bool {
		return r.URL.Path == "/healthz" || strings.HasPrefix(r.URL.Path, "/static/")
	}
	e.Use(keepRendered)
	lim := serve.NewLimiter(l.workPerCore*cores, l.queue, l.wait).ReadFirst(maxBody, bodyBudget).
		GuardMemory(serve.RuntimeMemory()) // a no-op unless -memory or GOMEMLIMIT set a limit
	keys := []serve.KeyHeader{serve.AcceptsGzip, serve.Exact(hxRequest), serve.Exact(hxHistoryRestore)}
	return serve.NewCache(lim.Wrap(e, cheap), l.cacheBytes, keys, cheap), lim
}

// keepRendered marks the 200s of GET page and CSV routes as determined by
// their URL and key headers, for the response cache.
func keepRendered(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p := c.Path()
		if c.Request().Method == http.MethodGet && (p == "/" || strings.HasPrefix(p, "/lessons/") ||
			strings.HasPrefix(p, "/present/") || strings.HasPrefix(p, "/demos/") ||
			strings.HasPrefix(p, "/embed/") || p == deckPath) {
			c.Response().Header().Set(serve.KeepHeader, "1")
		}
		return next(c)
	}
}

// useMiddleware installs the middleware every request passes through, in
// this order:
//
//   - e.Pre, before routing, so that they see every request, including
//     404s, 405s and the ones they refuse themselves:
//     securityHeaders first, so that every response carries them;
//     requestLogger, so that every request is logged once with its
//     real method and final status; Recover, inside the logger so that a
//     panic is logged as the 500 it becomes; headAsGet, so that the
//     router finds GET routes for HEAD; limitURL, so that no handler
//     parses a huge query.
//   - e.Use, after routing: limitUpload(maxBody), a cap on every body
//     (routes add tighter ones); gzip.
func useMiddleware(e *echo.Echo, logger *slog.Logger) {
	e.Pre(securityHeaders)
	e.Pre(requestLogger(logger))
	e.Pre(middleware.RecoverWithConfig(middleware.RecoverConfig{
		LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
			logger.Error("panic", "uri", c.Request().RequestURI, "err", err, "stack", string(stack))
			return err
		},
	}))
	e.Pre(headAsGet)
	e.Pre(limitURL(maxPath, maxQuery))
	e.Use(limitUpload(maxBody))
	// The lesson page carries its math twice (HTML and MathML, ~0.5 MB);
	// gzip takes it to a few tens of KB. Handlers that vary on another
	// header call varyOn, never Set. Level 1: an SVG comes out about 16 %
	// larger than at level 5, but in half the time, and under the homework
	// load (every plot new) that halved the median latency
	// (docs/performance.md); what a hall shares is compressed once and kept
	// by the response cache. klauspost/compress's gzip at level 1 takes 40 %
	// less CPU than the standard library's for 7 % smaller SVGs, and leaves
	// alone what a handler encoded already (the static files come gzipped).
	e.Use(gzipAnswers)
}

// gzipAnswers compresses an answer through gzipWrapper, except PNGs and
// GIFs (compressed already, and never varying on Accept-Encoding, so the
// response cache keeps one copy) and the static files (gzipped at
// startup by static.Serve). An error is turned into its page inside the
// wrapper, so the page is compressed like any answer and written before
// the wrapper's writer goes back to its pool.
func gzipAnswers(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if p := c.Path(); strings.HasSuffix(p, ".png") || strings.HasSuffix(p, ".gif") ||
			strings.HasPrefix(c.Request().URL.Path, static.Prefix) {
			return next(c)
		}
		res := c.Response()
		orig := res.Writer
		defer func() { res.Writer = orig }()
		oneReading(c.Request().Header)
		var err error
		gzipWrapper(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			res.Writer = w
			c.SetRequest(r)
			if err = next(c); err != nil {
				c.Error(err) // the outer handlers see the error, and a committed answer
			}
		})).ServeHTTP(orig, c.Request())
		return err
	}
}

// oneReading rewrites a request's Accept-Encoding to exactly "gzip" when
// serve.AcceptsGzipEncoding says the answer may be gzipped, and removes it
// when not, so that gzhttp's own reading of the header (its first value
// only, no *) decides as the response cache's key does: a client sending
// "GZIP", "gzip;q=0", "*" or the header twice gets the encoding its key
// stands for.
func oneReading(h http.Header) {
	if serve.AcceptsGzipEncoding(h) {
		h.Set(echo.HeaderAcceptEncoding, "gzip")
	} else {
		h.Del(echo.HeaderAcceptEncoding)
	}
}

// gzipWrapper compresses text answers over 2 KB for clients that accept
// gzip, at gzip's fastest level.
var gzipWrapper = func() func(http.Handler) http.HandlerFunc {
	w, err := gzhttp.NewWrapper(gzhttp.CompressionLevel(1), gzhttp.MinSize(2048), gzhttp.ContentTypeFilter(compressible))
	if err != nil {
		panic(err) // the options are constants
	}
	return w
}()

// compressible says which answers gzip shrinks: text, SVG, JSON, CSV and
// JavaScript; PNG and GIF are compressed already.
func compressible(contentType string) bool {
	ct := strings.ToLower(contentType)
	return ct == "" || strings.HasPrefix(ct, "text/") || strings.HasPrefix(ct, "image/svg") ||
		strings.Contains(ct, "json") || strings.Contains(ct, "javascript") || strings.Contains(ct, "xml")
}

// requestLogger logs one line per request: at error level for a 5xx,
// except a 503, which is a computation stopped by its deadline or by the
// client leaving (errors.go), not a fault of the server.
func requestLogger(logger *slog.Logger) echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogMethod:   true,
		LogURI:      true,
		LogStatus:   true,
		LogLatency:  true,
		LogError:    true,
		HandleError: true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			if v.Status >= 500 && v.Status != http.StatusServiceUnavailable {
				level = slog.LevelError
			}
			logger.LogAttrs(c.Request().Context(), level, "request",
				slog.String("method", v.Method), slog.String("uri", v.URI),
				slog.Int("status", v.Status), slog.Duration("latency", v.Latency))
			return nil
		},
	})
}
