package knn

import (
	"cmp"
	"math"
	"slices"
)

// Coordinates of ordinary size: zero, or of magnitude within
// [2^-safeExp, 2^safeExp]. Between two such points every nonzero
// coordinate difference is at least 2^-(safeExp+52) and at most
// 2^(safeExp+1), so its square is a normal float64 that neither overflows
// nor underflows, and the float64 distance of the package doc ranks them
// as the true distance does, up to rounding. Data with a coordinate
// outside is ranked by wideKey instead.
const safeExp = 450

// Ordinary reports whether every coordinate of v is zero or of magnitude
// within [2^-450, 2^450], the range in which distances are ranked in
// plain float64; a training point or query outside it is ranked in a
// scaled space, at about four times the cost per coordinate.
func Ordinary(v []float64) bool {
	for _, t := range v {
		if a := math.Abs(t); a != 0 && (a < 0x1p-450 || a > 0x1p450) {
			return false
		}
	}
	return true
}

// wide is a distance held as frac·2^exp, frac in [0.5, 1) (or 0 for the
// distance 0): a float64 with an exponent of its own, so that distances
// beyond float64's range (2e400) or below it (1e-340) compare as they
// are. Ordered by (exp, frac), it orders the distances.
type wide struct {
	exp  int
	frac float64
}

func compareWide(a, b wide) int {
	switch {
	case a.frac == 0 || b.frac == 0:
		return cmp.Compare(a.frac, b.frac)
	case a.exp != b.exp:
		return cmp.Compare(a.exp, b.exp)
	}
	return cmp.Compare(a.frac, b.frac)
}

// wideKey is the distance of the package doc between x and q computed
// in a scaled space: each coordinate difference is multiplied by 2^-E,
// where 2^E bounds the largest of them, so that no square overflows and
// only differences below 2^-537 of the largest underflow (those vanish in
// the float64 sum anyway). The distance is that scaled sum times 4^E
// (Euclidean) or 2^E (Manhattan): Σⱼ (xⱼ − qⱼ)² rounded as float64 rounds
// it (a power of two scales exactly), with an exponent float64 lacks.
// Two coordinates near ±1.8e308 whose difference overflows are halved
// first, exactly but for a subnormal one, which is far below the
// difference's rounding.
func wideKey(m Metric, x, q []float64) wide {
	var top float64
	for j, v := range x {
		top = max(top, math.Abs(v-q[j]))
	}
	if top == 0 {
		return wide{}
	}
	half := 1.0
	if math.IsInf(top, 0) {
		half, top = 0.5, 0
		for j, v := range x {
			top = max(top, math.Abs(v*0.5-q[j]*0.5))
		}
	}
	_, e := math.Frexp(top) // top < 2^e
	// 2^-e in two factors, each finite for e from −1073 to 1024.
	s1, s2 := math.Ldexp(1, -e/2), math.Ldexp(1, -e-(-e/2))
	var s float64
	for j, v := range x {
		t := (v*half - q[j]*half) * s1 * s2
		if m == Manhattan {
			s += math.Abs(t)
		} else {
			s += float64(t * t)
		}
	}
	if half != 1 {
		e++
	}
	frac, f := math.Frexp(s)
	if m == Manhattan {
		return wide{f + e, frac}
	}
	return wide{f + 2*e, frac}
}

// wideNearest is nearest for data or a query with coordinates outside
// the ordinary range. Each point's wideKey is mapped to the float64
// frac·2^(exp − low), where low puts the smallest nonzero key at 2^-1022:
// exact, so it orders the points as their keys do, for keys up to 2^2044
// times the smallest. The k first are selected as nearest selects them;
// only when the k-th is beyond that span (+Inf) are all ranked by key in
// full. Each returned item's dist is the mapped value, or in the full
// ranking the rank of its key among the distinct keys.
func (s *search) wideNearest(q []float64, skip int) []item {
	c, d := s.c, s.c.d
	all := s.wide[:0]
	low := math.MaxInt
	for p, id := range c.ids {
		if int(id) == skip {
			continue
		}
		k := wideKey(c.Metric, c.pts[p*d:p*d+d], q)
		if k.frac != 0 {
			low = min(low, k.exp)
		}
		all = append(all, wideItem{k, item{id: id, code: c.codes[p]}})
	}
	s.wide = all
	s.all = s.all[:0]
	for _, a := range all {
		a.it.dist = 0
		if a.key.frac != 0 {
			a.it.dist = math.Ldexp(a.key.frac, a.key.exp-low-1021)
		}
		s.all = append(s.all, a.it)
	}
	selectK(s.all, s.k)
	if nb := s.all[:s.k]; !math.IsInf(maxDist(nb), 1) {
		return nb
	}
	slices.SortFunc(all, func(a, b wideItem) int {
		if r := compareWide(a.key, b.key); r != 0 {
			return r
		}
		return cmp.Compare(a.it.id, b.it.id)
	})
	s.all = s.all[:0]
	rank := 0
	for i, a := range all[:s.k] {
		if i > 0 && compareWide(all[i-1].key, a.key) != 0 {
			rank++
		}
		a.it.dist = float64(rank)
		s.all = append(s.all, a.it)
	}
	return s.all
}

// wideItem is a training point with its wideKey from a query.
type wideItem struct {
	key wide
	it  item
}
