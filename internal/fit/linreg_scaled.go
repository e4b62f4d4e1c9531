package fit

import (
	"fmt"
	"math"
	"slices"

	"github.com/margin-edu/margin/internal/algos/linreg"
)

// Bounds of the numbers the exact solver takes as they are: a column of
// x, or y, whose largest magnitude lies outside [2^-linRegScaleExp,
// 2^linRegScaleExp] is scaled by a power of two into [½, 1) first.
const linRegScaleExp = 100

// pow2Scale returns e such that 2^e·m lies in [½, 1), or 0 when m is 0
// or within [2^-linRegScaleExp, 2^linRegScaleExp], where no scaling is
// needed and none is done (so ordinary data are solved bit for bit as
// linreg.Fit solves them).
func pow2Scale(m float64) int {
	if m == 0 || (m >= 0x1p-100 && m <= 0x1p100) {
		return 0
	}
	_, e := math.Frexp(m)
	return -e
}

// fitExactScaled solves the exact problem in a scaled space, so that
// data whose squares leave float64's range (x ≈ 1e-200, where w ≈ 1e200
// is finite; y ≈ 1e200) still get their finite answer. Scaling by powers
// of two is exact. Without ridge (λ = 0) each column j of x is multiplied
// by 2^cⱼ and y by 2^e_y, which maps the solution to
// wⱼ' = wⱼ·2^(e_y − cⱼ), b' = b·2^e_y and the objective to J·4^e_y; with
// λ > 0 the columns share one factor 2^c, which keeps the problem a ridge
// problem with λ' = λ·4^c (unless λ' leaves float64's range; then x is
// not scaled). The answer is mapped back; a weight, intercept or
// objective that is beyond float64 even so is a 422 that says which way
// to rescale.
func fitExactScaled(req Request, s linRegSetup, resp *LinearRegressionResponse) error {
	n, d := len(req.X), len(req.X[0])
	col := make([]int, d)
	for j := range d {
		var m float64
		for _, row := range req.X {
			m = max(m, math.Abs(row[j]))
		}
		col[j] = pow2Scale(m)
	}
	lambda := s.lambda
	if lambda > 0 {
		var m float64
		for _, row := range req.X {
			m = max(m, maxAbs(row))
		}
		c := pow2Scale(m)
		if l := math.Ldexp(lambda, 2*c); l == 0 || math.IsInf(l, 0) {
			c = 0
		} else {
			lambda = l
		}
		for j := range col {
			col[j] = c
		}
	}
	ey := pow2Scale(maxAbs(req.Y))
	x, y := req.X, req.Y
	if ey != 0 || slices.ContainsFunc(col, func(c int) bool { return c != 0 }) {
		x = make([][]float64, n)
		for i, row := range req.X {
			x[i] = make([]float64, d)
			for j, v := range row {
				x[i][j] = math.Ldexp(v, col[j])
			}
		}
		y = make([]float64, n)
		for i, v := range req.Y {
			y[i] = math.Ldexp(v, ey)
		}
	}
	m, err := linreg.Fit(x, y, lambda, s.intercept)
	if err != nil {
		return err
	}
	obj := linreg.Objective(x, y, m, lambda)
	resp.W = make([]float64, d)
	for j, w := range m.W {
		resp.W[j] = math.Ldexp(w, col[j]-ey)
		if math.IsInf(resp.W[j], 0) {
			return fmt.Errorf("%w: the fitted weight w[%d] is about %s, beyond float64's range: column %d of x is tiny next to y (its largest |x| is %.3g, y's is %.3g); multiply that column by a large factor such as 1e100, or divide y by one", ErrUnprocessable, j, pow10(w, col[j]-ey), j, colMax(req.X, j), maxAbs(req.Y))
		}
	}
	resp.B = math.Ldexp(m.B, -ey)
	resp.Objective = math.Ldexp(obj, -2*ey)
	if math.IsInf(resp.B, 0) || math.IsInf(resp.Objective, 0) {
		return fmt.Errorf("%w: the fitted intercept or the objective (1/n)Σ(w·x + b − y)² + λ‖w‖² is beyond float64's range: y is too large; divide y by a large factor such as 1e100", ErrUnprocessable)
	}
	// The scores too, so that a weight that underflows to 0 (x ≈ 1e200,
	// y ≈ 1e-200) still counts in w·x + b.
	resp.Scores = make([]float64, len(req.Predict))
	q := make([]float64, d)
	for i, row := range req.Predict {
		for j, v := range row {
			q[j] = math.Ldexp(v, col[j])
		}
		resp.Scores[i] = math.Ldexp(m.Predict(q), -ey)
		if math.IsInf(resp.Scores[i], 0) || math.IsNaN(resp.Scores[i]) {
			return fmt.Errorf("%w: the score w·x + b of predict[%d] is beyond float64's range: that row is far larger than the rows of x; send predict rows of x's scale, or divide x and predict by the same large factor", ErrUnprocessable, i)
		}
	}
	return nil
}

// colMax is the largest |x[i][j]|.
func colMax(x [][]float64, j int) float64 {
	var m float64
	for _, row := range x {
		m = max(m, math.Abs(row[j]))
	}
	return m
}

// pow10 writes v·2^e, which may be beyond float64, as "1.2e+350".
func pow10(v float64, e int) string {
	if v == 0 {
		return "0"
	}
	l := math.Log10(math.Abs(v)) + float64(e)*math.Log10(2)
	p := math.Floor(l)
	return fmt.Sprintf("%.2ge%+d", math.Copysign(math.Pow(10, l-p), v), int(p))
}
