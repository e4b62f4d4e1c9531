package regression

import (
	"math"

	"github.com/margin-edu/margin/internal/algos/linreg"
)

// How far float64 rounding can move what a question turns on, so a
// question whose answer it could decide is not asked (demo.NoQuestion):
// generous bounds, tested against an exact replay in big.Rat
// (TestPredictExactReplay).

// eps64 is float64's unit roundoff, 2⁻⁵³.
const eps64 = 0x1p-53

// jRounding bounds the error of J as linreg.GD computes it at (w, b):
// each residual rᵢ = wxᵢ + b − yᵢ is off by three ulps of its largest
// term tᵢ, so rᵢ² by 6ε·tᵢ|rᵢ|, and the mean of the squares by n more
// ulps of itself: (n + 8)ε·(1/n)Σ(2tᵢ|rᵢ| + rᵢ²) covers both.
func jRounding(x [][]float64, y []float64, lambda float64, w []float64, b float64) float64 {
	n := float64(len(y))
	var s float64
	for i, row := range x {
		t, r := math.Abs(b)+math.Abs(y[i]), b-y[i]
		for j, v := range row {
			t += math.Abs(w[j] * v)
			r += w[j] * v
		}
		s += (2*t*math.Abs(r) + r*r) / n
	}
	for _, v := range w {
		s += lambda * v * v
	}
	return (n + 8) * eps64 * s
}

// lsgdRounding bounds how far rounding can move J(next) − J(s) from the
// change of J between s and the exact step from s: both objectives'
// rounding, and what the rounding of the step itself (a few ulps of θ
// and of η∇J) changes J by, to first order through ∇J at next and to
// second through L.
func lsgdRounding(g *linreg.GD, s, next linreg.GDState) float64 {
	d := 0.0
	for j := range s.W {
		d += math.Abs(s.W[j]) + math.Abs(next.W[j]) + math.Abs(g.Eta*s.GradW[j])
	}
	d += math.Abs(s.B) + math.Abs(next.B) + math.Abs(g.Eta*s.GradB)
	d *= 4 * eps64
	return 4 * (jRounding(g.X, g.Y, g.Lambda, s.W, s.B) + jRounding(g.X, g.Y, g.Lambda, next.W, next.B) + next.GradNorm*d + g.L()*d*d)
}

// rhoRounding bounds how far ρⱼ as a lasso step computes it can lie from
// ρⱼ of the exact residual ỹ − X̃w at the state's w: the residual the run
// carries drifts by a few ulps per step of its terms' size, far below
// 10⁻⁹ of it over the MaxStep steps a run shows.
func rhoRounding(l *linreg.Lasso, w []float64, j int) float64 {
	xc, yc := l.Centred()
	n := float64(len(yc))
	var s float64
	for i, row := range xc {
		t := math.Abs(yc[i])
		for k, v := range row {
			t += math.Abs(v * w[k])
		}
		s += math.Abs(row[j]) * t / n
	}
	return 1e-9 * (l.Alpha + s)
}
