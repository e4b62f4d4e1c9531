package svm

import (
	"context"
	"math"

	"github.com/margin-edu/margin/internal/algos"
)

// Solve runs SMO from state 0 to the end as fast as it can and returns the
// final state. It shrinks as LIBSVM does (svm-train -h 1): every
// min(n, 1000) iterations it sets aside the variables at a bound that
// cannot take part in a violating pair soon, iterates on the rest, and
// before stopping rebuilds the whole gradient and checks the stopping
// rule on all n variables, so the result meets the same gap ≤ Tol as
// stepping. Shrinking changes the order of the pairs, so the iterates,
// and T, differ from those of Step; the optimum agrees to within Tol.
//
// Solve checks ctx every min(n, 1000) iterations and on cancellation
// returns the state reached (Status Running) with ctx's error. A hard
// margin on inseparable data returns state 0 with Status Infeasible and
// no error; one whose working pair the kernel cannot tell apart (see
// Indistinguishable) returns the state reached with Status Infeasible,
// the pair in I and J.
func (p *Problem) Solve(ctx context.Context) (State, error) {
	return p.solve(ctx, true, nil, nil)
}

// A Meter budgets a Solve by its work rather than its iterations: after
// each iteration it is told the kernel values computed since its last
// call (columns, partial columns, the gradient's reconstruction) and the
// active variables whose gradient the iteration updated; returning false
// stops the run, which ends with Status IterationLimit unless it has
// converged. Shrinking makes late iterations far cheaper than early ones,
// so a work budget reaches convergence where an iteration count fixed
// from the worst case (n variables, two missed columns each time) stops
// it an order of magnitude early.
type Meter func(values, active int) bool

// SolveMetered is Solve with its work budgeted by meter, as well as by
// Params.MaxIter.
func (p *Problem) SolveMetered(ctx context.Context, meter Meter) (State, error) {
	return p.solve(ctx, true, meter, nil)
}

// A Poll is told, while SMO computes the kernel columns of an iteration,
// the nominal work of every few dozen kernel values (about a unit per
// feature each); returning false abandons the iteration before it changes
// α, and the run ends as when its Meter stops it. A column of n values of
// d features is n·d multiply-adds, which at subnormal speed is tens of
// milliseconds: a Poll sees the work inside it.
type Poll func(units int) bool

// SolvePolled is SolveMetered with poll told of the work inside each
// iteration's kernel columns. Unless poll stops the run, the result is
// SolveMetered's bit for bit. After a stop the gradient of shrunk
// variables is rebuilt (unpolled) as at every end.
func (p *Problem) SolvePolled(ctx context.Context, meter Meter, poll Poll) (State, error) {
	return p.solve(ctx, true, meter, poll)
}

// shrinker is the state of LIBSVM's solver loop: active[:size] are the
// variables it iterates on, in LIBSVM's order after its swaps, and gbar is
// Ḡₜ = C·Σ Qₜⱼ over the j with αⱼ = C, from which the gradient of the
// shrunk variables is rebuilt. α and G are the state's own slices.
type shrinker struct {
	p        *Problem
	cache    *ColumnCache
	alpha, g []float64
	gbar     []float64
	active   []int
	size     int
	gen      int // generation of the active set, for partial columns
	unshrunk bool
}

// column returns column i of Q, valid at least on the active variables.
func (sh *shrinker) column(i int) []float64 {
	if sh.size == len(sh.alpha) {
		return sh.cache.Get(i)
	}
	return sh.cache.getAt(i, sh.active[:sh.size], sh.gen)
}

// grow restores the whole active set, which starts a new generation.
func (sh *shrinker) grow() {
	sh.reconstruct()
	sh.size = len(sh.alpha)
	sh.gen = sh.cache.newGen()
}

