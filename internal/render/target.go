package render

import (
	"context"
	"fmt"
	"image"
	"io"
	"slices"
)

// The themes a figure can be drawn in (Target.Theme). Light is the house
// look and the default; the others are drawn from it by a canvas that
// maps each colour (look.go), so every figure has all three.
const (
	ThemeLight = "light"
	// ThemeDark is for dark slides: a near-black paper, light lines and
	// type, the palette's hues kept but lightened to read on it.
	ThemeDark = "dark"
	// ThemePrint is for paper: white, black lines and type, no large
	// fills (a region's tint, and its legend swatch, becomes a hatch of
	// thin grey lines at an angle of its hue), a grey for each hue of a
	// point or bar, and a dash pattern for each hue of a line, so what
	// colour told apart stays apart in black and white.
	ThemePrint = "print"
)

// Themes lists the themes, the default first.
var Themes = []string{ThemeLight, ThemeDark, ThemePrint}

// MaxScale is the largest PNG pixel scale (Target.Scale).
const MaxScale = 3

// Format is what a figure is written as.
type Format int

const (
	SVG Format = iota
	PNG
	// Raster draws the figure into Target.Image and writes nothing: the
	// frames of an animation.
	Raster
)

// Target is a writer that says how the figure written to it is drawn
// beyond its layout: the format, the theme, the PNG's pixels per CSS pixel,
// and the hall type's strokes. A figure's writers (WriteSVG, WritePNG, and
// every chart and plot built on Figure) find it by a type assertion on
// their io.Writer, as io.Copy finds a WriterTo, so a caller that hands a
// Target to code written for SVG (a demo's panel, which calls a chart's
// …SVG function with the writer it was given) gets a PNG, a dark figure
// or a frame without that code knowing. Any other writer gets the light
// SVG (or PNG) it always got, byte for byte.
type Target struct {
	W      io.Writer
	Format Format
	// Theme is one of Themes; "" is ThemeLight.
	Theme string
	// Scale multiplies a PNG's pixels (1…MaxScale; 0 means 1) without
	// changing its layout: a 600×600 figure at scale 2 is the same
	// drawing in 1200×1200 pixels.
	Scale int
	// Hall draws every stroke at least HallLine wide and thin grey lines
	// (contours, grids) darker, for a washed-out projector. The type is
	// the layout's business: Options.Hall.
	Hall bool
	// Image receives the frame when Format is Raster.
	Image *image.RGBA
	// Ctx, when set, stops a PNG or a frame once it ends: nothing more is
	// rasterised (the drawing calls pass through untouched), no byte more
	// is written, and the writer returns its error. A PNG of 2000 × 2000
	// pixels is ~0.2 s of CPU, and a client that left should not buy it
	// (issue 28). An SVG is a few milliseconds and ignores it. nil: never.
	Ctx context.Context
}

// ctxErr is the error of t's context, or nil.
func (t *Target) ctxErr() error {
	if t.Ctx == nil {
		return nil
	}
	return t.Ctx.Err()
}

// ContextWriter returns a writer that writes to w until ctx ends, then
// fails with ctx's error: an encoder writing a figure (a PNG, a GIF)
// stops at its next write once the client has left.
func ContextWriter(ctx context.Context, w io.Writer) io.Writer { return ctxWriter{ctx, w} }

// ctxWriter is ContextWriter's writer.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// Write implements io.Writer.
func (t *Target) Write(p []byte) (int, error) { return t.W.Write(p) }

// Check reports a Target's fields out of range.
func (t *Target) Check() error {
	if t.Theme != "" && !slices.Contains(Themes, t.Theme) {
		return fmt.Errorf("render: theme %q: want one of %v", t.Theme, Themes)
	}
	if t.Scale < 0 || t.Scale > MaxScale {
		return fmt.Errorf("render: scale %d: want 1 to %d", t.Scale, MaxScale)
	}
	return nil
}

// plain reports whether the target draws the house look unchanged.
func (t *Target) plain() bool {
	return (t.Theme == "" || t.Theme == ThemeLight) && !t.Hall
}

func (t *Target) scale() int { return max(t.Scale, 1) }

// targetOf returns w's Target, or one that writes SVG (or PNG, when png
// is set) to w as before.
func targetOf(w io.Writer, png bool) *Target {
	if t, ok := w.(*Target); ok {
		return t
	}
	f := SVG
	if png {
		f = PNG
	}
	return &Target{W: w, Format: f}
}
