package fit

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// logisticCost is the work model of one fit in MaxLogisticWork's units,
// from timings of the logistic package on this machine's reference core
// (each term rounded up): J and ∇J at a point cost about 60 + 2.5(d+1)
// per row (two dot products, an axpy, an exp and a log1p); a Newton
// Hessian 600 + 2(d+1) per row plus 1.2 per multiply-add of X̃ᵀDX̃
// (n(d+1)²/2), its Cholesky solve (d+1)³/3 + 10(d+1)², and with λ = 0 the
// minimum-norm fallback's SVD 5(d+1)³ more.
type logisticCost struct {
	fixed  float64 // state 0, the separability program (λ = 0), 1/L (gd's default η), the answer
	eval   float64 // J and ∇J at one point
	newton float64 // one Newton Hessian and its solve
	n, d   int
}

func (c logisticCost) shape() string { return fmt.Sprintf("%d rows of %d features", c.n, c.d) }

func newLogisticCost(n, d, m int, set logisticSetup) logisticCost {
	fn, d1 := float64(n), float64(d+1)
	c := logisticCost{eval: fn * (60 + 2.5*d1), n: n, d: d}
	c.newton = fn*(600+2*d1) + 1.2*fn*d1*d1/2 + d1*d1*d1/3 + 10*d1*d1
	if set.lambda == 0 {
		c.newton += 5 * d1 * d1 * d1
		c.fixed += separableWork(n, d)
	}
	if set.solver == "gd" && set.eta == 0 {
		c.fixed += lambdaMaxWork(n, d)
	}
	c.fixed += c.eval + float64(m)*(50+3*d1)
	return c
}

// step is the work of one step that tried trials step sizes.
func (c logisticCost) step(m algos.Method[logistic.State], trials int) float64 {
	if _, gd := m.(logistic.GD); gd {
		return c.eval
	}
	return c.newton + float64(trials)*c.eval
}

// worst is the most a step of m can cost.
func (c logisticCost) worst(m algos.Method[logistic.State]) float64 {
	return c.step(m, logistic.MaxTrials)
}

// newtonWork is the work plan budgets for k Newton iterations: the fixed
// costs, k typical steps (the Newton step and two trial evaluations) and
// room for one step that needs all its trials. A refusal prints this,
// the very sum its decision compares with MaxLogisticWork.
func (c logisticCost) newtonWork(k int) float64 {
	return c.fixed + float64(k)*(c.newton+2*c.eval) + (logistic.MaxTrials-2)*c.eval
}

// plan checks a request against MaxLogisticWork before any work and
// returns how many iterations to run at most. A Newton run is planned at
// two trial steps per iteration, with room for one iteration that needs
// them all; runLogistic's meter stops the rare run that needs more.
func (c logisticCost) plan(set logisticSetup) (int, error) {
	if c.fixed > MaxLogisticWork {
		if set.lambda == 0 {
			return 0, fitreq.Badf("params.lambda = 0 needs a linear program to check that a minimiser exists, which could cost %s units of work on this x; the limit is %s; give params.lambda > 0, or send fewer features", fitreq.Work(c.fixed, MaxLogisticWork), fitreq.Limit(c.fixed, MaxLogisticWork))
		}
		return 0, fitreq.Badf("1/L, the default params.eta, needs the largest eigenvalue of XᵀX, which could cost %s units of work on this x; the limit is %s; give params.eta, or send fewer features", fitreq.Work(c.fixed, MaxLogisticWork), fitreq.Limit(c.fixed, MaxLogisticWork))
	}
	left := MaxLogisticWork - c.fixed
	if set.solver == "gd" {
		if most := int(left / c.eval); set.iters > most {
			return 0, fitreq.Badf("params.iters = %d could cost %s units of work on this x; the limit is %s; lower params.iters to at most %d", set.iters, fitreq.Work(c.fixed+float64(set.iters)*c.eval, MaxLogisticWork), fitreq.Limit(c.fixed+float64(set.iters)*c.eval, MaxLogisticWork), most)
		}
		return set.iters, nil
	}
	typical := c.newton + 2*c.eval
	most := int(max(0, (left-(logistic.MaxTrials-2)*c.eval)/typical))
	switch {
	case set.solver == "newton" && set.iters > most:
		return 0, fitreq.Badf("params.iters = %d Newton steps could cost %s units of work on %s; the limit is %s; lower params.iters to at most %d, or send fewer features (a step costs about n·d²/2)", set.iters, fitreq.Work(c.newtonWork(set.iters), MaxLogisticWork), c.shape(), fitreq.Limit(c.newtonWork(set.iters), MaxLogisticWork), most)
	case set.solver == "newton":
		return set.iters, nil
	case most < minExactIters:
		return 0, fitreq.Badf("the exact solver needs room for %d Newton steps, which could cost %s units of work on %s; the limit is %s; send fewer rows or features (a step costs about n·d²/2), or use solver \"gd\"", minExactIters, fitreq.Work(c.newtonWork(minExactIters), MaxLogisticWork), c.shape(), fitreq.Limit(c.newtonWork(minExactIters), MaxLogisticWork))
	}
	return min(most, maxExactIters), nil
}

// separableWork bounds logistic.Problem.Separable: Gram–Schmidt on d+1
// rows of n, then gonum's Simplex on r = min(n, d+1) rows, whose pivots
// grow with r and cost O(r·n) each. Timed on random separable and
// overlapping data of 1000 to 10000 rows and 10 to 100 features, where it
// took at most about a third of this.
func separableWork(n, d int) float64 {
	r := float64(min(n, d+1) + 1)
	fn := float64(n)
	return 60*r*r*fn + 4*r*r*r*r + 4*fn*r*float64(d+1)
}

// lambdaMaxWork bounds logistic.Problem.L: the Gram matrix of the
// smaller side of X̃ and its eigenvalues.
func lambdaMaxWork(n, d int) float64 {
	small, big := float64(min(n, d+1)), float64(max(n, d+1))
	return float64(n)*float64(d+1) + 1.2*small*small*big/2 + 1.5*small*small*small
}