func (p *Problem) solve(ctx context.Context, shrinking bool, meter Meter, poll Poll) (State, error) {
	s := p.initial()
	if p.cert != nil {
		s.Status = algos.Infeasible
		return s, nil
	}
	n := len(p.X)
	cache := p.newCache()
	cache.perUnit = len(p.X[0]) + 8
	sh := &shrinker{p: p, cache: cache, alpha: s.Alpha, g: s.G, gbar: make([]float64, n), active: make([]int, n), size: n, gen: cache.newGen()}
	for k := range sh.active {
		sh.active[k] = k
	}
	hard := math.IsInf(p.c, 1)
	counter := min(n, 1000) + 1
	metered, seen, indistinct := false, 0, false
	for s.T < p.P.MaxIter {
		if counter--; counter == 0 {
			counter = min(n, 1000)
			if err := ctx.Err(); err != nil {
				sh.reconstruct()
				p.summarise(&s)
				s.Status = algos.Running
				return s, err
			}
			if shrinking {
				sh.shrink()
			}
		}
		cache.poll = poll // only where a stop leaves α and G as they were
		i, j := sh.selectPair()
		if j == -1 {
			cache.poll = nil
			sh.grow()
			cache.poll = poll
			if i, j = sh.selectPair(); j == -1 {
				break
			}
			counter = 1 // shrink at the next iteration
		}
		var qi, qj []float64
		if j >= 0 {
			qi = sh.column(i)
		}
		if qi != nil {
			qj = sh.column(j)
		}
		cache.poll = nil
		if qj == nil { // poll stopped the run
			metered = true
			break
		}
		if hard && p.Y[i] != p.Y[j] && p.qd[i]+p.qd[j]+2*qi[j] <= 0 {
			// K(xᵢ, xᵢ) + K(xⱼ, xⱼ) − 2K(xᵢ, xⱼ) = 0 (Qᵢⱼ = −Kᵢⱼ): see
			// Indistinguishable.
			s.I, s.J = i, j
			indistinct = true
			break
		}
		s.I, s.J, s.OldI, s.OldJ = i, j, s.Alpha[i], s.Alpha[j]
		p.update(sh.alpha, sh.g, i, j, qi, qj)
		s.T++
		di, dj := sh.alpha[i]-s.OldI, sh.alpha[j]-s.OldJ
		g := sh.g
		for _, k := range sh.active[:sh.size] {
			g[k] += float64(qi[k]*di) + float64(qj[k]*dj)
		}
		if !hard {
			sh.updateGbar(i, s.OldI)
			sh.updateGbar(j, s.OldJ)
		}
		if meter != nil {
			v := cache.computed
			if !meter(v-seen, sh.size) {
				metered = true
				break
			}
			seen = v
		}
	}
	sh.reconstruct()
	p.summarise(&s)
	if metered && s.Status == algos.Running {
		s.Status = algos.IterationLimit
	}
	if indistinct {
		s.Status = algos.Infeasible
	}
	return s, nil
}

// Indistinguishable reports whether s's last pair i, j (in a hard-margin
// problem) has different labels and kernel values that agree to
// rounding: K(xᵢ, xᵢ) + K(xⱼ, xⱼ) − 2K(xᵢ, xⱼ) = ‖φ(xᵢ) − φ(xⱼ)‖² ≤ 0 as
// float64 computes it, so φ(xᵢ) = φ(xⱼ) there and no hyperplane of the
// feature space separates them: the hard margin is infeasible for the
// kernel values the solver has, although the points differ (RBF on
// points 1e-9 apart: e^−γ‖x−z‖² rounds to 1). SMO's step on such a pair
// divides by LIBSVM's τ = 1e-12 and α grows without bound. Solve stops at
// the first such pair it picks, with Status Infeasible and the pair in I
// and J; Step does not look (the stepping demos keep LIBSVM's path), and
// a caller stepping may ask after each step.
func (p *Problem) Indistinguishable(s State) bool {
	i, j := s.I, s.J
	if !math.IsInf(p.c, 1) || i < 0 || j < 0 || p.Y[i] == p.Y[j] {
		return false
	}
	return p.qd[i]+p.qd[j]-2*p.P.Kernel.Eval(p.X[i], p.X[j]) <= 0
}

// summarise fills the reported fields of s from its α and G on all n
// variables.
func (p *Problem) summarise(s *State) {
	var t tally
	t.reset()
	for k, g := range s.G {
		t.see(p.Y[k], s.Alpha[k], g, k, p.c)
	}
	p.finish(s, &t)
}

