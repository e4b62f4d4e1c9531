package svm

import (
	"fmt"
	"strconv"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// The SVM demos' conventions (demo.Conventions): what each minimises with
// the state's numbers, checked against internal/algos/svm and primal.

// smoConventions are SMO's on the hard (C = ∞) or soft margin; kernel
// adds the kernel to the soft margin's.
func smoConventions(hard, kernel bool) *demo.Conventions {
	c := &demo.Conventions{
		Bias: demo.BiasSeparate, Penalty: demo.BiasFree, Labels: demo.LabelsSigned,
		Stop: smoStop, Tolerance: smoTol,
	}
	if hard {
		c.Stop = func(s demo.State) string {
			return "at once, infeasible, when a linear program finds the data not separable; else " + smoStop(s)
		}
		c.Objective = func(s demo.State, n int) string {
			return fmt.Sprintf("½‖w‖² subject to yᵢ(⟨w, xᵢ⟩ + b) ≥ 1 for all n = %d points, by SMO on its dual "+
				"min D(α) = ½ΣᵢΣⱼ αᵢαⱼyᵢyⱼ⟨xᵢ, xⱼ⟩ − Σαᵢ, αᵢ ≥ 0, Σαᵢyᵢ = 0 (the notes' sign; the DS 503 slides maximise L_D = −D)", n)
		}
		return c
	}
	c.Fills = []demo.Declarer{boxC}
	c.Objective = func(s demo.State, n int) string {
		x, k, kw := "xᵢ", "⟨xᵢ, xⱼ⟩", ""
		if kernel {
			x, k, kw = "φ(xᵢ)", "k(xᵢ, xⱼ)", "; "+kernelWords(s)
		}
		return fmt.Sprintf("½‖w‖² + C Σᵢ max(0, 1 − yᵢ(⟨w, %s⟩ + b)) with C = %s, n = %d, by SMO on its dual "+
			"min D(α) = ½ΣᵢΣⱼ αᵢαⱼyᵢyⱼ%s − Σαᵢ, 0 ≤ αᵢ ≤ C, Σαᵢyᵢ = 0 (the notes' sign; the DS 503 slides maximise L_D = −D)%s", x, textfmt.Sig(boxC.Get(s)), n, k, kw)
	}
	return c
}

// smoStop is SMO's stopping rule with the state's ε.
func smoStop(s demo.State) string {
	tol, _ := strconv.ParseFloat(smoTol.Get(s), 64)
	return fmt.Sprintf("when the KKT gap m(α) − M(α) ≤ ε = %s (LIBSVM's -e), or after %s pair updates; the demo shows at most %s steps",
		textfmt.Sig(tol), textfmt.Num(svmMaxIter), textfmt.Num(demo.MaxStep))
}

// kernelWords names the kernel s selects with its numbers.
func kernelWords(s demo.State) string {
	out := kernelKind.Get(s) + " kernel"
	for _, p := range []demo.Param{kernelGamma.Param(), kernelDegree.Param(), kernelCoef0.Param()} {
		if s.Applies(p.Key) {
			out += ", " + kernelSymbol(p) + " = " + s.Value(p.Key)
		}
	}
	return out
}

// sgdConventions are svm-sgd's: Pegasos (augmented, regularised bias) or
// full-batch subgradient descent (separate, unregularised bias).
func sgdConventions() *demo.Conventions {
	return &demo.Conventions{
		Objective: func(s demo.State, n int) string {
			if pegasos(s) {
				return fmt.Sprintf("λ‖θ‖² + (1/n) Σᵢ max(0, 1 − yᵢ θ·x̃ᵢ) with λ = %s, n = %d (001's SGD procedure)",
					textfmt.Sig(demo.Lambda.Get(s)), n)
			}
			return fmt.Sprintf("½‖w‖² + C Σᵢ max(0, 1 − yᵢ(⟨w, xᵢ⟩ + b)) with C = %s, n = %d (eq. 1.6.a)", textfmt.Sig(subC.Get(s)), n)
		},
		Fills:  []demo.Declarer{demo.Lambda, subC},
		Labels: demo.LabelsSigned,
		Seed:   demo.Aseed, SeedUse: "the point each iteration samples",
		Stop: func(s demo.State) string {
			out := "after T = " + strconv.Itoa(demo.Iterations.Get(s)) + " iterations (no convergence test)"
			if subgradient(s) {
				out += ", or when a step leaves float64's range (diverged)"
			}
			return out
		},
		BiasFor: func(s demo.State) (demo.BiasKind, demo.Penalty) {
			if pegasos(s) {
				return demo.BiasAugmented, demo.BiasPenalised
			}
			return demo.BiasSeparate, demo.BiasFree
		},
	}
}

// kernelPegasosConventions are kernel Pegasos's: no bias at all.
func kernelPegasosConventions() *demo.Conventions {
	return &demo.Conventions{
		Objective: func(s demo.State, n int) string {
			return fmt.Sprintf("λ αᵀKα + (1/n) Σᵢ max(0, 1 − yᵢ(Kα)ᵢ) with λ = %s, n = %d; %s",
				textfmt.Sig(demo.Lambda.Get(s)), n, kernelWords(s))
		},
		Fills:  []demo.Declarer{demo.Lambda},
		Bias:   demo.BiasNone,
		Labels: demo.LabelsSigned,
		Seed:   demo.Aseed, SeedUse: "the point each iteration samples",
		Stop: func(s demo.State) string {
			return "after T = " + strconv.Itoa(demo.Iterations.Get(s)) + " iterations (no convergence test); the answer is the average ᾱ"
		},
	}
}

// gramConventions: a check, not a fit.
func gramConventions() *demo.Conventions {
	return &demo.Conventions{
		Procedure: func(s demo.State) string {
			return "nothing is minimised: the Gram matrix Kᵢⱼ = k(xᵢ, xⱼ) of the " + kernelFunctionWords(s) + " and its eigenvalues (Mercer's test)"
		},
		Bias: demo.BiasNotApplicable, Labels: demo.LabelsSigned,
	}
}

// kernelSymbol is how the model box names a kernel parameter.
func kernelSymbol(p demo.Param) string {
	if p.Key == kernelGamma.Key {
		return "γ"
	}
	return p.Key
}

// kernelFunctionWords names the Gram demo's function with its numbers.
func kernelFunctionWords(s demo.State) string {
	out := gramFunction.Get(s) + " function"
	for _, p := range []demo.Param{kernelGamma.Param(), kernelDegree.Param(), gramCoef0.Param()} {
		if s.Applies(p.Key) {
			out += ", " + kernelSymbol(p) + " = " + s.Value(p.Key)
		}
	}
	return out
}
