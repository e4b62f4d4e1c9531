package linreg

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Bounds of ResampleFits, which keep a lesson's request to a few
// milliseconds: at most MaxResamples · MaxResamplePoints · (MaxDegree+1)
// multiply-adds for the fits and as many again on the grid.
const (
	MaxDegree         = 20    // polynomial degree p
	MaxResamples      = 500   // R
	MaxResamplePoints = 10000 // design points, and evaluation points
)

// BiasVariance is the outcome of ResampleFits: R polynomial fits to
// fresh noise on one design, and 003 §4.4's decomposition of their error
// at the evaluation points xs.
type BiasVariance struct {
	Fits []Model // the R fitted models, on PolyRows(x, p) features
	Mean Model   // their average (W and B averaged)
	// Expected is E[θ̂] in closed form: the fit of the noiseless targets
	// f(xᵢ), since the ridge estimate is linear in y. When f is in the
	// model class, f = θ*·φ + θ₀*, this is 003's shrinkage
	// w = (I − nλ(X̃ᵀX̃ + nλI)⁻¹)θ* on the centred design X̃ (the intercept
	// is not penalised), and b = θ₀* + x̄·(θ* − w).
	Expected Model
	// Bias2 is mean over xs of (E f̂(x) − f(x))², with E f̂ = Expected,
	// and Variance is mean over xs of Var f̂(x), in closed form:
	// f̂(x) = gₓ·y is linear in y, so Var f̂(x) = σ²‖gₓ‖². Both are exact,
	// with no sampling noise, and Bias2 + Variance + σ² is the expected
	// squared error on a fresh target at x, averaged over xs.
	Bias2, Variance float64
	// SampleBias2 and SampleVariance are the same two numbers measured on
	// the R fits: mean over xs of (Mean(x) − f(x))² and of
	// (1/R) Σᵣ (f̂ᵣ(x) − Mean(x))². They add up exactly to the fits'
	// mean squared distance from f over xs, and tend to Bias2 and
	// Variance as R grows.
	SampleBias2, SampleVariance float64
}

