package render

import (
	"image/color"
	"math"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Options sizes a figure in CSS pixels. The SVG is written at
// 1 px = 0.75 pt, so a 600×600 request displays at 600×600 px, and the PNG
// is rendered at 96 dpi, so it has exactly Width×Height pixels. Callers
// validate the size (200…2000); a zero Width or Height means the figure's
// default (600×600 for the data plot, 600×260 for the history chart).
type Options struct {
	Width, Height int
	// Hall is the hall type, for a figure projected in a lecture hall
	// (the presenter view): type, markers and lines HallScale times the
	// size's own, never compact. Draw it to a Target with Hall set too, so
	// that thin lines get the HallLine floor and pale ones darken.
	Hall bool
}

// HallScale is how much larger the hall type is than a figure's own: at
// 600 px a tick label is 12 pt · 1.3 = 20.8 px, 22.5 px when the figure is
// shown 650 px wide, as the presenter view shows it on a 1280×720 screen.
const HallScale = 1.3

// Default figure sizes in CSS pixels.
const (
	DefaultSize          = 600
	DefaultHistoryHeight = 260
)

// pxToPt converts CSS pixels to points: CSS fixes 96 px per inch and a
// point is 1/72 inch.
const pxToPt = 0.75

// maxSide bounds a side in pixels even if a caller skips validation: a
// PNG is allocated whole, 4 bytes a pixel.
const maxSide = 4000

// Size returns the figure size in points, filling in defaults and
// clamping each side to maxSide.
func (o Options) Size(defW, defH int) (w, h vg.Length) {
	if o.Width <= 0 {
		o.Width = defW
	}
	if o.Height <= 0 {
		o.Height = defH
	}
	o.Width, o.Height = min(o.Width, maxSide), min(o.Height, maxSide)
	return vg.Length(float64(o.Width) * pxToPt), vg.Length(float64(o.Height) * pxToPt)
}

// Theme holds the type sizes and line widths of one figure. Sizes grow
// with the figure (scale is 1 at 600 px) so a 2000 px download is not a
// page of tiny text, but shrink no further than three quarters, so a
// figure stays legible when projected; only a compact figure (a side under
// 400 px, a thumbnail) goes down to a little over half.
type Theme struct {
	scale   float64
	compact bool
}

// compactBelow is the side, in points, under which a figure is compact:
// 400 px.
const compactBelow = 300

// NewTheme is the theme of a figure of the given size in points: its type
// and strokes scale with the shorter side, compact under 400 px.
func NewTheme(widthPt, heightPt vg.Length) Theme {
	side := math.Min(float64(widthPt), float64(heightPt))
	s := side / (DefaultSize * pxToPt)
	if side < compactBelow {
		return Theme{scale: math.Max(0.55, s), compact: true}
	}
	return Theme{scale: math.Max(0.75, math.Min(s, 2))}
}

// StripTheme is the theme of a short, wide chart (history, bars): its
// type scales with the width only, as NewTheme's does with the shorter
// side, so a 600×260 chart has the 600×600 plot's type.
func StripTheme(widthPt vg.Length) Theme {
	return NewTheme(widthPt, widthPt)
}

// FitTitle shrinks p's title, down to 55 % of its size, until its widest
// line fits in width, so a title that states the state stays whole on a
// narrow figure.
func FitTitle(p *plot.Plot, width vg.Length) {
	f := &p.Title.TextStyle.Font
	w := p.Title.TextStyle.Width(p.Title.Text)
	if w > width && w > 0 {
		f.Size = max(f.Size*0.55, f.Size*width/w)
	}
}

// ForHall is t in the hall type when o asks for it (Options.Hall).
func (t Theme) ForHall(o Options) Theme {
	if o.Hall {
		t.scale *= HallScale
		t.compact = false
	}
	return t
}

// Pt scales a length given in points at the default size.
func (t Theme) Pt(v float64) vg.Length { return vg.Length(v * t.scale) }

// DefaultTheme is the theme of a figure of the default size: scale 1, the
// lengths a plotter is given in.
func DefaultTheme() Theme { return Theme{scale: 1} }

// Compact reports a figure under 300 pt (400 px) a side, drawn without its legend
// and second title line, with smaller type.
func (t Theme) Compact() bool { return t.compact }

// Scale is the factor the theme multiplies lengths by (Pt).
func (t Theme) Scale() float64 { return t.scale }

// Scaled is t with its lengths multiplied by s more, for a plotter's
// Scaled copy.
func (t Theme) Scaled(s float64) Theme {
	t.scale *= s
	return t
}

// Font returns Liberation Sans at size points (at the default size). The
// font is set on every style rather than through plot.DefaultFont, which
// is a global that concurrent requests would race on.
func (t Theme) Font(size float64, bold bool) font.Font {
	f := font.Font{Typeface: "Liberation", Variant: "Sans", Size: t.Pt(size)}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return f
}

// Text returns a text style in Liberation Sans with the given alignment.
func (t Theme) Text(size float64, bold bool, xa draw.XAlignment, ya draw.YAlignment) text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    t.Font(size, bold),
		XAlign:  xa,
		YAlign:  ya,
		Handler: plot.DefaultTextHandler,
	}
}

