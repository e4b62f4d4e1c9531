package main

import (
	"bytes"
	"image"
	"image/gif"
	"image/png"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// svgSize reads an SVG's size in CSS pixels from its root element's
// width and height in points (render writes 1 px = 0.75 pt).
var svgSizeRE = regexp.MustCompile(`<svg[^>]* width="([0-9.]+)pt" height="([0-9.]+)pt"`)

func svgSize(t *testing.T, svg []byte) image.Point {
	t.Helper()
	m := svgSizeRE.FindSubmatch(svg)
	if m == nil {
		t.Fatalf("no size in %.200q", svg)
	}
	w, _ := strconv.ParseFloat(string(m[1]), 64)
	h, _ := strconv.ParseFloat(string(m[2]), 64)
	return image.Point{int(w/0.75 + 0.5), int(h/0.75 + 0.5)}
}

// TestEveryFigurePNG: every figure of every demo of the course (the main
// plot, the history chart, each panel) answers as SVG and as PNG from one
// loop over the course, so a new demo or panel gets a PNG by existing.
// The PNG decodes and has the SVG's size in CSS pixels, twice that at
// scale=2 (the same layout at w=300: the size of the w=300 SVG), and the
// download is named by the demo and state; dark and print SVGs answer and
// differ from the light one. A figure a demo lacks is a 404 in both.
func TestEveryFigurePNG(t *testing.T) {
	course := testCourse(t)
	h := NewServer(discardLogger(), course)
	for _, d := range course.Demos {
		t.Run(d.ID, func(t *testing.T) {
			for _, name := range append([]string{demo.PlotFigure, demo.HistoryFigure}, d.Panels...) {
				for _, q := range []string{"", "h=300&w=300"} {
					svgURL := demo.WithQuery(d.FigurePath(name, "svg"), q)
					svg := get(t, h, svgURL)
					pngURL := d.FigurePath(name, "png")
					if q != "" {
						pngURL += "?h=300&scale=2&w=300"
					}
					rec := get(t, h, pngURL)
					if svg.Code == http.StatusNotFound {
						if rec.Code != http.StatusNotFound {
							t.Errorf("GET %s = %d; its SVG is a 404", pngURL, rec.Code)
						}
						continue
					}
					if svg.Code != http.StatusOK || rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/png" {
						t.Errorf("GET %s = %d, GET %s = %d %s, want 200 and a PNG", svgURL, svg.Code, pngURL, rec.Code, rec.Header().Get("Content-Type"))
						continue
					}
					img, err := png.Decode(bytes.NewReader(rec.Body.Bytes()))
					if err != nil {
						t.Errorf("GET %s: %v", pngURL, err)
						continue
					}
					want := svgSize(t, svg.Body.Bytes())
					if q != "" {
						want = want.Mul(2)
					}
					if got := img.Bounds().Size(); got != want {
						t.Errorf("GET %s: %v pixels, want %v", pngURL, got, want)
					}
					cd := rec.Header().Get("Content-Disposition")
					if !strings.HasPrefix(cd, `inline; filename="`+d.ID) || !strings.HasSuffix(cd, `.png"`) {
						t.Errorf("GET %s: Content-Disposition %q, want an inline file named by the demo", pngURL, cd)
					}
				}
				light := get(t, h, d.FigurePath(name, "svg"))
				if light.Code != http.StatusOK {
					continue
				}
				for _, theme := range []string{"dark", "print"} {
					u := d.FigurePath(name, "svg") + "?theme=" + theme
					rec := get(t, h, u)
					if rec.Code != http.StatusOK || bytes.Equal(rec.Body.Bytes(), light.Body.Bytes()) {
						t.Errorf("GET %s = %d, want 200 and other bytes than the light figure", u, rec.Code)
					}
				}
			}
		})
	}
}

