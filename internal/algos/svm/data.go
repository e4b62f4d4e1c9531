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

// Mirror returns the 2n points (xᵢ, yᵢ) followed by (−xᵢ, −yᵢ), with which
// SMO solves an SVM without an intercept. SMO's dual always carries the
// intercept's constraint Σαᵢyᵢ = 0; on the mirrored set the primal at
// (w, b) is
//
//	½‖w‖² + C Σᵢ [h(yᵢ⟨w, xᵢ⟩ + yᵢb) + h(yᵢ⟨w, xᵢ⟩ − yᵢb)],  h(t) = max(0, 1 − t),
//
// which is convex and even in b, so b = 0 is optimal, and there it is
// ½‖w‖² + 2C Σᵢ h(yᵢ⟨w, xᵢ⟩). So the mirrored SVM with box C/2 gives the w
// of the no-intercept SVM with box C, and a hard margin on the mirrored
// set is the max-margin separator through the origin of the original one.
func Mirror(x [][]float64, y []int) ([][]float64, []int) {
	n := len(x)
	mx := make([][]float64, 2*n)
	my := make([]int, 2*n)
	for i, row := range x {
		neg := make([]float64, len(row))
		for k, v := range row {
			neg[k] = -v
		}
		mx[i], my[i] = row, y[i]
		mx[n+i], my[n+i] = neg, -y[i]
	}
	return mx, my
}
