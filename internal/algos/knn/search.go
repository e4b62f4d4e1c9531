package knn

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// item is one training point as seen from a query.
type item struct {
	dist float64
	id   int32 // training index
	code int32 // position of its label in Classifier.classes
}

// before is the ranking of the package doc: by distance, then by index.
// Indices are distinct, so it is a strict total order.
func before(a, b item) bool {
	return a.dist < b.dist || (a.dist == b.dist && a.id < b.id)
}

func compareItems(a, b item) int {
	if c := cmp.Compare(a.dist, b.dist); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// distance is the metric as the package doc defines it: coordinate by
// coordinate, each square rounded before it is added, squared Euclidean.
func distance(m Metric, x, q []float64) float64 {
	var s float64
	if m == Manhattan {
		for j, v := range x {
			s += math.Abs(v - q[j])
		}
		return s
	}
	for j, v := range x {
		t := v - q[j]
		s += float64(t * t)
	}
	return s
}

// search holds one query loop's buffers; it is not safe for concurrent
// use, so each Predict or PredictAll call makes its own.
type search struct {
	c      *Classifier
	k      int
	heap   []item     // tree path: max-heap of the best k so far, worst on top
	all    []item     // scan path: every point
	counts []int      // votes per class, all zero between calls of vote
	ring   ring       // PredictAll's shortcut (ring.go)
	wide   []wideItem // wideNearest's buffer
}

func (c *Classifier) newSearch(k int) *search {
	s := &search{c: c, k: k, counts: make([]int, len(c.classes))}
	s.ring.below = make([]int, len(c.classes))
	if c.treeSearch {
		s.heap = make([]item, 0, k)
	} else {
		s.all = make([]item, 0, len(c.ids))
	}
	return s
}

// nearest returns the k training points first in q's ranking, leaving out
// training index skip (−1: none), in no particular order. The slice is
// the search's buffer, good until the next call.
func (s *search) nearest(q []float64, skip int) []item {
	if s.c.wide || !Ordinary(q) {
		return s.wideNearest(q, skip)
	}
	if s.c.treeSearch {
		s.heap = s.heap[:0]
		s.c.tree.visit(s, 0, q, int32(skip))
		return s.heap
	}
	c, d := s.c, s.c.d
	s.all = s.all[:0]
	for p, id := range c.ids {
		if int(id) == skip {
			continue
		}
		s.all = append(s.all, item{distance(c.Metric, c.pts[p*d:p*d+d], q), id, c.codes[p]})
	}
	selectK(s.all, s.k)
	return s.all[:s.k]
}

// offer adds the point at tree position p, at distance dist, to the
// heap if it ranks among the best k so far.
func (s *search) offer(dist float64, p int) {
	h := s.heap
	if len(h) == s.k && dist > h[0].dist {
		return // the common case, decided before building the item
	}
	it := item{dist, s.c.ids[p], s.c.codes[p]}
	if len(h) < s.k {
		h = append(h, it)
		for i := len(h) - 1; i > 0; { // sift up
			p := (i - 1) / 2
			if !before(h[p], h[i]) {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
		s.heap = h
		return
	}
	if !before(it, h[0]) {
		return
	}
	h[0] = it
	for i := 0; ; { // sift down
		l, big := 2*i+1, i
		if l < len(h) && before(h[big], h[l]) {
			big = l
		}
		if r := l + 1; r < len(h) && before(h[big], h[r]) {
			big = r
		}
		if big == i {
			return
		}
		h[i], h[big] = h[big], h[i]
		i = big
	}
}

// pruned reports whether no point at distance ≥ bound can enter the best
// k: the heap is full and bound is beyond its worst. An equal bound is not
// pruned, since a point at that distance with a lower index would enter.
func (s *search) pruned(bound float64) bool {
	return len(s.heap) == s.k && bound > s.heap[0].dist
}

// vote returns the class code with the most items in nb, the smallest
// code among equals (codes increase with labels).
func (s *search) vote(nb []item) int {
	for _, it := range nb {
		s.counts[it.code]++
	}
	best, most := -1, 0
	for _, it := range nb {
		c := int(it.code)
		if n := s.counts[c]; n > most || (n == most && c < best) {
			best, most = c, n
		}
	}
	for _, it := range nb {
		s.counts[it.code] = 0
	}
	return best
}

// selectK reorders a so that a[:k] holds its k first items in the
// ranking (in no particular order): quickselect with the median of three
// pseudo-random items as pivot, expected O(n) on every input (a fixed
// median-of-three is quadratic on inputs as plain as two interleaved
// sorted runs, which a tree leaf of tied points produces); it falls back
// to sorting if the partitions still stay lopsided. The k items are
// unique, so the choice of pivots never changes the answer.
func selectK(a []item, k int) {
	rng := uint64(len(a)) ^ 0x9e3779b97f4a7c15
	lo, hi := 0, len(a)
	for depth := 2 * bits.Len(uint(len(a))); hi-lo > 12; depth-- {
		if depth == 0 {
			slices.SortFunc(a[lo:hi], compareItems)
			return
		}
		for _, at := range [3]int{lo, lo + (hi-lo)/2, hi - 1} {
			j := lo + int(splitmix(&rng)%uint64(hi-lo))
			a[at], a[j] = a[j], a[at]
		}
		p := partition(a, lo, hi)
		switch {
		case p == k || p+1 == k:
			return
		case p > k:
			hi = p
		default:
			lo = p + 1
		}
	}
	for i := lo + 1; i < hi; i++ { // insertion sort of the rest
		for j := i; j > lo && before(a[j], a[j-1]); j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// partition moves the median of a[lo], a[mid], a[hi−1] to its place p
// and returns p: a[lo:p] rank before it, a[p+1:hi] after.
func partition(a []item, lo, hi int) int {
	mid := lo + (hi-lo)/2
	if before(a[mid], a[lo]) {
		a[mid], a[lo] = a[lo], a[mid]
	}
	if before(a[hi-1], a[mid]) {
		a[hi-1], a[mid] = a[mid], a[hi-1]
		if before(a[mid], a[lo]) {
			a[mid], a[lo] = a[lo], a[mid]
		}
	}
	a[mid], a[hi-1] = a[hi-1], a[mid] // pivot to the end
	pivot, p := a[hi-1], lo
	for i := lo; i < hi-1; i++ {
		if before(a[i], pivot) {
			a[i], a[p] = a[p], a[i]
			p++
		}
	}
	a[p], a[hi-1] = a[hi-1], a[p]
	return p
}

// splitmix is SplitMix64: a fast, fixed sequence of well-mixed numbers.
func splitmix(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func maxDist(items []item) float64 {
	m := items[0].dist
	for _, it := range items[1:] {
		m = max(m, it.dist)
	}
	return m
}
