package main

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/margin-edu/margin/internal/demo"
)

// handleCSV downloads a demo's current points.
func handleCSV(d *demo.Demo) echo.HandlerFunc {
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
		if canonical := s.Encode(demo.ForData); r.URL.RawQuery != canonical {
			return c.Redirect(http.StatusMovedPermanently, demo.WithQuery(r.URL.Path, canonical))
		}
		pts, err := s.Points()
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := d.WriteCSV(&buf, pts); err != nil {
			return err
		}
		setFileName(c, "attachment", s.FileName("", "csv"))
		return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
	}
}

// handleUpload takes pasted or uploaded CSV and redirects to the demo
// showing exactly those points, keeping the other settings. Points come
// one way: pasted text and a file together are a 400 (uploadForm).
func handleUpload(d *demo.Demo) echo.HandlerFunc {
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

// errPasteAndFile refuses an upload that sends points both ways.
var errPasteAndFile = errors.New("the form sent pasted points and a file; use one: clear the text box, or choose no file")

// uploadForm reads the upload's fields and its file, if one was chosen.
// The file field is never a parameter of the state: a browser sends it
// even when no file was chosen, as a part with filename="" that Go's
// multipart reader keeps as a plain value, and that value is dropped; so
// is a file of 0 bytes. A file together with pasted text that is not
// blank is a 400 that says to use one.
func uploadForm(c echo.Context) (url.Values, io.ReadCloser, error) {
	var (
		v  url.Values
		fh *multipart.FileHeader
	)
	if mf, err := c.MultipartForm(); err == nil {
		v = url.Values(mf.Value)
		for _, h := range mf.File["file"] {
			if h.Filename != "" && h.Size > 0 {
				fh = h
				break
			}
		}
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
		if k != "file" {
			out[k] = append([]string(nil), vs...)
		}
	}
	pasted := strings.TrimSpace(out.Get("csv")) != ""
	switch {
	case fh == nil:
		return out, nil, nil
	case pasted:
		return nil, nil, bad(errPasteAndFile)
	}
	f, err := fh.Open()
	if err != nil {
		return nil, nil, bad(errors.New("the uploaded file could not be read; send it again"))
	}
	return out, f, nil
}
