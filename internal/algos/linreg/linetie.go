package linreg

import (
	"math"
	"slices"
)

// OtherMinimiser looks for a second line with the least loss, for the
// absolute and ε-insensitive losses, whose objectives are piecewise
// linear and can be flat on a whole segment or region of (w, b): given
// the minimiser (w, b) FitLine returned, it returns another minimiser
// (w2, b2) and true, or false when (w, b) is the only one. Squared and
// Huber (with two points of different x within δ) have one minimiser:
// it returns false for them.
//
// The optimal set is a convex polygon whose edges lie on kink lines
// |w·xᵢ + b − yᵢ| = ε of the points on them, so if it holds more than
// (w, b) it holds a segment from (w, b) along (1, 0), (0, 1) or the kink
// line (1, −xᵢ) of a point on a kink at (w, b). OtherMinimiser walks each
// of those directions, both ways, to the next kink of a point not on one
// and keeps the farthest end whose loss is the minimum to within
// 10⁻¹⁰·(1 + scale of the data): a line that ties with (w, b). Points
// within 10⁻⁹ of the scale of a kink count as on it, since FitLine's
// minimiser is exact only to about 10⁻⁹ relative.
//
// When all x are equal only w·x + b is determined, and it returns the
// line of slope w + 1 through the same point.
func OtherMinimiser(x, y []float64, loss Loss, param, w, b float64) (w2, b2 float64, ok bool) {
	if loss != Absolute && loss != EpsInsensitive || checkLine(x, y, loss, param) != nil {
		return 0, 0, false
	}
	eps := 0.0
	if loss == EpsInsensitive {
		eps = param
	}
	lo, hi := slices.Min(x), slices.Max(x)
	if lo == hi {
		return w + 1, b - lo, true
	}
	scale := 1 + math.Abs(b) + math.Abs(w)*math.Max(-lo, hi)
	for _, v := range y {
		scale = math.Max(scale, 1+math.Abs(v))
	}
	tol := 1e-9 * scale
	f0 := lineLoss(x, y, loss, param, w, b)
	kinks := []float64{-eps, eps}
	dirs := [][2]float64{{1, 0}, {0, 1}}
	for i, xi := range x {
		r := w*xi + b - y[i]
		if math.Abs(math.Abs(r)-eps) <= tol {
			dirs = append(dirs, [2]float64{1, -xi})
		}
	}
	best := 0.0
	for _, d := range dirs {
		for _, sg := range []float64{1, -1} {
			d0, d1 := sg*d[0]/math.Hypot(d[0], d[1]), sg*d[1]/math.Hypot(d[0], d[1])
			t := math.Inf(1)
			for i, xi := range x {
				r, rate := w*xi+b-y[i], xi*d0+d1
				if rate == 0 {
					continue
				}
				for _, k := range kinks {
					if s := (k - r) / rate; math.Abs(r-k) > tol && s > 0 {
						t = math.Min(t, s)
					}
				}
			}
			if math.IsInf(t, 1) {
				t = scale
			}
			cw, cb := w+t*d0, b+t*d1
			if t > best && t >= 1e-6*scale && lineLoss(x, y, loss, param, cw, cb) <= f0+1e-10*scale {
				w2, b2, ok, best = cw, cb, true, t
			}
		}
	}
	return w2, b2, ok
}
