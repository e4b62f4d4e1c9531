package perceptron

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/dataset"
)

var orData = Data{X: [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, Y: []int{-1, 1, 1, 1}}
var xorData = Data{X: [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, Y: []int{-1, 1, 1, -1}}

// TestORByHand checks every step of the OR run worked by hand from
// Algorithm 1 (cyclic order, η = 1, w₀ = 0, b₀ = 0).
func TestORByHand(t *testing.T) {
	type step struct {
		i       int
		margin  float64
		mistake bool
		w       []float64
		b       float64
	}
	want := []step{
		{0, 0, true, []float64{0, 0}, -1}, {1, -1, true, []float64{1, 0}, 0},
		{2, 0, true, []float64{1, 1}, 1}, {3, 3, false, []float64{1, 1}, 1},
		{0, -1, true, []float64{1, 1}, 0}, {1, 1, false, []float64{1, 1}, 0},
		{2, 1, false, []float64{1, 1}, 0}, {3, 2, false, []float64{1, 1}, 0},
		{0, 0, true, []float64{1, 1}, -1}, {1, 0, true, []float64{2, 1}, 0},
		{2, 1, false, []float64{2, 1}, 0}, {3, 3, false, []float64{2, 1}, 0},
		{0, 0, true, []float64{2, 1}, -1}, {1, 1, false, []float64{2, 1}, -1},
		{2, 0, true, []float64{2, 2}, 0}, {3, 4, false, []float64{2, 2}, 0},
		{0, 0, true, []float64{2, 2}, -1}, {1, 1, false, []float64{2, 2}, -1},
		{2, 1, false, []float64{2, 2}, -1}, {3, 3, false, []float64{2, 2}, -1},
		{0, 1, false, []float64{2, 2}, -1}, {1, 1, false, []float64{2, 2}, -1},
		{2, 1, false, []float64{2, 2}, -1}, {3, 3, false, []float64{2, 2}, -1},
	}
	_, states, err := Trajectory(orData, DefaultParams(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(states) != len(want)+1 {
		t.Fatalf("OR run has %d steps, want %d", len(states)-1, len(want))
	}
	for k, w := range want {
		s := states[k+1]
		got := step{s.Event.I, s.Event.Margin[0], s.Event.Updated[0], s.Models[0].W, s.Models[0].B}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("step %d = %+v, want %+v", k+1, got, w)
		}
	}
	last := states[len(states)-1]
	if last.Status != algos.Converged || last.Mistakes != 9 || last.Epoch != 6 || last.T != 24 {
		t.Errorf("final = %v, %d mistakes, %d epochs, t=%d; want converged, 9, 6, 24",
			last.Status, last.Mistakes, last.Epoch, last.T)
	}
}

func TestXORCycles(t *testing.T) {
	_, s, err := Run(xorData, DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Epoch 1 updates at all four points and returns to w = 0, b = 0.
	if s.Status != algos.CycleDetected || s.T != 4 || s.Epoch != 1 || s.Mistakes != 4 {
		t.Errorf("XOR: %v after t=%d, %d epochs, %d mistakes; want cycle detected, 4, 1, 4",
			s.Status, s.T, s.Epoch, s.Mistakes)
	}
	if !errors.Is(s.Status.Err(), algos.ErrCycle) {
		t.Errorf("Status.Err() = %v, want ErrCycle", s.Status.Err())
	}
	p := DefaultParams()
	p.Order = Random
	_, s, err = Run(xorData, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Seed 1 visits an order whose second epoch also sums to zero.
	if s.Status != algos.CycleDetected || s.Epoch != 2 || s.T != 8 {
		t.Errorf("XOR in random order: %v after %d epochs, t=%d; want cycle detected, 2, 8", s.Status, s.Epoch, s.T)
	}
}

// TestConvergenceBound checks Theorem 1.2.8 on generated separable sets:
// the mistakes never exceed C²/γ² computed from the augmented points, and
// the separator Bound finds does separate.
func TestConvergenceBound(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		set, err := dataset.New(dataset.Spec{Name: "separable", N: 60, Margin: 0.2, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		mb := Bound(context.Background(), set.X, set.Y)
		if !mb.Separable {
			t.Fatalf("seed %d: Bound found no separator of separable data", seed)
		}
		for i, x := range set.X {
			if m := float64(set.Y[i]) * Score(mb.W, mb.B, x); m < mb.Gamma-1e-12 {
				t.Fatalf("seed %d: point %d has margin %v < γ = %v", seed, i, m, mb.Gamma)
			}
		}
		for _, order := range []Order{Cyclic, Random} {
			p := DefaultParams()
			p.Order, p.Seed = order, seed
			_, s, err := Run(Data{X: set.X, Y: set.Y}, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s.Status != algos.Converged {
				t.Errorf("seed %d %v: %v, want converged", seed, order, s.Status)
			}
			if float64(s.Mistakes) > mb.Mistakes {
				t.Errorf("seed %d %v: %d mistakes > bound C²/γ² = %.1f", seed, order, s.Mistakes, mb.Mistakes)
			}
		}
	}
	if mb := Bound(context.Background(), xorData.X, xorData.Y); mb.Separable || !math.IsInf(mb.Mistakes, 1) {
		t.Errorf("Bound(context.Background(), XOR) = %+v, want not separable", mb)
	}
}

// TestAveragedIsMeanOfIterates checks Algorithm 7 against its meaning:
// (w − u/c, b − β/c) is the mean of w₀, w₁, …, w_T over all T examples seen.
func TestAveragedIsMeanOfIterates(t *testing.T) {
	set, _ := dataset.New(dataset.Spec{Name: "noisy", N: 30, Seed: 3})
	p := DefaultParams()
	p.Average, p.MaxEpochs, p.Eta = true, 3, 0.5
	_, states, err := Trajectory(Data{X: set.X, Y: set.Y}, p, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{0, 1, 7, 45, len(states) - 1} {
		mean := make([]float64, 2)
		var meanB float64
		for _, s := range states[:k+1] {
			mean[0] += s.Models[0].W[0] / float64(k+1)
			mean[1] += s.Models[0].W[1] / float64(k+1)
			meanB += s.Models[0].B / float64(k+1)
		}
		w, b := states[k].Models[0].Averaged()
		if math.Abs(w[0]-mean[0]) > 1e-9 || math.Abs(w[1]-mean[1]) > 1e-9 || math.Abs(b-meanB) > 1e-9 {
			t.Errorf("step %d: averaged = %v, %v; mean of iterates = %v, %v", k, w, b, mean, meanB)
		}
	}
}

func TestMarginVariantKeepsMargin(t *testing.T) {
	set, _ := dataset.New(dataset.Spec{Name: "separable", N: 50, Margin: 0.5, Seed: 9})
	p := DefaultParams()
	p.Margin = 1
	pr, s, err := Run(Data{X: set.X, Y: set.Y}, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != algos.Converged {
		t.Fatalf("margin perceptron: %v, want converged", s.Status)
	}
	// Each update grows ‖w̃‖² by at most 2ηγ + η²C² and ⟨w̃, w̃*⟩ by at
	// least ηγ*, so updates ≤ (C² + 2γ/η)/γ*².
	mb := Bound(context.Background(), set.X, set.Y)
	if bound := (mb.C*mb.C + 2*p.Margin/p.Eta) / (mb.Gamma * mb.Gamma); float64(s.Mistakes) > bound {
		t.Errorf("margin perceptron made %d updates > bound %.1f", s.Mistakes, bound)
	}
	for i, x := range pr.X {
		if m := float64(pr.Y[i]) * Score(s.Models[0].W, s.Models[0].B, x); m <= 1 {
			t.Errorf("point %d: y(w·x+b) = %v, want > γ = 1 after convergence", i, m)
		}
	}
}

func TestMulticlass(t *testing.T) {
	set, _ := dataset.New(dataset.Spec{Name: "blobs", N: 60, Seed: 2})
	for _, m := range []Multiclass{OneVsAll, OneVsOne} {
		p := DefaultParams()
		p.Multiclass = m
		pr, s, err := Run(Data{X: set.X, Y: set.Y}, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := 3; len(pr.Tasks) != want {
			t.Errorf("%v: %d tasks, want %d", m, len(pr.Tasks), want)
		}
		if s.Status != algos.Converged {
			t.Errorf("%v: %v, want converged on well separated blobs", m, s.Status)
		}
		if e := pr.TrainingError(s); e != 0 {
			t.Errorf("%v: training error %v after convergence, want 0", m, e)
		}
	}
}

// TestReplayTwice runs the same random-order problem twice: every state
// must be identical, bit for bit.
func TestReplayTwice(t *testing.T) {
	set, _ := dataset.New(dataset.Spec{Name: "noisy", N: 40, Seed: 5})
	p := DefaultParams()
	p.Order, p.Seed, p.MaxEpochs = Random, 42, 5
	_, a, _ := Trajectory(Data{X: set.X, Y: set.Y}, p, 1<<20)
	_, b, _ := Trajectory(Data{X: set.X, Y: set.Y}, p, 1<<20)
	if len(a) != len(b) {
		t.Fatalf("lengths %d and %d differ", len(a), len(b))
	}
	for k := range a {
		if !reflect.DeepEqual(a[k].Models, b[k].Models) || a[k].Event.I != b[k].Event.I {
			t.Fatalf("step %d differs between two runs", k)
		}
	}
	p.Seed = 43
	_, c, _ := Trajectory(Data{X: set.X, Y: set.Y}, p, 1<<20)
	if reflect.DeepEqual(a[len(a)-1].Models, c[len(c)-1].Models) {
		t.Errorf("seeds 42 and 43 gave the same run; the seed is not used")
	}
}

func TestStepDoesNotMutate(t *testing.T) {
	pr, s, _ := Init(orData, DefaultParams())
	s1 := pr.Step(s)
	s2 := pr.Step(s1)
	again := pr.Step(s1)
	if !reflect.DeepEqual(s2.Models, again.Models) || s1.Models[0].B != -1 || s.Models[0].B != 0 {
		t.Errorf("Step modified its input")
	}
}

func TestInitErrors(t *testing.T) {
	nan := math.NaN()
	p := DefaultParams()
	tests := []struct {
		name string
		d    Data
		p    func(Params) Params
		want error
	}{
		{"empty", Data{}, nil, ErrNoData},
		{"no features", Data{X: [][]float64{{}}, Y: []int{1}}, nil, ErrShape},
		{"ragged", Data{X: [][]float64{{1, 2}, {1}}, Y: []int{1, -1}}, nil, ErrShape},
		{"short y", Data{X: [][]float64{{1, 2}}, Y: []int{}}, nil, ErrShape},
		{"NaN", Data{X: [][]float64{{nan, 2}}, Y: []int{1}}, nil, ErrNotFinite},
		{"Inf", Data{X: [][]float64{{math.Inf(1), 2}}, Y: []int{1}}, nil, ErrNotFinite},
		{"label", Data{X: [][]float64{{1, 2}}, Y: []int{-2}}, nil, ErrLabel},
		{"eta", orData, func(p Params) Params { p.Eta = 0; return p }, ErrParameters},
		{"eta NaN", orData, func(p Params) Params { p.Eta = nan; return p }, ErrParameters},
		{"margin", orData, func(p Params) Params { p.Margin = -1; return p }, ErrParameters},
		{"epochs", orData, func(p Params) Params { p.MaxEpochs = 0; return p }, ErrParameters},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pp := p
			if tt.p != nil {
				pp = tt.p(p)
			}
			if _, _, err := Init(tt.d, pp); !errors.Is(err, tt.want) {
				t.Errorf("Init = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestIterationLimit: a non-separable set whose float updates never repeat
// exactly stops at the epoch budget, and not at a cycle.
func TestIterationLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var d Data
	for i := range 20 {
		d.X = append(d.X, []float64{r.NormFloat64(), r.NormFloat64()})
		d.Y = append(d.Y, 1-2*(i%2))
	}
	p := DefaultParams()
	p.MaxEpochs, p.Eta = 7, 0.1
	_, s, _ := Run(d, p, nil)
	if s.Status != algos.IterationLimit || s.Epoch != 7 || s.T != 140 {
		t.Errorf("%v after %d epochs, t=%d; want iteration limit, 7, 140", s.Status, s.Epoch, s.T)
	}
	if !errors.Is(s.Status.Err(), algos.ErrIterationLimit) {
		t.Errorf("Status.Err() = %v, want ErrIterationLimit", s.Status.Err())
	}
}

// TestRunMatchesSteps: Run's in-place loop and the pure Step chain reach
// the same final state on every data set.
func TestRunMatchesSteps(t *testing.T) {
	for _, name := range []string{"or", "xor", "separable", "noisy", "blobs"} {
		set, _ := dataset.New(dataset.Spec{Name: name, N: 30, Margin: 0.3, Seed: 4})
		p := DefaultParams()
		p.Order, p.MaxEpochs, p.Average = Random, 20, true
		_, states, _ := Trajectory(Data{X: set.X, Y: set.Y}, p, 1<<20)
		_, s, _ := Run(Data{X: set.X, Y: set.Y}, p, nil)
		last := states[len(states)-1]
		if !reflect.DeepEqual(s.Models, last.Models) || s.T != last.T || s.Status != last.Status {
			t.Errorf("%s: Run ends at t=%d %v, steps end at t=%d %v", name, s.T, s.Status, last.T, last.Status)
		}
	}
}
