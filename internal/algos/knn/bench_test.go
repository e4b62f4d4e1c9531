package knn

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/margin-edu/margin/internal/algos/dataset"
)

// regionGrid is a demo's decision-region grid: 121 × 121 points over
// [−5, 5]², a 120 × 120 raster's corners.
func regionGrid() [][]float64 {
	var qs [][]float64
	for i := range 121 {
		for j := range 121 {
			qs = append(qs, []float64{-5 + float64(j)/12, -5 + float64(i)/12})
		}
	}
	return qs
}

// BenchmarkRegions classifies a 121×121 grid against the 500-point "noisy"
// set, as a kNN lesson's decision-region plot does, with New's choice of
// path.
func BenchmarkRegions(b *testing.B) {
	set, err := dataset.New(dataset.Spec{Name: "noisy", N: 500, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	y, _ := Encode(set.Y)
	qs := regionGrid()
	for _, k := range []int{1, 5, 15, 51, 250, 500} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			for b.Loop() {
				c, err := New(set.X, y, k, Euclidean)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := c.PredictAll(qs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPaths times the search paths on the same queries, to place
// the thresholds of useTree, treeSearch and the ring: random points,
// scattered queries (scan against tree search) and a walk of small steps
// like a grid row (where the ring applies).
func BenchmarkPaths(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{500, 5000} {
		for _, d := range []int{2, 4, 8} {
			x, y := randomSet(r, n, d, []int{0, 1})
			scattered, _ := randomSet(r, 300, d, []int{0})
			var walk [][]float64
			for i := range 300 {
				q := make([]float64, d)
				q[0] = 0.02 * float64(i)
				walk = append(walk, q)
			}
			for _, k := range []int{1, 8, n / 16, n / 8, n / 2} {
				for _, c := range []struct {
					name string
					path int
					qs   [][]float64
				}{
					{"scan", pathScan, scattered},
					{"tree", pathTree, scattered},
					{"walk-scan", pathScan, walk},
					{"walk-ring", pathRing, walk},
				} {
					b.Run(fmt.Sprintf("n=%d/d=%d/k=%d/%s", n, d, k, c.name), func(b *testing.B) {
						cl, err := New(x, y, k, Euclidean)
						if err != nil {
							b.Fatal(err)
						}
						forcePath(cl, c.path)
						for b.Loop() {
							if _, err := cl.PredictAll(c.qs); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
			}
		}
	}
}
