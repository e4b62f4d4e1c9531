package knn

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Metric is the distance a Classifier ranks training points by.
type Metric int

const (
	// Euclidean is ‖x − q‖₂, the default (the zero value).
	Euclidean Metric = iota
	// Manhattan is ‖x − q‖₁ = Σⱼ |xⱼ − qⱼ|.
	Manhattan
)

// String returns the metric's lower-case name, as ParseMetric reads it.
func (m Metric) String() string {
	switch m {
	case Euclidean:
		return "euclidean"
	case Manhattan:
		return "manhattan"
	}
	return fmt.Sprintf("Metric(%d)", int(m))
}

// ParseMetric reads "euclidean" or "manhattan".
func ParseMetric(s string) (Metric, error) {
	switch s {
	case "euclidean":
		return Euclidean, nil
	case "manhattan":
		return Manhattan, nil
	}
	return 0, fmt.Errorf("%w: %q; use \"euclidean\" or \"manhattan\"", ErrMetric, s)
}

// Errors New and the queries return, wrapped with what was wrong.
var (
	ErrData   = errors.New("knn: bad training data")
	ErrK      = errors.New("knn: k out of range")
	ErrMetric = errors.New("knn: unknown metric")
	ErrQuery  = errors.New("knn: bad query point")
)

// Classifier is a k-nearest-neighbours classifier over its training set.
// Build it with New; its fields are copies of New's arguments, for
// reading only: changing them does not change the predictions. Its
// methods may be called from several goroutines at once.
type Classifier struct {
	X      [][]float64 // training points, n rows of d coordinates
	Y      []int       // their labels, ≥ 0
	K      int         // neighbours that vote, 1 ≤ K ≤ n
	Metric Metric

	d       int
	classes []int     // the distinct labels, increasing
	pts     []float64 // the points, flat, in tree order
	ids     []int32   // the training index at each tree position
	codes   []int32   // the position in classes of each point's label, in tree order
	tree    *tree     // nil in many dimensions or for few points
	// treeSearch: find the k nearest with the tree (and a heap) rather
	// than by scanning every point; PredictAll's ring uses the tree either way.
	treeSearch bool
	// wide: some training coordinate is outside the ordinary range
	// (wide.go), so every query ranks by wideKey, not by the tree.
	wide bool
	// ringFrom: PredictAll uses the ring when there is a tree and K ≥
	// ringFrom (ringMinK when d ≤ maxRingD; tests force other values).
	ringFrom int
}

// New validates the training set and k and builds the classifier: x must
// have at least one row, every row the same number d ≥ 1 of finite
// coordinates; y one label ≥ 0 per row; 1 ≤ k ≤ n.
func New(x [][]float64, y []int, k int, m Metric) (*Classifier, error) {
	if err := validate(x, y, k, m); err != nil {
		return nil, err
	}
	n, d := len(x), len(x[0])
	c := &Classifier{K: k, Metric: m, d: d, Y: slices.Clone(y), ringFrom: math.MaxInt}
	c.X = make([][]float64, n)
	for i, row := range x {
		c.X[i] = slices.Clone(row)
	}
	c.classes = slices.Compact(slices.Sorted(slices.Values(y)))
	c.pts, c.ids, c.codes = make([]float64, 0, n*d), make([]int32, n), make([]int32, n)
	for i, row := range x {
		c.wide = c.wide || !Ordinary(row)
		c.pts = append(c.pts, row...)
		c.ids[i] = int32(i)
		code, _ := slices.BinarySearch(c.classes, y[i])
		c.codes[i] = int32(code)
	}
	if useTree(n, d) {
		c.tree = buildTree(c.pts, c.ids, c.codes, d, m)
		c.tree.countClasses(len(c.classes))
		c.treeSearch = treeSearch(n, d, k)
		if d <= maxRingD {
			c.ringFrom = ringMinK
		}
	}
	return c, nil
}

// MaxN is the most training points New accepts (indices are int32).
const MaxN = 1 << 30

