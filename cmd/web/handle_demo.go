package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/lessons"
	"github.com/margin-edu/margin/web/templates/layout"
	tl "github.com/margin-edu/margin/web/templates/lessons"
)

// demoRun parses a demo query and runs it. An edit (op=add or op=remove)
// is applied first. canonical is the query of the state shown, for the
// scope the URL serves: the caller redirects when the request's query
// differs, so one state has one URL. figure names the one figure a plot
// URL draws, "" for a page (see lessons.Input.Figure).
func demoRun(ctx context.Context, d *lessons.Demo, q url.Values, scope lessons.Scope, figure string) (run *lessons.Run, edited bool, err error) {
	edit, rest, edited, probs := d.SplitEdit(q)
	if len(probs) > 0 {
		return nil, false, probs
	}
	if edited && scope != lessons.ForPage {
		return nil, false, bad(errors.New("op: plot and data URLs show a state; edits belong on the demo page"))
	}
	s, probs := d.Parse(rest)
	if len(probs) > 0 {
		return nil, false, probs
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

// parseQuery reads a raw query string, with a message that says how to
// write points when a ";" broke it.
func parseQuery(raw string) (url.Values, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, bad(fmt.Errorf("the query string is malformed; separate added points with %s, not ;", lessons.PointSep))
	}
	return q, nil
}

// handleDemoPage serves a demo in the state the query gives, on its lesson
// page (with the lesson's other demos at their defaults) or alone in the
// presenter view; for htmx, just the demo panel. A query that is not
// canonical (an edit, step=end, a step past the end, keys out of order or
// at their defaults) is redirected to the canonical URL, so what the
// address bar shows is always a clean permalink.
func handleDemoPage(course *lessons.Course, lesson *lessons.Lesson, present *lessons.Demo) echo.HandlerFunc {
	var prose []string
	var toc []lessons.Section
	var proseErr error
	var nav []layout.NavLink
	defaults := &defaultViews{}
	if lesson != nil {
		prose, toc, proseErr = lessonProse(lesson.Slug, len(lesson.Demos))
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
		run, edited, err := demoRun(r.Context(), d, q, lessons.ForPage, "")
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
		view, err := lessons.NewView(run, page)
		if err != nil {
			return err
		}
		varyOn(c, hxRequest)
		if partial {
			// The permalink with the demo's anchor: a reload or a copy of
			// the address bar lands on the demo (history ignores the
			// fragment when it looks a state up).
			c.Response().Header().Set(hxPushURL, view.Links.Self)
			return renderHTML(c, http.StatusOK, tl.Demo(view))
		}
		if lesson == nil {
			return renderHTML(c, http.StatusOK, tl.PresentPage(view, run.State.Str("data")))
		}
		if proseErr != nil {
			return proseErr
		}
		views, err := lessonViews(r.Context(), course, lesson, view, defaults)
		if err != nil {
			return err
		}
		return renderHTML(c, http.StatusOK, tl.LessonPage(tl.Page{
			Slug: lesson.Slug, Title: lesson.Title, Description: lesson.Summary,
			Source: "Follows the notes: " + lesson.Notes + ".", Prose: prose, TOC: toc, Demos: views, Nav: nav,
		}))
	}
}

// lessonViews returns the views of all demos of a lesson page: the active
// one as given, the others in their default state, from defaults.
func lessonViews(ctx context.Context, course *lessons.Course, lesson *lessons.Lesson, active *lessons.DemoView, defaults *defaultViews) ([]*lessons.DemoView, error) {
	var views []*lessons.DemoView
	for _, d := range course.LessonDemos(lesson.Slug) {
		if d.ID == active.ID {
			views = append(views, active)
			continue
		}
		v, err := defaults.get(ctx, d)
		if err != nil {
			return nil, err
		}
		views = append(views, v)
	}
	return views, nil
}

// defaultViews builds each demo's view in its default state once, when a
// page first needs it: a lesson page shows every demo but the one in use
// at its default, which is the same for every request while the server
// runs. A view is only read after it is built, so requests share it.
type defaultViews struct {
	mu    sync.Mutex
	views map[string]*lessons.DemoView
}

func (dv *defaultViews) get(ctx context.Context, d *lessons.Demo) (*lessons.DemoView, error) {
	dv.mu.Lock()
	defer dv.mu.Unlock()
	if v, ok := dv.views[d.ID]; ok {
		return v, nil
	}
	run, err := d.ExecuteFigure(ctx, d.Default(), "")
	if err != nil {
		return nil, err
	}
	v, err := lessons.NewView(run, d.LessonPath())
	if err != nil {
		return nil, err
	}
	// A view whose panel ctx cut short (a bound's solve stopped early)
	// is not the default view: it is not kept for other requests.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if dv.views == nil {
		dv.views = map[string]*lessons.DemoView{}
	}
	dv.views[d.ID] = v
	return v, nil
}

