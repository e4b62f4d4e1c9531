package knn

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// TestTies are hand-worked cases of the two tie rules; each names the
// answer the other conceivable rule would give.
func TestTies(t *testing.T) {
	tests := []struct {
		name string
		x    [][]float64
		y    []int
		k    int
		m    Metric
		q    []float64
		want int
	}{
		// Distances 1, 1, 9: the lower index ranks first, although the
		// smaller label is at index 1.
		{"equal distance, lower index", [][]float64{{1}, {-1}, {3}}, []int{5, 2, 2}, 1, Euclidean, []float64{0}, 5},
		{"equal distance, lower index again", [][]float64{{-1}, {1}, {3}}, []int{2, 5, 5}, 1, Euclidean, []float64{0}, 2},
		// The same neighbours, k = 2: one vote each, the smaller label wins.
		{"tied vote of two", [][]float64{{1}, {-1}, {3}}, []int{5, 2, 2}, 2, Euclidean, []float64{0}, 2},
		{"majority of three", [][]float64{{1}, {-1}, {3}}, []int{5, 2, 2}, 3, Euclidean, []float64{0}, 2},
		{"three-way tie", [][]float64{{1}, {-1}, {1}}, []int{9, 4, 7}, 3, Euclidean, []float64{0}, 4},
		// Distances .25, 1, 1, 1: the k-th place is contested by indices
		// 1, 2, 3; index 1 (label 1) gets it, so k = 2 is a 3-vs-1 tie
		// won by 1, not a 3-vs-2 tie won by 2.
		{"contested k-th place", [][]float64{{0.5}, {-1}, {1}, {1}}, []int{3, 1, 2, 2}, 2, Euclidean, []float64{0}, 1},
		{"contested, k = 3", [][]float64{{0.5}, {-1}, {1}, {1}}, []int{3, 1, 2, 2}, 3, Euclidean, []float64{0}, 1},
		{"contested, k = 4", [][]float64{{0.5}, {-1}, {1}, {1}}, []int{3, 1, 2, 2}, 4, Euclidean, []float64{0}, 2},
		// Four points at distance 1 around the origin.
		{"diamond k=1", diamond, []int{3, 2, 1, 0}, 1, Euclidean, []float64{0, 0}, 3},
		{"diamond k=2", diamond, []int{3, 2, 1, 0}, 2, Euclidean, []float64{0, 0}, 2},
		{"diamond k=4", diamond, []int{3, 2, 1, 0}, 4, Manhattan, []float64{0, 0}, 0},
		// (2, 0) and (1, 1.2): Euclidean 4 > 2.44, Manhattan 2 < 2.2.
		{"euclidean", [][]float64{{2, 0}, {1, 1.2}}, []int{0, 1}, 1, Euclidean, []float64{0, 0}, 1},
		{"manhattan", [][]float64{{2, 0}, {1, 1.2}}, []int{0, 1}, 1, Manhattan, []float64{0, 0}, 0},
		// Coordinates so large the squares overflow float64, or so close
		// that they underflow: the distances still rank as they are
		// (wide.go), where float64 would tie them at +Inf or 0 and give
		// index 0.
		{"beyond overflow", [][]float64{{1e200}, {-1e160}}, []int{1, 0}, 1, Euclidean, []float64{0}, 0},
		{"beyond overflow, 2-D", [][]float64{{-1e200, 0}, {1e200, 0}}, []int{0, 1}, 1, Euclidean, []float64{9e199, 0}, 1},
		{"beyond overflow, manhattan", [][]float64{{-1.7e308}, {1.7e308}}, []int{0, 1}, 1, Manhattan, []float64{1.6e308}, 1},
		{"difference beyond overflow", [][]float64{{-1.7e308}, {1.7e308}}, []int{0, 1}, 1, Euclidean, []float64{1e308}, 1},
		{"below underflow", [][]float64{{0, 0}, {3e-170, 0}}, []int{0, 1}, 1, Euclidean, []float64{2.9e-170, 0}, 1},
		{"below underflow, subnormal", [][]float64{{0}, {4e-323}}, []int{0, 1}, 1, Euclidean, []float64{3e-323}, 1},
		// 1e300 − 1 and 1e300 − 2 round to the same float64: a tie of the
		// rounded distances, which the lower index wins.
		{"a rounded tie, hostile query", [][]float64{{1}, {2}}, []int{0, 1}, 1, Euclidean, []float64{1e300}, 0},
		{"a real tie stays a tie", [][]float64{{-1e200}, {1e200}}, []int{1, 0}, 1, Euclidean, []float64{0}, 1},
	}
	for _, tc := range tests {
		for tree := range numPaths {
			c, err := New(tc.x, tc.y, tc.k, tc.m)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			forcePath(c, tree)
			if got := mustPredict(t, c, tc.q); got != tc.want {
				t.Errorf("%s (tree %v): Predict(%v) = %d, want %d", tc.name, tree, tc.q, got, tc.want)
			}
		}
	}
}

