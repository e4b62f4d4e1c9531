package knn

import (
	"cmp"
	"slices"
)

// useTree decides whether to build a k-d tree: only in few dimensions,
// d ≤ maxTreeD, where it prunes, and from minTreeN points on. A query
// searches it (with a heap) only while k is small next to n, treeSearch;
// otherwise it scans every point. PredictAll's ring uses it too, for
// d ≤ maxRingD. The thresholds come from BenchmarkPaths: with random
// points the tree search beats the scan up to about k = n/8 in 2-D, n/16
// in 4-D and n/64 in 8-D, and the ring beats both up to 4-D at every k.
func useTree(n, d int) bool {
	return n >= minTreeN && d <= maxTreeD
}

func treeSearch(n, d, k int) bool {
	return k*(4<<(d/2)) <= n
}

const (
	minTreeN = 64
	maxTreeD = 8
	maxRingD = 4
	leafSize = 8
)

// tree is a k-d tree over the classifier's points: each node is a range
// of tree positions with its bounding box; an inner node's range is split
// at the median of the box's widest axis.
type tree struct {
	d      int
	metric Metric
	nodes  []node
	boxes  []float64 // per node: d minima, then d maxima
	pts    []float64 // the Classifier's, in tree order
	ids    []int32
	codes  []int32
	nc     int     // classes counted per node
	counts []int32 // per node, nc counts of its points by class; nil if too many classes
}

type node struct {
	lo, hi      int32 // tree positions [lo, hi)
	left, right int32 // children; left < 0 for a leaf
}

// buildTree reorders pts, ids and codes (n points, flat, d coordinates
// each) into tree order and returns the tree over them. Points tied on
// the split axis are ordered by index, so the tree is deterministic.
func buildTree(pts []float64, ids, codes []int32, d int, m Metric) *tree {
	n := len(ids)
	t := &tree{d: d, metric: m}
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	t.build(pts, perm, 0, n)
	sorted := make([]float64, 0, len(pts))
	sortedIDs, sortedCodes := make([]int32, n), make([]int32, n)
	for p, o := range perm {
		sorted = append(sorted, pts[int(o)*d:int(o)*d+d]...)
		sortedIDs[p], sortedCodes[p] = ids[o], codes[o]
	}
	copy(pts, sorted)
	copy(ids, sortedIDs)
	copy(codes, sortedCodes)
	t.pts, t.ids, t.codes = pts, ids, codes
	return t
}

// build adds the node for perm[lo:hi] (positions in the original order of
// pts) and its subtree, and returns its number.
func (t *tree) build(pts []float64, perm []int32, lo, hi int) int32 {
	d, ni := t.d, int32(len(t.nodes))
	t.nodes = append(t.nodes, node{lo: int32(lo), hi: int32(hi), left: -1, right: -1})
	box := t.growBox()
	for i, o := range perm[lo:hi] {
		for j, v := range pts[int(o)*d : int(o)*d+d] {
			if i == 0 || v < box[j] {
				box[j] = v
			}
			if i == 0 || v > box[d+j] {
				box[d+j] = v
			}
		}
	}
	axis, width := 0, box[d]-box[0]
	for j := 1; j < d; j++ {
		if w := box[d+j] - box[j]; w > width {
			axis, width = j, w
		}
	}
	if hi-lo <= leafSize || width == 0 { // width 0: all points equal
		return ni
	}
	slices.SortFunc(perm[lo:hi], func(a, b int32) int {
		if c := cmp.Compare(pts[int(a)*d+axis], pts[int(b)*d+axis]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	mid := (lo + hi) / 2
	left := t.build(pts, perm, lo, mid)
	right := t.build(pts, perm, mid, hi)
	t.nodes[ni].left, t.nodes[ni].right = left, right
	return ni
}

func (t *tree) growBox() []float64 {
	t.boxes = append(t.boxes, make([]float64, 2*t.d)...)
	return t.boxes[len(t.boxes)-2*t.d:]
}

// visit offers s the points of node ni, nearer child first, skipping
// children whose boxes are pruned.
func (t *tree) visit(s *search, ni int32, q []float64, skip int32) {
	nd := t.nodes[ni]
	if nd.left < 0 {
		d := t.d
		for p := int(nd.lo); p < int(nd.hi); p++ {
			if t.ids[p] != skip {
				s.offer(distance(t.metric, t.pts[p*d:p*d+d], q), p)
			}
		}
		return
	}
	a, b := nd.left, nd.right
	ba, bb := t.boxDistance(a, q), t.boxDistance(b, q)
	if bb < ba {
		a, b, ba, bb = b, a, bb, ba
	}
	if !s.pruned(ba) {
		t.visit(s, a, q, skip)
	}
	if !s.pruned(bb) {
		t.visit(s, b, q, skip)
	}
}

// boxDistance is a lower bound on the distance, as distance computes it,
// from q to every point in node ni's box. It sums the gaps between q and
// the box per coordinate, in the same order and with the same rounding as
// distance; rounding is monotone, so each rounded gap is at most the
// rounded |xⱼ − qⱼ| of any point in the box and each partial sum at most
// the point's. So pruning on it never drops a point distance would keep.
func (t *tree) boxDistance(ni int32, q []float64) float64 {
	d := t.d
	box := t.boxes[int(ni)*2*d : int(ni)*2*d+2*d]
	var s float64
	for j, v := range q {
		var g float64
		if lo := box[j]; v < lo {
			g = lo - v
		} else if hi := box[d+j]; v > hi {
			g = v - hi
		}
		if t.metric == Manhattan {
			s += g
		} else {
			s += float64(g * g)
		}
	}
	return s
}
