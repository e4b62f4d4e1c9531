package render

import (
	"testing"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font/liberation"
)

// TestPNGText: superscripts the font lacks become ^ and plain digits,
// the others stay, and nothing else changes.
func TestPNGText(t *testing.T) {
	for in, want := range map[string]string{
		"J = 9.95·10⁻⁴":      "J = 9.95·10^−4",
		"10³ and x²":         "10³ and x²",
		"10⁹ · 10⁰":          "10^9 · 10^0",
		"σ = 1/γ, 10⁻¹² end": "σ = 1/γ, 10^−12 end",
		"plain":              "plain",
	} {
		if got := pngText(in); got != want {
			t.Errorf("pngText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPNGFontGlyphs: every character pngText leaves in place or writes
// has a glyph in the PNG font, and the three it replaces have none (if a
// font update adds them, pngText can go).
func TestPNGFontGlyphs(t *testing.T) {
	var face *sfnt.Font
	for _, f := range liberation.Collection() {
		if f.Font.Typeface == "Liberation" && f.Font.Variant == "Sans" && f.Font.Weight == 0 && f.Font.Style == 0 {
			face = f.Face
		}
	}
	if face == nil {
		t.Fatal("no Liberation Sans in gonum's collection")
	}
	var b sfnt.Buffer
	for _, r := range "¹²³⁴⁵⁶⁷⁸^−·0123456789" {
		if i, err := face.GlyphIndex(&b, r); err != nil || i == 0 {
			t.Errorf("%q has no glyph", r)
		}
	}
	for _, r := range "⁻⁰⁹" {
		if i, _ := face.GlyphIndex(&b, r); i != 0 {
			t.Logf("%q now has a glyph; pngText need not replace it", r)
		}
	}
}
