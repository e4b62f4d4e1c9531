package main

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/fit"
	"github.com/margin-edu/margin/internal/lessons"
	"github.com/margin-edu/margin/web/templates/pages"
)

// badRequest marks an error as the client's fault: a 400 whose message
// says what to change.
type badRequest struct{ err error }

func (b badRequest) Error() string { return b.err.Error() }
func (b badRequest) Unwrap() error { return b.err }

func bad(err error) error { return badRequest{err} }

// errorHandler is the one place errors become HTTP responses: bad input is
// 400 with the problems listed, unknown URLs 404, anything else 500 and
// logged. API paths answer JSON, plots plain text, pages HTML.
func errorHandler(logger *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		status, msg := classify(err)
		if status >= 500 {
			logger.Error("request failed", "uri", c.Request().RequestURI, "err", err)
			msg = "internal error; it has been logged"
		}
		path := c.Request().URL.Path
		var werr error
		switch {
		case c.Request().Method == http.MethodHead:
			werr = c.NoContent(status)
		case strings.HasPrefix(path, "/api/"):
			werr = c.JSON(status, map[string]string{"error": msg})
		case strings.HasPrefix(path, "/plots/") || strings.HasSuffix(path, ".csv") || strings.HasPrefix(path, "/static/"):
			werr = c.String(status, msg+"\n")
		default:
			werr = renderHTML(c, status, pages.Error(status, http.StatusText(status), strings.Split(msg, "; ")))
		}
		if werr != nil {
			logger.Error("writing error response", "err", werr)
		}
	}
}

func classify(err error) (int, string) {
	var probs lessons.Problems
	var he *echo.HTTPError
	var br badRequest
	switch {
	case errors.As(err, &probs):
		return http.StatusBadRequest, probs.Error()
	case errors.Is(err, fit.ErrBadRequest), errors.As(err, &br):
		return http.StatusBadRequest, err.Error()
	case errors.As(err, &he):
		if m, ok := he.Message.(string); ok {
			return he.Code, m
		}
		return he.Code, http.StatusText(he.Code)
	}
	return http.StatusInternalServerError, err.Error()
}
