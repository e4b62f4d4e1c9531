package knn

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteNeighbours is the definition written out again, as plainly as
// possible: every distance, one full sort by (distance, index), the first
// k, leaving out index skip (−1: none).
func bruteNeighbours(x [][]float64, m Metric, k int, q []float64, skip int) []int {
	type pair struct {
		d float64
		i int
	}
	var all []pair
	for i, p := range x {
		if i == skip {
			continue
		}
		var s float64
		for j := range p {
			if m == Manhattan {
				s += math.Abs(p[j] - q[j])
			} else {
				s += float64((p[j] - q[j]) * (p[j] - q[j]))
			}
		}
		all = append(all, pair{s, i})
	}
	slices.SortFunc(all, func(a, b pair) int {
		if a.d != b.d {
			return cmp.Compare(a.d, b.d)
		}
		return cmp.Compare(a.i, b.i)
	})
	out := make([]int, k)
	for i := range out {
		out[i] = all[i].i
	}
	return out
}

// bruteVote is the mode of the neighbours' labels, the smallest label
// among equally frequent ones.
func bruteVote(y []int, nb []int) int {
	count := map[int]int{}
	for _, i := range nb {
		count[y[i]]++
	}
	best, most := 0, 0
	for label, n := range count {
		if n > most || (n == most && label < best) {
			best, most = label, n
		}
	}
	return best
}

func brutePredict(x [][]float64, y []int, k int, m Metric, q []float64) int {
	return bruteVote(y, bruteNeighbours(x, m, k, q, -1))
}

// Search paths a test can force, besides New's own choice.
const (
	pathNew       = iota // as New chose
	pathScan             // no tree: every query scans every point
	pathTree             // tree and heap for every query, no ring
	pathRing             // the ring in PredictAll, scans otherwise
	pathRingNoAgg        // the ring without per-node class counts
	numPaths
)

func forcePath(c *Classifier, path int) {
	switch path {
	case pathNew:
		return
	case pathScan:
		c.tree, c.treeSearch = nil, false
		return
	}
	if c.tree == nil {
		c.tree = buildTree(c.pts, c.ids, c.codes, c.d, c.Metric)
	}
	c.tree.countClasses(len(c.classes))
	c.treeSearch, c.ringFrom = path == pathTree, 1
	if path == pathTree {
		c.ringFrom = math.MaxInt
	}
	if path == pathRingNoAgg {
		c.tree.counts = nil
	}
}

// gridSet draws n points with integer coordinates in [0, side) in d
// dimensions and labels from labels: full of exact distance ties,
// duplicate points and tied votes.
func gridSet(r *rand.Rand, n, d, side int, labels []int) ([][]float64, []int) {
	x, y := make([][]float64, n), make([]int, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = float64(r.IntN(side))
		}
		y[i] = labels[r.IntN(len(labels))]
	}
	return x, y
}

func randomSet(r *rand.Rand, n, d int, labels []int) ([][]float64, []int) {
	x, y := make([][]float64, n), make([]int, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = r.NormFloat64()
		}
		y[i] = labels[r.IntN(len(labels))]
	}
	return x, y
}

// TestBrute compares every search path with the brute-force reference on
// random and on grid data (deliberate ties), many k, both metrics:
// Predict and Neighbours on single queries, PredictAll on queries in grid
// order (its ring shortcut), scattered (its fallback) and repeated (a
// step of 0).
func TestBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, shape := range []struct{ n, d int }{{1, 1}, {7, 2}, {120, 2}, {200, 3}, {100, 9}} {
		n, d := shape.n, shape.d
		rx, ry := randomSet(r, n, d, []int{0, 1, 2})
		gx, gy := gridSet(r, n, d, 5, []int{1, 4, 9, 100})
		for _, set := range []struct {
			name string
			x    [][]float64
			y    []int
			q    func() []float64
		}{
			{"random", rx, ry, func() []float64 { v, _ := randomSet(r, 1, d, []int{0}); return v[0] }},
			{"grid", gx, gy, func() []float64 {
				q := make([]float64, d)
				for j := range q {
					q[j] = float64(r.IntN(11)-3) / 2 // on and between grid lines
				}
				return q
			}},
		} {
			single, runs := queries(set.q, d)
			for _, m := range []Metric{Euclidean, Manhattan} {
				for _, k := range slices.Compact([]int{1, 2, 3, 5, 8, n / 8, n / 2, n - 1, n}) {
					if k < 1 || k > n {
						continue
					}
					name := fmt.Sprintf("%s n=%d d=%d %v k=%d", set.name, n, d, m, k)
					checkPaths(t, name, set.x, set.y, k, m, single, runs)
				}
			}
		}
	}
}

// queries returns single queries and three runs for PredictAll: an 8×8
// grid in order (over and between the data's grid points), scattered
// points and a repeated one.
func queries(random func() []float64, d int) (single [][]float64, runs [][][]float64) {
	for range 12 {
		single = append(single, random())
	}
	var grid, scattered [][]float64
	for i := range 8 {
		for j := range 8 {
			q := random()
			q[0], q[d-1] = -1+0.5*float64(j), -1+0.5*float64(i)
			grid = append(grid, q)
		}
	}
	for range 20 {
		scattered = append(scattered, random())
	}
	return single, [][][]float64{grid, scattered, {grid[7], grid[7], grid[7], grid[8]}}
}

