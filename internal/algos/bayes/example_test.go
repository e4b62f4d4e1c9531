package bayes_test

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos/bayes"
	"gonum.org/v1/gonum/stat/distuv"
)

// The symmetric mixture: means Δ = 2 apart, σ = 1, π = ½. The Bayes
// error is Φ(−Δ/(2σ)) = Φ(−1), and h* errs on about that fraction of
// fresh samples.
func ExampleMixture_BayesError() {
	m, err := bayes.NewIsotropic(0.5, [2]float64{1, 0}, [2]float64{-1, 0}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	risk, bound := m.BayesError()
	fmt.Printf("R(h*) = %.10f, error bound below 1e-12: %v\n", risk, bound < 1e-12)
	fmt.Printf("Φ(−1) = %.10f\n", distuv.UnitNormal.CDF(-1))
	mc, se, _ := m.Risk(m.BayesClassifier, 100000, 1)
	fmt.Printf("on 100000 samples: %.3f ± %.3f\n", mc, se)
	fmt.Println("h*(0.1, 5) =", m.BayesClassifier([]float64{0.1, 5}), " η(0, 0) =", m.Eta([]float64{0, 0}))
	// Output:
	// R(h*) = 0.1586552539, error bound below 1e-12: true
	// Φ(−1) = 0.1586552539
	// on 100000 samples: 0.157 ± 0.001
	// h*(0.1, 5) = 1  η(0, 0) = 0.5
}
