package svm

import (
	"fmt"
	"math"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/textfmt"
)

// Kernel demo limits docs/demos lists with the parameters.
const (
	MinKernelGamma = 1e-3 // γ runs over [MinKernelGamma, MaxKernelGamma] on a log slider
	MaxKernelGamma = 1e3
	MaxCoef0       = 10.0 // |coef0| of the polynomial and sigmoid functions
)

// kernelSets are the data sets of the kernel demos: two classes that no
// line separates, and the notes' XOR table.
var kernelSets = []demo.Option{{"circles", "circles (random)"}, {"moons", "two moons (random)"},
	{"xor-cloud", "xor (random)"}, {"checkerboard", "checkerboard (random)"}, {"xor", "xor (notes, 4 points)"}}

// kernelData is the data of the kernel demos, circles first.
func kernelData() demo.DataSpec {
	return demo.DataSpec{Labels: demo.ClassLabels, MaxClasses: 2, Default: "circles", Sets: kernelSets, Make: pointset.Points}
}

// kernelKinds are the kernels of the SVM demos; functions adds the two
// that are not kernels, for the Gram demo to show failing Mercer's test.
func kernelKinds(functions bool) []demo.Option {
	o := []demo.Option{{"linear", "linear ⟨x, z⟩"}, {"poly", "polynomial (coef0 + γ⟨x, z⟩)^degree"},
		{"rbf", "Gaussian exp(−γ‖x − z‖²)"}, {"laplace", "Laplace exp(−γ‖x − z‖)"}}
	if functions {
		o = append(o, demo.Option{"sigmoid", "tanh(γ⟨x, z⟩ + coef0): not a kernel"},
			demo.Option{"neg-sqdist", "−‖x − z‖²: not a kernel"})
	}
	return o
}

// The kernel and its numbers, declared once for every kernel demo. The
// Mercer demo declares copies that admit the two non-kernels, and a
// negative coef0 with them (which can break a polynomial kernel too);
// reads through either are alike, since they read by key.
var (
	kernelKind = demo.Choice{Key: "kernel", Label: "kernel", Doc: "kernel k(x, z)", Group: demo.GroupAlgo, Default: "rbf",
		Options: kernelKinds(false)}
	kernelGamma = demo.Float{Key: "gamma", Label: "γ (σ = 1/γ)", Doc: "kernel γ; the notes' Gaussian width is σ = 1/γ (log slider)",
		Group: demo.GroupAlgo, Default: 1, Min: MinKernelGamma, Max: MaxKernelGamma, Step: "any", Log: true,
		When: kernelIs("poly", "rbf", "laplace", "sigmoid")}
	kernelDegree = demo.Int{Key: "degree", Label: "degree", Doc: "polynomial degree", Group: demo.GroupAlgo, Default: 2,
		Min: 1, Max: svm.MaxDegree, When: kernelIs("poly")}
	kernelCoef0 = demo.Float{Key: "coef0", Label: "coef0", Doc: "constant term of the polynomial (and sigmoid) function",
		Group: demo.GroupAlgo, Default: 1, Min: 0, Max: MaxCoef0, Step: "0.1", When: kernelIs("poly", "sigmoid")}

	// gramFunction and gramCoef0 are the Mercer demo's kernelKind and
	// kernelCoef0.
	gramFunction = kernelKind.Tweak(func(p *demo.Choice) { p.Options = kernelKinds(true) })
	gramCoef0    = kernelCoef0.Tweak(func(p *demo.Float) { p.Min = -MaxCoef0 })
)

// kernelIs reports whether the state's kernel is one of kinds. It asks
// gramFunction, whose options are every kind, so that a kind outside
// them is a typo in a test binary.
func kernelIs(kinds ...string) func(demo.State) bool {
	return func(s demo.State) bool {
		for _, k := range kinds {
			if gramFunction.Is(s, k) {
				return true
			}
		}
		return false
	}
}

// kernelParams declares the kernel and its numbers for a kernel demo;
// functions admits the non-kernels, for the Mercer demo.
func kernelParams(functions bool) []demo.Param {
	if functions {
		return demo.Params(gramFunction, kernelGamma, kernelDegree, gramCoef0)
	}
	return demo.Params(kernelKind, kernelGamma, kernelDegree, kernelCoef0)
}

// kernelOf is the kernel s selects.
func kernelOf(s demo.State) svm.Kernel {
	kind, err := svm.ParseFunctionKind(kernelKind.Get(s))
	if err != nil {
		return svm.Kernel{Kind: svm.Linear}
	}
	return svm.Kernel{Kind: kind, Gamma: kernelGamma.Get(s), Degree: kernelDegree.Get(s), Coef0: kernelCoef0.Get(s)}
}

// kernelName writes a kernel with its numbers, for titles and panels:
// "Gaussian, γ = 2 (σ = 0.5)".
func kernelName(k svm.Kernel) string {
	g := "γ = " + textfmt.Sig(k.Gamma)
	switch k.Kind {
	case svm.Linear:
		return "linear kernel"
	case svm.Poly:
		return fmt.Sprintf("polynomial (%s + %s⟨x, z⟩)^%d", textfmt.Sig(k.Coef0), textfmt.Sig(k.Gamma), k.Degree)
	case svm.RBF:
		return "Gaussian, " + g + " (σ = " + textfmt.Sig(1/k.Gamma) + ")"
	case svm.Laplace:
		return "Laplace, " + g + " (σ = " + textfmt.Sig(1/k.Gamma) + ")"
	case svm.Sigmoid:
		return fmt.Sprintf("tanh(%s⟨x, z⟩ %s)", textfmt.Sig(k.Gamma), signedTerm(k.Coef0))
	case svm.NegSqDist:
		return "−‖x − z‖²"
	}
	return k.String()
}

// signedTerm writes "+ 1" or "− 1".
func signedTerm(v float64) string {
	if v < 0 || math.Signbit(v) {
		return "− " + textfmt.Sig(-v)
	}
	return "+ " + textfmt.Sig(v)
}
