package gd

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
)

func sameStates(a, b []State) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].K != b[i].K || a[i].F != b[i].F || a[i].GradNorm != b[i].GradNorm || a[i].Eta != b[i].Eta ||
			a[i].Status != b[i].Status || !slices.Equal(a[i].X, b[i].X) || !slices.Equal(a[i].Batch, b[i].Batch) {
			return false
		}
	}
	return true
}

// TestSGDDeterminism: the same seed gives the same path bit for bit, a
// different seed another path.
func TestSGDDeterminism(t *testing.T) {
	x, y := blobs(40, 1, 4)
	f := mustLogistic(t, x, y, 0.01)
	path := func(seed uint64, batch int) []State {
		g := &SGD{F: f, Eta: 0.5, Batch: batch, Seed: seed, Iters: 100, Schedule: Schedule{Kind: ExpDecay}}
		s0, err := g.Init([]float64{0, 0, 0})
		if err != nil {
			t.Fatal(err)
		}
		return run(t, g, s0, 100)
	}
	for _, b := range []int{1, 7} {
		a := path(3, b)
		if !sameStates(a, path(3, b)) {
			t.Errorf("B = %d: two runs with seed 3 differ", b)
		}
		if sameStates(a, path(4, b)) {
			t.Errorf("B = %d: seeds 3 and 4 give the same path", b)
		}
		for _, s := range a[1:] {
			if len(s.Batch) != b || !slices.IsSorted(s.Batch) || slices.Compact(slices.Clone(s.Batch)) == nil ||
				len(slices.Compact(slices.Clone(s.Batch))) != b || s.Batch[0] < 0 || s.Batch[b-1] >= 40 {
				t.Fatalf("B = %d: batch %v is not %d distinct ascending rows of 0…39", b, s.Batch, b)
			}
		}
	}
}

// TestSGDDocumentedDraws transcribes the documented sampling: B = 1 takes
// IntN(n) from rand.New(rand.NewPCG(seed, 0)) at each iteration, and the
// step is x − η·(the gradient of that row).
func TestSGDDocumentedDraws(t *testing.T) {
	x, y := line(25, 9)
	f := mustLS(t, x, y, 0.1)
	g := &SGD{F: f, Eta: 0.05, Batch: 1, Seed: 42, Iters: 50}
	s0, _ := g.Init([]float64{1, 1, 1})
	r := rand.New(rand.NewPCG(42, 0))
	theta := []float64{1, 1, 1}
	for _, s := range run(t, g, s0, 50)[1:] {
		i := r.IntN(25)
		if !slices.Equal(s.Batch, []int{i}) {
			t.Fatalf("iteration %d sampled %v, want [%d]", s.K, s.Batch, i)
		}
		res := float64(theta[0]*x[i][0]) + float64(theta[1]*x[i][1]) + theta[2] - y[i]
		grad := []float64{
			2*float64(res*x[i][0]) + float64(0.2*theta[0]),
			2*float64(res*x[i][1]) + float64(0.2*theta[1]),
			2 * res,
		}
		for j := range theta {
			theta[j] -= float64(0.05 * grad[j])
		}
		if !slices.Equal(s.X, theta) {
			t.Fatalf("iteration %d: θ = %v, transcription %v", s.K, s.X, theta)
		}
	}
}

// TestFullBatchIsGD: B = n is gradient descent, bit for bit.
func TestFullBatchIsGD(t *testing.T) {
	x, y := blobs(30, 0.8, 8)
	for _, f := range []Sum{mustLogistic(t, x, y, 0.1), mustLS(t, x, y, 0)} {
		sch := Schedule{Kind: WarmupLinear, Warmup: 5}
		sgd := &SGD{F: f, Eta: 0.3, Batch: 30, Seed: 1, Iters: 40, Schedule: sch}
		gd := &GD{F: f, Eta: 0.3, Iters: 40, Schedule: sch}
		a0, _ := sgd.Init([]float64{0.5, -0.5, 0})
		b0, _ := gd.Init([]float64{0.5, -0.5, 0})
		a, b := run(t, sgd, a0, 40), run(t, gd, b0, 40)
		for i := range a {
			a[i].Batch = nil
		}
		if !sameStates(a, b) {
			t.Errorf("%T: SGD with B = n differs from GD", f)
		}
	}
}

func TestSample(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	counts := make([]int, 10)
	for range 2000 {
		s := sample(r, 10, 3, make([]int, 3))
		if len(s) != 3 || !slices.IsSorted(s) || s[0] == s[1] || s[1] == s[2] {
			t.Fatalf("sample = %v, want 3 distinct ascending", s)
		}
		for _, i := range s {
			counts[i]++
		}
	}
	// Each row is in a batch with probability 3/10: 600 of 2000 expected,
	// standard deviation ≈ 20.5.
	for i, c := range counts {
		if c < 500 || c > 700 {
			t.Errorf("row %d sampled %d times in 2000 batches, want about 600", i, c)
		}
	}
}

// TestReplay: algos.Replay's in-place path gives the same states as Step.
func TestReplay(t *testing.T) {
	x, y := blobs(20, 1, 5)
	f := mustLogistic(t, x, y, 0.1)
	for _, m := range []interface {
		algos.Method[State]
		Init([]float64) (State, error)
	}{
		&GD{F: f, Eta: 0.7, Iters: 30},
		&GD{F: f, Method: Newton, Iters: 5},
		&SGD{F: f, Eta: 0.7, Batch: 4, Seed: 9, Iters: 30},
	} {
		s0, err := m.Init([]float64{1, 2, 3})
		if err != nil {
			t.Fatal(err)
		}
		var seen []State
		rec := algos.RecorderFunc[State](func(k int, s State) error {
			seen = append(seen, clone(s)) // in-place states share storage: keep copies
			return nil
		})
		last, k, err := algos.Replay(m, s0, 30, rec)
		want := run(t, m, s0, 30)
		if err != nil || k != len(want)-1 || !sameStates(seen, want) || !sameStates([]State{last}, want[len(want)-1:]) {
			t.Errorf("%T: Replay differs from stepping (k = %d, %d states)", m, k, len(want))
		}
		if again := run(t, m, s0, 30); !sameStates(again, want) {
			t.Errorf("%T: two runs differ", m)
		}
	}
}
