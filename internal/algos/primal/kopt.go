package primal

import (
	"context"
	"fmt"
	"math"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
)

// kernelOptTol and kernelOptPasses are KernelPegasosOptimum's stopping
// rule and budget. The gap is relative to max(1, |primal|); 1e-10 is far
// below anything a plot of Pegasos' objective can show, and dual
// coordinate descent converges linearly: n = 1500 points with λ = 1e-4
// take some 25000 passes, so the budget is reached only by badly
// conditioned problems. A pass costs O(n) per coordinate that moves.
const (
	kernelOptTol    = 1e-10
	kernelOptPasses = 100000
)

// KernelPegasosOptimum returns the exact minimiser α* of kernel Pegasos'
// objective λ αᵀKα + (1/n) Σᵢ max(0, 1 − yᵢ(Kα)ᵢ) and its value, so a
// lesson can plot KernelPegasos' objective against the optimum. It is an
// independent route to the same number: with w = Σᵢ αᵢφ(xᵢ) the objective
// is 2λ times the SVM primal without bias ½‖w‖² + C Σ hinge,
// C = 1/(2λn), whose dual
//
//	max Σβᵢ − ½βᵀQβ  over 0 ≤ βᵢ ≤ C,  Qᵢⱼ = yᵢyⱼK(xᵢ, xⱼ),
//
// has no equality constraint (no bias), so each coordinate can be
// minimised exactly on its own: dual coordinate descent (Hsieh et al.,
// 2008), cyclic, with the closed-form clipped update. Then αᵢ = yᵢβᵢ. It
// stops when the duality gap is at most 1e-10·max(1, |objective|); at its
// pass budget it returns the α reached with an error wrapping
// algos.ErrIterationLimit, and when ctx ends first, with an error
// wrapping ctx's (it looks once a pass). The data, λ and kernel are
// validated as by NewKernelPegasos. The answer is deterministic; α is unique when K is
// non-singular (RBF and Laplace on distinct points), and otherwise the
// objective and the margins Kα are.
func KernelPegasosOptimum(ctx context.Context, x [][]float64, y []int, k svm.Kernel, lambda float64) (alpha []float64, objective float64, err error) {
	if err := validKernelProblem(x, y, k, lambda); err != nil {
		return nil, 0, err
	}
	kp := &KernelPegasos{X: x, Y: labels(y), P: KernelPegasosParams{Kernel: k, Lambda: lambda}}
	if err := kp.setGram(); err != nil {
		return nil, 0, err
	}
	return kernelOptimum(ctx, kp, kernelOptPasses)
}

// kernelOptimum is KernelPegasosOptimum on a set-up trainer, with a
// budget of maxPasses passes.
func kernelOptimum(ctx context.Context, kp *KernelPegasos, maxPasses int) (alpha []float64, objective float64, err error) {
	d := newDualCD(kp)
	passes, gap, ok, err := d.solve(ctx, maxPasses)
	alpha = d.alpha()
	objective = kp.Objective(alpha)
	if err != nil {
		return alpha, objective, fmt.Errorf("svm: kernel Pegasos optimum stopped after %d passes: %w", passes, err)
	}
	if !ok {
		return alpha, objective, fmt.Errorf("svm: kernel Pegasos optimum: duality gap %.3g after %d passes over the data, above the %.0e asked; a larger λ (or, for RBF and Laplace, a larger γ) conditions the problem better: %w",
			gap, passes, kernelOptTol, algos.ErrIterationLimit)
	}
	return alpha, objective, nil
}

// dualCD is dual coordinate descent on min ½βᵀQβ − Σβ over 0 ≤ β ≤ C. It
// keeps g = Qβ, whose entries gᵢ = yᵢ(Kα)ᵢ are the margins, so that an
// update reads gᵢ in O(1) and, when βᵢ moves, adds one kernel column.
type dualCD struct {
	kp    *KernelPegasos
	c     float64          // the box bound 1/(2λn)
	beta  []float64        // the dual variables; α = y∘β
	g     []float64        // Qβ
	diag  []float64        // Qᵢᵢ = K(xᵢ, xᵢ)
	cache *svm.ColumnCache // kernel columns when kp has no Gram matrix
}

