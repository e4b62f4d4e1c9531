package demo

import (
	"image"
	"image/color"
	"sync"

	"github.com/margin-edu/margin/internal/render"
)

// gifPalette is the fixed palette every GIF uses: the house colours and
// their region tints in each theme, 32 greys, and a 6×6×5 colour cube for
// the rest (anti-aliased edges, colour ramps), 244 colours. Fixed, so a
// frame costs a table look-up a pixel and every GIF of one state is the
// same bytes.
var gifPalette = sync.OnceValue(func() color.Palette {
	var p color.Palette
	for k := range 8 {
		c := render.ClassColor(k)
		for _, theme := range []string{render.ThemeLight, render.ThemeDark} {
			p = append(p, render.ThemeColor(theme, c), render.ThemeColor(theme, render.RegionTint(k)))
		}
	}
	for i := range 32 {
		v := uint8(i * 255 / 31)
		p = append(p, color.RGBA{v, v, v, 0xFF})
	}
	for r := range 6 {
		for g := range 6 {
			for b := range 5 {
				p = append(p, color.RGBA{uint8(r * 51), uint8(g * 51), uint8(b * 255 / 4), 0xFF})
			}
		}
	}
	return p
})

// lutBits is the bits of each channel the look-up table keys on.
const lutBits = 5

// gifLUT maps each colour, by the top lutBits bits of its channels, to
// its nearest palette entry.
var gifLUT = sync.OnceValue(func() []uint8 {
	pal := gifPalette()
	const n = 1 << lutBits
	lut := make([]uint8, n*n*n)
	for r := range n {
		for g := range n {
			for b := range n {
				c := color.RGBA{uint8(r<<(8-lutBits) | r>>(2*lutBits-8)), uint8(g<<(8-lutBits) | g>>(2*lutBits-8)), uint8(b<<(8-lutBits) | b>>(2*lutBits-8)), 0xFF}
				lut[(r*n+g)*n+b] = uint8(pal.Index(c))
			}
		}
	}
	return lut
})

// quantize maps an opaque frame to the palette.
func quantize(img *image.RGBA) *image.Paletted {
	b := img.Bounds()
	out := image.NewPaletted(b, gifPalette())
	lut := gifLUT()
	const n, sh = 1 << lutBits, 8 - lutBits
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):]
		dst := out.Pix[out.PixOffset(b.Min.X, y):]
		for x := 0; x < b.Dx(); x++ {
			r, g, bl := int(row[4*x])>>sh, int(row[4*x+1])>>sh, int(row[4*x+2])>>sh
			dst[x] = lut[(r*n+g)*n+bl]
		}
	}
	return out
}

// changed returns the part of cur that differs from prev (both the same
// size): the smallest rectangle holding every changed pixel, drawn over
// the frame before it (DisposalNone), so frames that move one point cost
// a few hundred bytes. An unchanged frame is its top-left pixel.
func changed(prev, cur *image.Paletted) *image.Paletted {
	b := cur.Bounds()
	minX, minY, maxX, maxY := b.Max.X, b.Max.Y, b.Min.X-1, b.Min.Y-1
	for y := b.Min.Y; y < b.Max.Y; y++ {
		p, c := prev.Pix[prev.PixOffset(b.Min.X, y):][:b.Dx()], cur.Pix[cur.PixOffset(b.Min.X, y):][:b.Dx()]
		for x := range c {
			if p[x] != c[x] {
				minX, maxX = min(minX, b.Min.X+x), max(maxX, b.Min.X+x)
				minY, maxY = min(minY, y), max(maxY, y)
			}
		}
	}
	if maxX < minX {
		return cur.SubImage(image.Rect(b.Min.X, b.Min.Y, b.Min.X+1, b.Min.Y+1)).(*image.Paletted)
	}
	return cur.SubImage(image.Rect(minX, minY, maxX+1, maxY+1)).(*image.Paletted)
}
