package perceptron

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// MarginBound holds the quantities of the convergence theorem (Thm 1.2.8)
// for a two-class data set. The theorem is stated for the augmented points
// x̃ = (x, 1) and a unit vector w̃* = (w*, b*), which is how a perceptron
// that learns a bias must be analysed: C = maxᵢ ‖x̃ᵢ‖ and
// γ = minᵢ yᵢ⟨x̃ᵢ, w̃*⟩. The perceptron then makes at most C²/γ² mistakes.
type MarginBound struct {
	Separable bool // a separating (w*, b*) was found
	// Solved reports that the ascent reached the optimum, which proves
	// the points separable. When it stops at its sweep budget without a
	// separator, the data are likely not separable, but a very thin
	// margin can also need more sweeps: Separable false and Solved false
	// mean "none found", not "none exists".
	Solved   bool
	W        []float64 // w* of the max-margin separator in augmented space, with ‖(w*, b*)‖ = 1
	B        float64   // b*
	Gamma    float64   // γ achieved by (w*, b*); 0 when not separable
	C        float64   // maxᵢ ‖(xᵢ, 1)‖
	Mistakes float64   // C²/γ²; +Inf when not separable
}

// maxSweeps bounds the dual coordinate ascent; on separable data of a few
// hundred points it converges in far fewer.
const maxSweeps = 1000

// relax over-relaxes each coordinate step (successive over-relaxation,
// any value in (0, 2) converges); 1.5 needs about a third of the sweeps
// of plain coordinate ascent on the demo's data sets.
const relax = 1.5

// Bound finds the max-margin separator through the origin of the
// augmented points by coordinate ascent on the dual of
// min ½‖w̃‖² s.t. yᵢ⟨x̃ᵢ, w̃⟩ ≥ 1 (Hildreth's method), and reports γ, C and
// C²/γ². γ is measured from the separator found, so the bound it gives is
// valid even when the ascent stops before the optimum. y holds ±1.
func Bound(x [][]float64, y []int) MarginBound {
	n := len(x)
	if n == 0 {
		return MarginBound{Mistakes: math.Inf(1)}
	}
	dim := len(x[0]) + 1
	aug := make([][]float64, n)
	sq := make([]float64, n)
	var c2 float64
	for i, row := range x {
		aug[i] = append(append(make([]float64, 0, dim), row...), 1)
		sq[i] = floats.Dot(aug[i], aug[i])
		c2 = math.Max(c2, sq[i])
	}
	alpha := make([]float64, n)
	v := make([]float64, dim)
	solved := false
	for sweep := 0; sweep < maxSweeps; sweep++ {
		// worst is the largest coordinate move of the sweep, scaled to the
		// constraint: zero exactly at the optimum (every αᵢ > 0 has
		// yᵢ⟨x̃ᵢ, w̃⟩ = 1, every αᵢ = 0 has it ≥ 1).
		worst := 0.0
		for i := range aug {
			yi := float64(y[i])
			g := 1 - yi*floats.Dot(v, aug[i])
			a := math.Max(0, alpha[i]+relax*g/sq[i])
			if d := a - alpha[i]; d != 0 {
				floats.AddScaled(v, d*yi, aug[i])
				alpha[i] = a
				worst = math.Max(worst, math.Abs(d)*sq[i])
			}
		}
		if worst < 1e-9 {
			solved = true
			break
		}
	}
	mb := MarginBound{C: math.Sqrt(c2), Mistakes: math.Inf(1), Solved: solved}
	norm := math.Sqrt(floats.Dot(v, v))
	if norm == 0 {
		return mb
	}
	gamma := math.Inf(1)
	for i := range aug {
		gamma = math.Min(gamma, float64(y[i])*floats.Dot(v, aug[i])/norm)
	}
	if gamma <= 0 {
		return mb
	}
	mb.Separable = true
	mb.Gamma = gamma
	mb.W = make([]float64, dim-1)
	for j := range mb.W {
		mb.W[j] = v[j] / norm
	}
	mb.B = v[dim-1] / norm
	mb.Mistakes = c2 / (gamma * gamma)
	return mb
}