// updateGbar keeps Ḡ when αₖ enters or leaves the upper bound.
func (sh *shrinker) updateGbar(k int, old float64) {
	c := sh.p.c
	was, is := old >= c, sh.alpha[k] >= c
	if was == is {
		return
	}
	qk := sh.cache.Get(k) // all n entries
	if was {
		c = -c
	}
	for t := range sh.gbar {
		sh.gbar[t] += float64(c * qk[t])
	}
}

// selectPair is LIBSVM's select_working_set on the active variables: i
// maximises −yᵢGᵢ over I_up, j is selectJ's choice. It returns j = −1
// when the gap on the active set is ≤ Tol or no pair makes progress, and
// −2 when a Poll stopped the computation of column i.
func (sh *shrinker) selectPair() (i, j int) {
	p := sh.p
	var t tally
	t.reset()
	for _, k := range sh.active[:sh.size] {
		t.pick(p.Y[k], sh.alpha[k], sh.g[k], k, p.c)
	}
	if t.gmax+t.gmax2 <= p.P.Tol || t.up < 0 {
		return t.up, -1
	}
	i = t.up
	qi := sh.column(i)
	if qi == nil {
		return i, -2 // a Poll stopped the column
	}
	return i, p.selectJ(sh.alpha, sh.g, i, qi, sh.active[:sh.size])
}

// reconstruct rebuilds G of the shrunk variables from Ḡ and the free
// ones, as LIBSVM's reconstruct_gradient: Gₜ = Ḡₜ − 1 + Σ over free j of
// αⱼQₜⱼ, summed in the order of the active list whichever of its two loop
// orders runs, so the choice changes only the time.
func (sh *shrinker) reconstruct() {
	p, n := sh.p, len(sh.alpha)
	if sh.size == n {
		return
	}
	act, rest := sh.active[:sh.size], sh.active[sh.size:]
	for _, t := range rest {
		sh.g[t] = sh.gbar[t] - 1
	}
	var free []int
	for _, j := range act {
		if a := sh.alpha[j]; a > 0 && a < p.c {
			free = append(free, j)
		}
	}
	if len(free)*n > 2*len(act)*len(rest) {
		for _, t := range rest {
			qt := sh.cache.getAt(t, act, sh.gen) // read at active j only
			for _, j := range free {
				sh.g[t] += float64(sh.alpha[j] * qt[j])
			}
		}
		return
	}
	for _, j := range free {
		qj := sh.cache.Get(j)
		for _, t := range rest {
			sh.g[t] += float64(sh.alpha[j] * qj[t])
		}
	}
}

// shrink is LIBSVM's do_shrinking: variables at a bound whose −yG lies
// strictly beyond the current extremes cannot join a violating pair soon
// and leave the active set; once the gap falls to 10·Tol the whole set is
// restored (once) so the last iterations see every variable.
func (sh *shrinker) shrink() {
	p := sh.p
	var t tally
	t.reset()
	for _, k := range sh.active[:sh.size] {
		t.pick(p.Y[k], sh.alpha[k], sh.g[k], k, p.c)
	}
	gmax1, gmax2 := t.gmax, t.gmax2
	if !sh.unshrunk && gmax1+gmax2 <= 10*p.P.Tol {
		sh.unshrunk = true
		sh.grow()
	}
	for i := 0; i < sh.size; i++ {
		if !sh.beShrunk(sh.active[i], gmax1, gmax2) {
			continue
		}
		sh.size--
		for sh.size > i {
			if !sh.beShrunk(sh.active[sh.size], gmax1, gmax2) {
				sh.active[i], sh.active[sh.size] = sh.active[sh.size], sh.active[i]
				break
			}
			sh.size--
		}
	}
}

// beShrunk is LIBSVM's be_shrunk.
func (sh *shrinker) beShrunk(k int, gmax1, gmax2 float64) bool {
	y, a, g, c := sh.p.Y[k], sh.alpha[k], sh.g[k], sh.p.c
	switch {
	case a >= c:
		if y > 0 {
			return -g > gmax1
		}
		return -g > gmax2
	case a <= 0:
		if y > 0 {
			return g > gmax2
		}
		return g > gmax1
	}
	return false
}
