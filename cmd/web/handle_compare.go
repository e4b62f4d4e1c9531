package main

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/demo"

	tl "github.com/margin-edu/margin/web/templates/lessons"
)

// addCompareRoutes installs the comparison of two runs of every demo that
// steps, in its three views: /compare/<ID>, /present/compare/<ID> and
// /embed/compare/<ID> (which alone may be framed, as /embed/<ID> is).
func addCompareRoutes(e *echo.Echo, course *demo.Course) {
	for _, d := range course.Demos {
		if d.Static {
			continue
		}
		e.GET(d.ComparePath(), handleCompare(d, d.ComparePath()))
		e.GET(d.PresentComparePath(), handleCompare(d, d.PresentComparePath()))
		e.GET(d.EmbedComparePath(), handleCompare(d, d.EmbedComparePath()), allowFraming(embedFraming))
	}
}

// handleCompare serves two runs of demo d side by side on page, as the
// demo pages serve one: a query that is not canonical (a b.<key> equal to
// run a's, keys out of order, a step past both runs' ends) is redirected
// to the canonical URL (303 for step=end, whose answer depends on the
// runs), and an htmx request gets the comparison's panel alone with its
// permalink pushed. Point edits belong on the demo page: op is a 400.
func handleCompare(d *demo.Demo, page string) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		q, err := parseQuery(r.URL.RawQuery)
		if err != nil {
			return err
		}
		pair, probs := d.ParseCompare(q)
		if len(probs) > 0 {
			return probs
		}
		cmp, err := d.ExecuteCompare(r.Context(), pair)
		if err != nil {
			return err
		}
		partial := isPartial(r)
		if self := cmp.URL(page); !partial && r.URL.RawQuery != cmp.Query() {
			status := http.StatusMovedPermanently
			if q.Get(demo.KeyStep) == "end" {
				status = http.StatusSeeOther
			}
			return c.Redirect(status, self)
		}
		view, err := demo.CompareViewOn(cmp, page)
		if err != nil {
			return err
		}
		varyOn(c, hxRequest)
		varyOn(c, hxHistoryRestore)
		if partial {
			c.Response().Header().Set(hxPushURL, view.Self)
			return renderHTML(c, http.StatusOK, tl.ComparePanel(view))
		}
		return renderHTML(c, http.StatusOK, tl.ComparePage(view))
	}
}