// lessonProse splits a lesson's prose once, at start-up: it is fixed at
// build time. A lesson whose prose is not written yet shows its demos
// alone, and one with fewer demo markers than demos shows the rest at the
// end, so that every demo has a place.
func lessonProse(slug string, demos int) ([]string, []lessons.Section, error) {
	prose, err := lessons.Prose(slug)
	if errors.Is(err, lessons.ErrNoProse) {
		return make([]string, demos), nil, nil
	}
	toc, tocErr := lessons.Contents(slug)
	parts := make([]string, max(len(prose), demos))
	for i, p := range prose {
		parts[i] = string(p)
	}
	return parts, toc, errors.Join(err, tocErr)
}

// handleFigure serves one of a demo's figures as a standalone file: the
// main plot as SVG or PNG (name ""), the history chart ("history") or one
// of its panels. Same canonical query, same bytes, so plot URLs are
// immutable cache keys.
func handleFigure(d *lessons.Demo, name string, png bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		q, err := parseQuery(r.URL.RawQuery)
		if err != nil {
			return err
		}
		figure := name
		if name == "" {
			figure = lessons.PlotFigure
		}
		run, _, err := demoRun(r.Context(), d, q, lessons.ForPlot, figure)
		if err != nil {
			return err
		}
		if canonical := run.State.Encode(lessons.ForPlot); r.URL.RawQuery != canonical {
			return c.Redirect(http.StatusMovedPermanently, withQuery(r.URL.Path, canonical))
		}
		var buf bytes.Buffer
		ok, err := run.WriteFigure(&buf, name, png)
		switch {
		case err != nil:
			return err
		case !ok:
			return echo.NewHTTPError(http.StatusNotFound, "the "+d.Title+" demo has no figure "+name)
		}
		ctype := "image/svg+xml"
		if png {
			ctype = "image/png"
		}
		return serveImmutable(c, ctype, buf.Bytes())
	}
}

// handleCSV downloads a demo's current points.
func handleCSV(d *lessons.Demo) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		q, err := parseQuery(r.URL.RawQuery)
		if err != nil {
			return err
		}
		if _, _, ok, _ := d.SplitEdit(q); ok {
			return bad(errors.New("op: a CSV URL shows the points of a state; edits belong on the demo page"))
		}
		s, probs := d.Parse(q)
		if len(probs) > 0 {
			return probs
		}
		if canonical := s.Encode(lessons.ForData); r.URL.RawQuery != canonical {
			return c.Redirect(http.StatusMovedPermanently, withQuery(r.URL.Path, canonical))
		}
		pts, err := s.Points()
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := d.WriteCSV(&buf, pts); err != nil {
			return err
		}
		c.Response().Header().Set("Content-Disposition", `attachment; filename="points.csv"`)
		return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
	}
}

// handleUpload takes pasted or uploaded CSV and redirects to the demo
// showing exactly those points, keeping the other settings. Pasted text
// wins over a file when both are sent.
func handleUpload(d *lessons.Demo) echo.HandlerFunc {
	return func(c echo.Context) error {
		form, file, err := uploadForm(c)
		if err != nil {
			return err
		}
		src := io.Reader(strings.NewReader(form.Get("csv")))
		form.Del("csv")
		if file != nil {
			defer file.Close()
			src = file
		}
		pts, err := d.ParseCSV(src)
		if err != nil {
			return bad(err)
		}
		s, probs := d.Parse(form)
		if len(probs) > 0 {
			return probs
		}
		s = s.WithPoints(pts)
		if _, err := d.ExecuteFigure(c.Request().Context(), s, ""); err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, s.URL(d.LessonPath())+d.Anchor())
	}
}

// uploadForm reads the upload's fields and, when no text was pasted, its
// file.
func uploadForm(c echo.Context) (url.Values, io.ReadCloser, error) {
	var v url.Values
	if mf, err := c.MultipartForm(); err == nil {
		v = url.Values(mf.Value)
	} else if fv, err := c.FormParams(); err == nil {
		v = fv
	} else {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, nil, err
		}
		return nil, nil, bad(errors.New("the form could not be read; send CSV in the csv field or a file in the file field"))
	}
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	if strings.TrimSpace(out.Get("csv")) != "" {
		return out, nil, nil
	}
	fh, err := c.FormFile("file")
	if err != nil {
		return out, nil, nil
	}
	f, err := fh.Open()
	if err != nil {
		return nil, nil, bad(errors.New("the uploaded file could not be read; send it again"))
	}
	return out, f, nil
}

func withQuery(path, query string) string {
	if query == "" {
		return path
	}
	return path + "?" + query
}
