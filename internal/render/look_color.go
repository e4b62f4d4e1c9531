package render

import (
	"image"
	"image/color"
	"math"
)

// The colour arithmetic of the looks: hue, saturation and lightness,
// greys, and rasters.

// hsl returns col's hue in degrees, saturation, lightness (0…1) and alpha.
func hsl(col color.Color) (h, s, l float64, a uint8) {
	n := color.NRGBAModel.Convert(col).(color.NRGBA)
	r, g, b := float64(n.R)/255, float64(n.G)/255, float64(n.B)/255
	mx, mn := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	l = (mx + mn) / 2
	if d := mx - mn; d > 0 {
		s = d / (1 - math.Abs(2*l-1))
		switch mx {
		case r:
			h = math.Mod((g-b)/d, 6)
		case g:
			h = (b-r)/d + 2
		default:
			h = (r-g)/d + 4
		}
		h *= 60
		if h < 0 {
			h += 360
		}
	}
	return h, s, l, n.A
}

func fromHSL(h, s, l float64, a uint8) color.NRGBA {
	c := (1 - math.Abs(2*l-1)) * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := l - c/2
	var r, g, b float64
	switch {
	case h < 60:
		r, g = c, x
	case h < 120:
		r, g = x, c
	case h < 180:
		g, b = c, x
	case h < 240:
		g, b = x, c
	case h < 300:
		r, b = x, c
	default:
		r, b = c, x
	}
	u := func(v float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(1, v+m)) * 255)) }
	return color.NRGBA{u(r), u(g), u(b), a}
}

// luma is col's relative lightness, 0 black to 1 white (Rec. 601).
func luma(col color.Color) float64 {
	n := color.NRGBAModel.Convert(col).(color.NRGBA)
	return (0.299*float64(n.R) + 0.587*float64(n.G) + 0.114*float64(n.B)) / 255
}

func grey(l float64, a uint8) color.NRGBA {
	v := uint8(math.Round(math.Max(0, math.Min(1, l)) * 255))
	return color.NRGBA{v, v, v, a}
}

// toRGBA returns img as an *image.RGBA (vgimg's is one already).
func toRGBA(img image.Image) *image.RGBA {
	if r, ok := img.(*image.RGBA); ok {
		return r
	}
	b := img.Bounds()
	out := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out
}
