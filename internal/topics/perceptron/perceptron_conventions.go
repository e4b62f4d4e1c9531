package perceptron

import (
	"fmt"
	"strconv"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// perceptronConventions: the perceptron minimises no loss in the usual
// sense; it updates on mistakes (internal/algos/perceptron), with b a
// parameter of its own and nothing regularised.
func perceptronConventions() *demo.Conventions {
	return &demo.Conventions{
		Procedure: func(s demo.State) string {
			when, loss := "on a mistake, yᵢ(⟨w, xᵢ⟩ + b) ≤ 0", "max(0, −y(⟨w, x⟩ + b))"
			if variant.Is(s, "margin") {
				g := textfmt.Sig(gamma.Get(s))
				when = "on a mistake, yᵢ(⟨w, xᵢ⟩ + b) ≤ 0, or a margin violation, 0 < yᵢ(⟨w, xᵢ⟩ + b) ≤ γ = " + g
				loss = "max(0, " + g + " − y(⟨w, x⟩ + b))"
			}
			out := fmt.Sprintf("no loss is minimised in the usual sense: %s, w ← w + ηyᵢxᵢ and b ← b + ηyᵢ with η = %s "+
				"(stochastic subgradient descent on the loss %s)", when, textfmt.Sig(eta.Get(s)), loss)
			if variant.Is(s, "averaged") {
				out += "; the averaged perceptron answers with the average of every iterate"
			}
			return out
		},
		Bias: demo.BiasSeparate, Penalty: demo.NoPenalty, Labels: demo.LabelsSignedOrClasses,
		Seed: orderSeed, SeedUse: "the order points are visited, a fresh permutation each epoch",
		Stop: func(s demo.State) string {
			e := strconv.Itoa(epochs.Get(s))
			if stop.Is(s, "epochs") {
				return "after all " + e + " epochs, as Algorithm 7 (no test for convergence or a cycle)"
			}
			return "at the first epoch with no update (the data are separated), when an epoch starts from weights an earlier epoch " +
				"started from (a cycle: proof the data are not separable), or after " + e + " epochs"
		},
	}
}
