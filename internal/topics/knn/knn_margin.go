package knn

import (
	"math"
	"slices"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/knn"
)

// knnFieldRes is the regions' grid: finer than the default, since each
// border crossing a cell is drawn as one straight piece.
const knnFieldRes = 160

// knnMargin is a continuous stand-in for the kNN vote of two classes.
// With k neighbours, +1 needs a = ⌊k/2⌋ + 1 votes (a tie goes to −1),
// and −1 wins once b = k − a + 1 of the neighbours are −1. So h(q) = +1
// exactly when the a-th nearest +1 point is nearer than the b-th nearest
// −1 point, and
//
//	m(q) = d₋,b(q) − d₊,a(q)
//
// (d the squared Euclidean or the Manhattan distance) is positive where
// h = +1 and negative where h = −1, its zero set the border. Up to exact
// ties of distance, which the knn package breaks by index, the sign is
// the vote; when a class has too few points to win anywhere, m is the
// constant ±1.
type knnMargin struct {
	pos, neg   [][]float64
	a, b       int
	metric     knn.Metric
	dpos, dneg []float64
}

func newKNNMargin(x [][]float64, y []int, k int, metric knn.Metric) *knnMargin {
	m := &knnMargin{a: k/2 + 1, metric: metric}
	m.b = k - m.a + 1
	for i, p := range x {
		if y[i] > 0 {
			m.pos = append(m.pos, p)
		} else {
			m.neg = append(m.neg, p)
		}
	}
	m.dpos, m.dneg = make([]float64, len(m.pos)), make([]float64, len(m.neg))
	return m
}

func (m *knnMargin) at(q []float64) float64 {
	switch {
	case len(m.pos) < m.a:
		return -1
	case len(m.neg) < m.b:
		return 1
	}
	return m.nth(m.neg, m.dneg, q, m.b) - m.nth(m.pos, m.dpos, q, m.a)
}

// nth returns the distance from q to the r-th nearest of pts (r ≥ 1),
// using buf as scratch.
func (m *knnMargin) nth(pts [][]float64, buf []float64, q []float64, r int) float64 {
	for i, p := range pts {
		if m.metric == knn.Manhattan {
			buf[i] = math.Abs(p[0]-q[0]) + math.Abs(p[1]-q[1])
		} else {
			buf[i] = (p[0]-q[0])*(p[0]-q[0]) + (p[1]-q[1])*(p[1]-q[1])
		}
	}
	if r == 1 {
		return slices.Min(buf)
	}
	return algos.SelectK(buf, r-1)
}
