package main

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/web/static"
)

// addRoutes installs every URL Margin serves. Plot and page URLs are
// permalinks: their query is the whole state, and they stay stable. Every
// demo gets the same routes from one loop over the course's demos.
func addRoutes(e *echo.Echo, course *demo.Course) {
	usePostGuards(e) // every POST: same origin only, a refused body drained (origin.go)
	// The index takes no query: a stray one (?utm_source=…, ?x=…) is
	// redirected to the one canonical URL, so a shared link still lands and
	// caches keep one copy. /healthz is for probes, which send no query: one
	// with a query is a mistake or a cache-buster, and gets 404.
	e.GET("/", canonicalOnly(handleIndex(course.Catalog), http.StatusMovedPermanently))
	e.GET("/healthz", canonicalOnly(func(c echo.Context) error { return c.String(http.StatusOK, "ok\n") }, http.StatusNotFound))

	for i := range course.Lessons {
		l := &course.Lessons[i]
		if len(l.Demos) > 0 {
			e.GET("/lessons/"+l.Slug, handleDemoPage(course, l, nil))
		}
	}
	e.GET("/lessons/:slug", handleLesson(course.Catalog))

	for _, d := range course.Demos {
		e.GET(d.PresentPath(), handleDemoPage(course, nil, d))
		e.GET(d.EmbedPath(), handleEmbed(d), allowFraming(embedFraming))
		// Every figure as SVG and PNG, the history of a static demo
		// included (a 404 before any work), and the main plot as an
		// animated GIF.
		for _, name := range append([]string{demo.PlotFigure, demo.HistoryFigure}, d.Panels...) {
			e.GET(d.FigurePath(name, "svg"), handleFigure(d, name, false))
			e.GET(d.FigurePath(name, "png"), handleFigure(d, name, true))
		}
		e.GET(d.PlotPath("gif"), handleGIF(d))
		if d.HasPoints() {
			e.GET(d.CSVPath(), handleCSV(d))
			e.POST(d.DataPath(), handleUpload(d), limitUpload(maxUpload))
		}
	}
	addCompareRoutes(e, course) // two runs side by side: handle_compare.go
	// The perceptron's CSV lived under its lesson before demos had their
	// own paths; keep those links working.
	e.GET("/lessons/perceptron/data.csv", movedTo("/demos/perceptron/data.csv", http.StatusMovedPermanently))
	e.POST("/lessons/perceptron/data", movedTo("/demos/perceptron/data", http.StatusPermanentRedirect))

	e.POST("/api/v1/fit", handleFit())
	e.POST(gramPath, handleGram())
	e.GET(openAPIPath, handleOpenAPI())

	// Fingerprinted and unversioned static files, with ETags (static.Serve).
	e.GET(static.Prefix+"*", echo.WrapHandler(http.HandlerFunc(static.Serve)))
}

// canonicalOnly serves a URL that takes no query, answering one that has
// a query with status: a redirect to the bare path, or 404.
func canonicalOnly(h echo.HandlerFunc, status int) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		switch {
		case r.URL.RawQuery == "" && !r.URL.ForceQuery:
			return h(c)
		case status == http.StatusNotFound:
			return echo.NewHTTPError(status, r.URL.Path+" takes no query; request it without one")
		}
		return c.Redirect(status, r.URL.Path)
	}
}

// movedTo redirects to path with the request's query.
func movedTo(path string, status int) echo.HandlerFunc {
	return func(c echo.Context) error {
		return c.Redirect(status, demo.WithQuery(path, c.Request().URL.RawQuery))
	}
}

// gramPath is the Gram endpoint, which the server compresses apart.
const gramPath = "/api/v1/gram"
