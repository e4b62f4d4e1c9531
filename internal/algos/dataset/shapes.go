package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// The shape sets are two-class sets that no line separates but a kernel
// does: each is drawn from a noiseless rule (a point is labelled by where
// it was drawn), then jittered by Spec.Noise. Labels alternate +1, −1, …,
// so the classes are balanced (one more +1 when N is odd).

// shape draws the clean point i of a shape set with label y.
type shape func(r *rand.Rand, i, y int) (x1, x2 float64)

// shapeNamed returns the rule of the shape set called name, or false when
// name is not a shape set.
func shapeNamed(name string) (shape, bool) {
	switch name {
	case "circles":
		return circle, true
	case "moons":
		return moon, true
	case "checkerboard":
		return checker, true
	case "xor-cloud":
		return xorCloud, true
	}
	return nil, false
}

// newShape builds a shape set: n points drawn by draw, each
// rounded to two decimals, labelled, then moved by Gaussian noise of
// standard deviation noise and rounded again.
func newShape(r *rand.Rand, draw shape, n int, noise float64) (Set, error) {
	if !(noise >= 0 && noise <= 1) {
		return Set{}, fmt.Errorf("dataset: noise %v asked for; give 0 to 1", noise)
	}
	var s Set
	for i := range n {
		y := 1 - 2*(i%2)
		x1, x2 := draw(r, i, y)
		if noise > 0 {
			x1 += noise * r.NormFloat64()
			x2 += noise * r.NormFloat64()
		}
		s.X = append(s.X, []float64{round2(x1), round2(x2)})
		s.Y = append(s.Y, y)
	}
	return s, nil
}

// circle puts +1 on the circle of radius 1 and −1 on the circle of radius
// 2, both about the origin, at a uniform angle.
func circle(r *rand.Rand, _, y int) (float64, float64) {
	rad := 1.0
	if y < 0 {
		rad = 2
	}
	t := 2 * math.Pi * r.Float64()
	return rad * math.Cos(t), rad * math.Sin(t)
}

// Moons' placement: scikit-learn's make_moons spans [−1, 2] × [−0.5, 1];
// moving its centre to the origin and scaling by 1.5 spans about
// [−2.25, 2.25] × [−1.1, 1.1].
const (
	moonCX, moonCY = 0.5, 0.25
	moonScale      = 1.5
)

// moon draws from scikit-learn's two interleaving half circles, t uniform
// in [0, π]: the upper moon (cos t, sin t) is +1, the lower
// (1 − cos t, 0.5 − sin t) is −1.
func moon(r *rand.Rand, _, y int) (float64, float64) {
	t := math.Pi * r.Float64()
	x1, x2 := math.Cos(t), math.Sin(t)
	if y < 0 {
		x1, x2 = 1-x1, 0.5-x2
	}
	return moonScale * (x1 - moonCX), moonScale * (x2 - moonCY)
}

// checker draws uniformly in [−2, 2]², keeping the first point in a cell
// of the wanted colour: +1 where ⌊x₁⌋ + ⌊x₂⌋ is even on the 4×4 grid of
// unit cells. The point is rounded before it is tested, so its label
// matches the rule on the coordinates the set stores.
func checker(r *rand.Rand, _, y int) (float64, float64) {
	for {
		x1, x2 := round2(4*r.Float64()-2), round2(4*r.Float64()-2)
		if checkerLabel(x1, x2) == y {
			return x1, x2
		}
	}
}

// checkerLabel is the checkerboard's rule.
func checkerLabel(x1, x2 float64) int {
	if int(math.Floor(x1)+math.Floor(x2))%2 == 0 {
		return 1
	}
	return -1
}

// xorSigma is the standard deviation of each xor-cloud blob.
const xorSigma = 0.35

// xorCloud draws point i from Gaussian blob i mod 4 of four at (±1, ±1).
// The notes' XOR labels (0,0) and (1,1) −1, so the blobs whose
// coordinates share a sign are −1; points cycle through the blobs in an
// order that alternates +1, −1.
func xorCloud(r *rand.Rand, i, _ int) (float64, float64) {
	centres := [4][2]float64{{-1, 1}, {1, 1}, {1, -1}, {-1, -1}}
	c := centres[i%4]
	return c[0] + xorSigma*r.NormFloat64(), c[1] + xorSigma*r.NormFloat64()
}
