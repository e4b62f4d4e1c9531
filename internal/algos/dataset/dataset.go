// Package dataset builds the small labelled data sets Margin's demos start
// from: the notes' OR, AND and XOR truth tables, the spam example, and
// seeded random sets (separable with a chosen margin, noisy, three blobs)
// and the shapes a kernel separates and a line does not (circles, moons,
// checkerboard, XOR clouds).
//
// Random sets are drawn from a PCG generator seeded by the caller and
// rounded to two decimals, so a set is the same on every machine and its
// points survive a round trip through a URL or a CSV file unchanged.
package dataset

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Set is a labelled data set: row i of X has label Y[i]. Two-class sets
// use −1 and +1; multiclass sets use 0, 1, ….
type Set struct {
	X [][]float64
	Y []int
}

// Spec names a built-in set and the knobs of the random ones.
type Spec struct {
	Name   string  // one of Names
	N      int     // points, for random sets
	Margin float64 // half-width of the empty band, for "separable"
	// Noise is the standard deviation of the Gaussian jitter added to
	// each coordinate of "circles", "moons", "checkerboard" and
	// "xor-cloud" after labelling, in data units, 0 to 1; other sets
	// ignore it.
	Noise float64
	Seed  uint64
}

// Limits on Spec.N, so a URL cannot ask for an unbounded set.
const (
	MinN = 4
	MaxN = 500
)

// names lists the built-in sets, in the order a menu shows them.
var names = []string{"or", "and", "xor", "circles", "moons", "checkerboard", "xor-cloud", "separable", "noisy", "blobs"}

// Names returns the names of the built-in two-dimensional sets.
func Names() []string { return append([]string(nil), names...) }

// ErrUnknown is returned by New for a name not in Names.
var ErrUnknown = errors.New("dataset: unknown data set")

// New builds the set s names. Random sets need MinN ≤ s.N ≤ MaxN; the
// shape sets also need 0 ≤ s.Noise ≤ 1.
func New(s Spec) (Set, error) {
	switch s.Name {
	case "or":
		return truth(-1, 1, 1, 1), nil
	case "and":
		return truth(-1, -1, -1, 1), nil
	case "xor":
		return truth(-1, 1, 1, -1), nil
	}
	if s.N < MinN || s.N > MaxN {
		return Set{}, fmt.Errorf("dataset: %d points asked for; give %d to %d", s.N, MinN, MaxN)
	}
	r := rand.New(rand.NewPCG(s.Seed, 0x6d617267696e)) // "margin"
	switch s.Name {
	case "separable":
		if !(s.Margin >= 0 && s.Margin <= 2) {
			return Set{}, fmt.Errorf("dataset: margin %v asked for; give 0 to 2", s.Margin)
		}
		return separable(r, s.N, s.Margin), nil
	case "noisy":
		return noisy(r, s.N), nil
	case "blobs":
		return blobs(r, s.N), nil
	}
	if draw, ok := shapeNamed(s.Name); ok {
		return newShape(r, draw, s.N, s.Noise)
	}
	return Set{}, fmt.Errorf("%w %q; choose one of %v", ErrUnknown, s.Name, names)
}

// truth is a Boolean function of two inputs in the notes' order
// (0,0), (1,0), (0,1), (1,1).
func truth(y ...int) Set {
	return Set{X: [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, Y: y}
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// separable draws points uniformly in [−4, 4]² and labels them by a
// random line through the middle, dropping points closer to the line than
// margin, so the set has geometric margin at least margin.
func separable(r *rand.Rand, n int, margin float64) Set {
	theta := r.Float64() * 2 * math.Pi
	w := [2]float64{math.Cos(theta), math.Sin(theta)}
	b := round2(r.Float64() - 0.5)
	var s Set
	for len(s.X) < n {
		x := []float64{round2(8*r.Float64() - 4), round2(8*r.Float64() - 4)}
		d := w[0]*x[0] + w[1]*x[1] + b
		if math.Abs(d) <= margin {
			continue
		}
		s.X = append(s.X, x)
		s.Y = append(s.Y, sign(d))
	}
	return s
}

// noisy draws two overlapping Gaussian clouds, one per class, so that no
// line separates them.
func noisy(r *rand.Rand, n int) Set {
	var s Set
	for i := range n {
		y := 1 - 2*(i%2)
		c := float64(y)
		s.X = append(s.X, []float64{round2(c + 1.3*r.NormFloat64()), round2(0.5*c + 1.3*r.NormFloat64())})
		s.Y = append(s.Y, y)
	}
	return s
}

// blobs draws three Gaussian clouds labelled 0, 1, 2 around the corners of
// a triangle, for one-vs-all and one-vs-one training.
func blobs(r *rand.Rand, n int) Set {
	centres := [3][2]float64{{-2, -1.5}, {2, -1.5}, {0, 2}}
	var s Set
	for i := range n {
		k := i % 3
		s.X = append(s.X, []float64{
			round2(centres[k][0] + 0.7*r.NormFloat64()),
			round2(centres[k][1] + 0.7*r.NormFloat64()),
		})
		s.Y = append(s.Y, k)
	}
	return s
}

func sign(v float64) int {
	if v > 0 {
		return 1
	}
	return -1
}

// Spam is Example 1.1.2 of the notes: six e-mails as bag-of-words vectors
// over the words and, viagra, the, of, nigeria, labelled spam (+1) or not
// (−1), plus the unlabelled e-mail x′ to classify.
func Spam() (train Set, words []string, test []float64) {
	words = []string{"and", "viagra", "the", "of", "nigeria"}
	train = Set{
		X: [][]float64{
			{1, 1, 0, 1, 1},
			{0, 0, 1, 1, 0},
			{0, 1, 1, 0, 0},
			{1, 0, 0, 1, 0},
			{1, 0, 1, 0, 1},
			{1, 0, 1, 1, 0},
		},
		Y: []int{1, -1, 1, -1, 1, -1},
	}
	return train, words, []float64{1, 1, 0, 0, 0}
}