// TestFigureViewKeys: scale and theme follow the canonical URL rules of
// w and h (defaults dropped, an SVG has no scale), the PNG pixel cap is a
// 400 that names it, and downloads are named by the demo and state.
func TestFigureViewKeys(t *testing.T) {
	h := NewServer(discardLogger(), testCourse(t))
	for _, c := range []struct {
		target string
		code   int
		want   string // Location, the 400's text, or the Content-Disposition
	}{
		{"/plots/svm-soft.png?theme=light", http.StatusMovedPermanently, "/plots/svm-soft.png"},
		{"/plots/svm-soft.png?scale=1", http.StatusMovedPermanently, "/plots/svm-soft.png"},
		{"/plots/svm-soft.svg?scale=2", http.StatusMovedPermanently, "/plots/svm-soft.svg"},
		{"/plots/svm-soft-alpha.svg?scale=3&theme=dark", http.StatusMovedPermanently, "/plots/svm-soft-alpha.svg?theme=dark"},
		{"/plots/svm-soft.png?scale=4", http.StatusBadRequest, "scale"},
		{"/plots/svm-soft.png?theme=sepia", http.StatusBadRequest, "theme"},
		{"/plots/svm-soft.png?h=1200&scale=2&w=1200", http.StatusBadRequest, "over the cap of 4200000 pixels"},
		{"/plots/svm-soft.png?h=2000&w=2000&scale=2", http.StatusBadRequest, "MaxPNGPixels"},
		{"/plots/svm-soft.png?step=40", http.StatusOK, `inline; filename="svm-soft-step40.png"`},
		{"/plots/svm-soft.svg?C=10&step=40&theme=dark", http.StatusOK, `inline; filename="svm-soft-C10-dark-step40.svg"`},
		{"/plots/svm-soft-kkt.png?scale=2&step=3", http.StatusOK, `inline; filename="svm-soft-kkt-2x-step3.png"`},
		{"/demos/svm-soft/data.csv?n=20", http.StatusOK, `attachment; filename="svm-soft-n20.csv"`},
	} {
		rec := get(t, h, c.target)
		got := rec.Header().Get("Location")
		switch {
		case c.code == http.StatusBadRequest:
			got = rec.Body.String()
		case c.code == http.StatusOK:
			got = rec.Header().Get("Content-Disposition")
		}
		if rec.Code != c.code || !strings.Contains(got, c.want) {
			t.Errorf("GET %s = %d %q, want %d %q", c.target, rec.Code, got, c.code, c.want)
		}
	}
}

// TestGIFRoute: a stepping demo's GIF has one frame a step and its name;
// a static demo's is a 404 before any work; past the limit is a 400
// naming it.
func TestGIFRoute(t *testing.T) {
	h := NewServer(discardLogger(), testCourse(t))
	rec := get(t, h, "/plots/perceptron.gif?delay=100&to=3")
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/gif" {
		t.Fatalf("GET perceptron.gif = %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	anim, err := gif.DecodeAll(bytes.NewReader(rec.Body.Bytes()))
	if err != nil || len(anim.Image) != 4 || anim.Delay[3] != 10 {
		t.Errorf("perceptron.gif: %v, want 4 frames of 10 cs", err)
	}
	if cd := rec.Header().Get("Content-Disposition"); cd != `inline; filename="perceptron-steps0-3.gif"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	for _, c := range []struct {
		target string
		code   int
		says   string
	}{
		{"/plots/kernel-gram.gif", http.StatusNotFound, "no steps"},
		{"/plots/perceptron.gif?to=200", http.StatusBadRequest, "120 frames"},
		{"/plots/perceptron.gif?h=2000&to=9&w=2000", http.StatusBadRequest, "MaxGIFPixels"},
		{"/plots/perceptron.gif?to=29", http.StatusMovedPermanently, ""},
	} {
		if rec := get(t, h, c.target); rec.Code != c.code || !strings.Contains(rec.Body.String(), c.says) {
			t.Errorf("GET %s = %d %q, want %d saying %q", c.target, rec.Code, rec.Body.String(), c.code, c.says)
		}
	}
}
