package knn

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// TestCurse: the ratio nearest/farthest is tiny on a line and near 1 in
// a thousand dimensions, and rises with the dimension. In D dimensions
// the squared distance between uniform points has mean D/6 and standard
// deviation √(7D/180), so relative to the mean the distances spread by
// about 3√(7/(180D)): 2% at D = 1000, where with 1000 points the nearest
// and farthest lie some 3 spreads either side, a ratio near 0.89.
func TestCurse(t *testing.T) {
	dims := []int{1, 2, 10, 100, 1000}
	rows, err := CurseOfDimensionality(dims, 1000, 42)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		if row.D != dims[i] || !(row.Ratio > 0 && row.Ratio < 1) || !(row.Nearest < row.Farthest) {
			t.Errorf("row %d = %+v", i, row)
		}
		if i > 0 && row.Ratio <= rows[i-1].Ratio {
			t.Errorf("ratio falls from %v (D=%d) to %v (D=%d)", rows[i-1].Ratio, dims[i-1], row.Ratio, row.D)
		}
	}
	if r := rows[0].Ratio; r > 0.01 {
		t.Errorf("D = 1: ratio %v, want below 0.01 (nearest ~ 1/(2n), farthest ≥ ½)", r)
	}
	if r := rows[4].Ratio; r < 0.8 || r > 0.95 {
		t.Errorf("D = 1000: ratio %v, want about 0.89", r)
	}
}

// TestCurseReference recomputes one row plainly: the same draws from the
// same generator, every distance by gonum's floats.Distance.
func TestCurseReference(t *testing.T) {
	const d, n, seed = 7, 300, 9
	rows, err := CurseOfDimensionality([]int{3, d}, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, d))
	draw := func() []float64 {
		x := make([]float64, d)
		for j := range x {
			x[j] = r.Float64()
		}
		return x
	}
	qs := make([][]float64, CurseQueries)
	for i := range qs {
		qs[i] = draw()
	}
	near, far := make([]float64, CurseQueries), make([]float64, CurseQueries)
	for i := range near {
		near[i] = math.Inf(1)
	}
	for range n {
		x := draw()
		for i, q := range qs {
			dist := floats.Distance(x, q, 2)
			near[i], far[i] = min(near[i], dist), max(far[i], dist)
		}
	}
	var ratio float64
	for i := range qs {
		ratio += near[i] / far[i] / CurseQueries
	}
	if got := rows[1]; got.D != d || math.Abs(got.Ratio-ratio) > 1e-12 {
		t.Errorf("row for D=%d = %+v, want ratio %v", d, got, ratio)
	}
	// Replay: the same call gives the same rows bit for bit, and a row
	// does not depend on the other dimensions asked for.
	again, _ := CurseOfDimensionality([]int{d}, n, seed)
	if again[0] != rows[1] {
		t.Errorf("row for D=%d alone = %+v, with D=3 before it %+v", d, again[0], rows[1])
	}
}

func TestCurseLimits(t *testing.T) {
	for _, c := range []struct {
		dims []int
		n    int
		want string
	}{
		{[]int{2}, 1, "give 2 to"},
		{[]int{2}, MaxCurseN + 1, "give 2 to"},
		{nil, 10, "dimensions"},
		{[]int{0}, 10, "dimension 0"},
		{[]int{MaxCurseD + 1}, 10, "give 1 to"},
		{[]int{MaxCurseD, MaxCurseD, MaxCurseD}, 1000, "at most"},
		{make([]int, MaxCurseDims+1), 10, "dimensions"},
	} {
		if _, err := CurseOfDimensionality(c.dims, c.n, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CurseOfDimensionality(%d dims, n=%d): %v, want an error saying %q", len(c.dims), c.n, err, c.want)
		}
	}
}

// TestCurseSpread: the relative spread of the distances between uniform
// points, against independent values: in 2-D the exact E‖u − v‖ =
// 0.5214054… (the mean distance in the unit square) with E‖u − v‖² = ⅓,
// so sd/mean = 0.4755; in D dimensions, for large D, the delta method
// gives ½·(6√(7/180))/√D = 0.5916/√D. 10 000 pairs measure it to a few
// percent of itself.
func TestCurseSpread(t *testing.T) {
	const meanSquare = 0.5214054331647207
	exact2 := math.Sqrt(1.0/3-meanSquare*meanSquare) / meanSquare
	rows, err := CurseOfDimensionality([]int{2, 100, 1000}, 1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{exact2, 0.5916 / 10, 0.5916 / math.Sqrt(1000)} {
		if got := rows[i].Spread; math.Abs(got-want) > 0.05*want {
			t.Errorf("D = %d: spread %.4f, want %.4f within 5%%", rows[i].D, got, want)
		}
	}
}
