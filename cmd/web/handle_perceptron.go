package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/lessons"
	"github.com/margin-edu/margin/internal/render"
	tl "github.com/margin-edu/margin/web/templates/lessons"
)

// perceptronRun parses a demo query and runs it. An edit (op=add or
// op=remove) is applied first; edited tells the caller to send the
// browser to the canonical URL of the result.
func perceptronRun(rawQuery string) (run *lessons.PerceptronRun, edited bool, err error) {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, false, bad(fmt.Errorf("the query string is malformed (%v); separate added points with %s, not ;", err, lessons.PointSep))
	}
	edit, rest, edited, probs := lessons.ParseEdit(q)
	if len(probs) > 0 {
		return nil, false, probs
	}
	pq, probs := lessons.ParsePerceptron(rest)
	if len(probs) > 0 {
		return nil, false, probs
	}
	if edited {
		if pq, err = pq.Apply(edit); err != nil {
			return nil, false, bad(err)
		}
	}
	run, err = lessons.RunPerceptron(pq)
	if err != nil {
		return nil, false, bad(err)
	}
	return run, edited, nil
}

// handlePerceptronPage serves the lesson with its demo in the state the
// query gives, or, for htmx, just the demo panel. A query that is not in
// canonical form (an edit, or step=end) is redirected to the canonical
// URL, so what the address bar shows is always a clean permalink.
func handlePerceptronPage(page string) echo.HandlerFunc {
	// The prose is fixed at build time: split it once, not per request.
	prose, proseErr := lessons.Prose("perceptron")
	toc, tocErr := lessons.Contents("perceptron")
	proseErr = errors.Join(proseErr, tocErr)
	parts := make([]string, len(prose))
	for i, p := range prose {
		parts[i] = string(p)
	}
	return func(c echo.Context) error {
		r := c.Request()
		run, edited, err := perceptronRun(r.URL.RawQuery)
		if err != nil {
			return err
		}
		self := run.Q.URLAt(page)
		partial := isPartial(r)
		if !partial && (edited || r.URL.Query().Get("step") == "end") {
			return c.Redirect(http.StatusSeeOther, self)
		}
		demo, err := lessons.NewPerceptronDemo(run, page)
		if err != nil {
			return err
		}
		c.Response().Header().Set("Vary", hxRequest)
		if partial {
			c.Response().Header().Set(hxPushURL, self)
			return renderHTML(c, http.StatusOK, tl.PerceptronDemo(demo))
		}
		if page == lessons.PresentPath {
			return renderHTML(c, http.StatusOK, tl.PerceptronPresent(demo))
		}
		if proseErr != nil {
			return proseErr
		}
		return renderHTML(c, http.StatusOK, tl.PerceptronPage(parts, toc, demo))
	}
}

// handlePerceptronPlot serves the demo's plots as standalone files: the
// main plot as SVG or PNG, or the mistakes/error history as SVG. Same
// query, same bytes.
func handlePerceptronPlot(kind string) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.QueryParam("op") != "" {
			return bad(errors.New("op: plot URLs show a state; edits belong on the demo page"))
		}
		run, _, err := perceptronRun(c.Request().URL.RawQuery)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		opt := run.PlotOptions()
		ctype := "image/svg+xml"
		switch kind {
		case "svg":
			err = render.PerceptronSVG(&buf, run.Problem, run.States, opt)
		case "png":
			ctype = "image/png"
			err = render.PerceptronPNG(&buf, run.Problem, run.States, opt)
		case "history":
			if c.QueryParam("h") == "" {
				opt.Height = 0 // the chart's own default shape, wide and short
			}
			err = render.PerceptronHistorySVG(&buf, run.Problem, run.States, opt)
		}
		if err != nil {
			return err
		}
		h := c.Response().Header()
		h.Set("Cache-Control", "public, max-age=86400")
		h.Set("Access-Control-Allow-Origin", "*") // plots are meant to be embedded
		return c.Blob(http.StatusOK, ctype, buf.Bytes())
	}
}

// handlePerceptronCSV downloads the demo's current points.
func handlePerceptronCSV() echo.HandlerFunc {
	return func(c echo.Context) error {
		run, _, err := perceptronRun(c.Request().URL.RawQuery)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := lessons.WriteCSV(&buf, run.Points); err != nil {
			return err
		}
		c.Response().Header().Set("Content-Disposition", `attachment; filename="points.csv"`)
		return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
	}
}

// handlePerceptronUpload takes pasted or uploaded CSV and redirects to the
// demo showing exactly those points, keeping the other settings. Pasted
// text wins over a file when both are sent.
func handlePerceptronUpload() echo.HandlerFunc {
	return func(c echo.Context) error {
		form, err := formValues(c)
		if err != nil {
			return err
		}
		var src io.Reader = strings.NewReader(form.Get("csv"))
		form.Del("csv")
		if fh, ferr := c.FormFile("file"); ferr == nil && strings.TrimSpace(c.FormValue("csv")) == "" {
			f, err := fh.Open()
			if err != nil {
				return bad(err)
			}
			defer f.Close()
			src = f
		}
		pts, err := lessons.ParseCSV(src)
		if err != nil {
			return bad(err)
		}
		return redirectWithPoints(c, form, pts)
	}
}

func formValues(c echo.Context) (url.Values, error) {
	var v url.Values
	if mf, err := c.MultipartForm(); err == nil {
		v = url.Values(mf.Value)
	} else if fv, err := c.FormParams(); err == nil {
		v = fv
	} else {
		return nil, bad(errors.New("the form could not be read; send CSV in the csv field or a file in the file field"))
	}
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out, nil
}

func redirectWithPoints(c echo.Context, form url.Values, pts []lessons.Point) error {
	pq, probs := lessons.ParsePerceptron(form)
	if len(probs) > 0 {
		return probs
	}
	pq = pq.WithPoints(pts)
	if _, err := lessons.RunPerceptron(pq); err != nil {
		return bad(err)
	}
	return c.Redirect(http.StatusSeeOther, pq.URL())
}
