package render

import (
	"image"
	"image/color"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// look draws a figure's house-style strokes and fills in a Target's theme
// and hall strokes, by mapping each colour, width and fill on its way to
// the canvas: one place for every figure, so no figure builder knows
// about themes.
type look struct {
	theme string
	hall  bool
}

func newLook(t *Target) look {
	th := t.Theme
	if th == "" {
		th = ThemeLight
	}
	return look{theme: th, hall: t.Hall}
}

// Dark theme's paper and ink.
var (
	darkPaper = color.RGBA{0x1A, 0x1A, 0x1A, 0xFF}
	darkInk   = color.RGBA{0xEE, 0xEE, 0xEE, 0xFF}
)

// HallLine is the thinnest stroke of a hall figure: 2 px.
const HallLine = vg.Length(2 * pxToPt)

func (l look) plain() bool { return l.theme == ThemeLight && !l.hall }

// paper is the figure's background.
func (l look) paper() color.Color {
	if l.theme == ThemeDark {
		return darkPaper
	}
	return color.White
}

// halo is the colour of the outline that keeps a label readable over
// lines: the paper's.
func (l look) halo() string {
	if l.theme == ThemeDark {
		return "#1A1A1A"
	}
	return "#FFFFFF"
}

// wrap returns c drawing in the look; the plain look returns c itself,
// so a light figure's bytes do not change.
func (l look) wrap(c vg.CanvasSizer) vg.CanvasSizer {
	if l.plain() {
		return c
	}
	lc := &lookCanvas{CanvasSizer: c, look: l}
	lc.st = lookState{col: color.Black, width: vg.Points(1)}
	if l.theme == ThemeDark {
		// An SVG has no background of its own; a PNG's is painted already,
		// and painting it again costs nothing visible.
		w, h := c.Size()
		var p vg.Path
		p.Move(vg.Point{})
		p.Line(vg.Point{X: w})
		p.Line(vg.Point{X: w, Y: h})
		p.Line(vg.Point{Y: h})
		p.Close()
		c.SetColor(darkPaper)
		c.Fill(p)
		c.SetColor(color.Black)
	}
	return lc
}

// lookState is what the canvas was asked for, kept so that a stroke and
// a fill of the same colour can be mapped apart.
type lookState struct {
	col    color.Color
	width  vg.Length
	dashes []vg.Length
	offs   vg.Length
}

// lookCanvas maps a figure's drawing to a look. It passes each call on,
// choosing the colour, width and dashes at the moment of each Stroke and
// Fill from what was asked for and what is drawn.
type lookCanvas struct {
	vg.CanvasSizer
	look  look
	st    lookState
	stack []lookState
}

func (c *lookCanvas) SetLineWidth(w vg.Length) { c.st.width = w }
func (c *lookCanvas) SetLineDash(d []vg.Length, offs vg.Length) {
	c.st.dashes, c.st.offs = d, offs
}
func (c *lookCanvas) SetColor(col color.Color) {
	if col == nil {
		col = color.Black
	}
	c.st.col = col
	c.CanvasSizer.SetColor(c.look.ink(col))
}

func (c *lookCanvas) Push() {
	c.stack = append(c.stack, c.st)
	c.CanvasSizer.Push()
}

func (c *lookCanvas) Pop() {
	if n := len(c.stack); n > 0 {
		c.st, c.stack = c.stack[n-1], c.stack[:n-1]
	}
	c.CanvasSizer.Pop()
}

func (c *lookCanvas) Stroke(p vg.Path) {
	col, w, dashes := c.look.stroke(c.st, openSpan(p))
	c.CanvasSizer.SetColor(col)
	c.CanvasSizer.SetLineWidth(w)
	c.CanvasSizer.SetLineDash(dashes, c.st.offs)
	c.CanvasSizer.Stroke(p)
	c.CanvasSizer.SetColor(c.look.ink(c.st.col))
}

func (c *lookCanvas) Fill(p vg.Path) {
	if c.look.theme == ThemePrint && c.hatch(p) {
		return
	}
	c.CanvasSizer.SetColor(c.look.fill(c.st.col))
	c.CanvasSizer.Fill(p)
	c.CanvasSizer.SetColor(c.look.ink(c.st.col))
}

func (c *lookCanvas) FillString(f font.Face, pt vg.Point, s string) {
	c.CanvasSizer.SetColor(c.look.ink(c.st.col))
	c.CanvasSizer.FillString(f, pt, s)
}

func (c *lookCanvas) DrawImage(r vg.Rectangle, img image.Image) {
	c.CanvasSizer.DrawImage(r, c.look.image(img))
}

// ink is the colour of text (and the default for whatever comes next).
func (l look) ink(col color.Color) color.Color {
	switch l.theme {
	case ThemeDark:
		return darkColor(col)
	case ThemePrint:
		return printInk(col)
	}
	return col
}

// fill is the colour of a fill: in print, a point's or a bar's fill
// keeps a grey of its lightness (shape tells classes apart), and white
// stays white.
func (l look) fill(col color.Color) color.Color {
	switch l.theme {
	case ThemeDark:
		return darkColor(col)
	case ThemePrint:
		return printGrey(col)
	}
	return col
}

// stroke is a stroke's colour, width and dashes: the hall floor on the
// width and darker thin greys; in print, black with a dash pattern per hue
// on an open line (span: openSpan) long enough to show one.
func (l look) stroke(st lookState, span vg.Length) (color.Color, vg.Length, []vg.Length) {
	col, w, dashes := st.col, st.width, st.dashes
	if l.hall && w > 0 {
		w = max(w, HallLine)
		col = hallDarker(col)
	}
	switch l.theme {
	case ThemeDark:
		col = darkColor(col)
	case ThemePrint:
		if len(dashes) == 0 && span > 6 {
			dashes = hueDashes(col, w)
		}
		col = printInk(col)
	}
	return col, w, dashes
}

// hallDarker darkens a light grey or a pale line (a contour, a grid line)
// to at most 45 % lightness, so it survives a washed-out projector.
func hallDarker(col color.Color) color.Color {
	h, s, li, a := hsl(col)
	if li > 0.45 && li < 0.99 && s < 0.35 {
		li = 0.45
	}
	return fromHSL(h, s, li, a)
}

// darkColor maps a colour for dark paper: lightness inverted into the
// range between the paper and the ink, hue and saturation kept, so white
// becomes the paper, black the ink, a light tint a dark one and a
// saturated hue a lighter hue of itself.
func darkColor(col color.Color) color.Color {
	h, s, li, a := hsl(col)
	lo, hi := 0.102, 0.933
	return fromHSL(h, s, lo+(1-li)*(hi-lo), a)
}

// printInk is the colour of print's lines and text: black for anything
// chromatic or dark, light greys kept (a grid).
func printInk(col color.Color) color.Color {
	_, s, li, a := hsl(col)
	if s < 0.15 && li > 0.6 {
		return grey(li, a)
	}
	return color.NRGBA{0, 0, 0, a}
}

// printGrey is a fill's grey in print: a strong colour (a point, a bar)
// the grey of its hue, so blue and vermillion stay apart (dark and light);
// anything else the grey of its lightness, and white stays white.
func printGrey(col color.Color) color.Color {
	h, s, li, a := hsl(col)
	switch {
	case li > 0.97:
		return color.NRGBA{0xFF, 0xFF, 0xFF, a}
	case s >= 0.3 && li < 0.7:
		return grey(hueGrey[hueSlot(h)], a)
	}
	return grey(luma(col), a)
}

// hueGrey is the print grey of each hue family (hueSlot).
var hueGrey = [...]float64{0.2, 0.72, 0.45, 0.35, 0.6, 0.88}

// hueDashes gives each palette hue its own dash pattern, in units of the
// line width: blue solid, vermillion dashed, green dotted, and so on.
func hueDashes(col color.Color, w vg.Length) []vg.Length {
	h, s, _, _ := hsl(col)
	if s < 0.3 {
		return nil
	}
	u := max(w, vg.Points(1))
	switch hueSlot(h) {
	case 1: // vermillion, orange
		return []vg.Length{5 * u, 2.5 * u}
	case 2: // green
		return []vg.Length{1 * u, 2 * u}
	case 3: // purple, pink
		return []vg.Length{6 * u, 2 * u, 1 * u, 2 * u}
	case 4: // sky blue
		return []vg.Length{9 * u, 3 * u}
	case 5: // yellow
		return []vg.Length{2 * u, 2 * u}
	}
	return nil
}

// hueSlot sorts a hue in degrees into the palette's families: 0 blue,
// 1 vermillion and orange, 2 green, 3 purple, 4 sky blue, 5 yellow.
func hueSlot(h float64) int {
	switch {
	case h < 40 || h >= 345:
		return 1
	case h < 55:
		return 5
	case h < 180:
		return 2
	case h < 200:
		return 4
	case h < 250:
		return 0
	}
	return 3
}

// image maps a raster (a field's fill, a heat map) pixel by pixel: to
// dark, or, in print, to a light grey ramp that keeps the order of the
// lightness and saves toner.
func (l look) image(img image.Image) image.Image {
	if l.theme == ThemeLight {
		return img
	}
	b := img.Bounds()
	out := image.NewNRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.At(x, y)
			switch l.theme {
			case ThemeDark:
				out.Set(x, y, darkColor(c))
			case ThemePrint:
				_, _, _, a := hsl(c)
				out.Set(x, y, grey(0.55+0.45*luma(c), a))
			}
		}
	}
	return out
}

