package render

import "math"

// View is a rectangle of the data plane, [XMin, XMax] × [YMin, YMax]: the
// part of the plane a figure shows.
type View struct{ XMin, XMax, YMin, YMax float64 }

// viewPad is the margin DataView leaves around the points, as a fraction
// of the larger extent: room for markers, rings and arrows at the edge.
// Sets of a handful of points (the truth tables) get more room, so that
// the early boundaries, which pass near the points, stay in view.
const (
	viewPad      = 0.15
	viewPadSmall = 0.4
	smallSet     = 8
)

// DataView returns the fixed view for a data set: the bounding box of the
// points (first two coordinates of each row) padded on every side by 15 %
// of its larger side (40 % for sets of at most 8 points). It depends only on x, so it is the same at every
// step and the axes never jump while stepping. A set whose points all
// coincide, or an empty set, gets a box of side 2 around its centre (the
// origin when empty). Figures widen this view to an equal aspect ratio;
// Frame reports the view actually drawn.
func DataView(x [][]float64) View {
	v := View{XMin: math.Inf(1), XMax: math.Inf(-1), YMin: math.Inf(1), YMax: math.Inf(-1)}
	for _, row := range x {
		if len(row) < 2 {
			continue
		}
		v.XMin, v.XMax = math.Min(v.XMin, row[0]), math.Max(v.XMax, row[0])
		v.YMin, v.YMax = math.Min(v.YMin, row[1]), math.Max(v.YMax, row[1])
	}
	if v.XMin > v.XMax {
		return View{-1, 1, -1, 1}
	}
	side := math.Max(v.XMax-v.XMin, v.YMax-v.YMin)
	if side == 0 {
		cx, cy := v.XMin, v.YMin
		return View{cx - 1, cx + 1, cy - 1, cy + 1}
	}
	pad := viewPad * side
	if len(x) <= smallSet {
		pad = viewPadSmall * side
	}
	return View{v.XMin - pad, v.XMax + pad, v.YMin - pad, v.YMax + pad}
}

// withAspect widens v about its centre, in x or in y, so that one data
// unit has the same length on both axes of a data area w × h points.
func (v View) withAspect(w, h float64) View {
	if !(w > 0 && h > 0) {
		return v
	}
	ux, uy := (v.XMax-v.XMin)/w, (v.YMax-v.YMin)/h // data units per point
	// The tighter axis keeps its bounds exactly; the other grows.
	if ux >= uy {
		c, half := (v.YMin+v.YMax)/2, ux*h/2
		return View{v.XMin, v.XMax, c - half, c + half}
	}
	c, half := (v.XMin+v.XMax)/2, uy*w/2
	return View{c - half, c + half, v.YMin, v.YMax}
}

func (v View) centre() Vec { return Vec{(v.XMin + v.XMax) / 2, (v.YMin + v.YMax) / 2} }

// inset returns v shrunk by frac of its smaller side on every edge.
func (v View) inset(frac float64) View {
	d := frac * math.Min(v.XMax-v.XMin, v.YMax-v.YMin)
	return View{v.XMin + d, v.XMax - d, v.YMin + d, v.YMax - d}
}

func (v View) contains(p Vec) bool {
	return p.X >= v.XMin && p.X <= v.XMax && p.Y >= v.YMin && p.Y <= v.YMax
}

// corners returns the corners of v counter-clockwise from (XMin, YMin).
func (v View) corners() []Vec {
	return []Vec{{v.XMin, v.YMin}, {v.XMax, v.YMin}, {v.XMax, v.YMax}, {v.XMin, v.YMax}}
}

// Vec is a point or vector of the data plane.
type Vec struct{ X, Y float64 }

func (a Vec) Add(b Vec) Vec             { return Vec{a.X + b.X, a.Y + b.Y} }
func (a Vec) Sub(b Vec) Vec             { return Vec{a.X - b.X, a.Y - b.Y} }
func (a Vec) Scale(s float64) Vec       { return Vec{s * a.X, s * a.Y} }
func (a Vec) Dot(b Vec) float64         { return a.X*b.X + a.Y*b.Y }
func (a Vec) Norm() float64             { return math.Hypot(a.X, a.Y) }
func (a Vec) IsZero() bool              { return a.X == 0 && a.Y == 0 }
func Vec2(w []float64) Vec              { return Vec{w[0], w[1]} }
func (a Vec) Lerp(b Vec, t float64) Vec { return a.Add(b.Sub(a).Scale(t)) }

// HalfPlane is the set {x : A·x + B ≥ 0}, or {x : A·x + B > 0} when
// Strict. Strictness only matters when A = 0, where the set is all or
// nothing: it is how the regions follow the predictors' tie rules
// (sgn(0) = −1; argmax ties go to the first class) when w = 0.
type HalfPlane struct {
	A      [2]float64
	B      float64
	Strict bool
}

func (h HalfPlane) eval(p Vec) float64 { return h.A[0]*p.X + h.A[1]*p.Y + h.B }

