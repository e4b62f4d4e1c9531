package perceptron

import (
	"context"
	"math"
	"strconv"
	"testing"

	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"gonum.org/v1/gonum/floats"
)

// TestProsePerceptronClaims checks the numbers the perceptron lesson
// quotes from the states it links to: the margin γ and radius C of the
// 200 separable points with no gap, the bound C²/γ² they give, and the
// run's end; γ is also found apart from the demo's SMO, by dual
// coordinate ascent on the bias-free hard-margin problem of the
// augmented points, whose primal and dual values bracket it.
func TestProsePerceptronClaims(t *testing.T) {
	bound := func(t *testing.T, r *demo.Run) perceptron.MarginBound {
		x, y := demo.Columns(r.Points)
		labels := make([]int, len(y))
		for i, v := range y {
			labels[i] = int(v)
		}
		lo, hi := marginBracket(x, labels)
		mb := perceptron.Bound(context.Background(), x, labels)
		if mb.Gamma < lo*(1-1e-6) || mb.Gamma > hi*(1+1e-6) {
			t.Errorf("the demo's γ = %g is outside [%g, %g], where dual coordinate ascent puts it", mb.Gamma, lo, hi)
		}
		return mb
	}
	const sep = "data=separable&n=200&seed=2&sep=0&step=5600"
	demotest.CheckClaims(t, demotest.MustCourse(t, func() (*demo.Course, error) { return demo.NewCourse(Topic()) }), []demotest.Claim{
		{Slug: "perceptron", Query: sep, From: "</a> have", To: "(on the augmented", Want: func(t *testing.T, r *demo.Run) []float64 {
			mb := bound(t, r)
			return []float64{mb.Gamma, mb.C}
		}},
		{Slug: "perceptron", Query: sep, From: "allows up to", To: "mistakes;", Want: func(t *testing.T, r *demo.Run) []float64 {
			mb := bound(t, r)
			return []float64{mb.C * mb.C / (mb.Gamma * mb.Gamma)}
		}},
		{Slug: "perceptron", Query: sep, From: "the run converges at", To: "</p>", Want: func(t *testing.T, r *demo.Run) []float64 {
			p := r.Panel()
			ep, _ := strconv.Atoi(demotest.Counter(p, "epoch"))
			m, _ := strconv.Atoi(demotest.Counter(p, "mistakes"))
			if p.Status != "converged" {
				t.Errorf("status %q, want converged", p.Status)
			}
			return []float64{float64(r.Step), float64(ep), float64(m)}
		}},
	})
}

// marginBracket brackets the margin γ of the augmented points (xᵢ, 1):
// dual coordinate ascent on max Σα − ½‖Σ αᵢyᵢx̃ᵢ‖², α ≥ 0, whose
// optimum is 1/(2γ²), gives v = Σ αᵢyᵢx̃ᵢ; min yᵢ⟨v, x̃ᵢ⟩/‖v‖ is the
// margin of a separator (at most γ) and 1/√(2D(α)) is at least γ.
func marginBracket(x [][]float64, y []int) (lo, hi float64) {
	aug := make([][]float64, len(x))
	for i, row := range x {
		aug[i] = append(append([]float64{}, row...), 1)
	}
	alpha := make([]float64, len(x))
	v := make([]float64, len(aug[0]))
	for range 20000 {
		for i, a := range aug {
			yi := float64(y[i])
			na := floats.Dot(a, a)
			next := math.Max(0, alpha[i]+(1-yi*floats.Dot(v, a))/na)
			floats.AddScaled(v, (next-alpha[i])*yi, a)
			alpha[i] = next
		}
	}
	norm := floats.Norm(v, 2)
	lo = math.Inf(1)
	for i, a := range aug {
		lo = math.Min(lo, float64(y[i])*floats.Dot(v, a)/norm)
	}
	dual := floats.Sum(alpha) - 0.5*norm*norm
	return lo, 1 / math.Sqrt(2*dual)
}
