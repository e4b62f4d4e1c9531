package svmfit

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// polyRounding is 1/ε for float64 (2⁵²): once γ⟨x, x⟩ exceeds coef0 by
// this factor, γ⟨x, z⟩ + coef0 rounds to γ⟨x, z⟩ and the polynomial
// kernel's lower-degree monomials (coef0 > 0 is what keeps them) are lost.
const polyRounding = 1 << 52

// kernelOverflow refuses, as a 422, a polynomial kernel whose values lose
// the data to rounding before the solver starts: with coef0 > 0 and
// γ·max‖xᵢ‖² > 2⁵²·coef0, K(x, z) = (γ⟨x, z⟩ + coef0)^p keeps only the
// top-degree term, so distinct points (x and −x for an even degree) get
// equal kernel rows, ‖φ(x) − φ(z)‖² = K(x,x) + K(z,z) − 2K(x,z) rounds to
// 0, and the solver answers "converged" for a problem it never saw
// (issue 18: degree 10, γ = 1e12, x = ±1e6 gave gap −2). A kernel value
// that is ±Inf or NaN is svm.New's ErrNotFinite (also a 422).
func kernelOverflow(k svm.Kernel, x [][]float64) error {
	if k.Kind != svm.Poly || k.Coef0 == 0 {
		return nil
	}
	most := 0.0
	for _, r := range x {
		s := 0.0
		for _, v := range r {
			s += v * v
		}
		most = max(most, s)
	}
	if k.Gamma*most <= polyRounding*k.Coef0 {
		return nil
	}
	return fmt.Errorf("%w: the %s kernel loses the data to rounding: γ·max‖xᵢ‖² = %.3g is more than 2⁵² times coef0 = %g, so γ⟨x, z⟩ + coef0 rounds to γ⟨x, z⟩ and distinct points get the same kernel values; lower params.gamma to at most %.3g, or rescale x to smaller numbers, or raise params.coef0",
		fitreq.ErrUnprocessable, k, k.Gamma*most, k.Coef0, polyRounding*k.Coef0/most)
}