func newDualCD(kp *KernelPegasos) *dualCD {
	n := len(kp.X)
	d := &dualCD{
		kp:   kp,
		c:    1 / (2 * kp.P.Lambda * float64(n)),
		beta: make([]float64, n),
		g:    make([]float64, n),
		diag: make([]float64, n),
	}
	for i, xi := range kp.X {
		d.diag[i] = kp.P.Kernel.Eval(xi, xi)
	}
	if kp.gram == nil {
		d.cache = svm.NewColumnCache(n, svm.DefaultCacheBytes, d.fill)
	}
	return d
}

// fill writes column i of K into col (all of it: idx is always nil here).
func (d *dualCD) fill(i int, col []float64, _ []int) {
	for t, xt := range d.kp.X {
		col[t] = d.kp.P.Kernel.Eval(xt, d.kp.X[i])
	}
}

// column returns K(xₜ, xᵢ) for every t, valid until the next call.
func (d *dualCD) column(i int) []float64 {
	if g := d.kp.gram; g != nil {
		n := len(d.kp.X)
		return g[i*n : (i+1)*n]
	}
	return d.cache.Get(i)
}

// solve runs passes until the gap is small enough or maxPasses are spent,
// and returns the passes made, the last gap and whether it converged. A
// gap computed from the running g is confirmed on a g recomputed from
// scratch, so the rounding of many updates cannot fake convergence.
func (d *dualCD) solve(ctx context.Context, maxPasses int) (passes int, gap float64, ok bool, err error) {
	for passes < maxPasses {
		if err := ctx.Err(); err != nil {
			return passes, gap, false, err
		}
		d.pass()
		passes++
		if gap, ok = d.converged(); !ok {
			continue
		}
		copy(d.g, d.kp.Margins(d.alpha()))
		if gap, ok = d.converged(); ok {
			return passes, gap, true, nil
		}
	}
	return passes, gap, false, nil
}

// pass updates every coordinate once, in index order. Coordinate i's
// problem is min ½Qᵢᵢδ² + (gᵢ − 1)δ over βᵢ + δ ∈ [0, C]: the Newton step
// −(gᵢ − 1)/Qᵢᵢ clipped to the box, or the better end when Qᵢᵢ = 0
// (a point the kernel maps to 0, whose column is then 0 too).
func (d *dualCD) pass() {
	y := d.kp.Y
	for i, b := range d.beta {
		grad := d.g[i] - 1
		var nb float64
		switch q := d.diag[i]; {
		case q > 0:
			nb = math.Min(d.c, math.Max(0, b-grad/q))
		case grad < 0:
			nb = d.c
		}
		if nb == b {
			continue
		}
		d.beta[i] = nb
		dy := float64((nb - b) * y[i])
		for t, v := range d.column(i) {
			d.g[t] += y[t] * float64(dy*v)
		}
	}
}

// converged returns the duality gap in the objective's units,
// 2λ Σᵢ [βᵢ(gᵢ − 1) + C·max(0, 1 − gᵢ)] (every term is ≥ 0 in the box),
// and whether it is within kernelOptTol of max(1, |primal|), where the
// primal is λ βᵀg + (1/n) Σᵢ max(0, 1 − gᵢ).
func (d *dualCD) converged() (gap float64, ok bool) {
	var bg, slack, hinge float64
	for i, b := range d.beta {
		h := math.Max(0, 1-d.g[i])
		bg += float64(b * d.g[i])
		slack += float64(b*(d.g[i]-1)) + float64(d.c*h)
		hinge += h
	}
	lambda := d.kp.P.Lambda
	primal := float64(lambda*bg) + hinge/float64(len(d.beta))
	gap = 2 * lambda * slack
	return gap, gap <= kernelOptTol*math.Max(1, math.Abs(primal))
}

// alpha returns α = y∘β.
func (d *dualCD) alpha() []float64 {
	a := make([]float64, len(d.beta))
	for i, b := range d.beta {
		a[i] = b * d.kp.Y[i]
	}
	return a
}
