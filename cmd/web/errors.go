package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strings"

	"github.com/margin-edu/margin/internal/fit/budget"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/fit"
	"github.com/margin-edu/margin/internal/textfmt"
	"github.com/margin-edu/margin/web/templates/layout"
	"github.com/margin-edu/margin/web/templates/pages"
)

// badRequest marks an error as the client's fault: a 400 whose message
// says what to change.
type badRequest struct{ err error }

func (b badRequest) Error() string { return b.err.Error() }
func (b badRequest) Unwrap() error { return b.err }

func bad(err error) error { return badRequest{err} }

// lister is an error made of several problems that each make sense alone,
// such as one per bad query key (lessons.Problems). Each is one bullet on
// the error page.
type lister interface{ List() []string }

// Messages for errors whose own text is not for the client: it names
// addresses and Go internals, and says nothing about what to do.
const (
	msgInternal = "internal error; it has been logged"
	msgStopped  = "the computation was stopped (timeout or the client left); try a smaller request"
	msgSlowBody = "the request body arrived too slowly; send it again"
	msgBadBody  = "the request body could not be read (it ended early or was malformed); send it again"
)

// problem is an error as the client sees it: a status and one or more
// messages, each of which makes sense alone.
type problem struct {
	status int
	lines  []string
}

// errorHandler is the one place errors become HTTP responses (classify
// says which status each error gets). A 5xx other than 503 is logged with
// the error and its stack (a demo's *lessons.InternalError carries the
// one where the kit met it) and answered with a fixed message. API paths
// answer JSON, plots and other files plain text, pages HTML (nav is the
// course's lessons, for its navigation bar); HEAD gets no body.
func errorHandler(logger *slog.Logger, nav []layout.NavLink) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		r := c.Request()
		p := classify(c, err)
		p.lines = bounded(p.lines)
		switch {
		case p.status == http.StatusServiceUnavailable:
			logger.Info("request stopped", "uri", r.RequestURI, "err", err)
		case p.status >= 500:
			logger.Error("request failed", "uri", r.RequestURI, "err", err, "stack", string(stackOf(err)))
			p.lines = []string{msgInternal}
		}
		var werr error
		switch path := r.URL.Path; {
		case r.Method == http.MethodHead:
			werr = c.NoContent(p.status)
		case strings.HasPrefix(path, "/api/"):
			werr = c.JSON(p.status, map[string]string{"error": strings.Join(p.lines, "; ")})
		case strings.HasPrefix(path, "/plots/") || strings.HasSuffix(path, ".csv") || strings.HasPrefix(path, "/static/"):
			werr = c.String(p.status, strings.Join(p.lines, "\n")+"\n")
		default:
			// Without the request's cancellation: the page must be written
			// even when the context is done, as it is after the connection's
			// read failed (a 408) or the client left (a 503).
			c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
			c.Response().WriteHeader(p.status)
			werr = pages.Error(p.status, http.StatusText(p.status), p.lines, nav).Render(context.WithoutCancel(r.Context()), c.Response())
		}
		if werr != nil {
			logger.Error("writing error response", "err", werr)
		}
	}
}