// checkPaths computes the reference once and checks every path against it.
func checkPaths(t *testing.T, name string, x [][]float64, y []int, k int, m Metric, single [][]float64, runs [][][]float64) {
	t.Helper()
	wantNb := make([][]int, len(single))
	for i, q := range single {
		wantNb[i] = bruteNeighbours(x, m, k, q, -1)
	}
	wantRuns := make([][]int, len(runs))
	for i, run := range runs {
		for _, q := range run {
			wantRuns[i] = append(wantRuns[i], brutePredict(x, y, k, m, q))
		}
	}
	for path := range numPaths {
		c, err := New(x, y, k, m)
		if err != nil {
			t.Fatal(err)
		}
		forcePath(c, path)
		for i, q := range single {
			if got, want := mustPredict(t, c, q), bruteVote(y, wantNb[i]); got != want {
				t.Fatalf("%s path %d: Predict(%v) = %d, want %d", name, path, q, got, want)
			}
			if got, _ := c.Neighbours(q); !slices.Equal(got, wantNb[i]) {
				t.Fatalf("%s path %d: Neighbours(%v) = %v, want %v", name, path, q, got, wantNb[i])
			}
		}
		for i, run := range runs {
			got, err := c.PredictAll(run)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, wantRuns[i]) {
				t.Fatalf("%s path %d: PredictAll(run %d) = %v, want %v", name, path, i, got, wantRuns[i])
			}
		}
	}
}

func mustPredict(t *testing.T, c *Classifier, q []float64) int {
	t.Helper()
	got, err := c.Predict(q)
	if err != nil {
		t.Fatalf("Predict(%v): %v", q, err)
	}
	return got
}

// TestBruteErrorRates checks TrainingError and LeaveOneOutError against
// the reference on grid data, where duplicates with other labels abound.
func TestBruteErrorRates(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for tree := range numPaths {
		for _, k := range []int{1, 2, 5, 9} {
			x, y := gridSet(r, 200, 2, 8, []int{0, 1, 2})
			c, err := New(x, y, k, Euclidean)
			if err != nil {
				t.Fatal(err)
			}
			forcePath(c, tree)
			train, loo := 0, 0
			for i, q := range x {
				if bruteVote(y, bruteNeighbours(x, Euclidean, k, q, -1)) != y[i] {
					train++
				}
				if bruteVote(y, bruteNeighbours(x, Euclidean, k, q, i)) != y[i] {
					loo++
				}
			}
			if got, want := c.TrainingError(), float64(train)/200; got != want {
				t.Errorf("k=%d tree=%v: TrainingError = %v, want %v", k, tree, got, want)
			}
			if got, err := c.LeaveOneOutError(); err != nil || got != float64(loo)/200 {
				t.Errorf("k=%d tree=%v: LeaveOneOutError = %v, %v, want %v", k, tree, got, err, float64(loo)/200)
			}
		}
	}
}

// TestRingBrackets calls ringVote with rings around the true k-th
// distance τ: rings that hold it must give the reference vote, rings that
// miss it must report failure rather than a wrong answer.
func TestRingBrackets(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		grid bool
		agg  bool
	}{{false, true}, {true, true}, {true, false}} {
		x, y := randomSet(r, 200, 2, []int{0, 1, 2})
		if tc.grid {
			x, y = gridSet(r, 200, 2, 6, []int{0, 1, 2})
		}
		for _, k := range []int{1, 3, 10, 100, 199, 200} {
			c, _ := New(x, y, k, Euclidean)
			forcePath(c, pathRing)
			if !tc.agg {
				c.tree.counts = nil
			}
			s := c.newSearch(k)
			for range 20 {
				q := []float64{float64(r.IntN(13)) / 2, float64(r.IntN(13)) / 2}
				if !tc.grid {
					q = []float64{r.NormFloat64(), r.NormFloat64()}
				}
				nb := bruteNeighbours(x, Euclidean, k, q, -1)
				tau := distance(Euclidean, x[nb[k-1]], q)
				want := bruteVote(y, nb)
				for _, ring := range []struct {
					name   string
					lo, hi float64
					ok     bool
				}{
					{"exact", tau, tau, true},
					{"around", tau / 2, tau * 2, true},
					{"everything", 0, math.Inf(1), true},
					{"too near", 0, math.Nextafter(tau, -1), false},
				} {
					code, _, ok := s.ringVote(q, ring.lo, ring.hi)
					if ok != ring.ok || (ok && c.classes[code] != want) {
						t.Fatalf("grid %v k=%d q=%v ring %s [%v, %v]: label %d ok %v, want %d ok %v",
							tc.grid, k, q, ring.name, ring.lo, ring.hi, c.classes[code], ok, want, ring.ok)
					}
				}
				// A ring starting beyond τ may hold it (all k strictly
				// inside) or not, but must never answer wrongly.
				if code, _, ok := s.ringVote(q, math.Nextafter(tau, 2*tau+1), 2*tau+1); ok && c.classes[code] != want {
					t.Fatalf("grid %v k=%d q=%v ring just beyond τ: label %d, want %d", tc.grid, k, q, c.classes[code], want)
				}
			}
		}
	}
}