// Style applies the theme to p: fonts, axis labels, ticks with a true
// minus sign, and axes that touch the data area, so region tints fill the
// frame with no gap.
func (t Theme) Style(p *plot.Plot, xlabel, ylabel string, titleSize, labelSize, tickSize float64) {
	p.Title.TextStyle = t.Text(titleSize, false, draw.XCenter, draw.YTop)
	p.Title.Padding = t.Pt(6)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle = t.Text(labelSize, false, draw.XCenter, draw.YBottom)
		a.Label.Padding = t.Pt(3)
		a.Tick.Label.Font = t.Font(tickSize, false)
		a.Tick.Label.Handler = plot.DefaultTextHandler
		a.Tick.Marker = NiceTicks{N: 4}
		a.Tick.Length = t.Pt(5)
		a.Tick.Width = t.Pt(0.75)
		a.Width = t.Pt(0.75)
		a.Padding = 0
	}
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Legend.TextStyle = t.Text(tickSize, false, draw.XLeft, draw.YBottom)
}

// Okabe–Ito colours (Okabe & Ito 2008), the house palette: distinguishable
// under the common colour-vision deficiencies.
var (
	Blue       = color.RGBA{0x00, 0x72, 0xB2, 0xFF}
	Vermillion = color.RGBA{0xD5, 0x5E, 0x00, 0xFF}
	Green      = color.RGBA{0x00, 0x9E, 0x73, 0xFF}
	Purple     = color.RGBA{0xCC, 0x79, 0xA7, 0xFF}
	Orange     = color.RGBA{0xE6, 0x9F, 0x00, 0xFF}
	SkyBlue    = color.RGBA{0x56, 0xB4, 0xE9, 0xFF}
	Yellow     = color.RGBA{0xF0, 0xE4, 0x42, 0xFF}
	Black      = color.RGBA{0x00, 0x00, 0x00, 0xFF}
	Grey       = color.RGBA{0x80, 0x80, 0x80, 0xFF}
	White      = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
)

// ClassColor returns the colour of palette slot k: blue, vermillion and
// bluish green first (classes +1, −1 and the third class of the notes),
// then the rest of Okabe–Ito. Slots 8 and 9 reuse colours; their marker
// shapes still tell them apart.
func ClassColor(k int) color.RGBA {
	switch k % 8 {
	case 0:
		return Blue
	case 1:
		return Vermillion
	case 2:
		return Green
	case 3:
		return Purple
	case 4:
		return Orange
	case 5:
		return SkyBlue
	case 6:
		return Yellow
	}
	return Black
}

// Tint mixes c with white: a light opaque tint for decision regions.
// Opaque, because translucent fills stack into muddy colours.
func Tint(c color.RGBA, amount float64) color.RGBA {
	mix := func(v uint8) uint8 { return uint8(math.Round(255 - amount*(255-float64(v)))) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xFF}
}

// RegionTint is the tint of palette slot k used for its region.
func RegionTint(k int) color.RGBA { return Tint(ClassColor(k), 0.2) }

// Darker returns c at 70 % brightness: text in a class hue needs more
// contrast than a line of the same hue.
func Darker(c color.RGBA) color.RGBA {
	f := func(v uint8) uint8 { return uint8(math.Round(0.7 * float64(v))) }
	return color.RGBA{f(c.R), f(c.G), f(c.B), c.A}
}
