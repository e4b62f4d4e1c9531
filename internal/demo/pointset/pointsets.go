// Seeded point sets the classification demos share: the dataset package's
// sets, their parameters, held-out points and label conversions.

package pointset

import (
	"strconv"

	"github.com/margin-edu/margin/internal/algos/dataset"
	"github.com/margin-edu/margin/internal/demo"
)

// The parameters of dataset's seeded random sets, declared once for every
// demo on those sets. A demo that words one differently copies it and
// changes the Doc (or the Default); reads go through these values.
var (
	// N is a random set's size.
	N = demo.Int{Key: "n", Label: "points", Doc: "points of a random set", Group: demo.GroupData,
		Default: 40, Min: dataset.MinN, Max: dataset.MaxN, When: Random}
	// Sep is the separable set's empty band.
	Sep = demo.Float{Key: "sep", Label: "gap", Doc: "empty band half-width (`separable` only)", Group: demo.GroupData,
		Default: 0.5, Min: 0, Max: 2, Step: "0.05", When: func(s demo.State) bool { return s.DataSet() == "separable" }}
	// Noise jitters the random shapes.
	Noise = demo.Float{Key: "noise", Label: "noise", Doc: "standard deviation of the jitter added to each coordinate (random sets)",
		Group: demo.GroupData, Default: 0.1, Min: 0, Max: 1, Step: "0.01", When: Shape}
	// Seed seeds a random set.
	Seed = demo.Int{Key: "seed", Label: "seed", Doc: "seeds the random set", Group: demo.GroupData, Default: 1, Min: 0, Max: demo.MaxSeed}
)

// Random reports whether the state's data set is drawn at random, so
// that it has a size and a seed: every built-in set but the notes' truth
// tables (and the learner's own points).
func Random(s demo.State) bool {
	switch s.DataSet() {
	case "or", "and", "xor", demo.Custom:
		return false
	}
	return true
}

// Points builds the dataset set a demo's state names. The demos
// that share it declare different keys: a set's gap (sep) and jitter
// (noise) are read only where the demo has them, else they are 0.
func Points(s demo.State) ([][]float64, []float64, error) {
	spec := dataset.Spec{Name: s.DataSet(), N: N.Get(s), Seed: uint64(Seed.Get(s))}
	if s.Has(Sep.Key) {
		spec.Margin = Sep.Get(s)
	}
	if s.Has(Noise.Key) {
		spec.Noise = Noise.Get(s)
	}
	set, err := dataset.New(spec)
	if err != nil {
		return nil, nil, err
	}
	y := make([]float64, len(set.Y))
	for i, c := range set.Y {
		y[i] = float64(c)
	}
	return set.X, y, nil
}

// Params are N, Sep and Seed for a demo on the random sets; sets names
// the demo's random sets and seedDoc says what else the seed drives, for
// the docs/demos table.
func Params(sets, seedDoc string) []demo.Param {
	n, seed := N, Seed
	n.Doc, seed.Doc = "points of a random set ("+sets+")", seedDoc
	return demo.Params(n, Sep, seed)
}

// SignLabels maps a demo's class labels to ±1: the SVM lessons write the
// classes as −1 and +1, and a CSV's 0 counts as −1.
func SignLabels(y []float64) []int {
	out := make([]int, len(y))
	for i, v := range y {
		out[i] = -1
		if v > 0 {
			out[i] = 1
		}
	}
	return out
}

// BothClasses reports whether y has a point of each class, which any SVM
// needs before it can draw a line.
func BothClasses(y []int) bool {
	pos, neg := false, false
	for _, v := range y {
		pos, neg = pos || v > 0, neg || v < 0
	}
	return pos && neg
}

// Shape reports whether the state's set is one of the random shapes,
// which take a noise level.
func Shape(s demo.State) bool {
	switch s.DataSet() {
	case "circles", "moons", "xor-cloud", "checkerboard":
		return true
	}
	return false
}

// ShapeParams are N (n points by default), Noise and Seed for the demos
// on the random shapes.
func ShapeParams(n int, seedDoc string) []demo.Param {
	size, seed := N, Seed
	size.Default, seed.Doc = n, seedDoc
	return demo.Params(size, Noise, seed)
}

// HeldOut draws the held-out points of a random set: the same set with
// another seed, so they come from the same distribution as the training
// points and are never among them. Fixed and custom sets have none.
func HeldOut(s demo.State) (x [][]float64, y []int, ok bool) {
	if !Random(s) {
		return nil, nil, false
	}
	t, err := s.With(Seed.Key, strconv.Itoa(Seed.Get(s)^HeldOutSeed))
	if err != nil {
		return nil, nil, false
	}
	xs, ys, err := Points(t)
	if err != nil {
		return nil, nil, false
	}
	return xs, SignLabels(ys), true
}

// HeldOutSeed turns a training seed into its held-out one; seeds are
// below 2³¹, so the flipped bit keeps them in range and distinct.
const HeldOutSeed = 1 << 30

// FloatLabels turns classes into floats: the ±1 labels logistic.New
// takes, and labels to hash.
func FloatLabels(y []int) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = float64(v)
	}
	return out
}
