package logistic

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// The logistic topic's conventions (demo.Conventions), as
// internal/algos/logistic computes: labels ±1 for the binary loss, classes
// 0…k−1 for softmax, b never penalised, no scaling.

// gradStop is both solvers' stopping rule.
func gradStop(what string) func(demo.State) string {
	return func(demo.State) string {
		return fmt.Sprintf("when ‖∇J‖ < %s (converged), or when a step leaves float64's range (diverged); %s; the demo shows at most %s steps",
			textfmt.Sig(logistic.Tol), what, textfmt.Num(demo.MaxStep))
	}
}

func logisticConventions() *demo.Conventions {
	return &demo.Conventions{
		Objective: func(s demo.State, n int) string {
			how := fmt.Sprintf("by gradient descent with η = %s", textfmt.Sig(logisticEta.Get(s)))
			if !usesGD(s) {
				how = "by Newton's method with a backtracking line search"
			}
			return fmt.Sprintf("J(w, b) = (1/n) Σᵢ log(1 + e^(−yᵢ(⟨w, xᵢ⟩ + b))) + (λ/2)‖w‖² with λ = %s, n = %d, %s",
				textfmt.Sig(logisticLambda.Get(s)), n, how)
		},
		Fills: []demo.Declarer{logisticLambda, logisticEta},
		Bias:  demo.BiasSeparate, Penalty: demo.BiasFree, Labels: demo.LabelsSigned,
		Stop: func(s demo.State) string {
			if usesGD(s) {
				return gradStop("from w = 0, b = 0")(s)
			}
			return gradStop("or when no step of the line search lowers J (the gradient is down to its rounding error); from w = 0, b = 0")(s)
		},
	}
}

func softmaxConventions() *demo.Conventions {
	return &demo.Conventions{
		Objective: func(s demo.State, n int) string {
			return fmt.Sprintf("J(W, b) = −(1/n) Σᵢ log P(yᵢ | xᵢ) + (λ/2)‖W‖², P(c | x) = e^(⟨w_c, x⟩ + b_c)/Σₖ e^(⟨w_k, x⟩ + b_k), with λ = %s, n = %d, by gradient descent with η = %s",
				textfmt.Sig(demo.Lambda.Get(s)), n, textfmt.Sig(eta.Get(s)))
		},
		Fills: []demo.Declarer{demo.Lambda, eta},
		Bias:  demo.BiasSeparate, Penalty: demo.BiasFree, Labels: demo.LabelsClasses,
		Stop: gradStop("from W = 0, b = 0"),
	}
}
