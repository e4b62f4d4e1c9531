package render

import (
	"strings"
	"testing"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font/liberation"
)

// TestWithHalos folds a marked copy into the next label with its text,
// escapes included, and drops a copy whose label is missing.
func TestWithHalos(t *testing.T) {
	in := "<text x=\"1\" style=\"font-size:10px;fill:#FFFFFF\">" + haloMark + "2.00" + haloEnd + "a &amp; b</text>\n" +
		"<g>\n<text x=\"2\" style=\"font-size:10px;fill:#0072B2\">a &amp; b</text>\n</g>\n" +
		"<text x=\"3\" style=\"fill:#FFFFFF\">" + haloMark + "1" + haloEnd + "gone</text>\n"
	want := "<g>\n<text x=\"2\" style=\"font-size:10px;fill:#0072B2;stroke:#FFFFFF;stroke-width:2.00px;stroke-linejoin:round;paint-order:stroke\">a &amp; b</text>\n</g>\n"
	if got := string(withHalos([]byte(in), "#FFFFFF")); got != want {
		t.Errorf("withHalos =\n%s\nwant\n%s", got, want)
	}
}

// TestPNGRuns: superscript runs with a character the font lacks are
// split out as plain characters to raise; the others stay, and nothing
// else changes.
func TestPNGRuns(t *testing.T) {
	for in, want := range map[string][]pngRun{
		"J = 9.95·10⁻⁴":      {{"J = 9.95·10", 0}, {"−4", supRise}},
		"10³ and x₁":         {{"10³ and x₁", 0}},
		"f(x⁽ᵏ⁾) = 0":        {{"f(x", 0}, {"(k)", supRise}, {") = 0", 0}},
		"σ = 1/γ, 10⁻¹² end": {{"σ = 1/γ, 10", 0}, {"−12", supRise}, {" end", 0}},
		"αⱼ ≥ 0, ‖∇f‖":       {{"α", 0}, {"j", subDrop}, {" ≥ 0, ‖grad f‖", 0}},
		"plain":              {{"plain", 0}},
	} {
		got := pngRuns(in)
		if len(got) != len(want) {
			t.Errorf("pngRuns(%q) = %v, want %v", in, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("pngRuns(%q) = %v, want %v", in, got, want)
				break
			}
		}
	}
}

// TestPNGFontGlyphs: every character pngRuns leaves in place or writes
// has a glyph in the PNG font, and the three it replaces have none (if a
// font update adds them, the raised runs can go).
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
	for r, plain := range mergeMaps(supers, subs) {
		if strings.ContainsRune(missing, r) {
			continue
		}
		if i, err := face.GlyphIndex(&b, r); err != nil || i == 0 {
			t.Errorf("%q has no glyph but is not listed as missing", r)
		}
		if i, err := face.GlyphIndex(&b, plain); err != nil || i == 0 {
			t.Errorf("%q (for %q) has no glyph", plain, r)
		}
	}
	for _, r := range "−+()·0123456789" {
		if i, err := face.GlyphIndex(&b, r); err != nil || i == 0 {
			t.Errorf("%q has no glyph", r)
		}
	}
	for _, r := range missing {
		if i, _ := face.GlyphIndex(&b, r); i != 0 {
			t.Logf("%q now has a glyph; pngRuns need not raise it", r)
		}
	}
}

func mergeMaps(a, b map[rune]rune) map[rune]rune {
	m := map[rune]rune{}
	for k, v := range a {
		m[k] = v
	}
	for k, v := range b {
		m[k] = v
	}
	return m
}
