package render

import (
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
)

// pngCanvas is the PNG backend with text made safe for the embedded
// Liberation Sans, which has no glyph for ⁻, ⁰ or ⁹: a PNG of "10⁻⁹"
// would read "10". An SVG names the font and leaves glyphs to the
// browser, so only PNGs need this.
type pngCanvas struct{ *vgimg.Canvas }

// FillString implements vg.Canvas.
func (c pngCanvas) FillString(f font.Face, pt vg.Point, s string) {
	c.Canvas.FillString(f, pt, pngText(s))
}

// superscripts maps each superscript character to its plain form.
var superscripts = strings.NewReplacer("⁻", "−", "⁰", "0", "¹", "1", "²", "2", "³", "3",
	"⁴", "4", "⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9")

// pngText rewrites each run of superscript characters that holds one the
// font lacks as "^" and the plain characters: 10⁻⁴ as 10^−4, while 10³
// and x² keep their superscripts.
func pngText(s string) string {
	if !strings.ContainsAny(s, "⁻⁰⁹") {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); {
		j := i
		for j < len(rs) && isSuperscript(rs[j]) {
			j++
		}
		if j == i {
			b.WriteRune(rs[i])
			i++
			continue
		}
		run := string(rs[i:j])
		if strings.ContainsAny(run, "⁻⁰⁹") {
			run = "^" + superscripts.Replace(run)
		}
		b.WriteString(run)
		i = j
	}
	return b.String()
}

func isSuperscript(r rune) bool {
	return strings.ContainsRune("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", r)
}
