// The view parameters of a figure file beyond its size (scale, theme),
// the pixel cap of a PNG, and the names downloads take.

package demo

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/margin-edu/margin/internal/render"
)

// MaxPNGPixels caps a PNG's pixels, w·h·scale², so one request allocates
// at most about 17 MB of raster (4 bytes a pixel): a 2000×2000 figure at
// scale 1, or the default 600×600 at scale 3, fits; 1200×1200 at scale 2
// does not.
const MaxPNGPixels = 4_200_000

// The figure keys the kit adds to every demo after w and h.
var (
	scaleParam = Int{Key: "scale", Label: "scale", Doc: "PNG pixels per CSS pixel (retina slides); the layout is that of w×h",
		Group: GroupView, Default: 1, Min: 1, Max: render.MaxScale, Hidden: true,
		AllowedDoc: fmt.Sprintf("1–%d, with w·h·scale² ≤ %s pixels", render.MaxScale, "4 200 000")}
	themeParam = Choice{Key: "theme", Label: "theme", Doc: "figure colours: `dark` for dark slides, `print` for paper (black lines, hatches for tints)",
		Group: GroupView, Default: render.ThemeLight, Hidden: true, Options: []Option{
			{render.ThemeLight, "light"}, {render.ThemeDark, "dark"}, {render.ThemePrint, "print"}}}
)

// figureParams are the figure keys, declared after w and h by NewDemo.
func figureParams() []Param { return []Param{scaleParam.Param(), themeParam.Param()} }

// CheckPNG refuses a state whose PNG would pass MaxPNGPixels, with a
// problem naming scale (or w and h when even scale 1 passes it) and the cap.
func CheckPNG(s State) error {
	w, h, k := widthParam.Get(s), heightParam.Get(s), scaleParam.Get(s)
	if px := w * h * k * k; px > MaxPNGPixels {
		key := scaleParam.Key
		if k == 1 {
			key = widthParam.Key
		}
		return BadInput(key, "a PNG of w·h·scale² = %d·%d·%d² = %d pixels is over the cap of %d pixels (MaxPNGPixels); lower scale, w or h",
			w, h, k, px, MaxPNGPixels)
	}
	return nil
}

// FigureQuery is the canonical query of s's figure file: the plot scope,
// without scale for an SVG, which has no pixels to multiply.
func (s State) FigureQuery(png bool) string {
	if png {
		return s.Encode(ForPlot)
	}
	t := s.clone()
	t.vals[scaleParam.Key] = scaleParam.Param().Default
	return t.Encode(ForPlot)
}

// maxFileName bounds a download's name before its extension; a longer
// one is cut and ends with a hash of the whole, so it stays unique.
const maxFileName = 72

// FileName is the name a download of s takes, ext its extension ("svg",
// "png", "gif", "csv"): the demo's ID, the figure's name for a panel
// (figure "" or PlotFigure for the main plot), each non-default key and
// its value run together ("C1"; the theme and scale as "dark" and "2x"),
// the count of added and removed points,
// and the step: "svm-soft-C1-step40.svg". Only letters, digits, ".", "_"
// and "-" appear, and the stem is at most maxFileName bytes.
func (s State) FileName(figure, ext string) string {
	scope := ForPlot
	if ext == "csv" {
		scope = ForData
	}
	v := s.Values(scope)
	parts := []string{s.d.ID}
	if figure != "" && figure != PlotFigure {
		parts = append(parts, figure)
	}
	for _, p := range s.d.params {
		val := v.Get(p.Key)
		if val == "" || (ext == "svg" && p.Key == scaleParam.Key) {
			continue
		}
		switch p.Key {
		case themeParam.Key:
			parts = append(parts, val) // "dark"
		case scaleParam.Key:
			parts = append(parts, val+"x") // "2x"
		default:
			parts = append(parts, p.Key+val)
		}
	}
	if n := len(s.Add); n > 0 {
		parts = append(parts, fmt.Sprintf("add%d", n))
	}
	if n := len(s.Del); n > 0 {
		parts = append(parts, fmt.Sprintf("del%d", n))
	}
	if scope == ForPlot && s.Step != 0 && !s.d.Static {
		parts = append(parts, fmt.Sprintf("step%d", s.Step))
	}
	stem := safeName(strings.Join(parts, "-"))
	if len(stem) > maxFileName {
		sum := sha256.Sum256([]byte(s.Encode(scope)))
		stem = strings.TrimRight(stem[:maxFileName-9], "-._") + "-" + hex.EncodeToString(sum[:4])
	}
	return stem + "." + ext
}

// safeName keeps letters, digits, ".", "_" and "-", and writes any other
// byte as "_" (a minus sign's bytes too: "−" never appears in a value,
// which URLs spell with "-").
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
		default:
			b[i] = '_'
		}
	}
	return string(b)
}
