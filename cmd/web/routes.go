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
	e.GET("/", handleIndex(course.Catalog))
	e.GET("/healthz", func(c echo.Context) error { return c.String(http.StatusOK, "ok\n") })

	for i := range course.Lessons {
		l := &course.Lessons[i]
		if len(l.Demos) > 0 {
			e.GET("/lessons/"+l.Slug, handleDemoPage(course, l, nil))
		}
	}
	e.GET("/lessons/:slug", handleLesson(course.Catalog))

	for _, d := range course.Demos {
		e.GET(d.PresentPath(), handleDemoPage(course, nil, d))
		e.GET(d.PlotPath("svg"), handleFigure(d, demo.PlotFigure, false))
		e.GET(d.PlotPath("png"), handleFigure(d, demo.PlotFigure, true))
		e.GET(d.PanelPath(demo.HistoryFigure), handleFigure(d, demo.HistoryFigure, false))
		for _, name := range d.Panels {
			e.GET(d.PanelPath(name), handleFigure(d, name, false))
		}
		if d.HasPoints() {
			e.GET(d.CSVPath(), handleCSV(d))
			e.POST(d.DataPath(), handleUpload(d), limitUpload(maxUpload))
		}
	}
	// The perceptron's CSV lived under its lesson before demos had their
	// own paths; keep those links working.
	e.GET("/lessons/perceptron/data.csv", movedTo("/demos/perceptron/data.csv", http.StatusMovedPermanently))
	e.POST("/lessons/perceptron/data", movedTo("/demos/perceptron/data", http.StatusPermanentRedirect))

	e.POST("/api/v1/fit", handleFit())
	e.POST(gramPath, handleGram(), gramFastGzip)
	e.GET(openAPIPath, handleOpenAPI())

	e.StaticFS("/static", static.FS)
}

// movedTo redirects to path with the request's query.
func movedTo(path string, status int) echo.HandlerFunc {
	return func(c echo.Context) error {
		return c.Redirect(status, demo.WithQuery(path, c.Request().URL.RawQuery))
	}
}

// gramPath is the Gram endpoint, which the server compresses apart.
const gramPath = "/api/v1/gram"
