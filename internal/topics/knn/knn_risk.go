package knn

import (
	"context"
	"math"
	"slices"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/knn"
	"github.com/margin-edu/margin/internal/demo"
)

// The kNN demo's true risk. A kNN classifier is piecewise constant, so
// on the mixture, whose densities are known, its risk
//
//	R(h) = ∫ P(error | x) p(x) dx = π P₊(h = −1) + (1 − π) P₋(h = +1)
//
// is an integral over the plane that a grid computes: no held-out sample,
// and so none of a sample's luck (1000 held-out points err by ±1.2
// points of percentage, enough to put kNN below the Bayes error).
//
// The classes are N((±Δ/2, 0), σ²I), so the mass of a rectangle under
// either is a product of two differences of Φ, exact to rounding. The
// grid covers the means ± riskSpan·σ, with riskCells cells per σ within
// riskCore·σ of them, and evaluates h at every node; a cell whose four corners agree counts as
// one class, its exact masses added to the risk. A cell whose corners
// disagree holds a border and is split into riskSplit × riskSplit
// sub-cells, each counted as the class h gives its centre. What is left
// is the sub-cells a border crosses and islands that touch no corner of
// a cell, or slivers that cross a cell's edge between two corners. They
// make the risk read low: with 10 cells per σ by 0.02–0.03 points of
// percentage (18.43 % for 18.446 ± 0.009 by 10⁷ points of Monte Carlo),
// so the risk a panel quotes for one k takes 20 cells per σ, two
// decimals, which TestKNNRiskQuadratureAccuracy holds within
// riskTolerance of a grid of 80 cells per σ split 8 × 8, and
// TestKNNRiskMatchesMonteCarlo against 200 000 points drawn from the
// mixture. Where that grid's work passes riskBudget (many points, a
// large k, far-apart means) the panel takes 10 cells per σ and one
// decimal, held within coarseTolerance. The error-against-k chart, which
// computes a risk for each of its ~20 k and quotes three significant
// digits, keeps 10 (sweepCells).
const (
	riskSpan   = 5  // half-width of the grid in σ beyond the means: the mass outside is ~10⁻⁶
	riskCore   = 3  // half-width in σ of its fine part
	riskCells  = 20 // grid cells per σ in the fine part (4 outside it)
	sweepCells = 10 // the same for the error-against-k chart and a large grid
	riskSplit  = 4  // sub-cells per side of a border cell
	// riskBudget bounds the fine grid's work, nodes × (n + 2k): about
	// 0.2 s (n = 500, k = 1 on the default mixture is 12·10⁶).
	riskBudget = 15_000_000
	// riskTolerance is the accuracy the panel states for its risk on the
	// fine grid, as a fraction: 0.005 points of percentage, half the last
	// of the two decimals it prints; coarseTolerance, 0.05 points, on the
	// coarse one, with one decimal.
	riskTolerance   = 5e-5
	coarseTolerance = 5e-4
)

// riskGrid is the cells per σ of the grid the panel's risk of kNN with k
// neighbours on n points takes, the decimals it supports and the
// accuracy it is tested to: riskCells, 2, riskTolerance when the work
// fits riskBudget, else sweepCells, 1, coarseTolerance.
func riskGrid(n, k int, m isoMixture) (cells, digits int, tol float64) {
	nodes := len(riskAxis(-m.h, m.h, m.sigma, riskCells)) * len(riskAxis(0, 0, m.sigma, riskCells))
	if nodes*(n+2*k) <= riskBudget {
		return riskCells, 2, riskTolerance
	}
	return sweepCells, 1, coarseTolerance
}

// isoMixture is the demo's mixture: y = +1 with probability pi, and
// x | y ~ N((y·h, 0), σ²I).
type isoMixture struct{ pi, h, sigma float64 }

func mixtureParamsOf(s demo.State) isoMixture {
	return isoMixture{pi: prior.Get(s), h: delta.Get(s) / 2, sigma: sigma.Get(s)}
}

// normalCDF is the standard normal distribution function, by erfc so
// that the lower tail keeps its relative precision.
func normalCDF(z float64) float64 { return math.Erfc(-z/math.Sqrt2) / 2 }

// masses returns the masses of [x0, x1] × [y0, y1] under the two classes.
func (m isoMixture) masses(x0, x1, y0, y1 float64) (pos, neg float64) {
	s := m.sigma
	my := normalCDF(y1/s) - normalCDF(y0/s)
	return (normalCDF((x1-m.h)/s) - normalCDF((x0-m.h)/s)) * my, (normalCDF((x1+m.h)/s) - normalCDF((x0+m.h)/s)) * my
}

// allK is kNN at several k at once: one sort of the training points by
// their distance to a query gives the vote of every k. Points are ranked
// by distance, then index (the distance keeps the top 52 − 12 bits of its
// float64, the index the low 12, which ties a few near-equal distances
// that the knn package would order exactly: a set of queries of measure
// 0); a tied vote goes to −1, as in the knn package.
type allK struct {
	x      [][]float64
	plus   []bool // y = +1
	ks     []int  // ascending
	metric knn.Metric
	keys   []uint64
}

func newAllK(x [][]float64, y []int, ks []int, metric knn.Metric) *allK {
	a := &allK{x: x, ks: ks, metric: metric, keys: make([]uint64, len(x))}
	for _, v := range y {
		a.plus = append(a.plus, v > 0)
	}
	return a
}

