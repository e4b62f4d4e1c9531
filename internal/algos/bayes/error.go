package bayes

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Accuracy of BayesError: the quadrature refines until its error bound
// is at most bayesTol per class, and roundingFloor is added for the
// rounding of the integrand (whose values are at most 1 and are computed
// to a few ulps).
const (
	bayesTol      = 1e-13
	roundingFloor = 1e-14
	maxPanels     = 4000
)

// BayesError returns the Bayes error R(h*) = E_x[min(η(x), 1 − η(x))],
// the risk of BayesClassifier, and a bound on the absolute error of that
// value (see the package doc for the method and the bound). The bound is
// typically about 1e-14 and never above 1e-12 unless the covariances are
// extremely ill-conditioned; it is returned so that a page can print it.
func (m *Mixture) BayesError() (risk, bound float64) {
	pPos, ePos := m.misclassified(m.pos, 1)
	pNeg, eNeg := m.misclassified(m.neg, -1)
	risk = m.Pi*pPos + (1-m.Pi)*pNeg
	bound = m.Pi*ePos + (1-m.Pi)*eNeg + roundingFloor
	return risk, bound
}

// misclassified returns P_s(sign·ℓ(x) < 0) for x ~ N(μ_s, Σ_s) (with
// ≤ for sign +1, so that a point on the boundary counts as −1's, as
// BayesClassifier has it), and the quadrature's error bound.
func (m *Mixture) misclassified(g gauss, sign float64) (p, bound float64) {
	f := m.form(g)
	f.scale(sign)
	f.strict = sign < 0
	pieces := f.breaks()
	integral, e := adaptive(f.mass, pieces, bayesTol*2*math.Pi, maxPanels)
	return integral / (2 * math.Pi), e / (2 * math.Pi)
}

// polar is the quadratic ℓ(μ + Lz) = zᵀAz + βᵀz + c in whitened
// coordinates z, to be read along rays z = r(cos θ, sin θ).
type polar struct {
	a11, a12, a22 float64
	b1, b2        float64
	c             float64
	strict        bool // count f < 0 only, not f = 0
}

// form writes ℓ, for x = μ_s + L_s z, as a polar quadratic:
//
//	ℓ = logit0 − ½‖v₊ + M₊z‖² + ½‖v₋ + M₋z‖²,  M = L⁻¹L_s, v = L⁻¹(μ_s − μ)
//
// with L and μ each class's, by triangular solves (no inverse).
func (m *Mixture) form(s gauss) polar {
	mp, vp := relative(m.pos, s)
	mn, vn := relative(m.neg, s)
	var a, ap mat.Dense
	a.Mul(mn.T(), mn)
	ap.Mul(mp.T(), mp)
	a.Sub(&a, &ap)
	a.Scale(0.5, &a)
	var b, bp mat.VecDense
	b.MulVec(mn.T(), vn)
	bp.MulVec(mp.T(), vp)
	b.SubVec(&b, &bp)
	c := m.logit0 - mat.Dot(vp, vp)/2 + mat.Dot(vn, vn)/2
	return polar{a11: a.At(0, 0), a12: (a.At(0, 1) + a.At(1, 0)) / 2, a22: a.At(1, 1), b1: b.AtVec(0), b2: b.AtVec(1), c: c}
}

// relative returns L⁻¹L_s and L⁻¹(μ_s − μ) for class g's L and μ.
func relative(g, s gauss) (*mat.Dense, *mat.VecDense) {
	l := mat.NewTriDense(2, mat.Lower, []float64{g.l11, 0, g.l21, g.l22})
	ls := mat.NewDense(2, 2, []float64{s.l11, 0, s.l21, s.l22})
	var mm mat.Dense
	var v mat.VecDense
	// A triangular system with positive diagonal is never singular, so
	// these cannot fail.
	_ = mm.Solve(l, ls)
	_ = v.SolveVec(l, mat.NewVecDense(2, []float64{s.mu[0] - g.mu[0], s.mu[1] - g.mu[1]}))
	return &mm, &v
}

func (f *polar) scale(s float64) {
	f.a11, f.a12, f.a22, f.b1, f.b2, f.c = s*f.a11, s*f.a12, s*f.a22, s*f.b1, s*f.b2, s*f.c
}

