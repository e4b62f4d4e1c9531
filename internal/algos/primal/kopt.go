package primal

import (
	"context"
	"fmt"
	"math"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
)

// kernelOptTol and KernelOptWork are KernelPegasosOptimum's stopping
// rule and budget. The gap is relative to max(1, |primal|); 1e-10 is far
// below anything a plot of Pegasos' objective can show. The budget counts
// work, not passes, so it bounds the time on any input of any size: a
// pass costs n units to scan the coordinates and n more for the gap, and
// a coordinate that moves costs n to update the margins (a kernel
// column). Dual coordinate descent converges linearly, and on the
// lessons' data it needs a few percent of the budget; a badly conditioned
// problem (λ = 10⁻⁴ with a degree-10 polynomial kernel, points at
// |x| ≈ 10⁶) reaches it in about a quarter of a second.
const (
	kernelOptTol  = 1e-10
	KernelOptWork = 1.5e8
	// passOverhead is a pass's fixed cost (the context check, calls) in
	// units, which dominates on a handful of points: without it 5 points
	// would get millions of passes.
	passOverhead = 200
)

// ApproxError is how an optimum solver says it stopped at its work
// budget before the gap it asked for. The optimum lies in [Lower, Upper]:
// Upper is the objective at the point returned (or at the origin, when
// that is lower), Lower the dual objective reached (weak duality). It
// wraps algos.ErrIterationLimit.
type ApproxError struct {
	Solver       string // what ran, in words
	Lower, Upper float64
	Steps        int    // passes or iterations made
	Unit         string // what Steps counts
}

// Gap is Upper − Lower, the most either bound can be off by.
func (e *ApproxError) Gap() float64 { return e.Upper - e.Lower }

func (e *ApproxError) Error() string {
	return fmt.Sprintf("svm: %s stopped at its work budget after %d %s; the optimum lies in [%.6g, %.6g]", e.Solver, e.Steps, e.Unit, e.Lower, e.Upper)
}

// approx builds the error for a solver stopped with objective obj at its
// point, dual objective dual, and objective origin at the origin.
func approx(solver string, steps int, unit string, obj, dual, origin float64) *ApproxError {
	up := math.Min(obj, origin)
	return &ApproxError{Solver: solver, Steps: steps, Unit: unit, Lower: math.Min(dual, up), Upper: up}
}

func (e *ApproxError) Unwrap() error { return algos.ErrIterationLimit }

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
// work budget (KernelOptWork) it returns the α reached with an
// *ApproxError, which wraps algos.ErrIterationLimit, and when ctx ends first, with an error
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
	return kernelOptimum(ctx, kp, KernelOptWork)
}

// kernelOptimum is KernelPegasosOptimum on a set-up trainer, with a
// budget of work units.
func kernelOptimum(ctx context.Context, kp *KernelPegasos, work float64) (alpha []float64, objective float64, err error) {
	d := newDualCD(kp)
	passes, gap, ok, err := d.solve(ctx, work)
	alpha = d.alpha()
	objective = kp.Objective(alpha)
	if err != nil {
		return alpha, objective, fmt.Errorf("svm: kernel Pegasos optimum stopped after %d passes: %w", passes, err)
	}
	if !ok {
		// gap = objective − dual; at α = 0 the objective is the mean hinge 1.
		return alpha, objective, approx("dual coordinate descent", passes, "passes", objective, objective-gap, 1)
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

// solve runs passes until the gap is small enough or the work budget is
// spent (see KernelOptWork), and returns the passes made, the last gap
// and whether it converged. A gap computed from the running g is
// confirmed on a g recomputed from scratch (n² units), so the rounding of
// many updates cannot fake convergence.
func (d *dualCD) solve(ctx context.Context, budget float64) (passes int, gap float64, ok bool, err error) {
	n := float64(len(d.beta))
	for work := 0.0; work < budget; {
		if err := ctx.Err(); err != nil {
			return passes, gap, false, err
		}
		work += n*float64(2+d.pass()) + passOverhead
		passes++
		if gap, ok = d.converged(); !ok {
			continue
		}
		copy(d.g, d.kp.Margins(d.alpha()))
		work += n * n
		if gap, ok = d.converged(); ok {
			return passes, gap, true, nil
		}
	}
	return passes, gap, false, nil
}

// pass updates every coordinate once, in index order, and returns how
// many moved. Coordinate i's
// problem is min ½Qᵢᵢδ² + (gᵢ − 1)δ over βᵢ + δ ∈ [0, C]: the Newton step
// −(gᵢ − 1)/Qᵢᵢ clipped to the box, or the better end when Qᵢᵢ = 0
// (a point the kernel maps to 0, whose column is then 0 too).
func (d *dualCD) pass() (moved int) {
	y := d.kp.Y
	for i, b := range d.beta {
		grad := d.g[i] - 1
		var nb float64
		switch q := d.diag[i]; {
		case q > 0:
			// Clipped with comparisons, not math.Min and Max, whose
			// care for signed zeros cost a third of the solver's time;
			// a NaN passes through either way.
			if nb = b - grad/q; nb < 0 {
				nb = 0
			} else if nb > d.c {
				nb = d.c
			}
		case grad < 0:
			nb = d.c
		}
		if nb == b {
			continue
		}
		d.beta[i] = nb
		moved++
		dy := float64((nb - b) * y[i])
		for t, v := range d.column(i) {
			d.g[t] += y[t] * float64(dy*v)
		}
	}
	return moved
}

// converged returns the duality gap in the objective's units,
// 2λ Σᵢ [βᵢ(gᵢ − 1) + C·max(0, 1 − gᵢ)] (every term is ≥ 0 in the box),
// and whether it is within kernelOptTol of max(1, |primal|), where the
// primal is λ βᵀg + (1/n) Σᵢ max(0, 1 − gᵢ).
func (d *dualCD) converged() (gap float64, ok bool) {
	var bg, slack, hinge float64
	for i, b := range d.beta {
		h := 1 - d.g[i]
		if h < 0 {
			h = 0
		}
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
