package bayes

import (
	"math"

	"gonum.org/v1/gonum/integrate/quad"
)

// Gauss–Legendre rules on [−1, 1] (gonum's nodes), the coarse one to
// check the fine one.
const (
	coarseN = 12
	fineN   = 24
)

// rules holds the two Gauss–Legendre rules.
type rules struct {
	xc, wc, xf, wf []float64
}

func newRules() rules {
	r := rules{make([]float64, coarseN), make([]float64, coarseN), make([]float64, fineN), make([]float64, fineN)}
	quad.Legendre{}.FixedLocations(r.xc, r.wc, -1, 1)
	quad.Legendre{}.FixedLocations(r.xf, r.wf, -1, 1)
	return r
}

// panel is ∫_a^b f by the fine rule, q, and |fine − coarse|, e.
type panel struct{ a, b, q, e float64 }

func (r rules) panel(f func(float64) float64, a, b float64) panel {
	mid, half := (a+b)/2, (b-a)/2
	var qc, qf float64
	for i, x := range r.xc {
		qc += r.wc[i] * f(mid+half*x)
	}
	for i, x := range r.xf {
		qf += r.wf[i] * f(mid+half*x)
	}
	return panel{a, b, qf * half, math.Abs(qf-qc) * half}
}

// adaptive integrates f over the intervals in pieces and returns the sum
// and its error bound, the sum of the panels' e. It splits the panel with
// the largest e in two until the bound is at most tol or there are
// maxPanels panels (globally adaptive, like QUADPACK's QAG, so that a
// singular end costs few panels).
func adaptive(f func(float64) float64, pieces [][2]float64, tol float64, maxPanels int) (sum, bound float64) {
	r := newRules()
	var ps []panel
	for _, p := range pieces {
		if p[1] > p[0] {
			ps = append(ps, r.panel(f, p[0], p[1]))
		}
	}
	for len(ps) < maxPanels {
		worst, total := 0, 0.0
		for i, p := range ps {
			total += p.e
			if p.e > ps[worst].e {
				worst = i
			}
		}
		if total <= tol || len(ps) == 0 {
			break
		}
		w := ps[worst]
		mid := (w.a + w.b) / 2
		if !(mid > w.a && mid < w.b) { // no room left to split
			break
		}
		ps[worst] = r.panel(f, w.a, mid)
		ps = append(ps, r.panel(f, mid, w.b))
	}
	for _, p := range ps {
		sum += p.q
		bound += p.e
	}
	return sum, bound
}
