package logistic

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// Model scores f(x) = W·x + B; P(y = +1 | x) = σ(f(x)).
type Model struct {
	W []float64
	B float64
}

// Score returns f(x) = W·x + B. x must have len(W) entries.
func (m Model) Score(x []float64) float64 {
	return floats.Dot(m.W, x) + m.B
}

// Proba returns P(y = +1 | x) = σ(Score(x)), in [0, 1] for every finite
// or infinite score (never NaN unless the score is).
func (m Model) Proba(x []float64) float64 {
	return Sigmoid(m.Score(x))
}

// clone returns a deep copy of m.
func (m Model) clone() Model {
	return Model{W: append([]float64(nil), m.W...), B: m.B}
}

// Sigmoid returns σ(z) = 1/(1 + e^(−z)), computed without overflow: for
// z < 0 it uses e^z/(1 + e^z), so exp never sees a large positive
// argument. σ(+Inf) = 1, σ(−Inf) = 0.
func Sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// finite reports whether every number in v is finite.
func finite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
