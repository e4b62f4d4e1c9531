package bigmath

import (
	"math"
	"math/big"
)

// Prec is the precision, in bits, of every value this package makes.
const Prec = 200

// New is x as a big.Float at Prec bits (exact: every float64 is).
func New(x float64) *big.Float { return new(big.Float).SetPrec(Prec).SetFloat64(x) }

// Int is n as a big.Float at Prec bits.
func Int(n int64) *big.Float { return new(big.Float).SetPrec(Prec).SetInt64(n) }

func z() *big.Float { return new(big.Float).SetPrec(Prec) }

// Add, Sub, Mul and Quo return a op b at Prec bits, leaving a and b alone.
func Add(a, b *big.Float) *big.Float { return z().Add(a, b) }
func Sub(a, b *big.Float) *big.Float { return z().Sub(a, b) }
func Mul(a, b *big.Float) *big.Float { return z().Mul(a, b) }
func Quo(a, b *big.Float) *big.Float { return z().Quo(a, b) }

// Neg is −a.
func Neg(a *big.Float) *big.Float { return z().Neg(a) }

// Sqrt is √a for a ≥ 0.
func Sqrt(a *big.Float) *big.Float { return z().Sqrt(a) }

// Float64 rounds a to the nearest float64.
func Float64(a *big.Float) float64 { f, _ := a.Float64(); return f }

// eps is 2^−(Prec+8): where a series stops.
var eps = new(big.Float).SetPrec(Prec).SetMantExp(big.NewFloat(1), -(Prec + 8))

// ln2 is log 2 = 2 atanh(1/3), to Prec bits.
var ln2 = Mul(Int(2), atanh(Quo(Int(1), Int(3))))

// atanh is Σ x^(2k+1)/(2k+1) for |x| < 1 (converges fast for |x| ≤ 1/3).
func atanh(x *big.Float) *big.Float {
	sum, term, x2 := z().Set(x), z().Set(x), Mul(x, x)
	for k := int64(1); ; k++ {
		term.Mul(term, x2)
		t := Quo(term, Int(2*k+1))
		sum.Add(sum, t)
		if t.Sign() == 0 || z().Abs(t).Cmp(eps) < 0 {
			return sum
		}
	}
}

// Exp is e^x. It reduces x = k·log 2 + r with |r| ≤ log 2 / 2, then
// r/2^16, sums the Taylor series, and squares back. Below −10⁹, e^x is
// past big.Float's exponent range and Exp returns 0; above 10⁹ it
// panics (far past any float64 argument a test replays).
func Exp(x *big.Float) *big.Float {
	xf, _ := x.Float64()
	if xf < -1e9 {
		return Int(0)
	}
	if xf > 1e9 {
		panic("bigmath: Exp argument out of range")
	}
	k := math.Round(xf / math.Ln2)
	r := Sub(x, Mul(Int(int64(k)), ln2))
	const halvings = 16
	r.SetMantExp(r, -halvings)
	sum, term := Int(1), Int(1)
	for n := int64(1); ; n++ {
		term = Quo(Mul(term, r), Int(n))
		sum.Add(sum, term)
		if term.Sign() == 0 || z().Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	for range halvings {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}

// Log is log x for x > 0: x = m·2^e with m in [1/√2, √2), then
// log m = 2 atanh((m−1)/(m+1)).
func Log(x *big.Float) *big.Float {
	if x.Sign() <= 0 {
		panic("bigmath: Log of a number ≤ 0")
	}
	m := z()
	e := x.MantExp(m) // x = m·2^e, m in [0.5, 1)
	if m.Cmp(New(math.Sqrt2/2)) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	t := Quo(Sub(m, Int(1)), Add(m, Int(1)))
	return Add(Mul(Int(2), atanh(t)), Mul(Int(int64(e)), ln2))
}

// Log1pExp is log(1 + e^x), the logistic loss's softplus, to Prec bits
// relative over the whole range: x + log(1 + e^−x) for x > 0 (so a huge
// x costs no huge e^x), and for x < −2 the series Σ (−1)^(k+1) aᵏ/k in
// a = e^x, since 1 + e^x rounded to Prec bits keeps none of e^x's digits
// once e^x < 2^−Prec.
func Log1pExp(x *big.Float) *big.Float {
	if x.Sign() > 0 {
		return Add(x, Log1pExp(Neg(x)))
	}
	if xf, _ := x.Float64(); xf > -2 {
		return Log(Add(Int(1), Exp(x)))
	}
	a := Exp(x)
	if a.Sign() == 0 {
		return Int(0)
	}
	sum, pow := Int(0), Int(1)
	for k := int64(1); ; k++ {
		pow = Mul(pow, a)
		term := Quo(pow, Int(k))
		if k%2 == 0 {
			term = Neg(term)
		}
		sum = Add(sum, term)
		if z().Abs(term).Cmp(Mul(eps, z().Abs(sum))) < 0 {
			return sum
		}
	}
}

// Sigmoid is 1/(1 + e^−x), as e^x/(1 + e^x) for x < 0, so neither side
// needs an e^x of a huge argument.
func Sigmoid(x *big.Float) *big.Float {
	if x.Sign() >= 0 {
		return Quo(Int(1), Add(Int(1), Exp(Neg(x))))
	}
	e := Exp(x)
	return Quo(e, Add(Int(1), e))
}
