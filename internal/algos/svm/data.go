package svm

import "math/rand/v2"

// NoisyData returns n points in 2-D from two overlapping Gaussian blobs,
// the benchmark set of Solve and of the fit API's `make bench-svm`: point i
// has label +1 when i is even and −1 when it is odd, and coordinates
// yᵢ·(1, 1) + (z₁, z₂) with z₁, z₂ standard normal, drawn in that order
// from rand.New(rand.NewPCG(seed, 0)). About a third of the points end up
// as support vectors of the C = 1 SVM, so the set exercises shrinking and
// the cache as real data do. For n ≥ 2 both classes are present.
func NoisyData(n int, seed uint64) (x [][]float64, y []int) {
	r := rand.New(rand.NewPCG(seed, 0))
	x = make([][]float64, n)
	y = make([]int, n)
	for i := range n {
		y[i] = 1 - 2*(i%2)
		c := float64(y[i])
		z1 := r.NormFloat64()
		z2 := r.NormFloat64()
		x[i] = []float64{c + z1, c + z2}
	}
	return x, y
}
