package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/margin-edu/margin/internal/serve"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/fit"
	"github.com/margin-edu/margin/web/templates/components"
)

// usePostGuards installs the two guards of every POST: drainRefused
// before routing, so that it wraps the body before any limit does, and
// sameOriginPosts after publicOrigin, which it reads.
func usePostGuards(e *echo.Echo) {
	e.Pre(drainRefused(fit.MaxBody, drainMax, drainWait))
	e.Use(sameOriginPosts)
}

// sameOriginPosts refuses, with 403, a POST that a browser sent from a
// page on another origin than this server's or the public URL's
// (-public-url, if set). A page on another site could otherwise make its
// visitors' browsers post work here: a form, or fetch with text/plain,
// needs no CORS preflight. The test is net/http's CrossOriginProtection:
// the browser's own Sec-Fetch-Site header when it sends one (every
// browser since 2023), which no page can forge and no proxy disturbs,
// else the host of Origin against the request's Host. A request with
// neither header (curl, scripts) is no page's doing and goes on, as the
// docs' curl -d examples need. "Origin: null" (a sandboxed frame, a
// file:// page, a redirect across origins) is refused whatever
// Sec-Fetch-Site says: it names no origin that could be this one.
func sameOriginPosts(next echo.HandlerFunc) echo.HandlerFunc {
	protect := http.NewCrossOriginProtection()
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodPost {
			return next(c)
		}
		origin := r.Header.Get("Origin")
		if origin != "null" && (sameOrigin(origin, components.Origin(r.Context())) || protect.Check(r) == nil) {
			return next(c)
		}
		return echo.NewHTTPError(http.StatusForbidden, fmt.Sprintf(
			"a POST from a page on another origin (Origin: %s) is refused; post from Margin's own pages, or without an Origin header (curl, a script)",
			clip(origin)))
	}
}

// sameOrigin says whether the Origin header value origin names own
// (scheme://host[:port]), comparing scheme and host without regard to
// case and treating an explicit default port (:80 for http, :443 for
// https) as none. An empty own, "null" or anything that is not an origin
// is never the same.
func sameOrigin(origin, own string) bool {
	a, aok := parseOrigin(origin)
	b, bok := parseOrigin(own)
	return aok && bok && a == b
}

// parseOrigin normalizes an origin to lower-case scheme://host[:port]
// without a default port, reporting false if s is not one.
func parseOrigin(s string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	scheme, host := strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	host = strings.TrimSuffix(host, map[string]string{"http": ":80", "https": ":443"}[scheme])
	return scheme + "://" + host, true
}

// What drainRefused reads of a refused body, at most, before answering.
const (
	// drainMax bounds the bytes read past the limit: a body up to the
	// limit plus drainMax is read whole (an API body of up to 8 MiB, an
	// upload of up to 5 MiB), so that the client has sent it all and then
	// reads the 413. A body declared longer is answered at once.
	drainMax = 4 << 20
	// drainWait bounds the time the drain takes, whatever the client's
	// speed (4 MiB at 20 Mbit/s takes 1.7 s). It costs no CPU.
	drainWait = 2 * time.Second
)

// drainRefused makes a body refused for its size (413) readable by every
// client, and caps the fit and Gram APIs' bodies at apiMax (fit.MaxBody,
// the 4 MiB docs/api.md names) with a 413 that says so.
//
// A server that answers 413 and closes while the client is still sending
// leaves unread bytes behind, and the kernel answers them with a reset:
// Python's urllib and requests, which send the whole body before reading,
// then report "Connection reset by peer" and never see the answer. So
// once a handler or a limit has refused the body (an *http.MaxBytesError,
// returned or met while reading), the rest of it is read and discarded
// first, up to drainMax bytes past the limit and for at most wait, and
// the connection is closed after the answer. A body declared longer than
// that is not read: the answer is sent at once.
// It runs in e.Pre, before limitUpload, so it holds the body as net/http
// gave it.
func drainRefused(apiMax, drainMax int64, wait time.Duration) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
				return next(c)
			}
			orig := &countingBody{ReadCloser: r.Body}
			r.Body = orig
			var err error
			if strings.HasPrefix(r.URL.Path, "/api/") {
				if r.ContentLength > apiMax {
					err = &http.MaxBytesError{Limit: apiMax}
				} else {
					r.Body = http.MaxBytesReader(innermost(c.Response().Writer), r.Body, apiMax)
				}
			}
			if err == nil {
				err = next(c)
			}
			var tooBig *http.MaxBytesError
			if !errors.As(err, &tooBig) && !errors.As(bodyError(c), &tooBig) {
				return err
			}
			c.Response().Header().Set(echo.HeaderConnection, "close")
			// A client that waits for "100 Continue" before sending has
			// sent nothing that is not read: there is nothing to drain.
			waits := orig.n == 0 && strings.EqualFold(r.Header.Get("Expect"), "100-continue")
			most := tooBig.Limit + drainMax // of the whole body
			if !waits && r.ContentLength <= most && orig.n < most {
				rc := http.NewResponseController(innermost(c.Response().Writer))
				_ = rc.SetReadDeadline(time.Now().Add(wait)) // a recorder in tests has none
				_, _ = io.CopyN(io.Discard, orig, most-orig.n)
				// A body the admission limiter read first (up to its
				// own bound) has its rest still unread behind it.
				if rest, read, ok := serve.RestOf(orig.ReadCloser); ok && read < most {
					_, _ = io.CopyN(io.Discard, rest, most-read)
				}
			}
			return err
		}
	}
}

// countingBody counts the bytes read from a request body.
type countingBody struct {
	io.ReadCloser
	n int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	return n, err
}
