package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
	"github.com/margin-edu/margin/web/templates/layout"
	"github.com/margin-edu/margin/web/templates/pages"

	tl "github.com/margin-edu/margin/web/templates/lessons"
)

// demoRun parses a demo query and runs it. An edit (op=add or op=remove)
// is applied first. canonical is the query of the state shown, for the
// scope the URL serves: the caller redirects when the request's query
// differs, so one state has one URL. figure names the one figure a plot
// URL draws, "" for a page (see lessons.Input.Figure).
func demoRun(ctx context.Context, d *demo.Demo, q url.Values, scope demo.Scope, figure string) (run *demo.Run, edited bool, err error) {
	q, numbered, err := pointNumber(q)
	if err != nil {
		return nil, false, err
	}
	edit, rest, edited, probs := d.SplitEdit(q)
	if len(probs) > 0 {
		return nil, false, probs
	}
	if edited && scope != demo.ForPage {
		return nil, false, bad(errEditOnFigure)
	}
	s, probs := d.Parse(rest)
	if len(probs) > 0 {
		return nil, false, probs
	}
	if edited && numbered && edit.Op == "remove" {
		if pts, err := s.Points(); err == nil && edit.Index >= len(pts) {
			return nil, false, bad(fmt.Errorf("%s: there is no point %s; the points are %s to %s", keyPointNumber,
				pointName(edit.Index), pointName(0), pointName(len(pts)-1)))
		}
	}
	if edited {
		if s, err = s.Apply(edit); err != nil {
			return nil, false, bad(err)
		}
	}
	// ExecuteFigure's errors say their kind (a refused key, input it
	// cannot compute, the client gone, a bug); errors.go maps each.
	if run, err = d.ExecuteFigure(ctx, s, figure); err != nil {
		return nil, false, err
	}
	return run, edited, nil
}

// keyPointNumber is the remove form's field: the point's number as the
// plot and the panel name it (x₁ … xₙ). The kit's pi, which a click on
// the plot sends and older URLs carry, counts from 0 and still works.
const keyPointNumber = "pn"

// pointNumber turns the number pn = i of point xᵢ into the kit's pi =
// i − 1, and says whether q gave it. pn and pi together, or a pn that is
// not a whole number from 1, are a 400.
func pointNumber(q url.Values) (url.Values, bool, error) {
	vs, ok := q[keyPointNumber]
	if !ok {
		return q, false, nil
	}
	if _, both := q["pi"]; both || len(vs) != 1 {
		return nil, false, bad(errors.New("pn: give the point's number once, or pi (its index from 0), not both"))
	}
	n, err := strconv.Atoi(strings.TrimSpace(vs[0]))
	if err != nil || n < 1 || n > demo.MaxPoints {
		return nil, false, bad(fmt.Errorf("pn: %s is not a point's number; the plot numbers the points x₁, x₂, … up to x%s at most",
			textfmt.Quote(clip(vs[0])), subscript(demo.MaxPoints)))
	}
	q = maps.Clone(q)
	delete(q, keyPointNumber)
	q.Set("pi", strconv.Itoa(n-1))
	return q, true, nil
}

// pointName names point k (from 0) as the plot does: x₁ for k = 0.
func pointName(k int) string { return "x" + subscript(k+1) }

// subscript writes n in subscript digits.
func subscript(n int) string {
	return strings.Map(func(r rune) rune { return '₀' + r - '0' }, strconv.Itoa(n))
}

// errEditOnFigure refuses an edit on a URL that shows a state.
var errEditOnFigure = errors.New("op: plot and data URLs show a state; edits belong on the demo page")

// parseQuery reads a raw query string, with a message that says how to
// write points when a ";" broke it.
func parseQuery(raw string) (url.Values, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, bad(fmt.Errorf("the query string is malformed; separate added points with %s, not ;", demo.PointSep))
	}
	return q, nil
}