// openSpan is pathSpan for an open line (a series, a legend's swatch of
// one), 0 for a closed shape (a marker's edge, a ring), which print
// never dashes.
func openSpan(p vg.Path) vg.Length {
	for _, c := range p {
		if c.Type == vg.CloseComp || c.Type == vg.ArcComp {
			return 0
		}
	}
	return pathSpan(p)
}

// pathSpan is the larger side of a path's bounding box.
func pathSpan(p vg.Path) vg.Length {
	r, ok := pathBounds(p)
	if !ok {
		return 0
	}
	return max(r.Max.X-r.Min.X, r.Max.Y-r.Min.Y)
}

func pathBounds(p vg.Path) (vg.Rectangle, bool) {
	var r vg.Rectangle
	first := true
	add := func(pt vg.Point) {
		if first {
			r.Min, r.Max, first = pt, pt, false
			return
		}
		r.Min.X, r.Min.Y = min(r.Min.X, pt.X), min(r.Min.Y, pt.Y)
		r.Max.X, r.Max.Y = max(r.Max.X, pt.X), max(r.Max.Y, pt.Y)
	}
	for _, c := range p {
		switch c.Type {
		case vg.MoveComp, vg.LineComp, vg.CurveComp:
			add(c.Pos)
		case vg.ArcComp:
			add(vg.Point{X: c.Pos.X - c.Radius, Y: c.Pos.Y - c.Radius})
			add(vg.Point{X: c.Pos.X + c.Radius, Y: c.Pos.Y + c.Radius})
		}
	}
	return r, !first
}

// ThemeColor is col as theme draws a line or text of it, for a palette
// that must hold the themed colours (an animation's).
func ThemeColor(theme string, col color.Color) color.Color {
	return look{theme: theme}.ink(col)
}