// ResampleFits draws targets yᵢ = f(xᵢ) + N(0, σ²) on the fixed design x,
// R times, fits each with Fit(PolyRows(x, p), y, λ, true) (a degree-p
// polynomial with intercept and ridge λ), and measures bias and variance
// on the evaluation points xs (none: both zero). The noise comes from
// math/rand/v2's PCG seeded with (seed, 0), drawn fit by fit and point by
// point, so the same inputs give the same bits.
//
// Bounds (errors wrap ErrParameters): 1 ≤ len(x) ≤ MaxResamplePoints,
// len(xs) ≤ MaxResamplePoints, 0 ≤ p ≤ MaxDegree, 1 ≤ R ≤ MaxResamples,
// σ ≥ 0 and λ ≥ 0 finite. NaN or ±Inf in x, xs or f's values wrap
// ErrNotFinite.
func ResampleFits(x []float64, f func(float64) float64, sigma float64, R, p int, lambda float64, seed uint64, xs []float64) (BiasVariance, error) {
	if err := checkResample(x, f, sigma, R, p, lambda, xs); err != nil {
		return BiasVariance{}, err
	}
	fx, err := values(f, x, "x")
	if err != nil {
		return BiasVariance{}, err
	}
	fxs, err := values(f, xs, "xs")
	if err != nil {
		return BiasVariance{}, err
	}
	fac, err := newFactor(PolyRows(x, p), lambda, true)
	if err != nil {
		return BiasVariance{}, err
	}
	var bv BiasVariance
	if bv.Expected, err = fac.solve(fx); err != nil {
		return BiasVariance{}, err
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	y := make([]float64, len(x))
	bv.Fits = make([]Model, R)
	for r := range bv.Fits {
		for i, v := range fx {
			y[i] = v + float64(sigma*rng.NormFloat64())
		}
		if bv.Fits[r], err = fac.solve(y); err != nil {
			return BiasVariance{}, err
		}
	}
	bv.Mean = average(bv.Fits)
	bv.measure(fac, sigma, xs, fxs, p)
	return bv, nil
}

func checkResample(x []float64, f func(float64) float64, sigma float64, R, p int, lambda float64, xs []float64) error {
	switch {
	case len(x) == 0 || len(x) > MaxResamplePoints:
		return fmt.Errorf("%w: %d design points; give 1 to %d", ErrParameters, len(x), MaxResamplePoints)
	case len(xs) > MaxResamplePoints:
		return fmt.Errorf("%w: %d evaluation points; give at most %d", ErrParameters, len(xs), MaxResamplePoints)
	case p < 0 || p > MaxDegree:
		return fmt.Errorf("%w: degree p is %d; give 0 to %d", ErrParameters, p, MaxDegree)
	case R < 1 || R > MaxResamples:
		return fmt.Errorf("%w: R is %d resamples; give 1 to %d", ErrParameters, R, MaxResamples)
	case !(sigma >= 0) || math.IsInf(sigma, 0):
		return fmt.Errorf("%w: noise σ is %v; it must be a finite number ≥ 0", ErrParameters, sigma)
	case f == nil:
		return fmt.Errorf("%w: f is nil; give the true function", ErrParameters)
	}
	return checkLambda(lambda)
}

// values returns f at each of xs, all finite.
func values(f func(float64) float64, xs []float64, name string) ([]float64, error) {
	out := make([]float64, len(xs))
	for i, v := range xs {
		out[i] = f(v)
		if !isFinite(v) || !isFinite(out[i]) {
			return nil, fmt.Errorf("%w: %s[%d] = %v, where f is %v", ErrNotFinite, name, i, v, out[i])
		}
	}
	return out, nil
}

// average is the model whose W and B are the means of ms'.
func average(ms []Model) Model {
	avg := Model{W: make([]float64, len(ms[0].W))}
	for _, m := range ms {
		for j, w := range m.W {
			avg.W[j] += w
		}
		avg.B += m.B
	}
	k := float64(len(ms))
	for j := range avg.W {
		avg.W[j] /= k
	}
	avg.B /= k
	return avg
}

// measure fills the four bias and variance numbers. The closed-form
// variance uses the factor: with intercept, f̂(x) = ȳ + w·(φ(x) − x̄) and
// w = V diag(filt) Uᵀ Qᵀ (y − ȳ), so gₓ = 1/n + Q U diag(filt) Vᵀ(φ(x) − x̄)
// as a vector in y-space, the two parts orthogonal (the centred design's
// columns are orthogonal to 1), and ‖gₓ‖² = 1/n + Σₖ (filtₖ vₖ·(φ(x) − x̄))².
func (bv *BiasVariance) measure(fac *factor, sigma float64, xs, fxs []float64, p int) {
	if len(xs) == 0 {
		return
	}
	var bias, vr, sbias, svar float64
	for i, x := range xs {
		phi := Poly(x, p)
		e := bv.Expected.Predict(phi) - fxs[i]
		bias += float64(e * e)
		vr += float64(sigma*sigma) * fac.leverage(phi)
		m := bv.Mean.Predict(phi)
		e = m - fxs[i]
		sbias += float64(e * e)
		var s float64
		for _, fit := range bv.Fits {
			d := fit.Predict(phi) - m
			s += float64(d * d)
		}
		svar += s / float64(len(bv.Fits))
	}
	k := float64(len(xs))
	bv.Bias2, bv.Variance, bv.SampleBias2, bv.SampleVariance = bias/k, vr/k, sbias/k, svar/k
}

// leverage is ‖gₓ‖² for a fit with intercept at features phi: the
// variance of f̂(x) per unit noise variance.
func (f *factor) leverage(phi []float64) float64 {
	g := 1 / float64(f.n)
	if f.d == 0 {
		return g
	}
	c := make([]float64, f.d)
	for j := range c {
		c[j] = phi[j] - f.mean[j]
	}
	for k, fk := range f.filt {
		if fk == 0 {
			continue
		}
		var s float64
		for j, v := range c {
			s += float64(f.v.At(j, k) * v)
		}
		s *= fk
		g += float64(s * s)
	}
	return g
}
