package linreg

import (
	"fmt"
	"math"
)

// Loss is a loss ℓ(r) of a residual r, for FitLine. Every loss here is
// even, ℓ(−r) = ℓ(r), so the lesson's r = y − (w·x + b) and the code's
// w·x + b − y give the same value.
type Loss int

const (
	// Squared: r², least squares; the mean, and outliers pull hard.
	Squared Loss = iota
	// Absolute: |r|, least absolute deviations; the median, robust.
	Absolute
	// Huber: r²/2 for |r| ≤ δ and δ(|r| − δ/2) beyond, with δ = param
	// (> 0): quadratic near zero, linear in the tails. This is the
	// standard form (Huber 1964, Wikipedia); scikit-learn's HuberRegressor
	// scales the same function by a fitted σ and calls δ epsilon.
	Huber
	// EpsInsensitive: max(0, |r| − ε) with ε = param (≥ 0), support vector
	// regression's loss: residuals inside the ε-tube cost nothing.
	EpsInsensitive
)

var lossNames = [...]string{"squared", "absolute", "huber", "eps-insensitive"}

// String returns "squared", "absolute", "huber" or "eps-insensitive".
func (l Loss) String() string {
	if l < 0 || int(l) >= len(lossNames) {
		return fmt.Sprintf("Loss(%d)", int(l))
	}
	return lossNames[l]
}

// Value is ℓ(r) with parameter param (δ for Huber, ε for EpsInsensitive,
// ignored otherwise); NaN for an unknown Loss.
func (l Loss) Value(r, param float64) float64 {
	a := math.Abs(r)
	switch l {
	case Squared:
		return r * r
	case Absolute:
		return a
	case Huber:
		if a <= param {
			return r * r / 2
		}
		return param * (a - param/2)
	case EpsInsensitive:
		return math.Max(0, a-param)
	}
	return math.NaN()
}

// check validates param for l.
func (l Loss) check(param float64) error {
	switch l {
	case Squared, Absolute:
		return nil
	case Huber:
		if !(param > 0) || math.IsInf(param, 0) {
			return fmt.Errorf("%w: Huber's δ is %v; it must be a finite number > 0", ErrParameters, param)
		}
		return nil
	case EpsInsensitive:
		if !(param >= 0) || math.IsInf(param, 0) {
			return fmt.Errorf("%w: the tube width ε is %v; it must be a finite number ≥ 0", ErrParameters, param)
		}
		return nil
	}
	return fmt.Errorf("%w: unknown loss %v; use Squared, Absolute, Huber or EpsInsensitive", ErrParameters, l)
}

// lineLoss is (1/n) Σ ℓ(w·xᵢ + b − yᵢ).
func lineLoss(x, y []float64, l Loss, param, w, b float64) float64 {
	var s float64
	for i, xi := range x {
		s += l.Value(float64(w*xi)+b-y[i], param)
	}
	return s / float64(len(x))
}