func validate(x [][]float64, y []int, k int, m Metric) error {
	n := len(x)
	switch {
	case n == 0:
		return fmt.Errorf("%w: no training points; give at least one", ErrData)
	case n > MaxN:
		return fmt.Errorf("%w: %d training points; at most %d", ErrData, n, MaxN)
	case len(y) != n:
		return fmt.Errorf("%w: %d labels for %d points; give one label per point", ErrData, len(y), n)
	case len(x[0]) == 0:
		return fmt.Errorf("%w: points have no coordinates; give at least one", ErrData)
	case k < 1 || k > n:
		return fmt.Errorf("%w: k = %d; give 1 ≤ k ≤ %d (the number of training points)", ErrK, k, n)
	case m != Euclidean && m != Manhattan:
		return fmt.Errorf("%w: %v; use Euclidean or Manhattan", ErrMetric, m)
	}
	for i, row := range x {
		if len(row) != len(x[0]) {
			return fmt.Errorf("%w: point %d has %d coordinates but point 0 has %d; all must have the same", ErrData, i, len(row), len(x[0]))
		}
		if j := nonFinite(row); j >= 0 {
			return fmt.Errorf("%w: coordinate %d of point %d is %v; give finite numbers", ErrData, j, i, row[j])
		}
		if y[i] < 0 {
			return fmt.Errorf("%w: label %d of point %d is negative; labels are class numbers 0, 1, … (Encode maps any integers to them)", ErrData, y[i], i)
		}
	}
	return nil
}

// nonFinite is the index of the first NaN or ±Inf in v, or −1.
func nonFinite(v []float64) int {
	for j, t := range v {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return j
		}
	}
	return -1
}

// Classes returns the distinct training labels in increasing order.
func (c *Classifier) Classes() []int { return slices.Clone(c.classes) }

// Predict returns the label h(q) that the K nearest training points vote
// for (ties in the vote go to the smallest label). q must have d finite
// coordinates.
func (c *Classifier) Predict(q []float64) (int, error) {
	if err := c.checkQuery(q); err != nil {
		return 0, err
	}
	s := c.newSearch(c.K)
	return c.classes[s.vote(s.nearest(q, -1))], nil
}

// PredictAll returns Predict of each query. It is the fast way to fill a
// decision-region grid: in up to 4 dimensions and for K ≥ 8, each query
// after the first starts from the previous one's k-th distance, which
// makes a run of nearby queries several times quicker than independent
// searches; the answers are the same either way, in any order.
func (c *Classifier) PredictAll(qs [][]float64) ([]int, error) {
	if c.pts == nil {
		return nil, errNotBuilt
	}
	for i, q := range qs {
		if err := c.checkQuery(q); err != nil {
			return nil, fmt.Errorf("query %d: %w", i, err)
		}
	}
	s := c.newSearch(c.K)
	out := make([]int, len(qs))
	useRing := c.tree != nil && c.K >= c.ringFrom && !c.wide
	tau := math.NaN() // the k-th distance of the query before, when known
	for i, q := range qs {
		if !Ordinary(q) { // wideNearest's distances are ranks: no tau
			out[i], tau = c.classes[s.vote(s.nearest(q, -1))], math.NaN()
			continue
		}
		if useRing && !math.IsNaN(tau) {
			if step := distance(c.Metric, q, qs[i-1]); step <= tau {
				lo, hi := c.Metric.guess(tau, step)
				if code, t, ok := s.ringVote(q, lo, hi); ok {
					out[i], tau = c.classes[code], t
					continue
				}
			}
		}
		nb := s.nearest(q, -1)
		out[i], tau = c.classes[s.vote(nb)], maxDist(nb)
	}
	return out, nil
}

// Neighbours returns the training indices of N_q, the K points nearest q,
// nearest first (equal distances by index), for a demo to ring them.
func (c *Classifier) Neighbours(q []float64) ([]int, error) {
	if err := c.checkQuery(q); err != nil {
		return nil, err
	}
	s := c.newSearch(c.K)
	nb := s.nearest(q, -1)
	slices.SortFunc(nb, compareItems)
	out := make([]int, len(nb))
	for i, it := range nb {
		out[i] = int(it.id)
	}
	return out, nil
}

var errNotBuilt = fmt.Errorf("%w: the Classifier was not built by New", ErrData)

func (c *Classifier) checkQuery(q []float64) error {
	if c.pts == nil {
		return errNotBuilt
	}
	if len(q) != c.d {
		return fmt.Errorf("%w: it has %d coordinates; the training points have %d", ErrQuery, len(q), c.d)
	}
	if j := nonFinite(q); j >= 0 {
		return fmt.Errorf("%w: coordinate %d is %v; give finite numbers", ErrQuery, j, q[j])
	}
	return nil
}
