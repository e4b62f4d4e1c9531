package knn

import "math"

// PredictAll's shortcut. Queries in a decision-region grid come in small
// steps, and by the triangle inequality the distance τ to the k-th
// nearest point moves by at most the step δ. So the next query's k
// nearest are the points nearer than τ − δ, which the tree counts by class
// a whole node at a time, plus the nearest few of those in the ring
// [τ − δ, τ + δ], which are ranked one by one: work in proportion to the
// ring, not to k. The ring is only a guess; the answer is used only when
// the counts prove it right (fewer than k points inside the ring, at least
// k inside its outer edge), so it is exactly the k nearest whatever the
// rounding, and otherwise the query is searched afresh.

// maxNodeClasses bounds the classes the tree counts per node. Below
// ringMinK neighbours a fresh search with the tree's heap is as quick as
// the ring (BenchmarkPaths); the ring is tried only after a step no
// longer than the k-th distance, since a longer one makes the ring a disc
// holding most of the points.
const (
	maxNodeClasses = 64
	ringMinK       = 8
)

// countClasses fills t.counts with each node's points per class (nc
// classes), children before parents; with more than maxNodeClasses
// classes it leaves them nil and ringVote counts point by point.
func (t *tree) countClasses(nc int) {
	if nc > maxNodeClasses {
		return
	}
	t.nc, t.counts = nc, make([]int32, len(t.nodes)*nc)
	for ni := len(t.nodes) - 1; ni >= 0; ni-- {
		nd, row := t.nodes[ni], t.counts[ni*nc:ni*nc+nc]
		if nd.left < 0 {
			for _, c := range t.codes[nd.lo:nd.hi] {
				row[c]++
			}
			continue
		}
		l, r := t.counts[int(nd.left)*nc:], t.counts[int(nd.right)*nc:]
		for c := range row {
			row[c] = l[c] + r[c]
		}
	}
}

// boxFar is an upper bound on the distance from q to every point in node
// ni's box, by the same monotone-rounding argument as boxDistance.
func (t *tree) boxFar(ni int32, q []float64) float64 {
	d := t.d
	box := t.boxes[int(ni)*2*d : int(ni)*2*d+2*d]
	var s float64
	for j, v := range q {
		g := max(box[d+j]-v, v-box[j])
		if t.metric == Manhattan {
			s += g
		} else {
			s += float64(g * g)
		}
	}
	return s
}

// ring is ringVote's state for one query: points nearer than lo counted
// by class, points from lo to hi kept.
type ring struct {
	lo, hi float64
	below  []int // per class
	nBelow int
	items  []item
}

// collect fills r from node ni, giving up once more than k are below.
func (t *tree) collect(r *ring, k int, ni int32, q []float64) {
	if r.nBelow > k {
		return
	}
	nd := t.nodes[ni]
	if t.counts != nil && t.boxFar(ni, q) < r.lo {
		for c, n := range t.counts[int(ni)*t.nc : int(ni)*t.nc+t.nc] {
			r.below[c] += int(n)
		}
		r.nBelow += int(nd.hi - nd.lo)
		return
	}
	if nd.left >= 0 {
		for _, ch := range [2]int32{nd.left, nd.right} {
			if !(t.boxDistance(ch, q) > r.hi) {
				t.collect(r, k, ch, q)
			}
		}
		return
	}
	d := t.d
	for p := int(nd.lo); p < int(nd.hi); p++ {
		switch dist := distance(t.metric, t.pts[p*d:p*d+d], q); {
		case dist < r.lo:
			r.below[t.codes[p]]++
			r.nBelow++
		case dist <= r.hi:
			r.items = append(r.items, item{dist, t.ids[p], t.codes[p]})
		}
	}
}

// ringVote votes among q's k nearest if the ring [lo, hi] holds the k-th
// of them, and reports ok = false if it does not. tau is the k-th
// distance (or lo, when all k lie below the ring), the next query's guess.
func (s *search) ringVote(q []float64, lo, hi float64) (code int, tau float64, ok bool) {
	r := &s.ring
	r.lo, r.hi, r.nBelow, r.items = lo, hi, 0, r.items[:0]
	clear(r.below)
	s.c.tree.collect(r, s.k, 0, q)
	need := s.k - r.nBelow
	if need < 0 || need > len(r.items) {
		return 0, 0, false
	}
	tau = lo
	if need > 0 {
		if need < len(r.items) {
			selectK(r.items, need)
		}
		tau = maxDist(r.items[:need])
	}
	for _, it := range r.items[:need] {
		r.below[it.code]++
	}
	best := 0
	for c, n := range r.below {
		if n > r.below[best] {
			best = c
		}
	}
	return best, tau, true
}

// guess returns the ring for a query at distance step (as distance
// computes it) from one whose k-th neighbour was at distance tau: τ ± δ in
// true distance, widened a little, in the metric's units.
func (m Metric) guess(tau, step float64) (lo, hi float64) {
	if m == Euclidean {
		tau, step = math.Sqrt(tau), math.Sqrt(step)
	}
	l, h := max(0, tau-step)*(1-1e-9), (tau+step)*(1+1e-9)
	if m == Euclidean {
		return l * l, h * h
	}
	return l, h
}