// mass is the integrand over θ: ∫ r e^{−r²/2} dr over the r ≥ 0 where
// a r² + b r + c < 0 along direction θ, in closed form.
func (f *polar) mass(theta float64) float64 {
	si, co := math.Sincos(theta)
	a := float64(f.a11*co*co) + float64(2*f.a12*co*si) + float64(f.a22*si*si)
	b := float64(f.b1*co) + float64(f.b2*si)
	return f.radial(a, b)
}

// negative reports whether the constant value v counts as misclassified.
func (f *polar) negative(v float64) bool { return v < 0 || (!f.strict && v == 0) }

// radial is ∫ r e^{−r²/2} dr over {r ≥ 0 : a r² + b r + c < 0}: with
// E(r) = e^{−r²/2}, an interval [r₁, r₂] contributes E(r₁) − E(r₂).
func (f *polar) radial(a, b float64) float64 {
	c := f.c
	if a == 0 {
		if b == 0 {
			return indicator(f.negative(c))
		}
		r0 := -c / b
		if b > 0 { // negative below r0
			return 1 - tail(r0)
		}
		return tail(r0)
	}
	disc := float64(b*b) - float64(4*a*c)
	if disc <= 0 { // one sign throughout, but for a double root
		return indicator(a < 0)
	}
	q := -(b + math.Copysign(math.Sqrt(disc), b)) / 2
	r1, r2 := q/a, c/q
	if r1 > r2 {
		r1, r2 = r2, r1
	}
	if a > 0 { // negative between the roots
		return tail(r1) - tail(r2)
	}
	return 1 - tail(r1) + tail(r2) // negative outside them
}

// tail is E(max(r, 0)) = P(‖z‖ > r) for a standard normal z in the plane.
func tail(r float64) float64 {
	if r <= 0 {
		return 1
	}
	return math.Exp(-r * r / 2)
}

func indicator(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// breaks splits [0, 2π) at the angles where mass may fail to be smooth:
// where a(θ) = 0 (a root passes through infinity), where the
// discriminant b² − 4ac = uᵀ(ββᵀ − 4cA)u is 0 (roots appear or merge)
// and where b(θ) = 0. Each is a quadratic (or linear) form in
// u = (cos θ, sin θ), whose zeros are closed form.
func (f *polar) breaks() [][2]float64 {
	cuts := []float64{0, 2 * math.Pi}
	cuts = append(cuts, formZeros(f.a11, f.a12, f.a22)...)
	cuts = append(cuts, formZeros(f.b1*f.b1-4*f.c*f.a11, f.b1*f.b2-4*f.c*f.a12, f.b2*f.b2-4*f.c*f.a22)...)
	if f.b1 != 0 || f.b2 != 0 {
		t := math.Atan2(f.b2, f.b1)
		cuts = append(cuts, wrap(t+math.Pi/2), wrap(t-math.Pi/2))
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	pieces := make([][2]float64, 0, len(cuts)-1)
	for i := range len(cuts) - 1 {
		pieces = append(pieces, [2]float64{cuts[i], cuts[i+1]})
	}
	return pieces
}

// formZeros returns the θ in [0, 2π) where p11 cos²θ + 2 p12 cosθ sinθ +
// p22 sin²θ = 0, written as (p11+p22)/2 + R cos(2θ − φ).
func formZeros(p11, p12, p22 float64) []float64 {
	mean, r := (p11+p22)/2, math.Hypot((p11-p22)/2, p12)
	if r == 0 || math.Abs(mean) > r {
		return nil
	}
	phi, alpha := math.Atan2(p12, (p11-p22)/2), math.Acos(-mean/r)
	var out []float64
	for _, t := range []float64{(phi + alpha) / 2, (phi - alpha) / 2} {
		out = append(out, wrap(t), wrap(t+math.Pi))
	}
	return out
}

// wrap maps t into [0, 2π).
func wrap(t float64) float64 {
	t = math.Mod(t, 2*math.Pi)
	if t < 0 {
		t += 2 * math.Pi
	}
	if t >= 2*math.Pi {
		t = 0
	}
	return t
}
