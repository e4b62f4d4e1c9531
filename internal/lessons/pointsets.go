// Seeded point sets the classification demos share: the dataset package's
// sets, their parameters, held-out points and label conversions.

package lessons

import (
	"strconv"

	"github.com/margin-edu/margin/internal/algos/dataset"
)

// randomSet reports whether the state's data set is drawn at random, so
// that it has a size and a seed: every built-in set but the notes' truth
// tables (and the learner's own points).
func randomSet(s State) bool {
	return !s.Is(keyData, "or") && !s.Is(keyData, "and") && !s.Is(keyData, "xor") && !s.Is(keyData, Custom)
}

// datasetPoints builds the dataset set a demo's state names. The demos
// that share it declare different keys: a set's gap (sep) and jitter
// (noise) are read only where the demo has them, else they are 0.
func datasetPoints(s State) ([][]float64, []float64, error) {
	spec := dataset.Spec{Name: s.Str(keyData), N: s.Int("n"), Seed: uint64(s.Int("seed"))}
	if s.Has("sep") {
		spec.Margin = s.Float("sep")
	}
	if s.Has("noise") {
		spec.Noise = s.Float("noise")
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

// pointSetParams are the parameters of dataset's seeded random sets, which
// every demo on those sets shares; sets names the demo's random sets and
// seedDoc says what else the seed drives, for the docs/demos table.
func pointSetParams(sets, seedDoc string) []Param {
	return []Param{
		{Key: "n", Label: "points", Doc: "points of a random set (" + sets + ")", Kind: Int, Group: GroupData,
			Default: "40", Min: dataset.MinN, Max: dataset.MaxN, When: randomSet},
		{Key: "sep", Label: "gap", Doc: "empty band half-width (`separable` only)", Kind: Float, Group: GroupData,
			Default: "0.5", Min: 0, Max: 2, Step: "0.05", When: func(s State) bool { return s.Is(keyData, "separable") }},
		{Key: "seed", Label: "seed", Doc: seedDoc, Kind: Int, Group: GroupData, Default: "1", Min: 0, Max: maxSeed},
	}
}

// signLabels maps a demo's class labels to ±1: the SVM lessons write the
// classes as −1 and +1, and a CSV's 0 counts as −1.
func signLabels(y []float64) []int {
	out := make([]int, len(y))
	for i, v := range y {
		out[i] = -1
		if v > 0 {
			out[i] = 1
		}
	}
	return out
}

// bothClasses reports whether y has a point of each class, which any SVM
// needs before it can draw a line.
func bothClasses(y []int) bool {
	pos, neg := false, false
	for _, v := range y {
		pos, neg = pos || v > 0, neg || v < 0
	}
	return pos && neg
}

// shapeSet reports whether the state's set is one of the random shapes,
// which take a noise level.
func shapeSet(s State) bool {
	return s.Is(keyData, "circles") || s.Is(keyData, "moons") || s.Is(keyData, "xor-cloud") || s.Is(keyData, "checkerboard")
}

// shapeParams are the size, noise and seed of the kernel demos' sets.
func shapeParams(n, seedDoc string) []Param {
	return []Param{
		{Key: "n", Label: "points", Doc: "points of a random set", Kind: Int, Group: GroupData,
			Default: n, Min: dataset.MinN, Max: dataset.MaxN, When: randomSet},
		{Key: "noise", Label: "noise", Doc: "standard deviation of the jitter added to each coordinate (random sets)",
			Kind: Float, Group: GroupData, Default: "0.1", Min: 0, Max: 1, Step: "0.01", When: shapeSet},
		{Key: "seed", Label: "seed", Doc: seedDoc, Kind: Int, Group: GroupData, Default: "1", Min: 0, Max: maxSeed},
	}
}

// heldOut draws the held-out points of a random set: the same set with
// another seed, so they come from the same distribution as the training
// points and are never among them. Fixed and custom sets have none.
func heldOut(s State) (x [][]float64, y []int, ok bool) {
	if !randomSet(s) {
		return nil, nil, false
	}
	t, err := s.With("seed", strconv.Itoa(s.Int("seed")^heldOutSeed))
	if err != nil {
		return nil, nil, false
	}
	xs, ys, err := datasetPoints(t)
	if err != nil {
		return nil, nil, false
	}
	return xs, signLabels(ys), true
}

// heldOutSeed turns a training seed into its held-out one; seeds are
// below 2³¹, so the flipped bit keeps them in range and distinct.
const heldOutSeed = 1 << 30

// floatLabels turns classes into floats: the ±1 labels logistic.New
// takes, and labels to hash.
func floatLabels(y []int) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = float64(v)
	}
	return out
}
