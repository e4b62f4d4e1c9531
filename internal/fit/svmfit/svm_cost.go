package svmfit

import (
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/fit/budget"
)

// The SVM's cost model, in units of about 1 ns of one idle core of the
// reference machine (measured with the svm package's Advance and Solve on
// data whose columns all miss the cache, and on data whose columns all
// hit it; BenchmarkSVMWorst checks it). An SMO iteration costs
// svmIterCost plus svmPointCost per point (choosing the pair, updating
// the gradient, the stopping test: Solve's shrinking only lowers this),
// plus its kernel columns: n values of d·svmFeatureCost + kernelCost[kind]
// each.
//
// How many columns depends on the cache. When it holds them all (8n²
// bytes ≤ maxSVMCache, so n ≤ 5000), a column is computed in full at most
// once, and on the variables Solve has not shrunk at most once per
// generation of the active set, which shrinking restores once or twice a
// run: 1.5·min(2T, n) columns are charged (an assumption checked by the
// benchmark's full-cache cases, about 1.1 s for the 1.5e9 units allowed).
// Otherwise every iteration may miss its two columns (i and j): 2T.
const (
	svmIterCost    = 200
	svmPointCost   = 8
	svmFeatureCost = 1.2
)

var kernelCost = [...]float64{svm.Linear: 5, svm.Poly: 9, svm.RBF: 14, svm.Laplace: 18}

// svmCache is the kernel-column cache for n points: all columns when they
// fit in maxSVMCache; else svm's default, since the cost model then
// charges misses anyway.
func svmCache(n int) (bytes int, all bool) {
	if full := 8 * float64(n) * float64(n); full <= maxSVMCache {
		return max(int(full), svm.DefaultCacheBytes), true
	}
	return svm.DefaultCacheBytes, false
}

// svmCost is the worst-case work of an SVM fit as a function of its
// iterations T.
type svmCost struct {
	fixed   float64 // setup and answer: diagonal, separability, w, scores
	perIter float64 // svmIterCost and the per-point work of one iteration
	col     float64 // one kernel column
	all     bool    // the cache holds every column
	n       int
}

func newSVMCost(p svm.Params, n, d, m int) svmCost {
	kval := float64(d)*svmFeatureCost + kernelCost[p.Kernel.Kind]
	_, all := svmCache(n)
	c := svmCost{col: float64(n) * kval, all: all, n: n,
		perIter: svmIterCost + float64(n)*svmPointCost}
	c.fixed = c.col // the kernel diagonal
	if p.Kernel.Kind == svm.Linear {
		c.fixed += float64(n+m) * float64(d) * svmFeatureCost // w, then w·x + b
	} else {
		c.fixed += float64(m) * c.col // Σ αᵢyᵢK(xᵢ, x) + b over every i
	}
	if p.Hard {
		c.fixed += hardWork(p.Kernel, n, d)
	}
	return c
}

// work returns the worst-case work of T iterations.
func (c svmCost) work(T int) float64 {
	cols := 2 * float64(T)
	if c.all {
		cols = 1.5 * min(cols, float64(c.n))
	}
	return c.fixed + float64(T)*c.perIter + cols*c.col
}

// most returns the most iterations within MaxSVMWork and MaxIter, 0 when
// not even one fits.
func (c svmCost) most() int {
	left := MaxSVMWork - c.fixed
	t := left / (c.perIter + 2*c.col)
	if c.all {
		t = left / (c.perIter + 3*c.col)
		if late := (left - 1.5*float64(c.n)*c.col) / c.perIter; 2*late >= float64(c.n) {
			t = late // past T = n/2 the columns are all paid for
		}
	}
	return int(max(0, min(MaxIter, t)))
}

// hardWork is the cost of deciding separability for a hard margin: a
// linear program with one row per feature (d for the linear kernel, the
// monomials for poly), or a sort for RBF and Laplace (see svm.New).
func hardWork(k svm.Kernel, n, d int) float64 {
	switch k.Kind {
	case svm.RBF, svm.Laplace:
		return float64(n) * float64(d) * 40
	case svm.Poly:
		return lpWork(polyFeatures(d, k), n)
	}
	return lpWork(float64(d), n)
}

// lpWork models gonum's Simplex on m+2 rows and n columns: its pivots
// grow with the rows, and each costs O(m² + mn). The constants bound what
// svm.New took on random data of 300 to 10000 rows and 50 to 200 features;
// separable data, where the program has no solution, are the slow case.
func lpWork(m float64, n int) float64 {
	m += 2
	return 24*m*m*m*m + 40*m*m*float64(n)
}

// polyFeatures is the dimension of the polynomial kernel's feature space,
// C(d+p, p) (C(d+p−1, p) when coef0 = 0), capped to stay finite.
func polyFeatures(d int, k svm.Kernel) float64 {
	top := d + k.Degree
	if k.Coef0 == 0 {
		top--
	}
	c := 1.0
	for i := 1; i <= k.Degree && c < 1e9; i++ {
		c = c * float64(top-k.Degree+i) / float64(i)
	}
	return c
}

// meter budgets a Solve by the work it does and by its CPU: each
// iteration costs svmIterCost, svmPointCost per active variable whose
// gradient it updates, and the kernel values it computed, each d features
// and the kernel's own cost; when metered (no max_iter) the run stops
// once the work with the fixed costs passes MaxSVMWork. Whether metered
// or not it stops once b says the CPU budget is spent or the context is
// done (b looks every few milliseconds of work, whatever the numbers
// cost); the caller tells the two apart by b.Err().
func (c svmCost) meter(metered bool, b *budget.Budget) svm.Meter {
	work, kval := c.fixed, c.col/float64(c.n)
	return func(values, active int) bool {
		w := svmIterCost + float64(active)*svmPointCost + float64(values)*kval
		work += w
		if b.Spend(int(w)) != nil {
			return false
		}
		return !metered || work <= MaxSVMWork
	}
}
