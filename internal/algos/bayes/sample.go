package bayes

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Limits on Sample and Risk, so that a URL cannot ask for unbounded work.
const (
	MaxSample = 1000000  // points Sample returns
	MaxRisk   = 10000000 // points Risk draws
)

// stream is the PCG stream Sample and Risk draw from ("bayes").
const stream = 0x6261796573

// draw returns one labelled point: a uniform u decides y (+1 when u < π),
// then two standard normals z give x = μ_y + L_y z.
func (m *Mixture) draw(r *rand.Rand) ([2]float64, int) {
	u := r.Float64()
	z0, z1 := r.NormFloat64(), r.NormFloat64()
	if u < m.Pi {
		return m.pos.point(z0, z1), 1
	}
	return m.neg.point(z0, z1), -1
}

// Sample draws n labelled points (x, y) from the mixture, y = ±1, from
// rand.New(rand.NewPCG(seed, stream)): the same n and seed give the same
// points bit for bit, and the first n points of a larger sample. It needs
// 0 ≤ n ≤ MaxSample.
func (m *Mixture) Sample(n int, seed uint64) ([][]float64, []int, error) {
	if n < 0 || n > MaxSample {
		return nil, nil, fmt.Errorf("bayes: %d points asked for; give 0 to %d", n, MaxSample)
	}
	r := rand.New(rand.NewPCG(seed, stream))
	x, y := make([][]float64, n), make([]int, n)
	for i := range x {
		p, label := m.draw(r)
		x[i], y[i] = p[:], label
	}
	return x, y, nil
}

// Risk estimates the true risk R(h) = P(h(x) ≠ y) of any classifier h by
// its error on n fresh points, the same points Sample(n, seed) returns,
// with the estimate's standard error √(R̂(1 − R̂)/n). For h the Bayes
// classifier it estimates BayesError; for a kNN classifier trained on
// another sample, its test error. It needs 1 ≤ n ≤ MaxRisk.
func (m *Mixture) Risk(h func(x []float64) int, n int, seed uint64) (risk, stderr float64, err error) {
	if n < 1 || n > MaxRisk {
		return 0, 0, fmt.Errorf("bayes: %d points asked for; give 1 to %d", n, MaxRisk)
	}
	r := rand.New(rand.NewPCG(seed, stream))
	wrong := 0
	for range n {
		p, y := m.draw(r)
		if h(p[:]) != y {
			wrong++
		}
	}
	risk = float64(wrong) / float64(n)
	return risk, math.Sqrt(risk * (1 - risk) / float64(n)), nil
}
