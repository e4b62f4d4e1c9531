package svm

import (
	"math"

	"github.com/margin-edu/margin/internal/algos"
)

// tau replaces a non-positive curvature aᵢⱼ = Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ in the
// working-set selection and the update, as LIBSVM's TAU does: with a
// positive semi-definite kernel aᵢⱼ is ≤ 0 only for duplicate points.
const tau = 1e-12

// In LIBSVM's notation, with αᵢ's box [0, C]:
//
//	I_up(α)  = {t : yₜ = +1, αₜ < C} ∪ {t : yₜ = −1, αₜ > 0}
//	I_low(α) = {t : yₜ = +1, αₜ > 0} ∪ {t : yₜ = −1, αₜ < C}
//	m(α) = max over I_up of −yₜGₜ,  M(α) = min over I_low of −yₜGₜ
//
// α is optimal iff m(α) ≤ M(α) (the KKT conditions), and the gap
// m(α) − M(α) is LIBSVM's Gmax + Gmax2. The bound tests are LIBSVM's:
// αₜ ≥ C is at the upper bound and αₜ ≤ 0 at the lower one.

// tally accumulates, over one pass through the points, what a state
// reports about its α: the gap and the index achieving m(α), D(α), and
// LIBSVM's calculate_rho sums.
type tally struct {
	gmax, gmax2 float64 // m(α) and −M(α)
	up          int     // argmax of m(α), the last one on ties (LIBSVM's >=)
	dual        float64 // Σ αₜ(Gₜ − 1) = 2D(α)
	ub, lb      float64 // bounds on ρ from the variables at a bound
	sumFree     float64 // Σ yₜGₜ over the free variables
	nFree       int
}

func (t *tally) reset() {
	*t = tally{gmax: math.Inf(-1), gmax2: math.Inf(-1), up: -1, ub: math.Inf(1), lb: math.Inf(-1)}
}

// see adds point k with label y, multiplier a and gradient g; c is the box
// bound. The order of the tests follows LIBSVM's select_working_set and
// calculate_rho.
func (t *tally) see(y, a, g float64, k int, c float64) {
	t.pick(y, a, g, k, c)
	t.dual += float64(a * (g - 1))
	yg := y * g
	switch {
	case a >= c:
		if y < 0 {
			if yg < t.ub {
				t.ub = yg
			}
		} else if yg > t.lb {
			t.lb = yg
		}
	case a <= 0:
		if y > 0 {
			if yg < t.ub {
				t.ub = yg
			}
		} else if yg > t.lb {
			t.lb = yg
		}
	default:
		t.nFree++
		t.sumFree += yg
	}
}

// pick is the part of see that the working-set selection needs: m(α), its
// argmax and −M(α).
func (t *tally) pick(y, a, g float64, k int, c float64) {
	if y > 0 {
		if a < c && -g >= t.gmax {
			t.gmax, t.up = -g, k
		}
		if a > 0 && g >= t.gmax2 {
			t.gmax2 = g
		}
		return
	}
	if a < c && -g >= t.gmax2 {
		t.gmax2 = -g
	}
	if a > 0 && g >= t.gmax {
		t.gmax, t.up = g, k
	}
}

// rho is LIBSVM's calculate_rho: the mean of yₜGₜ over the free variables
// or, when there are none, the midpoint of the interval [lb, ub] the
// variables at a bound leave for it.
func (t *tally) rho() float64 {
	if t.nFree > 0 {
		return t.sumFree / float64(t.nFree)
	}
	return (t.ub + t.lb) / 2
}

// finish copies a tally into s and sets its status.
func (p *Problem) finish(s *State, t *tally) {
	s.Gap = t.gmax + t.gmax2
	s.Dual = t.dual / 2
	s.B = -t.rho()
	s.up = t.up
	switch {
	case s.Gap <= p.P.Tol:
		s.Status = algos.Converged
	case s.T >= p.P.MaxIter:
		s.Status = algos.IterationLimit
	default:
		s.Status = algos.Running
	}
}

