package render

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"image/png"
	"io"
	"sync"

	"github.com/margin-edu/margin/internal/render/svgcanvas"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Figure is a composed drawing of a fixed size with its text alternative.
type Figure struct {
	Draw  func(draw.Canvas)
	W, H  vg.Length
	Title string // short name: the SVG <title>
	Desc  string // what the figure shows, in words: the SVG <desc>

	p    *plot.Plot // the data plot, when the figure has one
	view View       // p's axes
}

// area is a canvas rectangle of the figure's size with no backing canvas:
// enough for layout, which only measures.
func (f *Figure) area() draw.Canvas {
	return draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: f.W - rightPad(f.W), Y: f.H}}}
}

// rightPad keeps the data area off the figure's right edge, which gonum
// would otherwise draw flush against it.
func rightPad(w vg.Length) vg.Length { return max(8, w/40) }

// plotDrawer draws p inside the area that layout measured.
func plotDrawer(p *plot.Plot, w vg.Length) func(draw.Canvas) {
	return func(c draw.Canvas) { p.Draw(draw.Crop(c, 0, -rightPad(w), 0, 0)) }
}

// PlotFigure returns the w×h figure that draws p, with p's axes set to
// view widened to the equal aspect of the data area, as a DataFigure lays
// out its plot: for a figure that styles its own plot (NiceTicks with
// Equal, Margins) and has no legend.
func PlotFigure(p *plot.Plot, w, h vg.Length, view View, title, desc string) *Figure {
	f := &Figure{W: w, H: h, p: p, Draw: plotDrawer(p, w), Title: title, Desc: desc}
	f.view = settle(p, view, f.area(), nil)
	return f
}

// Paper fills the whole figure white, so that it looks the same on a
// page of any colour, margins and colour bar included.
func Paper(c draw.Canvas) {
	c.FillPolygon(White, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
}

// WriteSVG writes the figure as SVG with its title and desc as the text
// alternative; when w is a *Target, as the Target asks instead (a PNG, a
// theme, a frame).
func (f *Figure) WriteSVG(w io.Writer) error {
	t := targetOf(w, false)
	if t.Format != SVG {
		return f.writeRaster(t)
	}
	c := svgcanvas.New(f.W, f.H)
	lk := newLook(t)
	f.Draw(draw.New(lk.wrap(c)))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return fmt.Errorf("render: writing svg: %w", err)
	}
	_, err := t.W.Write(withHalos(stretchImages(withFallbackFonts(withTitleDesc(buf.Bytes(), f.Title, f.Desc))), lk.halo()))
	return err
}

// stretchImages makes every embedded raster fill the rectangle it was
// drawn into. gonum's SVG backend writes <image> without
// preserveAspectRatio, whose default keeps the raster's own aspect and
// letterboxes it, so a 120×80 field would not cover a 400×300 data area.
func stretchImages(svg []byte) []byte {
	return bytes.ReplaceAll(svg, []byte("<image "), []byte(`<image preserveAspectRatio="none" `))
}

// withFallbackFonts names fonts to use where Liberation Sans is not
// installed: Arial and Helvetica have the same metrics, so the text still
// fits where the layout put it, instead of falling back to a serif.
func withFallbackFonts(svg []byte) []byte {
	return bytes.ReplaceAll(svg, []byte("font-family:Liberation Sans;"),
		[]byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"))
}

// pngDPI makes a point 4/3 pixels, so a figure sized in CSS pixels comes
// out with exactly that many pixels.
const pngDPI = 96

// WritePNG writes the figure as a PNG of its size in CSS pixels (times a
// Target's Scale, in a Target's theme, when w is a *Target).
func (f *Figure) WritePNG(w io.Writer) error {
	t := targetOf(w, true)
	if t.Format == SVG {
		u := *t
		u.Format = PNG
		t = &u
	}
	return f.writeRaster(t)
}

// writeRaster draws the figure in pixels, for a PNG or a frame.
func (f *Figure) writeRaster(t *Target) error {
	if err := t.Check(); err != nil {
		return err
	}
	lk := newLook(t)
	if err := t.ctxErr(); err != nil {
		return err
	}
	c := vgimg.NewWith(vgimg.UseWH(f.W, f.H), vgimg.UseDPI(pngDPI*t.scale()), vgimg.UseBackgroundColor(lk.paper()))
	f.Draw(draw.New(lk.wrap(pngCanvas{Canvas: c, ctx: t.Ctx})))
	if err := t.ctxErr(); err != nil {
		return err
	}
	if t.Format == Raster {
		t.Image = toRGBA(c.Image())
		return nil
	}
	var w io.Writer = t.W
	if t.Ctx != nil {
		w = ctxWriter{t.Ctx, t.W}
	}
	b := bufio.NewWriter(w)
	if err := pngEncoder.Encode(b, c.Image()); err != nil {
		return fmt.Errorf("render: writing png: %w", err)
	}
	return b.Flush()
}

// pngEncoder compresses at zlib's fastest level, with its buffers reused:
// encoding was 60 % of a PNG plot's CPU at the default level, and the
// fastest takes 35-55 % less time for files 2-4 % larger (a 600 px plot,
// at 2×: 12-25 ms against 22-35 ms; docs/performance.md).
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pngBuffers{}}

