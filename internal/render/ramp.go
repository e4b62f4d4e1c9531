package render

import (
	"image/color"
	"math"
)

// Ramp is a diverging colour scale for Field fills and Matrix heat maps:
// white at Mid, shading linearly towards blue at Hi and towards vermillion
// at Lo, and clamped beyond them, so the sign of v − Mid reads as the class
// colours do (+1 blue, −1 vermillion) and its size as depth. Strength in
// (0, 1] is how deep the ends go: 1 is the full hue, for a heat map with
// nothing drawn over it; about 0.3 keeps a fill light enough for points
// and lines on top (0.2 is the decision-region tint). The colours are
// opaque, since translucent fills stack into muddy colours.
//
// A ramp centred on 0 for signed values is Ramp{Lo: -m, Hi: m, Strength: 1};
// one for probabilities is Ramp{Lo: 0, Mid: 0.5, Hi: 1, Strength: 0.3}.
type Ramp struct {
	Lo, Mid, Hi float64
	Strength    float64
}

// Color returns the colour of v; NaN is white. A ramp with Hi ≤ Mid (or
// Lo ≥ Mid) is white on that side; Strength outside (0, 1] is clamped.
func (r Ramp) Color(v float64) color.Color { return r.RGBA(v) }

// RGBA is the ramp's colour at v, as Color returns it.
func (r Ramp) RGBA(v float64) color.RGBA {
	s := math.Max(0, math.Min(r.Strength, 1))
	switch {
	case v > r.Mid && r.Hi > r.Mid:
		return Tint(Blue, s*math.Min(1, (v-r.Mid)/(r.Hi-r.Mid)))
	case v < r.Mid && r.Lo < r.Mid:
		return Tint(Vermillion, s*math.Min(1, (r.Mid-v)/(r.Mid-r.Lo)))
	}
	return White
}

// SignTint is a Field fill for a classifier's decision function: the
// tint of class +1 (blue) where f > 0 and of class −1 (vermillion)
// elsewhere, as the perceptron's regions are coloured (sgn(0) = −1). Draw
// the level f = 0 on top for a crisp boundary.
func SignTint(v float64) color.Color {
	if v > 0 {
		return RegionTint(0)
	}
	return RegionTint(1)
}

// ClassTint returns a Field fill for a multiclass prediction f(x) = the
// predicted class: class c gets the region tint of the class colour it
// has in the perceptron's multiclass plot (classes 0, 1, 2 blue,
// vermillion, bluish green, …). f is rounded to the nearest class;
// negative classes and NaN get no fill.
func ClassTint(v float64) color.Color {
	k := math.Round(v)
	if !(k >= 0 && k <= 1e6) { // also NaN
		return nil
	}
	return RegionTint(int(k))
}
