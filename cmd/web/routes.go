package main

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/lessons"
	"github.com/margin-edu/margin/web/static"
)

// addRoutes installs every URL Margin serves. Plot and page URLs are
// permalinks: their query is the whole state, and they stay stable.
func addRoutes(e *echo.Echo, catalog *lessons.Catalog) {
	e.GET("/", handleIndex(catalog))
	e.GET("/healthz", func(c echo.Context) error { return c.String(http.StatusOK, "ok\n") })

	e.GET(lessons.PerceptronPath, handlePerceptronPage(lessons.PerceptronPath))
	e.GET(lessons.PresentPath, handlePerceptronPage(lessons.PresentPath))
	e.GET(lessons.PerceptronPath+"/data.csv", handlePerceptronCSV())
	e.POST(lessons.PerceptronPath+"/data", handlePerceptronUpload())
	e.GET("/lessons/:slug", handleLesson(catalog))

	e.GET("/plots/perceptron.svg", handlePerceptronPlot("svg"))
	e.GET("/plots/perceptron.png", handlePerceptronPlot("png"))
	e.GET("/plots/perceptron-history.svg", handlePerceptronPlot("history"))

	e.POST("/api/v1/fit", handleFit())

	e.StaticFS("/static", static.FS)
}
