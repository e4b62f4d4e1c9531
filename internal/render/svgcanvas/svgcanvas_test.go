package svgcanvas

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	xfnt "golang.org/x/image/font"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/font/liberation"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// drawRandom draws the same seeded sequence of random operations on c:
// paths of every component kind at ordinary and extreme coordinates
// (±Inf, NaN, -0, 1e-300, 1e300), arcs and full circles of both
// directions, dashes, line widths at and below 0, colours opaque,
// translucent, fully transparent and nil, texts with markup characters,
// groups, translations, rotations, scalings and an image.
func drawRandom(c vg.Canvas, seed uint64, fonts []font.Face) {
	r := rand.New(rand.NewPCG(seed, 7))
	num := func() float64 {
		switch r.IntN(12) {
		case 0:
			return []float64{math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1), 0, 1e-300, -1e300, 123456.789, 0.000012345}[r.IntN(9)]
		case 1:
			return float64(r.IntN(600))
		default:
			return r.Float64()*700 - 50
		}
	}
	pt := func() vg.Point { return vg.Point{X: vg.Length(num()), Y: vg.Length(num())} }
	clr := func() color.Color {
		switch r.IntN(6) {
		case 0:
			return nil
		case 1:
			return color.Black
		case 2:
			return color.RGBA{} // fully transparent
		case 3:
			a := uint8(r.IntN(256))
			return color.NRGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), a}
		default:
			return color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}
		}
	}
	path := func() vg.Path {
		var p vg.Path
		p.Move(pt())
		for range r.IntN(12) {
			switch r.IntN(6) {
			case 0, 1:
				p.Line(pt())
			case 2:
				angle := []float64{2 * math.Pi, -2 * math.Pi, 3 * math.Pi, r.Float64()*4*math.Pi - 2*math.Pi, math.Pi, -math.Pi / 2}[r.IntN(6)]
				p.Arc(pt(), vg.Length(r.Float64()*20), r.Float64()*7-3.5, angle)
			case 3:
				p.QuadTo(pt(), pt())
			case 4:
				p.CubeTo(pt(), pt(), pt())
			default:
				p.Close()
			}
		}
		return p
	}
	depth := 0
	for range 60 {
		switch r.IntN(14) {
		case 0:
			c.SetLineWidth([]vg.Length{0, -1, 1, 0.5, vg.Length(r.Float64() * 5)}[r.IntN(5)])
		case 1:
			switch r.IntN(3) {
			case 0:
				c.SetLineDash(nil, 0)
			case 1:
				c.SetLineDash([]vg.Length{vg.Length(r.Float64() * 6), 2}, vg.Length(num()))
			default:
				c.SetLineDash([]vg.Length{3}, 0)
			}
		case 2, 3:
			c.SetColor(clr())
		case 4, 5, 6:
			c.Stroke(path())
		case 7, 8:
			c.Fill(path())
		case 9:
			s := []string{"", "0.5", "x⁽¹⁾ = <w, x> & b", "−1e+06", "αⱼ ≤ C", "a\"b'c"}[r.IntN(6)]
			c.FillString(fonts[r.IntN(len(fonts))], pt(), s)
		case 10:
			c.Push()
			depth++
		case 11:
			if depth > 0 {
				c.Pop()
				depth--
			}
		case 12:
			switch r.IntN(3) {
			case 0:
				c.Translate(pt())
			case 1:
				c.Rotate(r.Float64()*7 - 3.5)
			default:
				c.Scale(r.Float64()*3, -r.Float64())
			}
		default:
			if r.IntN(8) == 0 {
				img := image.NewRGBA(image.Rect(0, 0, 3, 2))
				img.Set(1, 1, color.NRGBA{uint8(r.IntN(256)), 9, 200, uint8(r.IntN(256))})
				c.DrawImage(vg.Rectangle{Min: pt(), Max: pt()}, img)
			}
		}
	}
}

// TestSameBytesAsVgsvg checks that this canvas writes what vgsvg writes,
// byte for byte, over 500 seeded random drawings.
func TestSameBytesAsVgsvg(t *testing.T) {
	cache := font.NewCache(liberation.Collection())
	var fonts []font.Face
	for _, f := range []font.Font{
		{Typeface: "Liberation", Variant: "Sans", Size: 12},
		{Typeface: "Liberation", Variant: "Sans", Weight: xfnt.WeightBold, Size: 14.5},
		{Typeface: "Liberation", Variant: "Serif", Style: xfnt.StyleItalic, Size: 9},
		{Typeface: "Liberation", Variant: "Mono", Size: 10.25},
	} {
		fonts = append(fonts, cache.Lookup(f, f.Size))
	}
	for seed := range uint64(500) {
		w, h := vg.Length(100+seed), vg.Length(333.3+float64(seed)/7)
		want := vgsvg.NewWith(vgsvg.UseWH(w, h))
		got := New(w, h)
		drawRandom(want, seed, fonts)
		drawRandom(got, seed, fonts)
		var wb, gb bytes.Buffer
		wn, werr := want.WriteTo(&wb)
		gn, gerr := got.WriteTo(&gb)
		if werr != nil || gerr != nil {
			t.Fatalf("seed %d: WriteTo: %v, %v", seed, werr, gerr)
		}
		if !bytes.Equal(gb.Bytes(), wb.Bytes()) || gn != wn {
			i := 0
			for i < min(gb.Len(), wb.Len()) && gb.Bytes()[i] == wb.Bytes()[i] {
				i++
			}
			lo := max(0, i-120)
			t.Fatalf("seed %d: differs at byte %d (n %d vs %d):\n got …%s\nwant …%s", seed, i, gn, wn,
				gb.Bytes()[lo:min(gb.Len(), i+80)], wb.Bytes()[lo:min(wb.Len(), i+80)])
		}
	}
}

// BenchmarkCanvas compares the two canvases on the same drawings.
func BenchmarkCanvas(b *testing.B) {
	cache := font.NewCache(liberation.Collection())
	fonts := []font.Face{cache.Lookup(font.Font{Typeface: "Liberation", Variant: "Sans", Size: 12}, 12)}
	b.Run("vgsvg", func(b *testing.B) {
		for i := range b.N {
			c := vgsvg.NewWith(vgsvg.UseWH(400, 300))
			drawRandom(c, uint64(i%64), fonts)
			c.WriteTo(&bytes.Buffer{})
		}
	})
	b.Run("svgcanvas", func(b *testing.B) {
		for i := range b.N {
			c := New(400, 300)
			drawRandom(c, uint64(i%64), fonts)
			c.WriteTo(&bytes.Buffer{})
		}
	})
}
