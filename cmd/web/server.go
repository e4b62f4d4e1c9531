package main

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/margin-edu/margin/internal/lessons"
)

// NewServer returns Margin's HTTP handler with every route installed. It
// holds no per-user state: everything a page shows comes from its URL.
func NewServer(logger *slog.Logger) *echo.Echo {
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = errorHandler(logger)
	e.Use(middleware.Recover())
	e.Use(requestLogger(logger))
	e.Use(limitBody(maxBody))
	// The lesson page carries its math twice (HTML and MathML, ~0.5 MB);
	// gzip takes it to a few tens of KB. PNGs are compressed already.
	e.Use(middleware.GzipWithConfig(middleware.GzipConfig{
		Level:     5,
		MinLength: 2048,
		Skipper: func(c echo.Context) bool {
			return strings.HasSuffix(c.Path(), ".png") || strings.HasSuffix(c.Request().URL.Path, ".woff2")
		},
	}))
	addRoutes(e, lessons.NewCatalog())
	return e
}

// requestLogger logs one line per request.
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
			if v.Status >= 500 {
				level = slog.LevelError
			}
			logger.LogAttrs(context.Background(), level, "request",
				slog.String("method", v.Method), slog.String("uri", v.URI),
				slog.Int("status", v.Status), slog.Duration("latency", v.Latency))
			return nil
		},
	})
}

// maxBody caps every request body: above the fit API's 4 MiB, which the
// API checks itself so that it can answer with a precise 400.
const maxBody = 5 << 20

// limitBody stops a client from streaming an endless body.
func limitBody(n int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			r.Body = http.MaxBytesReader(c.Response(), r.Body, n)
			return next(c)
		}
	}
}
