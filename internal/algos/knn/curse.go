package knn

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// CurseRow is one dimension of CurseOfDimensionality: over CurseQueries
// query points, the mean Euclidean distance to the nearest and to the
// farthest of the n data points, and the mean of their ratio; and over
// all CurseQueries·n query–point pairs, the relative spread of their
// distances.
type CurseRow struct {
	D        int
	Nearest  float64
	Farthest float64
	Ratio    float64 // mean of nearest/farthest: near 0 in 2-D, towards 1 as D grows
	// Spread is the standard deviation of the CurseQueries·n distances
	// divided by their mean (both over all pairs, the deviation with the
	// divisor CurseQueries·n): about 0.48 in 2-D, falling like 0.59/√D.
	Spread float64
}

// Limits of CurseOfDimensionality, so that a URL cannot ask for more than
// about a fifth of a second of work (MaxCurseValues coordinates, each
// drawn and compared with CurseQueries queries: 0.16 s measured).
const (
	CurseQueries   = 10       // query points per dimension
	MaxCurseN      = 10000    // data points per dimension
	MaxCurseD      = 10000    // largest dimension
	MaxCurseDims   = 64       // dimensions per call
	MaxCurseValues = 20000000 // Σ n·D over the dimensions asked for
)

// CurseOfDimensionality measures the notes' warning that in high
// dimensions all points seem equally far apart. For each D in dims it
// draws CurseQueries query points and then n data points uniformly in the
// cube [0,1]^D and reports how close the nearest data point is compared
// with the farthest, which tends to 1 as D grows.
//
// Dimension D draws from its own generator,
// rand.New(rand.NewPCG(seed, uint64(D))), the queries first and then the
// points, coordinate by coordinate: so a row is bit for bit the same on
// every machine and whatever other dimensions are asked for. It needs
// 2 ≤ n ≤ MaxCurseN, 1 ≤ D ≤ MaxCurseD, at most MaxCurseDims dimensions
// and Σ n·D ≤ MaxCurseValues.
func CurseOfDimensionality(dims []int, n int, seed uint64) ([]CurseRow, error) {
	if n < 2 || n > MaxCurseN {
		return nil, fmt.Errorf("knn: curse experiment with %d points; give 2 to %d", n, MaxCurseN)
	}
	if len(dims) == 0 || len(dims) > MaxCurseDims {
		return nil, fmt.Errorf("knn: curse experiment with %d dimensions; give 1 to %d", len(dims), MaxCurseDims)
	}
	total := 0
	for _, d := range dims {
		if d < 1 || d > MaxCurseD {
			return nil, fmt.Errorf("knn: curse experiment in dimension %d; give 1 to %d", d, MaxCurseD)
		}
		total += n * d
	}
	if total > MaxCurseValues {
		return nil, fmt.Errorf("knn: curse experiment needs %d coordinates (n × Σ D); at most %d, so lower n or the dimensions", total, MaxCurseValues)
	}
	rows := make([]CurseRow, len(dims))
	for i, d := range dims {
		rows[i] = curseRow(d, n, seed)
	}
	return rows, nil
}

func curseRow(d, n int, seed uint64) CurseRow {
	r := rand.New(rand.NewPCG(seed, uint64(d)))
	queries := make([][]float64, CurseQueries)
	for i := range queries {
		queries[i] = uniform(r, d)
	}
	near, far := make([]float64, CurseQueries), make([]float64, CurseQueries)
	for i := range near {
		near[i] = math.Inf(1)
	}
	x := make([]float64, d)
	var sum, sum2 float64 // of the distances and their squares, over all pairs
	for range n {
		for j := range x {
			x[j] = r.Float64()
		}
		for i, q := range queries {
			s := distance(Euclidean, x, q)
			near[i], far[i] = min(near[i], s), max(far[i], s)
			dist := math.Sqrt(s)
			sum, sum2 = sum+dist, sum2+dist*dist
		}
	}
	m := float64(n * CurseQueries)
	mean := sum / m
	row := CurseRow{D: d, Spread: math.Sqrt(max(sum2/m-mean*mean, 0)) / mean}
	for i := range queries {
		nd, fd := math.Sqrt(near[i]), math.Sqrt(far[i])
		row.Nearest += nd / CurseQueries
		row.Farthest += fd / CurseQueries
		row.Ratio += nd / fd / CurseQueries
	}
	return row
}

func uniform(r *rand.Rand, d int) []float64 {
	x := make([]float64, d)
	for j := range x {
		x[j] = r.Float64()
	}
	return x
}
