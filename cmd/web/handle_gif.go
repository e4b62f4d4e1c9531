package main

import (
	"bytes"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/demo"
)

// handleGIF serves the main plot of a stretch of a run as an animated
// GIF, /plots/<ID>.gif?<state>&from=&to=&delay= (demo.GIF): one frame a
// step, within demo.MaxGIFFrames and demo.MaxGIFPixels (a 400 naming the
// limit). A static demo has no steps: 404 before any work.
func handleGIF(d *demo.Demo) echo.HandlerFunc {
	return func(c echo.Context) error {
		if d.Static {
			return echo.NewHTTPError(http.StatusNotFound, "the "+d.Title+" demo shows one state and has no steps to animate; its plot is "+d.PlotPath("png"))
		}
		r := c.Request()
		q, err := parseQuery(r.URL.RawQuery)
		if err != nil {
			return err
		}
		if _, _, edited, probs := d.SplitEdit(q); edited || len(probs) > 0 {
			if len(probs) > 0 {
				return probs
			}
			return bad(errEditOnFigure)
		}
		g, err := d.ParseGIF(q)
		if err != nil {
			return err
		}
		if canonical := g.Query(); r.URL.RawQuery != canonical {
			return c.Redirect(http.StatusMovedPermanently, demo.WithQuery(r.URL.Path, canonical))
		}
		var buf bytes.Buffer
		if _, err := d.WriteGIF(r.Context(), g, &buf); err != nil {
			return err
		}
		setFileName(c, "inline", g.FileName())
		return serveImmutable(c, "image/gif", buf.Bytes())
	}
}