// pngBuffers is a png.EncoderBufferPool over a sync.Pool.
type pngBuffers struct{ p sync.Pool }

func (b *pngBuffers) Get() *png.EncoderBuffer {
	e, _ := b.p.Get().(*png.EncoderBuffer)
	return e
}

func (b *pngBuffers) Put(e *png.EncoderBuffer) { b.p.Put(e) }

// withTitleDesc puts <title> and <desc> first inside the root <svg>
// element, where assistive technology looks for a graphic's name and
// description, and marks the element role="img". gonum's SVG backend
// writes neither. No id attributes are added, so several figures can share
// a page.
func withTitleDesc(svg []byte, title, desc string) []byte {
	start := bytes.Index(svg, []byte("<svg"))
	if start < 0 {
		return svg
	}
	end := bytes.IndexByte(svg[start:], '>')
	if end < 0 {
		return svg
	}
	end += start + 1
	var b bytes.Buffer
	b.Grow(len(svg) + len(title) + len(desc) + 64)
	b.Write(svg[:start])
	b.WriteString(`<svg role="img"`)
	b.Write(svg[start+len("<svg") : end])
	fmt.Fprintf(&b, "\n<title>%s</title>\n<desc>%s</desc>", html.EscapeString(title), html.EscapeString(desc))
	b.Write(svg[end:])
	return b.Bytes()
}

// InlineSVG returns b from its root <svg> element on, dropping the XML
// declaration and generator comment, which are fine in a standalone .svg
// file but not inside an HTML page. b is returned unchanged when it has no
// <svg element. The result shares b's memory.
func InlineSVG(b []byte) []byte {
	if i := bytes.Index(b, []byte("<svg")); i >= 0 {
		return b[i:]
	}
	return b
}

// settle fixes p's axes to base widened to the equal aspect ratio of the
// data area that p's layout leaves in c, after reserve has sized the band
// above the data area (the legend) for the data area's width. Tick labels
// and the legend depend on the ranges and widths they size, so it repeats
// until nothing moves (two or three rounds in practice).
func settle(p *plot.Plot, base View, c draw.Canvas, reserve func(width vg.Length) vg.Length) View {
	v := base
	setView(p, v)
	for round := range 12 {
		dc := p.DataCanvas(c)
		w, h := dc.Max.X-dc.Min.X, dc.Max.Y-dc.Min.Y
		moved := false
		if reserve != nil {
			if pad := reserve(w); pad != p.Title.Padding {
				p.Title.Padding, moved = pad, true
			}
		}
		nv := base.withAspect(float64(w), float64(h))
		if round >= 4 {
			// A tick label at an edge can come and go as the range moves by
			// a hair, flipping the data area's size: from here on only widen
			// the current view, which settles.
			nv = v.withAspect(float64(w), float64(h))
		}
		if nv != v && !moved {
			v, moved = nv, true
			setView(p, v)
		}
		if !moved {
			break
		}
	}
	return v
}

func setView(p *plot.Plot, v View) {
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = v.XMin, v.XMax, v.YMin, v.YMax
}

// Frame locates a figure's data area inside its SVG, so that a page can
// turn a click on the inline SVG into data coordinates. Lengths are SVG
// user units of the viewBox "0 0 ViewBoxWidth ViewBoxHeight" (points), with
// the origin at the top left as in the DOM. A click at (cx, cy) CSS pixels
// from the top-left of an SVG element displayed w CSS pixels wide is at
// u = cx·ViewBoxWidth/w, v = cy·ViewBoxHeight/h; DataAt does the rest.
type Frame struct {
	ViewBoxWidth, ViewBoxHeight float64
	Left, Top, Width, Height    float64 // the data area
	View                        View    // the data at the data area's edges
}

// DataAt converts viewBox coordinates (u, v) to data coordinates. Points
// outside the data area map outside View.
func (f Frame) DataAt(u, v float64) (x1, x2 float64) {
	x1 = f.View.XMin + (u-f.Left)/f.Width*(f.View.XMax-f.View.XMin)
	x2 = f.View.YMax - (v-f.Top)/f.Height*(f.View.YMax-f.View.YMin)
	return x1, x2
}

// frame measures the data area with the same layout code that draws it.
func (f *Figure) frame() Frame {
	dc := f.p.DataCanvas(f.area())
	return Frame{
		ViewBoxWidth:  float64(f.W),
		ViewBoxHeight: float64(f.H),
		Left:          float64(dc.Min.X),
		Top:           float64(f.H - dc.Max.Y),
		Width:         float64(dc.Max.X - dc.Min.X),
		Height:        float64(dc.Max.Y - dc.Min.Y),
		View:          f.view,
	}
}
