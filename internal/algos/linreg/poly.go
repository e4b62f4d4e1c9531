package linreg

// Poly maps a scalar to its monomials (x, x², …, x^p): the features of a
// degree-p polynomial fit, without the constant 1 (the intercept is
// separate). p = 0, or a negative p, gives an empty slice: the constant
// model. Powers are repeated products, so Poly(x, p)[k] is bit for bit
// the same for every p > k.
func Poly(x float64, p int) []float64 {
	out := make([]float64, max(p, 0))
	v := 1.0
	for k := range out {
		v *= x
		out[k] = v
	}
	return out
}

// PolyRows is Poly applied to each of xs: the n×p design of a
// polynomial fit.
func PolyRows(xs []float64, p int) [][]float64 {
	rows := make([][]float64, len(xs))
	for i, x := range xs {
		rows[i] = Poly(x, p)
	}
	return rows
}