var diamond = [][]float64{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}

// TestTiesOnGrid: 2-D points on an integer grid, a query at the centre;
// the eight points at distance √5 (and Manhattan 3) all tie exactly, so
// the neighbours are by index.
func TestTiesOnGrid(t *testing.T) {
	var x [][]float64
	var y []int
	for _, p := range [][2]float64{{2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}, {2, -1}} {
		x = append(x, []float64{p[0] + 0.5, p[1] - 0.25})
		y = append(y, len(y)%3)
	}
	for _, m := range []Metric{Euclidean, Manhattan} {
		c, err := New(x, y, 5, m)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := c.Neighbours([]float64{0.5, -0.25})
		if want := []int{0, 1, 2, 3, 4}; !equalInts(got, want) {
			t.Errorf("%v: Neighbours = %v, want %v", m, got, want)
		}
		// Labels 0 1 2 0 1: 0 and 1 tie at two votes, 0 wins.
		if got := mustPredict(t, c, []float64{0.5, -0.25}); got != 0 {
			t.Errorf("%v: Predict = %d, want 0", m, got)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMemorising: at k = 1 every training point is its own nearest
// neighbour, so the training error is 0 on distinct points, while leave
// one out is honest; a duplicate with another label costs the later one.
func TestMemorising(t *testing.T) {
	x := [][]float64{{0}, {1}, {5}}
	c, _ := New(x, []int{0, 0, 1}, 1, Euclidean)
	if got := c.TrainingError(); got != 0 {
		t.Errorf("distinct points: TrainingError = %v, want 0", got)
	}
	// Leaving 5 out, its nearest is 1 (label 0): one of three wrong.
	if got, err := c.LeaveOneOutError(); err != nil || got != 1.0/3 {
		t.Errorf("LeaveOneOutError = %v, %v, want 1/3", got, err)
	}
	dup, _ := New([][]float64{{0}, {0}, {1}}, []int{1, 0, 0}, 1, Euclidean)
	if got := dup.TrainingError(); got != 1.0/3 {
		t.Errorf("duplicate (0, 1) before (0, 0): TrainingError = %v, want 1/3", got)
	}
	if _, err := dup.LeaveOneOutError(); err != nil {
		t.Errorf("k = 1 of 3: %v", err)
	}
	all, _ := New(x, []int{0, 0, 1}, 3, Euclidean)
	if _, err := all.LeaveOneOutError(); !errors.Is(err, ErrK) {
		t.Errorf("k = n: LeaveOneOutError error %v, want ErrK", err)
	}
}

func TestErrors(t *testing.T) {
	ok := [][]float64{{0, 0}, {1, 1}}
	tests := []struct {
		name string
		x    [][]float64
		y    []int
		k    int
		m    Metric
		is   error
		want string
	}{
		{"empty", nil, nil, 1, Euclidean, ErrData, "at least one"},
		{"no coordinates", [][]float64{{}}, []int{0}, 1, Euclidean, ErrData, "no coordinates"},
		{"label count", ok, []int{0}, 1, Euclidean, ErrData, "one label per point"},
		{"k zero", ok, []int{0, 1}, 0, Euclidean, ErrK, "1 ≤ k ≤ 2"},
		{"k above n", ok, []int{0, 1}, 3, Euclidean, ErrK, "1 ≤ k ≤ 2"},
		{"ragged", [][]float64{{0, 0}, {1}}, []int{0, 1}, 1, Euclidean, ErrData, "point 1 has 1 coordinates but point 0 has 2"},
		{"NaN", [][]float64{{0, 0}, {1, math.NaN()}}, []int{0, 1}, 1, Euclidean, ErrData, "coordinate 1 of point 1 is NaN"},
		{"Inf", [][]float64{{math.Inf(-1), 0}, {1, 1}}, []int{0, 1}, 1, Euclidean, ErrData, "finite"},
		{"negative label", ok, []int{0, -1}, 1, Euclidean, ErrData, "Encode"},
		{"metric", ok, []int{0, 1}, 1, Metric(7), ErrMetric, "Euclidean or Manhattan"},
	}
	for _, tc := range tests {
		_, err := New(tc.x, tc.y, tc.k, tc.m)
		if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: New error %v, want %v containing %q", tc.name, err, tc.is, tc.want)
		}
	}
	c, _ := New(ok, []int{0, 1}, 1, Euclidean)
	for _, q := range [][]float64{{0}, {0, math.NaN()}, {0, 0, 0}, nil} {
		if _, err := c.Predict(q); !errors.Is(err, ErrQuery) {
			t.Errorf("Predict(%v) error %v, want ErrQuery", q, err)
		}
	}
	if _, err := c.PredictAll([][]float64{{0, 0}, {1}}); !errors.Is(err, ErrQuery) || !strings.Contains(err.Error(), "query 1") {
		t.Errorf("PredictAll with a short query: %v, want ErrQuery naming query 1", err)
	}
	var zero Classifier
	if _, err := zero.Predict([]float64{0}); !errors.Is(err, ErrData) {
		t.Errorf("zero Classifier: Predict error %v, want ErrData", err)
	}
	if _, err := ParseMetric("cosine"); !errors.Is(err, ErrMetric) {
		t.Errorf("ParseMetric(cosine) error %v, want ErrMetric", err)
	}
	for _, m := range []Metric{Euclidean, Manhattan} {
		if got, err := ParseMetric(m.String()); got != m || err != nil {
			t.Errorf("ParseMetric(%q) = %v, %v", m.String(), got, err)
		}
	}
}

// TestCopies: New copies its arguments, so changing them afterwards
// changes nothing.
func TestCopies(t *testing.T) {
	x, y := [][]float64{{0}, {10}}, []int{0, 1}
	c, _ := New(x, y, 1, Euclidean)
	x[0][0], y[0] = 100, 1
	if got := mustPredict(t, c, []float64{1}); got != 0 {
		t.Errorf("after changing the caller's slices: Predict = %d, want 0", got)
	}
}

func TestEncode(t *testing.T) {
	codes, classes := Encode([]int{1, -1, 7, -1, 1})
	if !equalInts(codes, []int{1, 0, 2, 0, 1}) || !equalInts(classes, []int{-1, 1, 7}) {
		t.Errorf("Encode = %v, %v; want [1 0 2 0 1], [-1 1 7]", codes, classes)
	}
	// A tied vote between −1 and +1 goes to −1 before and after encoding.
	c, _ := New([][]float64{{1}, {-1}}, codes[:2], 2, Euclidean)
	if got := classes[mustPredict(t, c, []float64{0})]; got != -1 {
		t.Errorf("tied ±1 vote = %d, want -1", got)
	}
}

// TestConcurrent: several goroutines may query one Classifier (run with
// -race); each gets the answers a lone caller gets.
func TestConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	x, y := randomSet(r, 300, 2, []int{0, 1})
	qs, _ := randomSet(r, 50, 2, []int{0})
	c, _ := New(x, y, 9, Euclidean)
	want, _ := c.PredictAll(qs)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			got, _ := c.PredictAll(qs)
			for i, q := range qs {
				if p, _ := c.Predict(q); p != want[i] || got[i] != want[i] {
					t.Errorf("query %d: %d and %d concurrently, %d alone", i, p, got[i], want[i])
				}
			}
		})
	}
	wg.Wait()
}