// predict writes h_k(q) = ±1 for the first upto ks into out[:upto].
func (a *allK) predict(q []float64, out []int8, upto int) {
	for i, p := range a.x {
		var d float64
		if a.metric == knn.Manhattan {
			d = math.Abs(p[0]-q[0]) + math.Abs(p[1]-q[1])
		} else {
			d = (p[0]-q[0])*(p[0]-q[0]) + (p[1]-q[1])*(p[1]-q[1])
		}
		a.keys[i] = math.Float64bits(d)&^0xfff | uint64(i)
	}
	kmax := a.ks[upto-1]
	keys := a.keys
	if kmax < len(keys) {
		algos.SelectK(keys, kmax-1) // the kmax smallest first
		keys = keys[:kmax]
	}
	slices.Sort(keys)
	plus, next := 0, 0
	for r, key := range keys {
		if a.plus[key&0xfff] {
			plus++
		}
		for next < upto && a.ks[next] == r+1 {
			out[next] = -1
			if 2*plus > r+1 {
				out[next] = 1
			}
			next++
		}
	}
}

// mixtureRisks returns the true risk R(h_k), by a grid of cells per σ, on
// the mixture m of the kNN classifier of x, y (two coordinates, labels ±1, at most 4096 points)
// for each k of ks (ascending, each at most len(x)). The risks depend on
// the points, labels, metric, mixture and ks only, so they are memoised in
// cache; the error is ctx's, when it ends while another request computes
// them.
func mixtureRisks(ctx context.Context, cache *demo.Cache, x [][]float64, y []int, ks []int, metric knn.Metric, m isoMixture, cells int) ([]float64, error) {
	parts := [][]float64{{float64(metric), m.pi, m.h, m.sigma, float64(cells)}, intsAsFloats(y), intsAsFloats(ks)}
	return demo.Memoise(ctx, cache, demo.FloatsKey("knn-risk", append(parts, x...)...), func(r []float64) int64 { return demo.FloatsBytes(r) },
		func(context.Context) ([]float64, error) {
			return computeRisks(x, y, ks, metric, m, cells, riskSplit), nil
		})
}

// computeRisks is mixtureRisks with cells grid cells per σ in the grid's
// fine part and split × split sub-cells per border cell.
func computeRisks(x [][]float64, y []int, ks []int, metric knn.Metric, m isoMixture, cells, split int) []float64 {
	nk := len(ks)
	v := newAllK(x, y, ks, metric)
	xs := riskAxis(-m.h, m.h, m.sigma, cells)
	ys := riskAxis(0, 0, m.sigma, cells)
	nx, ny := len(xs), len(ys)
	at := make([]int8, nx*ny*nk) // at[(j·nx + i)·nk + c]: h_{ks[c]} at (xs[i], ys[j])
	for j, b := range ys {
		for i, a := range xs {
			v.predict([]float64{a, b}, at[(j*nx+i)*nk:][:nk], nk)
		}
	}
	risk := make([]float64, nk)
	add := func(c int, label int8, pos, neg float64) {
		if label > 0 {
			risk[c] += (1 - m.pi) * neg
		} else {
			risk[c] += m.pi * pos
		}
	}
	s := split
	sub := make([]int8, s*s*nk)
	for j := range ny - 1 {
		for i := range nx - 1 {
			corner := func(di, dj, c int) int8 { return at[((j+dj)*nx+i+di)*nk+c] }
			upto := 0 // 1 + the last k whose corners disagree
			for c := range nk {
				if a := corner(0, 0, c); a != corner(1, 0, c) || a != corner(0, 1, c) || a != corner(1, 1, c) {
					upto = c + 1
				}
			}
			pos, neg := m.masses(xs[i], xs[i+1], ys[j], ys[j+1])
			for c := upto; c < nk; c++ {
				add(c, corner(0, 0, c), pos, neg)
			}
			if upto == 0 {
				continue
			}
			dx, dy := (xs[i+1]-xs[i])/float64(s), (ys[j+1]-ys[j])/float64(s)
			for b := range s {
				for a := range s {
					v.predict([]float64{xs[i] + (float64(a)+0.5)*dx, ys[j] + (float64(b)+0.5)*dy}, sub[(b*s+a)*nk:][:upto], upto)
				}
			}
			for b := range s {
				for a := range s {
					pos, neg := m.masses(xs[i]+float64(a)*dx, xs[i]+float64(a+1)*dx, ys[j]+float64(b)*dy, ys[j]+float64(b+1)*dy)
					for c := range upto {
						add(c, sub[(b*s+a)*nk+c], pos, neg)
					}
				}
			}
		}
	}
	// Outside the grid h is not evaluated: the mass there counts half
	// each way, an error of at most half of it (~10⁻⁶).
	pos, neg := m.masses(xs[0], xs[nx-1], ys[0], ys[ny-1])
	for c := range risk {
		risk[c] += (m.pi*(1-pos) + (1-m.pi)*(1-neg)) / 2
	}
	return risk
}

// riskAxis is the grid's nodes along one axis for means at lo and hi:
// riskCells per σ within riskCore·σ of them, four per σ further out to
// riskSpan·σ, where under 0.3 % of the mass lies.
func riskAxis(lo, hi, sigma float64, cells int) []float64 {
	core, span := riskCore*sigma, riskSpan*sigma
	outer := (riskSpan - riskCore) * 4
	v := linspace(lo-span, lo-core, outer+1)
	v = append(v[:outer], linspace(lo-core, hi+core, int(math.Ceil((hi-lo+2*core)/sigma*float64(cells)))+1)...)
	tail := linspace(hi+core, hi+span, outer+1)
	return append(v, tail[1:]...)
}

func linspace(a, b float64, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = a + (b-a)*float64(i)/float64(n-1)
	}
	return v
}