// clip returns the part of the convex polygon poly that lies in h: one
// stage of Sutherland–Hodgman. Points on the line count as inside (the
// closure of h), so neighbouring regions share their edge.
func clip(poly []Vec, h HalfPlane) []Vec {
	if h.A[0] == 0 && h.A[1] == 0 {
		if h.B > 0 || (h.B == 0 && !h.Strict) {
			return poly
		}
		return nil
	}
	var out []Vec
	for i, p := range poly {
		q := poly[(i+1)%len(poly)]
		fp, fq := h.eval(p), h.eval(q)
		if fp >= 0 {
			out = append(out, p)
		}
		if fp > 0 && fq < 0 || fp < 0 && fq > 0 {
			out = append(out, p.Lerp(q, fp/(fp-fq)))
		}
	}
	if len(out) < 3 {
		return nil
	}
	return out
}

// ClipAll clips poly by every half-plane in turn.
func ClipAll(poly []Vec, hs []HalfPlane) []Vec {
	for _, h := range hs {
		if len(poly) == 0 {
			return nil
		}
		poly = clip(poly, h)
	}
	return poly
}

// LineInView returns the segment of the line a·x + b = 0 inside v, by
// clipping the parametric line p₀ + t·d (Liang–Barsky). ok is false when
// a = 0 or the line misses v or only touches a corner.
func LineInView(a Vec, b float64, v View) (p, q Vec, ok bool) {
	n2 := a.Dot(a)
	if n2 == 0 {
		return Vec{}, Vec{}, false
	}
	p0 := a.Scale(-b / n2)
	d := Vec{-a.Y, a.X}
	tmin, tmax := math.Inf(-1), math.Inf(1)
	for _, c := range [2]struct{ p, d, lo, hi float64 }{
		{p0.X, d.X, v.XMin, v.XMax},
		{p0.Y, d.Y, v.YMin, v.YMax},
	} {
		if c.d == 0 {
			if c.p < c.lo || c.p > c.hi {
				return Vec{}, Vec{}, false
			}
			continue
		}
		t0, t1 := (c.lo-c.p)/c.d, (c.hi-c.p)/c.d
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		tmin, tmax = math.Max(tmin, t0), math.Min(tmax, t1)
	}
	if !(tmin < tmax) {
		return Vec{}, Vec{}, false
	}
	return p0.Add(d.Scale(tmin)), p0.Add(d.Scale(tmax)), true
}

// Foot returns the foot of the perpendicular from c to the line
// a·x + b = 0; a must not be zero.
func Foot(a Vec, b float64, c Vec) Vec {
	return c.Sub(a.Scale((a.Dot(c) + b) / a.Dot(a)))
}

// fitScale returns the largest s ≤ limit such that from + s·d stays in v.
func fitScale(from, d Vec, v View, limit float64) float64 {
	s := limit
	bound := func(p, d, lo, hi float64) {
		switch {
		case d > 0:
			s = math.Min(s, (hi-p)/d)
		case d < 0:
			s = math.Min(s, (lo-p)/d)
		}
	}
	bound(from.X, d.X, v.XMin, v.XMax)
	bound(from.Y, d.Y, v.YMin, v.YMax)
	return math.Max(s, 0)
}

// ArrowFit places the w arrows: they start at base and vector v is drawn
// as base + scale·v.
type ArrowFit struct {
	Base  Vec
	Scale float64
}

// Arrow lengths, as fractions of the smaller side of the view: a w shorter
// than lo or longer than hi is drawn at length target instead.
const (
	arrowLo     = 0.1
	arrowHi     = 0.35
	arrowTarget = 0.22
)

// FitArrows places w (and the old w, when hasOld) for the view v. The
// arrows start on the boundary w·x + b = 0 at the foot of the
// perpendicular from the view's centre, so they visibly stand on it at a
// right angle. Both use one scale, so the update is exactly new − old. The
// scale is 1 when w has a readable length; otherwise w is scaled to
// arrowTarget, and always so far down that every tip stays in view. When
// the boundary is off-screen, or so near the edge that the arrows would
// shrink to less than half, they start at the centre instead. ok is false
// when w = 0, which has no arrow.
func FitArrows(w Vec, b float64, old Vec, hasOld bool, v View) (fit ArrowFit, ok bool) {
	if w.IsZero() {
		return ArrowFit{}, false
	}
	side := math.Min(v.XMax-v.XMin, v.YMax-v.YMin)
	m := w.Norm()
	if hasOld {
		m = math.Max(m, old.Norm())
	}
	s0 := 1.0
	if m < arrowLo*side || m > arrowHi*side {
		s0 = arrowTarget * side / m
	}
	inner := v.inset(0.04)
	fitAt := func(base Vec) float64 {
		s := fitScale(base, w, inner, s0)
		if hasOld {
			s = fitScale(base, old, inner, s)
		}
		return s
	}
	centre := v.centre()
	base := Foot(w, b, centre)
	if !inner.contains(base) {
		base = centre
	}
	s := fitAt(base)
	if s < 0.5*s0 && base != centre {
		base = centre
		s = fitAt(base)
	}
	if s <= 0 {
		return ArrowFit{}, false
	}
	return ArrowFit{Base: base, Scale: s}, true
}
