package perceptron

import (
	"context"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
)

// MarginBound holds the quantities of the convergence theorem (Thm 1.2.8)
// for a two-class data set. The theorem is stated for the augmented points
// x̃ = (x, 1) and a unit vector w̃* = (w*, b*), which is how a perceptron
// that learns a bias must be analysed: C = maxᵢ ‖x̃ᵢ‖ and
// γ = minᵢ yᵢ⟨x̃ᵢ, w̃*⟩. The perceptron then makes at most C²/γ² mistakes.
type MarginBound struct {
	// Separable reports that some w̃ has yᵢ⟨x̃ᵢ, w̃⟩ > 0 for every i, as
	// decided exactly by the SVM package's linear program (Farkas'
	// lemma), not by whether a solver reached a separator.
	Separable bool
	// Solved reports that the question is settled: the data are not
	// separable, or SMO converged to the max-margin w̃*. Separable true
	// and Solved false means the margin is too thin for the solver's
	// budget; then W, B and Gamma describe the separator reached, if it
	// separates, and are zero otherwise.
	Solved   bool
	W        []float64 // w* of the max-margin separator in augmented space, with ‖(w*, b*)‖ = 1
	B        float64   // b*
	Gamma    float64   // γ achieved by (w*, b*); 0 when not separable
	C        float64   // maxᵢ ‖(xᵢ, 1)‖
	Mistakes float64   // C²/γ²; +Inf when not separable
}

// boundTol is the SMO stopping gap of Bound: γ comes out within about
// this relative error of the true margin, far below what the page shows.
const boundTol = 1e-9

// boundIter is Bound's SMO budget; the demo's sets converge in hundreds.
const boundIter = 200000

// Bound finds the max-margin separator through the origin of the
// augmented points, min ½‖w̃‖² s.t. yᵢ⟨x̃ᵢ, w̃⟩ ≥ 1, and reports γ, C and
// C²/γ². That is the hard-margin SVM without intercept on x̃, which the
// svm package solves by SMO on svm.Mirror's points (a bias there is 0 at
// the optimum), after deciding separability with its linear program. γ is
// measured from the separator found, so the bound it gives is valid even
// when SMO stops before the optimum, at its budget or because ctx ended
// (Solved is then false). y holds ±1; other labels, or no
// points, give a zero MarginBound with Mistakes +Inf.
func Bound(ctx context.Context, x [][]float64, y []int) MarginBound {
	mb := MarginBound{Mistakes: math.Inf(1)}
	if len(x) == 0 {
		return mb
	}
	aug := make([][]float64, len(x))
	var c2 float64
	for i, row := range x {
		aug[i] = append(append(make([]float64, 0, len(row)+1), row...), 1)
		c2 = math.Max(c2, floats.Dot(aug[i], aug[i]))
	}
	mb.C = math.Sqrt(c2)
	mx, my := svm.Mirror(aug, y)
	p := svm.DefaultParams()
	p.Hard, p.Tol, p.MaxIter = true, boundTol, boundIter
	pr, s, err := svm.New(mx, my, p)
	if err != nil {
		return mb
	}
	if s.Status == algos.Infeasible {
		mb.Solved = true
		return mb
	}
	mb.Separable = true
	if s, err = pr.Solve(ctx); err != nil {
		return mb
	}
	mb.Solved = s.Status == algos.Converged
	v := pr.Weights(s)
	norm := floats.Norm(v, 2)
	if norm == 0 {
		return mb
	}
	gamma := math.Inf(1)
	for i := range aug {
		gamma = math.Min(gamma, float64(y[i])*floats.Dot(v, aug[i])/norm)
	}
	if !(gamma > 0) {
		return mb
	}
	dim := len(v) - 1
	mb.Gamma = gamma
	mb.W = make([]float64, dim)
	for j := range mb.W {
		mb.W[j] = v[j] / norm
	}
	mb.B = v[dim] / norm
	mb.Mistakes = c2 / (gamma * gamma)
	return mb
}
