package gd

import (
	"fmt"
	"strconv"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// The gradient descent lesson's conventions (demo.Conventions), as
// internal/algos/gd computes its objectives and stops its runs.

func gdConventions() *demo.Conventions {
	return &demo.Conventions{
		Objective: func(s demo.State, _ int) string {
			var f string
			switch objChoice.Get(s) {
			case objQuadratic:
				f = fmt.Sprintf("f(x) = ½xᵀAx, A with eigenvalues 1 and κ = %s, its flat axis at θ = %s°", textfmt.Sig(kappa.Get(s)), textfmt.Sig(theta.Get(s)))
			case objLeastSq:
				f = fmt.Sprintf("f(w, b) = (1/n) Σᵢ (w·xᵢ + b − yᵢ)² on n = %d fixed points", gdRows)
			case objLogistic:
				f = fmt.Sprintf("f(w, b) = (1/n) Σᵢ log(1 + e^(−yᵢ(w·xᵢ + b))) + (λ/2)w² with λ = %s, labels yᵢ = ±1, on n = %d fixed points", textfmt.Sig(gdLogisticLambda), gdRows)
			default:
				f = "f(x) = (x₁² − 1)² + x₂²"
			}
			if isNewton(s) {
				return f + ", by Newton's method"
			}
			how := fmt.Sprintf(", by gradient descent with t = %s (%s)", textfmt.Sig(stepSize.Get(s)), schedule.Get(s))
			if canBatch(s) && batch.Get(s) < gdRows {
				how += fmt.Sprintf(" on mini-batches of %d of the %d rows", batch.Get(s), gdRows)
			}
			return f + how
		},
		Fills: []demo.Declarer{kappa, theta, stepSize, batch},
		BiasFor: func(s demo.State) (demo.BiasKind, demo.Penalty) {
			switch objChoice.Get(s) {
			case objLeastSq:
				return demo.BiasSeparate, demo.NoPenalty
			case objLogistic:
				return demo.BiasSeparate, demo.BiasFree
			}
			return demo.BiasNone, demo.NoPenalty
		},
		Seed: batchSeed, SeedUse: "the rows each mini-batch draws",
		Stop: func(s demo.State) string {
			budget := "the demo shows at most " + textfmt.Num(demo.MaxStep) + " steps"
			if isWarmup(s) {
				budget = "the schedule ends after T = " + strconv.Itoa(runLen.Get(s)) + " steps"
			}
			return fmt.Sprintf("when ‖∇f‖ < %s; at step k when step k + 1 would take |f| or a coordinate past the demo's cap of %s (diverged), "+
				"or, for Newton's method, would not move x (stalled); %s", textfmt.Sig(gdTol), capText(), budget)
		},
	}
}

func lossGalleryConventions() *demo.Conventions {
	return &demo.Conventions{
		Procedure: func(demo.State) string {
			return "nothing is minimised: the chart draws each loss ℓ(z) of the score z = y·ŷ, with the tangent at z = 0"
		},
		Bias: demo.BiasNotApplicable, Labels: demo.LabelsSigned,
	}
}
