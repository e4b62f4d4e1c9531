package svm

import (
	"math"
	"slices"
)

// TieULPs is the width of the demos' tie rule in units of 2⁻⁵²: two
// values a and b of a set whose largest magnitude is scale are a tie when
// |a − b| ≤ TieULPs·2⁻⁵²·scale.
const TieULPs = 8

// TieTol is the tie tolerance TieULPs·2⁻⁵²·scale for values whose largest
// magnitude is scale.
func TieTol(scale float64) float64 { return TieULPs * 0x1p-52 * math.Abs(scale) }

// With Params.Ties the working-set selection is LIBSVM's WSS 2 with one
// stated tie rule in place of LIBSVM's scan, so that two candidates equal
// in exact arithmetic are chosen by the rule and not by which of them
// float64 rounding happened to make larger:
//
//	i = the last t ∈ I_up with vₜ ≥ m(α) − TieTol(max over all t of |vₜ|)
//	j = the last t ∈ I_low with vᵢ − vₜ > TieTol(max|v|) (a violating
//	    partner, not a tie with vᵢ) and gainₜ ≥ max gain − TieTol(max gain),
//	    gainₜ = (vᵢ − vₜ)²/aᵢₜ
//
// where vₜ = −yₜGₜ and aᵢₜ = Kᵢᵢ + Kₜₜ − 2Kᵢₜ (τ when ≤ 0). The update,
// the stopping test and everything State reports are unchanged.

// vScale is max over all t of |vₜ| = |Gₜ|, the scale of the i-rule's
// tolerance.
func vScale(g []float64) float64 {
	s := 0.0
	for _, x := range g {
		s = math.Max(s, math.Abs(x))
	}
	return s
}

// tiedFirst is the first index under the tie rule, or −1 when I_up is
// empty.
func (p *Problem) tiedFirst(alpha, g []float64) int {
	m := math.Inf(-1)
	for t := range g {
		if p.isUp(alpha[t], t) {
			m = math.Max(m, -p.Y[t]*g[t])
		}
	}
	if math.IsInf(m, -1) {
		return -1
	}
	floor := m - TieTol(vScale(g))
	i := -1
	for t := range g {
		if p.isUp(alpha[t], t) && -p.Y[t]*g[t] >= floor {
			i = t
		}
	}
	return i
}

// tiedSecond is the second index for first index i under the tie rule,
// or −1 when no point of I_low violates with i by more than a tie.
func (p *Problem) tiedSecond(alpha, g []float64, i int, qi []float64) int {
	vi, tol := -p.Y[i]*g[i], TieTol(vScale(g))
	gain := make([]float64, len(g))
	best := 0.0
	for t := range g {
		gain[t] = math.Inf(-1)
		d := vi - (-p.Y[t] * g[t])
		if !p.isLow(alpha[t], t) || !(d > tol) {
			continue
		}
		gain[t] = d * d / p.Curvature(i, t, qi)
		best = math.Max(best, gain[t])
	}
	floor := best - TieTol(best)
	j := -1
	for t, v := range gain {
		if !math.IsInf(v, -1) && v >= floor {
			j = t
		}
	}
	return j
}

// isUp and isLow report whether t, with multiplier a, is in I_up or I_low.
func (p *Problem) isUp(a float64, t int) bool {
	if p.Y[t] > 0 {
		return a < p.c
	}
	return a > 0
}

func (p *Problem) isLow(a float64, t int) bool {
	if p.Y[t] > 0 {
		return a > 0
	}
	return a < p.c
}

// Curvature is aᵢₜ = Kᵢᵢ + Kₜₜ − 2Kᵢₜ as the working-set selection takes
// it (τ = 10⁻¹² where it is not positive), from column i of Q.
func (p *Problem) Curvature(i, t int, qi []float64) float64 {
	a := p.qd[i] + p.qd[t] - float64(2*p.Y[i]*p.Y[t]*qi[t])
	if a <= 0 {
		a = tau
	}
	return a
}

// Column returns a copy of column i of Q, Qₜᵢ = yₜyᵢK(xₜ, xᵢ).
func (p *Problem) Column(i int) []float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.cache.Get(i))
}

// WorkingSet returns the pair (i, j) the next Step of s optimises, by
// LIBSVM's scan or, with Params.Ties, by the tie rule; j is −1 when no
// pair makes progress (LIBSVM's "already optimal").
func (p *Problem) WorkingSet(s State) (i, j int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.workingSet(&s)
}

// workingSet is WorkingSet with p.mu held.
func (p *Problem) workingSet(s *State) (i, j int) {
	if p.P.Ties {
		if i = p.tiedFirst(s.Alpha, s.G); i < 0 {
			return -1, -1
		}
		return i, p.tiedSecond(s.Alpha, s.G, i, p.cache.Get(i))
	}
	if i = s.up; i < 0 {
		return -1, -1
	}
	return i, p.selectJ(s.Alpha, s.G, i, p.cache.Get(i), nil)
}
