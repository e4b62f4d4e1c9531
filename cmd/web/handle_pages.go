package main

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/web/templates/layout"
	"github.com/margin-edu/margin/web/templates/pages"
)

func handleIndex(catalog *demo.Catalog) echo.HandlerFunc {
	nav := navLinks(catalog, "")
	return func(c echo.Context) error {
		return renderHTML(c, http.StatusOK, pages.Index(catalog, nav))
	}
}

// navLinks lists the course's lessons that have a page of their own (a
// demo, hence a route: see addRoutes), in the catalogue's order, for the
// navigation bar; current is the slug of the lesson shown, if any.
func navLinks(catalog *demo.Catalog, current string) []layout.NavLink {
	var nav []layout.NavLink
	for _, l := range catalog.Lessons {
		if l.Anchor == "" && len(l.Demos) > 0 {
			nav = append(nav, layout.NavLink{Title: l.Title, URL: l.URL(), Current: l.Slug == current})
		}
	}
	return nav
}

// handleLesson answers lessons other than the perceptron: a redirect for
// one that is a section of another page, 404 for the rest.
func handleLesson(catalog *demo.Catalog) echo.HandlerFunc {
	return func(c echo.Context) error {
		l, ok := catalog.Find(c.Param("slug"))
		switch {
		case !ok:
			return echo.NewHTTPError(http.StatusNotFound, "there is no lesson "+c.Param("slug")+"; the list of lessons is at /")
		case l.URL() == "":
			return echo.NewHTTPError(http.StatusNotFound, "the lesson "+l.Title+" is coming but not written yet; the list of lessons is at /")
		}
		return c.Redirect(http.StatusFound, l.URL())
	}
}