// handleDemoPage serves a demo in the state the query gives, on its lesson
// page (with the lesson's other demos at their defaults) or alone in the
// presenter view; for htmx, just the demo panel. A query that is not
// canonical (an edit, step=end, a step past the end, keys out of order or
// at their defaults) is redirected to the canonical URL, so what the
// address bar shows is always a clean permalink.
func handleDemoPage(course *demo.Course, lesson *demo.Lesson, present *demo.Demo) echo.HandlerFunc {
	var nav []layout.NavLink
	if lesson != nil {
		nav = navLinks(course.Catalog, lesson.Slug)
	}
	return func(c echo.Context) error {
		r := c.Request()
		q, err := parseQuery(r.URL.RawQuery)
		if err != nil {
			return err
		}
		d, page := present, ""
		if lesson != nil {
			if d, err = course.Active(lesson.Slug, q); err != nil {
				return err
			}
			page = d.LessonPath()
		} else {
			page = d.PresentPath()
		}
		if hasAnswer(q) {
			return answerPredict(c, d, q, page)
		}
		run, edited, err := demoRun(r.Context(), d, q, demo.ForPage, "")
		if err != nil {
			return err
		}
		self := run.State.URL(page)
		canonical := run.State.QueryAt(page)
		partial := isPartial(r)
		if !partial && r.URL.RawQuery != canonical {
			status := http.StatusMovedPermanently
			if edited || q.Get("step") == "end" {
				status = http.StatusSeeOther // the answer depends on the run, not only on the URL's spelling
			}
			return c.Redirect(status, self)
		}
		view, err := demo.NewView(run, page)
		if err != nil {
			return err
		}
		varyOn(c, hxRequest)
		varyOn(c, hxHistoryRestore) // a history restore gets the whole page
		if partial {
			// The permalink with the demo's anchor: a reload or a copy of
			// the address bar lands on the demo (history ignores the
			// fragment when it looks a state up).
			c.Response().Header().Set(hxPushURL, view.Links.Self)
			return renderHTML(c, http.StatusOK, tl.Demo(view))
		}
		if lesson == nil {
			return renderHTML(c, http.StatusOK, tl.PresentPage(view, run.State.DataSet(), presentNav(course, present)))
		}
		prose, err := course.Prose(lesson.Slug)
		if err != nil {
			return err
		}
		views, err := lessonViews(r.Context(), course, lesson, view)
		if err != nil {
			return err
		}
		return renderHTML(c, http.StatusOK, tl.LessonPage(tl.Page{
			Slug: lesson.Slug, Title: lesson.Title, Description: lesson.Summary,
			Source: "Follows the notes: " + lesson.Notes + ".", Prose: prose.Parts, TOC: prose.TOC, Demos: views, Nav: nav,
		}))
	}
}

// lessonViews returns the views of all demos of a lesson page: the active
// one as given, the others in their default state, which the course built
// once (Course.Build) and every request shares.
func lessonViews(ctx context.Context, course *demo.Course, lesson *demo.Lesson, active *demo.DemoView) ([]*demo.DemoView, error) {
	var views []*demo.DemoView
	for _, d := range course.LessonDemos(lesson.Slug) {
		if d.ID == active.ID {
			views = append(views, active)
			continue
		}
		v, err := course.DefaultView(ctx, d)
		if err != nil {
			return nil, err
		}
		views = append(views, v)
	}
	return views, nil
}

// handleFigure serves one of a demo's figures as a standalone file, SVG
// or PNG: the main plot (demo.PlotFigure), the history chart
// (demo.HistoryFigure) or one of its panels, in the query's theme and,
// for a PNG, scale (capped at demo.MaxPNGPixels: a 400 naming the cap).
// Same canonical query, same bytes, so plot URLs are immutable cache
// keys; the file is named by the demo and its state (State.FileName).
func handleFigure(d *demo.Demo, name string, png bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		if name == demo.HistoryFigure && d.Static {
			// Before any work: a static demo shows one state, so it has
			// no history to chart, whatever the query.
			return echo.NewHTTPError(http.StatusNotFound, "the "+d.Title+" demo shows one state and has no history chart")
		}
		r := c.Request()
		q, err := parseQuery(r.URL.RawQuery)
		if err != nil {
			return err
		}
		if png {
			// Before the run: a PNG over the pixel cap costs nothing.
			if s, probs := d.Parse(q); len(probs) == 0 {
				if err := demo.CheckPNG(s); err != nil {
					return err
				}
			}
		}
		run, _, err := demoRun(r.Context(), d, q, demo.ForPlot, name)
		if err != nil {
			return err
		}
		if canonical := run.State.FigureQuery(png); r.URL.RawQuery != canonical {
			return c.Redirect(http.StatusMovedPermanently, demo.WithQuery(r.URL.Path, canonical))
		}
		var buf bytes.Buffer
		ok, err := run.WriteFigureContext(r.Context(), &buf, name, png)
		switch {
		case err != nil:
			return err
		case !ok:
			return echo.NewHTTPError(http.StatusNotFound, "the "+d.Title+" demo has no figure "+name)
		}
		ctype, ext := "image/svg+xml", "svg"
		if png {
			ctype, ext = "image/png", "png"
		}
		setFileName(c, "inline", run.State.FileName(name, ext))
		return serveImmutable(c, ctype, buf.Bytes())
	}
}

// setFileName names the response's file for a save or a download; the
// name is State.FileName's, which needs no quoting beyond the quotes.
func setFileName(c echo.Context, disposition, name string) {
	c.Response().Header().Set("Content-Disposition", disposition+`; filename="`+name+`"`)
}

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

// renderHTML writes a templ component as an HTML response.
func renderHTML(c echo.Context, status int, t templ.Component) error {
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	return t.Render(c.Request().Context(), c.Response())
}

// htmx request headers (https://htmx.org/reference/#request_headers) and
// the one response header Margin sets.
const (
	hxRequest        = "HX-Request"
	hxHistoryRestore = "HX-History-Restore-Request"
	hxPushURL        = "HX-Push-Url"
)

// isPartial reports whether the request wants only the demo panel: an
// htmx request that is not restoring a page from history.
func isPartial(r *http.Request) bool {
	return r.Header.Get(hxRequest) == "true" && r.Header.Get(hxHistoryRestore) != "true"
}
