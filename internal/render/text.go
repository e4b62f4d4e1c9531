package render

import (
	"bytes"
	"context"
	"html"
	"image"
	"strings"

	"github.com/margin-edu/margin/internal/render/svgcanvas"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// haloMark and haloEnd wrap the stroke width (in points) at the start of
// the marked white copy that HaloText writes into an SVG: private-use
// characters, which no caption contains.
const (
	haloMark = "\uE000"
	haloEnd  = "\uE001"
)

// withHalos folds each marked halo copy into the label drawn after it:
// the copy's <text> element goes, and the label's style gains a white
// stroke of the marked width, painted under its fill. A copy whose label
// cannot be found is dropped with no halo.
func withHalos(svg []byte, paper string) []byte {
	mark := []byte(html.EscapeString(haloMark))
	var out bytes.Buffer
	for {
		i := bytes.Index(svg, mark)
		if i < 0 {
			out.Write(svg)
			return out.Bytes()
		}
		start := bytes.LastIndex(svg[:i], []byte("<text "))
		end := bytes.Index(svg[i:], []byte("</text>\n"))
		if start < 0 || end < 0 {
			out.Write(svg)
			return out.Bytes()
		}
		end += i + len("</text>\n")
		body := svg[i+len(mark) : end-len("</text>\n")]
		width, label, _ := bytes.Cut(body, []byte(html.EscapeString(haloEnd)))
		out.Write(svg[:start])
		svg = svg[end:]
		// The label: the next <text> whose content is the same string.
		want := append(append([]byte(">"), label...), "</text>"...)
		j := bytes.Index(svg, want)
		if j < 0 {
			continue
		}
		k := bytes.LastIndex(svg[:j], []byte(`"`))
		if k < 0 || bytes.LastIndex(svg[:j], []byte("style=")) < bytes.LastIndex(svg[:j], []byte("<text ")) {
			continue
		}
		out.Write(svg[:k])
		out.WriteString(";stroke:" + paper + ";stroke-width:")
		out.Write(width)
		out.WriteString("px;stroke-linejoin:round;paint-order:stroke")
		svg = svg[k:]
	}
}

// isSVG reports whether c draws into an SVG, looking through the
// draw.Canvas wrappers that cropping and plotting nest around it.
func isSVG(c vg.Canvas) bool {
	for {
		switch v := c.(type) {
		case *svgcanvas.Canvas:
			return true
		case *lookCanvas:
			c = v.CanvasSizer
		case draw.Canvas:
			c = v.Canvas
		case *draw.Canvas:
			c = v.Canvas
		default:
			return false
		}
	}
}

// pngCanvas is the PNG backend with text made safe for the embedded
// Liberation Sans, which lacks some of the script characters Margin's
// captions use (⁻ ⁰ ⁹ ⁽ ⁾ ⁺ ⁱ, ⱼ ₖ ₙ ₚ ₋ ₊): a PNG of "10⁻⁹" would read "10".
// Each run of superscripts (or subscripts) that holds such a character is
// drawn as smaller plain characters raised (or lowered), so the PNG reads
// 10⁻⁹, x⁽⁰⁾ and αⱼ as the SVG does; ∇ and ⟂, which have no stand-in of the
// same shape, are spelled out. An SVG names the font and leaves glyphs to
// the browser, so only PNGs need this.
//
// Once ctx (Target.Ctx, nil for none) ends, it rasterises nothing more:
// the figure's remaining calls cost only their paths.
type pngCanvas struct {
	*vgimg.Canvas
	ctx context.Context
}

// stopped reports whether the figure's context has ended.
func (c pngCanvas) stopped() bool { return c.ctx != nil && c.ctx.Err() != nil }

// Stroke, Fill and DrawImage implement vg.Canvas, drawing nothing once
// the context ends.
func (c pngCanvas) Stroke(p vg.Path) {
	if !c.stopped() {
		c.Canvas.Stroke(p)
	}
}

func (c pngCanvas) Fill(p vg.Path) {
	if !c.stopped() {
		c.Canvas.Fill(p)
	}
}

func (c pngCanvas) DrawImage(r vg.Rectangle, img image.Image) {
	if !c.stopped() {
		c.Canvas.DrawImage(r, img)
	}
}

// FillString implements vg.Canvas.
func (c pngCanvas) FillString(f font.Face, pt vg.Point, s string) {
	if c.stopped() {
		return
	}
	for _, r := range pngRuns(s) {
		if r.shift == 0 {
			c.Canvas.FillString(f, pt, r.text)
			pt.X += f.Width(r.text)
			continue
		}
		small := f
		small.Font.Size = f.Font.Size * scriptScale
		c.Canvas.FillString(small, vg.Point{X: pt.X, Y: pt.Y + f.Font.Size*vg.Length(r.shift)}, r.text)
		pt.X += small.Width(r.text)
	}
}

// A script character drawn by hand is this much of the font size, raised
// or lowered by these fractions of it: about where the font's own ¹²³
// and ₁₂₃ sit.
const (
	scriptScale = 0.62
	supRise     = 0.36
	subDrop     = -0.12
)

// scripts maps each superscript and subscript character to its plain
// form, and missing lists those the font has no glyph for.
var (
	supers = map[rune]rune{'⁻': '−', '⁺': '+', '⁽': '(', '⁾': ')', '⁰': '0', '¹': '1', '²': '2', '³': '3',
		'⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9', 'ⁱ': 'i', 'ⁿ': 'n', 'ᵏ': 'k', 'ᵀ': 'T',
		'ᵗ': 't', 'ᵖ': 'p', 'ᶻ': 'z'}
	subs = map[rune]rune{'₋': '−', '₊': '+', '₀': '0', '₁': '1', '₂': '2', '₃': '3', '₄': '4', '₅': '5',
		'₆': '6', '₇': '7', '₈': '8', '₉': '9', 'ᵢ': 'i', 'ⱼ': 'j', 'ₖ': 'k', 'ₙ': 'n', 'ₚ': 'p'}
	spelled = strings.NewReplacer("∇", "grad ", "⟂", " perp. ")
)

const missing = "⁻⁺⁽⁾⁰⁹ⁱⱼₖₙₚ₋₊"

// pngRun is a piece of a PNG string: text drawn as is (shift 0), or a
// script run written in plain characters, drawn small and shifted by
// shift times the font size.
type pngRun struct {
	text  string
	shift float64
}

// pngRuns splits s at each script run that holds a character the font
// lacks; runs the font can draw (10³, x₁) stay in the plain text.
func pngRuns(s string) []pngRun {
	s = spelled.Replace(s)
	if !strings.ContainsAny(s, missing) {
		return []pngRun{{text: s}}
	}
	var out []pngRun
	var plain strings.Builder
	flush := func() {
		if plain.Len() > 0 {
			out = append(out, pngRun{text: plain.String()})
			plain.Reset()
		}
	}
	rs := []rune(s)
	for i := 0; i < len(rs); {
		table, shift := supers, supRise
		if _, ok := subs[rs[i]]; ok {
			table, shift = subs, subDrop
		}
		j := i
		for j < len(rs) && table[rs[j]] != 0 {
			j++
		}
		if j == i {
			plain.WriteRune(rs[i])
			i++
			continue
		}
		run := string(rs[i:j])
		if !strings.ContainsAny(run, missing) {
			plain.WriteString(run)
			i = j
			continue
		}
		flush()
		var b strings.Builder
		for _, r := range rs[i:j] {
			b.WriteRune(table[r])
		}
		out = append(out, pngRun{text: b.String(), shift: shift})
		i = j
	}
	flush()
	return out
}
