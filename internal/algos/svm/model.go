package svm

import "math"

// Decision returns the score f(x) = Σᵢ αᵢyᵢK(xᵢ, x) + b of state s; the
// predicted class is its sign. Points with αᵢ = 0 are skipped.
func (p *Problem) Decision(s State, x []float64) float64 {
	var f float64
	for i, a := range s.Alpha {
		if a != 0 {
			f += float64(float64(a*p.Y[i]) * p.P.Kernel.Eval(p.X[i], x))
		}
	}
	return f + s.B
}

// Expansion returns the score of state s as a kernel expansion, with
// coefficients αᵢyᵢ (the support vectors' only) and B = s.B, so a plot
// can draw it with Expansion.Grid. Its Eval equals Decision bit for bit.
func (p *Problem) Expansion(s State) *Expansion {
	coef := make([]float64, len(s.Alpha))
	for i, a := range s.Alpha {
		coef[i] = float64(a * p.Y[i])
	}
	return NewExpansion(p.P.Kernel, p.X, coef, s.B)
}

// Weights returns w = Σᵢ αᵢyᵢxᵢ (eq. 1.6.c), or nil unless the kernel is
// linear: with a kernel, w lives in the feature space and only Decision
// can use it.
func (p *Problem) Weights(s State) []float64 {
	if p.P.Kernel.Kind != Linear {
		return nil
	}
	w := make([]float64, len(p.X[0]))
	for i, a := range s.Alpha {
		if a == 0 {
			continue
		}
		ay := a * p.Y[i]
		for j, v := range p.X[i] {
			w[j] += float64(ay * v)
		}
	}
	return w
}

// Primal returns the primal objective of eq. 1.6.a at the (w, b) that s
// defines, ½‖w‖² + C·Σᵢ max(0, 1 − yᵢf(xᵢ)), or ½‖w‖² for a hard margin
// (whose constraints hold only at the optimum). ‖w‖² = αᵀQα and yᵢf(xᵢ) =
// Gᵢ + 1 + yᵢb are read off the gradient, so no kernel is evaluated. At
// the optimum it equals −D(α) (strong duality); before, it is larger.
func (p *Problem) Primal(s State) float64 {
	var ww, hinge float64
	for i, a := range s.Alpha {
		ww += float64(a * (s.G[i] + 1))
		hinge += math.Max(0, -s.G[i]-p.Y[i]*s.B)
	}
	if p.P.Hard {
		return ww / 2
	}
	return ww/2 + float64(p.P.C*hinge)
}

// Margins returns yᵢf(xᵢ) for every training point of state s, read off
// the gradient as Gᵢ + 1 + yᵢb, in O(n) without evaluating a kernel. They
// agree with Decision to rounding.
func (p *Problem) Margins(s State) []float64 {
	m := make([]float64, len(s.G))
	for i, g := range s.G {
		m[i] = g + 1 + p.Y[i]*s.B
	}
	return m
}

// supportCut is the threshold above which αᵢ counts as non-zero.
func supportCut(alpha []float64) float64 {
	m := 1.0
	for _, a := range alpha {
		m = math.Max(m, a)
	}
	return 1e-6 * m
}

// Support returns, in ascending order, the indices of the support vectors:
// αᵢ > 1e-6·max(1, maxⱼ αⱼ), a cut relative to the largest multiplier so
// that SMO's round-off residue does not count.
func (p *Problem) Support(s State) []int {
	cut := supportCut(s.Alpha)
	var sv []int
	for i, a := range s.Alpha {
		if a > cut {
			sv = append(sv, i)
		}
	}
	return sv
}

// Kind classifies point i as 003 §2.4: NotSupport below Support's cut;
// OnMargin when 0 < αᵢ < C (LIBSVM's bound test, αᵢ ≥ C is at the bound),
// and always with a hard margin; at the bound, Misclassified when
// yᵢf(xᵢ) < 0 and Inside otherwise.
func (p *Problem) Kind(s State, i int) SVKind {
	a := s.Alpha[i]
	switch {
	case !(a > supportCut(s.Alpha)):
		return NotSupport
	case p.P.Hard || a < p.c:
		return OnMargin
	case p.margin(s, i) < 0:
		return Misclassified
	}
	return Inside
}

// margin returns yᵢf(xᵢ) = Gᵢ + 1 + yᵢb.
func (p *Problem) margin(s State, i int) float64 {
	return s.G[i] + 1 + p.Y[i]*s.B
}

// Violations returns how far each point is from its KKT condition at
// (α, b) of state s, in units of yᵢf(xᵢ): with μᵢ = yᵢf(xᵢ) − 1,
//
//	αᵢ = 0      needs μᵢ ≥ 0: violation max(0, −μᵢ)
//	0 < αᵢ < C  needs μᵢ = 0: violation |μᵢ|
//	αᵢ = C      needs μᵢ ≤ 0: violation max(0, μᵢ)
//
// with LIBSVM's bound tests. Because b lies between M(α) and m(α), every
// violation is at most the gap, so a converged state has them all ≤ Tol.
func (p *Problem) Violations(s State) []float64 {
	v := make([]float64, len(s.Alpha))
	for i, a := range s.Alpha {
		mu := s.G[i] + p.Y[i]*s.B
		switch {
		case a <= 0:
			v[i] = math.Max(0, -mu)
		case a >= p.c:
			v[i] = math.Max(0, mu)
		default:
			v[i] = math.Abs(mu)
		}
	}
	return v
}

// BiasRange returns the offsets b that the KKT conditions allow with the
// multipliers of s, f(x) − b held fixed, and the number of free
// multipliers, 0 < αᵢ < C (LIBSVM's bound tests). A free multiplier pins
// b: its point must lie on H₊ or H₋. With none free, every b in [lo, hi]
// satisfies them, where
//
//	lo = max over {αₜ = 0, yₜ = +1} ∪ {αₜ = C, yₜ = −1} of vₜ
//	hi = min over {αₜ = 0, yₜ = −1} ∪ {αₜ = C, yₜ = +1} of vₜ
//
// with vₜ = yₜ − (f(xₜ) − b), the bias that puts point t on its own
// supporting hyperplane (a point at 0 keeps its score ≥ 1, one at C keeps
// it ≤ 1). These are m(α) and M(α) then, so hi − lo ≥ −Tol at a converged
// state, where every such b gives the optimal primal value: b is not
// unique, and LIBSVM's rho takes the midpoint, s.B. lo = −∞ or hi = +∞
// when its set is empty.
// With a free multiplier lo = hi = s.B.
func (p *Problem) BiasRange(s State) (lo, hi float64, free int) {
	var t tally
	t.reset()
	for k, g := range s.G {
		t.see(p.Y[k], s.Alpha[k], g, k, p.c)
	}
	if t.nFree > 0 {
		return s.B, s.B, t.nFree
	}
	return -t.ub, -t.lb, 0
}
