package knn

import (
	"bytes"
	"math"
	"net/url"
	"slices"
	"sort"
	"testing"

	"github.com/margin-edu/margin/internal/algos/knn"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
)

// TestKNNMemorisesAtK1: on distinct points, k = 1 gets every training
// point right, while on the overlapping mixture it errs on fresh points.
func TestKNNMemorisesAtK1(t *testing.T) {
	for _, set := range []string{"mixture", "moons", "circles", "noisy"} {
		r := runKNNDemo(t, KNNSpec(), url.Values{"data": {set}, "k": {"1"}})
		x, _ := demo.Columns(r.Points)
		if !knnDistinct(x) {
			t.Fatalf("%s: the sample has repeated points; the test needs distinct ones", set)
		}
		if got := demotest.Counter(r.Panel(), "training-error"); got != "0.00 %" {
			t.Errorf("%s, k = 1: training error %s, want 0.00 %%", set, got)
		}
		if got := demotest.Counter(r.Panel(), "heldout"); set == "mixture" && (got == "0.00 %" || got == "—") {
			t.Errorf("%s, k = 1: held-out error %s, want a positive error", set, got)
		}
	}
}

func knnDistinct(x [][]float64) bool {
	seen := map[[2]float64]bool{}
	for _, p := range x {
		k := [2]float64{p[0], p[1]}
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// bruteKNN is the notes' kNN written out: sort every training point by
// (distance, index), take the first k, majority vote, a tie to −1.
func bruteKNN(x [][]float64, y []int, k int, manhattan bool, q []float64) int {
	idx := make([]int, len(x))
	dist := make([]float64, len(x))
	for i, p := range x {
		idx[i] = i
		a, b := p[0]-q[0], p[1]-q[1]
		if manhattan {
			dist[i] = math.Abs(a) + math.Abs(b)
		} else {
			dist[i] = a*a + b*b
		}
	}
	sort.SliceStable(idx, func(i, j int) bool { return dist[idx[i]] < dist[idx[j]] })
	vote := 0
	for _, i := range idx[:k] {
		vote += y[i]
	}
	if vote > 0 {
		return 1
	}
	return -1
}

// TestKNNRegionGridAgreesWithPredict: the sign of the Field's batch Grid
// (the margin whose zero set is the border) is at every node what Predict
// and a brute-force vote give there, even k (ties to −1) included; the
// nodes are the sample points' coordinates, so many sit on or near the
// data.
func TestKNNRegionGridAgreesWithPredict(t *testing.T) {
	for _, q := range []url.Values{
		{"k": {"5"}}, {"k": {"1"}, "metric": {"manhattan"}}, {"k": {"25"}, "data": {"moons"}, "n": {"120"}},
		{"k": {"4"}}, {"k": {"1"}}, {"k": {"16"}, "metric": {"manhattan"}},
	} {
		r := runKNNDemo(t, KNNSpec(), q)
		kr := knnOf(t, r)
		f, err := kr.regions()
		if err != nil {
			t.Fatal(err)
		}
		var xs, ys []float64
		for i, p := range kr.x {
			if i%7 == 0 {
				xs, ys = append(xs, p[0]), append(ys, p[1])
			}
		}
		z := make([]float64, len(xs)*len(ys))
		f.Grid(xs, ys, z)
		for j, b := range ys {
			for i, a := range xs {
				p, err := kr.c.Predict([]float64{a, b})
				if err != nil {
					t.Fatal(err)
				}
				want := bruteKNN(kr.x, kr.y, kr.c.K, q.Get("metric") == "manhattan", []float64{a, b})
				got := z[j*len(xs)+i]
				sign := -1
				if got > 0 {
					sign = 1
				}
				if sign != kr.classes[p] || sign != want || (f.F(a, b) > 0) != (got > 0) {
					t.Fatalf("%v at (%g, %g): grid %g (sign %d), Predict %d, F %g, brute force %d", q, a, b, got, sign, kr.classes[p], f.F(a, b), want)
				}
			}
		}
	}
}

// knnOf is the kNN demo's run behind r, for its internals.
func knnOf(t *testing.T, r *demo.Run) *knnRun {
	t.Helper()
	kr, err := newKNNRun(t.Context(), demo.Input{State: r.State, Points: r.Points})
	if err != nil || kr.c == nil {
		t.Fatalf("newKNNRun: %v (classifier %v)", err, kr)
	}
	return kr
}

// TestKNNSweep: the sweep's k are odd and rising, and end at n; its
// training error at k = 1 is 0 on distinct points; each value is what a
// fresh brute-force vote gives.
func TestKNNSweep(t *testing.T) {
	r := runKNNDemo(t, KNNSpec(), url.Values{"n": {"60"}})
	x, yf := demo.Columns(r.Points)
	y := pointset.SignLabels(yf)
	tx, ty := x[:20], y[:20]
	sw, err := computeSweep(x, y, tx, ty, true, knn.Euclidean)
	if err != nil {
		t.Fatal(err)
	}
	if sw.ks[0] != 1 || sw.train[0] != 0 {
		t.Fatalf("sweep starts at k = %d with training error %g, want k = 1 and 0", sw.ks[0], sw.train[0])
	}
	for i, k := range sw.ks {
		last := i == len(sw.ks)-1
		if (k%2 != 1 && !last) || (last && k != 60) || (i > 0 && k <= sw.ks[i-1]) {
			t.Fatalf("sweep k = %v: want odd, rising, ending at n = 60", sw.ks)
		}
		wrong := 0
		for j, p := range x {
			if bruteKNN(x, y, k, false, p) != y[j] {
				wrong++
			}
		}
		if want := float64(wrong) / float64(len(x)); sw.train[i] != want {
			t.Errorf("k = %d: training error %g, brute force %g", k, sw.train[i], want)
		}
	}
	if got := sweepKs(1); !slices.Equal(got, []int{1}) {
		t.Errorf("sweepKs(1) = %v, want [1]", got)
	}
}

// TestKNNTooFewPoints: custom data with fewer points than k draw the
// points and say so instead of failing.
func TestKNNTooFewPoints(t *testing.T) {
	r := runKNNDemo(t, KNNSpec(), url.Values{"data": {"custom"}, "add": {"0,0,1~1,1,-1"}})
	var b bytes.Buffer
	if _, err := r.Plot(&b, false, render.Options{}); err != nil {
		t.Fatal(err)
	}
	p := r.Panel()
	if len(p.Notes) == 0 || p.Notes[0].TestID != "few-points" {
		t.Errorf("2 points at k = 5: notes %+v, want a few-points note", p.Notes)
	}
}
