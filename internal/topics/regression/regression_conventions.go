package regression

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// The regression lesson's conventions (demo.Conventions), as
// internal/algos/linreg computes: the intercept b apart and unpenalised
// (the ridge demo's padded weights excepted), nothing scaled.

// polyConventions are the polynomial fits' (interpolation, bias-variance):
// linreg.Fit on the features Poly(x, p), centring to find b.
func polyConventions(deg demo.Int) *demo.Conventions {
	return &demo.Conventions{
		Objective: func(s demo.State, n int) string {
			return fmt.Sprintf("(1/n) Σᵢ (⟨w, φ(xᵢ)⟩ + b − yᵢ)² + λ‖w‖² with λ = %s, n = %d, degree p = %d, solved exactly (QR and SVD)",
				textfmt.Sig(ridgeLambda.Get(s)), n, deg.Get(s))
		},
		Fills: []demo.Declarer{ridgeLambda, deg},
		Bias:  demo.BiasSeparate, Penalty: demo.BiasFree,
		Scaling: demo.CentredForIntercept,
		ScalingNote: func(s demo.State) string {
			return fmt.Sprintf("features φ(x) = (x, x², …, xᵖ) of the raw x, p = %d", deg.Get(s))
		},
		Labels: demo.LabelsReal,
	}
}

func ridgeConventions() *demo.Conventions {
	return &demo.Conventions{
		Objective: func(s demo.State, n int) string {
			return fmt.Sprintf("(1/n) Σᵢ (⟨w, xᵢ⟩ − yᵢ)² + λ‖w‖² on the n = 2 padded points x₁ = (0, 1), x₂ = (ε, 1), y = (1, −1), with λ = %s, ε = %s, solved exactly",
				textfmt.Sig(ridgeBoth.Get(s)), textfmt.Sig(ridgeEps.Get(s)))
		},
		Fills: []demo.Declarer{ridgeBoth, ridgeEps},
		Bias:  demo.BiasAugmented, Penalty: demo.BiasPenalised, // Def. 1.3.4 penalises both padded weights
		Labels: demo.LabelsReal,
	}
}

func regLossesConventions() *demo.Conventions {
	return &demo.Conventions{
		Objective: func(s demo.State, n int) string {
			return fmt.Sprintf("(1/n) Σᵢ ℓ(w·xᵢ + b − yᵢ) over n = %s, one line for each ℓ: squared, absolute, Huber with δ = %s, ε-insensitive with ε = %s. "+
				"Squared is solved exactly (least squares, by QR and SVD); the other three by a golden-section search on the slope w with the best b "+
				"for each w exact (a median for absolute and ε-insensitive, the root of the score equation for Huber), to about 10⁻⁹ relative, "+
				"and Huber's line is then solved exactly from the optimality conditions of its split. Where several lines tie (absolute and "+
				"ε-insensitive can be flat at the bottom), the demo takes the slope the search settles on and the middle of that slope's best intercepts",
				textfmt.Plural(n, "points"), textfmt.Sig(huberDelta.Get(s)), textfmt.Sig(tubeEps.Get(s)))
		},
		Fills: []demo.Declarer{huberDelta, tubeEps},
		Bias:  demo.BiasSeparate, Penalty: demo.NoPenalty,
		Labels: demo.LabelsReal,
	}
}

func lsgdConventions() *demo.Conventions {
	return &demo.Conventions{
		Objective: func(s demo.State, n int) string {
			return fmt.Sprintf("J(w, b) = (1/n) Σᵢ (w·xᵢ + b − yᵢ)² + λw² with λ = %s, n = %d, by gradient descent with η = %s",
				textfmt.Sig(lsgdLambda.Get(s)), n, textfmt.Sig(lsgdEta.Get(s)))
		},
		Fills: []demo.Declarer{lsgdLambda, lsgdEta},
		Bias:  demo.BiasSeparate, Penalty: demo.BiasFree,
		Labels: demo.LabelsReal,
		Stop: func(s demo.State) string {
			return fmt.Sprintf("when ‖∇J‖ < 10⁻¹²·(1 + |J|) after a step that did not raise J, or when a step no longer moves (w, b), "+
				"or when the next iterate's J would pass the cap %s (diverged: the run ends on the last iterate under it); the demo shows at most %s steps",
				lsgdCap(s), textfmt.Num(demo.MaxStep))
		},
	}
}

func lassoConventions() *demo.Conventions {
	return &demo.Conventions{
		Objective: func(s demo.State, _ int) string {
			return fmt.Sprintf("J(w, b) = (1/2n) ‖y − Xw − b·1‖² + α‖w‖₁ with α = %s, n = %d, by cyclic coordinate descent",
				textfmt.Sig(lassoAlpha.Get(s)), lassoN.Get(s))
		},
		Fills: []demo.Declarer{lassoAlpha, lassoN},
		Bias:  demo.BiasSeparate, Penalty: demo.BiasFree,
		Scaling: demo.CentredForIntercept,
		Labels:  demo.LabelsReal,
		Stop: func(demo.State) string {
			return fmt.Sprintf("when a whole sweep moves no weight by more than %s·(1 + max|wⱼ|); the demo shows at most %s steps",
				textfmt.Sig(linreg.LassoTol), textfmt.Num(demo.MaxStep))
		},
	}
}

// lsgdCap states the cap linreg.GD puts on J, max(10¹⁰⁰, 10¹⁰·J(0, 0)),
// from linreg's own constants, with its value on s's data.
func lsgdCap(s demo.State) string {
	rule := fmt.Sprintf("max(%s, %s·J(0, 0))", power(linreg.DivergeFloor), power(linreg.DivergeFactor))
	pts, err := s.Points()
	if err != nil {
		return rule
	}
	_, xs, ys := graphXY(pts)
	g, s0, err := linreg.NewGD(linreg.PolyRows(xs, 1), ys, lsgdLambda.Get(s), lsgdEta.Get(s), true)
	if err != nil {
		return rule
	}
	return fmt.Sprintf("%s = %s, with J(0, 0) = %s", rule, power(g.Limit()), textfmt.Sig(s0.Objective))
}
