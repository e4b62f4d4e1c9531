package bayes

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Mixture is the two-class Gaussian mixture: P(y = +1) = Pi and
// x | y = ±1 ~ N(MeanPos, CovPos) or N(MeanNeg, CovNeg). Build it with New
// or NewIsotropic; its fields are copies, for reading only.
type Mixture struct {
	Pi               float64
	MeanPos, MeanNeg [2]float64
	CovPos, CovNeg   [2][2]float64

	pos, neg gauss
	logit0   float64 // log(π/(1−π)) − log|L₊| + log|L₋|
}

// gauss is one class's N(μ, LLᵀ), with L lower triangular.
type gauss struct {
	mu            [2]float64
	l11, l21, l22 float64
}

// whiten returns L⁻¹(x − μ), by forward substitution.
func (g gauss) whiten(x0, x1 float64) (u0, u1 float64) {
	u0 = (x0 - g.mu[0]) / g.l11
	u1 = (x1 - g.mu[1] - float64(g.l21*u0)) / g.l22
	return u0, u1
}

// point returns μ + Lz, each product rounded before it is added.
func (g gauss) point(z0, z1 float64) [2]float64 {
	return [2]float64{g.mu[0] + float64(g.l11*z0), g.mu[1] + float64(g.l21*z0) + float64(g.l22*z1)}
}

// ErrParams is returned, wrapped with what was wrong, for a mixture that
// is not a distribution.
var ErrParams = errors.New("bayes: bad mixture parameters")

// NewIsotropic is the mixture with one shared covariance σ²I: the Bayes
// boundary is then a line (the perpendicular bisector of the means when
// π = ½). It needs 0 < π < 1, finite means and 0 < σ < ∞.
func NewIsotropic(pi float64, meanPos, meanNeg [2]float64, sigma float64) (*Mixture, error) {
	if !(sigma > 0) || math.IsInf(sigma, 1) {
		return nil, fmt.Errorf("%w: σ = %v; give a finite σ > 0", ErrParams, sigma)
	}
	v := sigma * sigma
	cov := [2][2]float64{{v, 0}, {0, v}}
	return New(pi, meanPos, cov, meanNeg, cov)
}

// New is the mixture with a covariance per class, each symmetric and
// positive definite; unequal covariances make the Bayes boundary a
// conic. It needs 0 < π < 1 and finite means.
func New(pi float64, meanPos [2]float64, covPos [2][2]float64, meanNeg [2]float64, covNeg [2][2]float64) (*Mixture, error) {
	if !(pi > 0 && pi < 1) {
		return nil, fmt.Errorf("%w: π = %v; give 0 < π < 1 (P(y = +1))", ErrParams, pi)
	}
	m := &Mixture{Pi: pi, MeanPos: meanPos, MeanNeg: meanNeg, CovPos: covPos, CovNeg: covNeg}
	var err error
	if m.pos, err = newGauss("+1", meanPos, covPos); err != nil {
		return nil, err
	}
	if m.neg, err = newGauss("-1", meanNeg, covNeg); err != nil {
		return nil, err
	}
	m.logit0 = math.Log(pi) - math.Log1p(-pi) -
		math.Log(m.pos.l11) - math.Log(m.pos.l22) + math.Log(m.neg.l11) + math.Log(m.neg.l22)
	return m, nil
}

func newGauss(class string, mu [2]float64, cov [2][2]float64) (gauss, error) {
	for _, v := range []float64{mu[0], mu[1], cov[0][0], cov[0][1], cov[1][0], cov[1][1]} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return gauss{}, fmt.Errorf("%w: class %s has a mean or covariance entry %v; give finite numbers", ErrParams, class, v)
		}
	}
	if cov[0][1] != cov[1][0] {
		return gauss{}, fmt.Errorf("%w: class %s covariance is not symmetric (%v ≠ %v)", ErrParams, class, cov[0][1], cov[1][0])
	}
	var ch mat.Cholesky
	if !ch.Factorize(mat.NewSymDense(2, []float64{cov[0][0], cov[0][1], cov[1][0], cov[1][1]})) {
		return gauss{}, fmt.Errorf("%w: class %s covariance %v is not positive definite; give variances > 0 and |covariance| < √(var₁·var₂)", ErrParams, class, cov)
	}
	var l mat.TriDense
	ch.LTo(&l)
	g := gauss{mu: mu, l11: l.At(0, 0), l21: l.At(1, 0), l22: l.At(1, 1)}
	if !(g.l11 > 0 && g.l22 > 0) {
		return gauss{}, fmt.Errorf("%w: class %s covariance %v is numerically singular", ErrParams, class, cov)
	}
	return g, nil
}

// LogOdds is ℓ(x) = log(η(x)/(1 − η(x))) = log(π p₊(x)) − log((1 − π) p₋(x)),
// finite everywhere; the Bayes boundary is ℓ = 0. It is NaN unless x has
// exactly two coordinates.
func (m *Mixture) LogOdds(x []float64) float64 {
	if len(x) != 2 {
		return math.NaN()
	}
	a0, a1 := m.pos.whiten(x[0], x[1])
	b0, b1 := m.neg.whiten(x[0], x[1])
	qPos := float64(a0*a0) + float64(a1*a1)
	qNeg := float64(b0*b0) + float64(b1*b1)
	return m.logit0 - qPos/2 + qNeg/2
}

// Eta is η(x) = P(y = +1 | x), from LogOdds without overflow. It is NaN
// unless x has exactly two coordinates.
func (m *Mixture) Eta(x []float64) float64 {
	l := m.LogOdds(x)
	if l >= 0 {
		return 1 / (1 + math.Exp(-l))
	}
	e := math.Exp(l)
	return e / (1 + e)
}

// BayesClassifier is h*(x): +1 where η(x) > ½ (ℓ(x) > 0), −1 elsewhere.
// A point exactly on the boundary, η = ½, goes to −1, the lower label:
// Margin's one rule for ties, which kNN's vote follows too (the notes
// send it to +1; either choice has the same risk). It is 0 unless x has
// exactly two coordinates.
func (m *Mixture) BayesClassifier(x []float64) int {
	switch l := m.LogOdds(x); {
	case l > 0:
		return 1
	case l <= 0:
		return -1
	}
	return 0
}