// iterate is one SMO iteration on all n variables, in place: it picks the
// working pair as LIBSVM's select_working_set (WSS 2 of Fan, Chen & Lin,
// 2005), updates αᵢ and αⱼ as LIBSVM's Solver::Solve, and in the same pass
// that updates G recomputes everything State reports. It is the iteration
// of `svm-train -h 0` (no shrinking), except that Q is kept in float64
// where LIBSVM rounds it to float32, and that with Params.Ties the pair is
// chosen by the tie rule (see TieTol).
func (p *Problem) iterate(s *State) {
	i, j := p.workingSet(s)
	if j < 0 {
		// No pair makes progress: LIBSVM's "already optimal". Unreachable
		// for a feasible α whose gap exceeds Tol > 0, kept as LIBSVM
		// keeps it.
		s.Status = algos.Converged
		return
	}
	qi, qj := p.cache.Get(i), p.cache.Get(j)
	s.I, s.J, s.OldI, s.OldJ = i, j, s.Alpha[i], s.Alpha[j]
	p.update(s.Alpha, s.G, i, j, qi, qj)
	di, dj := s.Alpha[i]-s.OldI, s.Alpha[j]-s.OldJ
	s.T++
	var t tally
	t.reset()
	for k, g := range s.G {
		g += float64(qi[k]*di) + float64(qj[k]*dj)
		s.G[k] = g
		t.see(p.Y[k], s.Alpha[k], g, k, p.c)
	}
	p.finish(s, &t)
}

// selectJ returns LIBSVM's second index for first index i (the argmax of
// m(α)): among t ∈ I_low with −yₜGₜ < m(α), the one whose two-variable
// step decreases D most, −(m(α) + yₜGₜ)²/aᵢₜ, the last one on ties, or −1
// when there is none. active lists the indices to consider; nil means all.
func (p *Problem) selectJ(alpha, g []float64, i int, qi []float64, active []int) int {
	if active == nil {
		active = p.all
	}
	yi, c := p.Y[i], p.c
	gmax := -yi * g[i]
	qdi := p.qd[i]
	best, objMin := -1, math.Inf(1)
	for _, t := range active {
		var diff, quad float64
		if p.Y[t] > 0 {
			if diff = gmax + g[t]; alpha[t] <= 0 || diff <= 0 {
				continue
			}
			quad = qdi + p.qd[t] - float64(2*yi*qi[t])
		} else {
			if diff = gmax - g[t]; alpha[t] >= c || diff <= 0 {
				continue
			}
			quad = qdi + p.qd[t] + float64(2*yi*qi[t])
		}
		if quad <= 0 {
			quad = tau
		}
		if obj := -(diff * diff) / quad; obj <= objMin {
			best, objMin = t, obj
		}
	}
	return best
}

// update moves αᵢ and αⱼ along the feasible direction to the minimum of D,
// clipped to the box, exactly as LIBSVM's Solver::Solve (with Cp = Cn =
// C). With an infinite C (hard margin) the upper clips never apply.
func (p *Problem) update(alpha, g []float64, i, j int, qi, qj []float64) {
	c := p.c
	hard := math.IsInf(c, 1)
	ai, aj := alpha[i], alpha[j]
	if p.Y[i] != p.Y[j] {
		quad := p.qd[i] + p.qd[j] + float64(2*qi[j])
		if quad <= 0 {
			quad = tau
		}
		delta := (-g[i] - g[j]) / quad
		diff := ai - aj
		ai += delta
		aj += delta
		if diff > 0 {
			if aj < 0 {
				aj, ai = 0, diff
			}
		} else if ai < 0 {
			ai, aj = 0, -diff
		}
		if !hard {
			// LIBSVM compares diff with Cᵢ − Cⱼ, which is 0 here.
			if diff > 0 {
				if ai > c {
					ai, aj = c, c-diff
				}
			} else if aj > c {
				aj, ai = c, c+diff
			}
		}
	} else {
		quad := p.qd[i] + p.qd[j] - float64(2*qi[j])
		if quad <= 0 {
			quad = tau
		}
		delta := (g[i] - g[j]) / quad
		sum := ai + aj
		ai -= delta
		aj += delta
		if !hard && sum > c {
			if ai > c {
				ai, aj = c, sum-c
			}
		} else if aj < 0 {
			aj, ai = 0, sum
		}
		if !hard && sum > c {
			if aj > c {
				aj, ai = c, sum-c
			}
		} else if ai < 0 {
			ai, aj = 0, sum
		}
	}
	alpha[i], alpha[j] = ai, aj
}