// classify maps an error to what the client is told. The request body's
// own read error, if any, comes first: it is the cause, whatever the
// handler made of it.
func classify(c echo.Context, err error) problem {
	berr := bodyError(c)
	if p, ok := receiveProblem(c, berr); ok {
		return p
	}
	if berr != nil {
		return one(http.StatusBadRequest, msgBadBody)
	}
	if p, ok := receiveProblem(c, err); ok {
		return p
	}
	var (
		long  uriTooLong
		list  lister
		br    badRequest
		input *demo.InputError
		he    *echo.HTTPError
	)
	switch {
	case budget.IsSpent(err):
		// The fit's own CPU budget, not the server's load: a retry
		// meets the same budget, so the message says what to change.
		return one(http.StatusServiceUnavailable, err.Error()+"; send fewer rows or features, or rescale x to numbers near 1, and try again")
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return one(http.StatusServiceUnavailable, msgStopped)
	case errors.As(err, &long):
		return one(http.StatusRequestURITooLong, long.Error())
	case errors.Is(err, fit.ErrUnprocessable), errors.Is(err, demo.ErrUncomputable):
		return one(http.StatusUnprocessableEntity, err.Error())
	case errors.As(err, &input):
		return one(http.StatusBadRequest, input.Error())
	case errors.As(err, &list) && len(list.List()) > 0:
		return problem{http.StatusBadRequest, list.List()}
	case errors.Is(err, fit.ErrBadRequest), errors.As(err, &br):
		return one(http.StatusBadRequest, err.Error())
	case errors.Is(err, echo.ErrNotFound):
		return one(http.StatusNotFound, fmt.Sprintf("there is nothing at %s; the lessons are listed at /", clip(c.Request().URL.Path)))
	case errors.As(err, &he):
		if m, ok := he.Message.(string); ok {
			return one(he.Code, m)
		}
		return one(he.Code, http.StatusText(he.Code))
	}
	return one(http.StatusInternalServerError, msgInternal)
}

// stackOf is the stack an error carries (a demo's *lessons.InternalError
// has the one where the kit met it), or else the handler's own.
func stackOf(err error) []byte {
	var st interface{ Stack() []byte }
	if errors.As(err, &st) {
		return st.Stack()
	}
	return debug.Stack()
}

// receiveProblem classifies an error in receiving the request: a body
// over its limit (413), a body that did not arrive before the server's
// ReadTimeout (408), or another network failure (400). Their own text
// ("read tcp 127.0.0.1:8080->…: i/o timeout") is never shown. It reports
// false for any other error, and for nil.
func receiveProblem(c echo.Context, err error) (problem, bool) {
	var (
		tooBig *http.MaxBytesError
		ne     net.Error
	)
	switch {
	case err == nil:
		return problem{}, false
	case errors.As(err, &tooBig):
		return one(http.StatusRequestEntityTooLarge, tooLargeMessage(c.Request().URL.Path, tooBig.Limit)), true
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		// context.DeadlineExceeded is a net.Error with Timeout(), but it is
		// the computation's deadline, not the body's (classify: 503).
		return problem{}, false
	case errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return one(http.StatusRequestTimeout, msgSlowBody), true
	case errors.As(err, &ne):
		return one(http.StatusBadRequest, msgBadBody), true
	}
	return problem{}, false
}

// tooLargeMessage names the limit, and for the demo's CSV upload how many
// points a demo takes, which is what the limit is really about.
func tooLargeMessage(path string, limit int64) string {
	if strings.HasPrefix(path, "/api/") {
		return "the request body is larger than " + byteSize(limit)
	}
	return fmt.Sprintf("the upload is larger than %s; send at most %d points", byteSize(limit), demo.MaxPoints)
}

// Bounds on what an error message repeats, so an answer stays a few KiB
// whatever the request (6,500 unknown keys, one 32 KiB key): at most
// maxLines problems, the rest counted, each at most maxLine characters.
const (
	maxLines = 10
	maxLine  = 400
)

// bounded clips each line and lists at most maxLines of them, ending with
// "and N more problems" when it drops some.
func bounded(lines []string) []string {
	out := make([]string, 0, min(len(lines), maxLines+1))
	for i, l := range lines {
		if i == maxLines {
			out = append(out, fmt.Sprintf("and %d more problems", len(lines)-maxLines))
			break
		}
		if r := []rune(l); len(r) > maxLine {
			l = string(r[:maxLine-1]) + "…"
		}
		out = append(out, l)
	}
	return out
}

func one(status int, msg string) problem { return problem{status, []string{msg}} }

// clip shortens s to at most 60 characters, ending a cut one with "…", for
// quoting a value from the request in a message: enough to recognise it,
// never a 30 KiB query sent back whole.
func clip(s string) string { return textfmt.Clip(s) }
