package perceptron

import (
	"math"
	"reflect"
	"sync"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/dataset"
)

// lateCycle (margin 1) returns at the start of epoch 17 to the models it
// had at the start of epoch 14, so the check must find a start other than
// w = 0 among many.
var lateCycle = Data{
	X: [][]float64{{0, 0}, {-2, 0}, {0, 2}, {0, 2}, {-2, 1}, {2, 2}, {1, 0}},
	Y: []int{-1, 1, -1, -1, -1, -1, 1},
}

func TestLateCycle(t *testing.T) {
	p := DefaultParams()
	p.Margin = 1
	pr, s, err := Run(lateCycle, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != algos.CycleDetected || s.Epoch != 17 {
		t.Fatalf("%v after %d epochs, want cycle detected after 17", s.Status, s.Epoch)
	}
	if !sameStart(pr.startOf(14), s.Models) || sameStart(pr.startOf(15), s.Models) {
		t.Errorf("epoch 17 should start as epoch 14 did, and not as epoch 15")
	}
}

// TestCycleIndexPure: the index of epoch starts is the run's, shared by
// its states, and is filled by whichever trajectory gets somewhere first,
// yet stepping any
// state again, after the whole run is indexed, gives the very state it gave
// the first time: a state never matches its own epoch start or a later one.
func TestCycleIndexPure(t *testing.T) {
	noisy, _ := dataset.New(dataset.Spec{Name: "noisy", N: 20, Seed: 3})
	tests := []struct {
		name string
		d    Data
		p    func(*Params)
	}{
		{"xor", xorData, func(*Params) {}},
		{"late cycle", lateCycle, func(p *Params) { p.Margin = 1 }},
		{"late cycle random", lateCycle, func(p *Params) { p.Margin, p.Order, p.MaxEpochs = 1, Random, 50 }},
		{"noisy", Data{X: noisy.X, Y: noisy.Y}, func(p *Params) { p.MaxEpochs = 12 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultParams()
			tt.p(&p)
			pr, states, err := Trajectory(tt.d, p, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			for k := len(states) - 2; k >= 0; k-- { // latest first: the index is full
				for range 2 {
					got, want := pr.Step(states[k]), states[k+1]
					if got.Status != want.Status || got.Epoch != want.Epoch || !reflect.DeepEqual(got.Models, want.Models) {
						t.Fatalf("Step(state %d) = %v epoch %d, first time %v epoch %d", k, got.Status, got.Epoch, want.Status, want.Epoch)
					}
				}
			}
		})
	}
}

// TestCycleIndexConcurrent steps one Problem from several goroutines; run
// with -race it checks the index's locking, and every run ends alike.
func TestCycleIndexConcurrent(t *testing.T) {
	p := DefaultParams()
	p.Margin = 1
	pr, s0, _ := Init(lateCycle, p)
	ends := make([]State, 4)
	var wg sync.WaitGroup
	for g := range ends {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := s0
			for !s.Status.Done() {
				s = pr.Step(s)
			}
			ends[g] = s
		}()
	}
	wg.Wait()
	for g, s := range ends {
		if s.Status != algos.CycleDetected || s.T != ends[0].T || !reflect.DeepEqual(s.Models, ends[0].Models) {
			t.Errorf("goroutine %d ended %v at t=%d, goroutine 0 %v at t=%d", g, s.Status, s.T, ends[0].Status, ends[0].T)
		}
	}
}

// TestManyEpochs: 100000 one-point epochs that never repeat run to the
// epoch limit with no cycle reported. How fast is BenchmarkManyEpochs'
// business (comparing each epoch start with every earlier one took 6.6 s;
// the index makes it linear, a few tens of milliseconds).
func TestManyEpochs(t *testing.T) {
	_, s, err := Run(Data{X: [][]float64{{1}}, Y: []int{1}}, manyEpochsParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != algos.IterationLimit || s.Epoch != 100000 {
		t.Errorf("%v after %d epochs, want iteration limit after 100000", s.Status, s.Epoch)
	}
}

func BenchmarkManyEpochs(b *testing.B) {
	p := manyEpochsParams()
	for b.Loop() {
		if _, _, err := Run(Data{X: [][]float64{{1}}, Y: []int{1}}, p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// manyEpochsParams: 100000 epochs whose updates never bring w back.
func manyEpochsParams() Params {
	p := DefaultParams()
	p.MaxEpochs, p.Margin, p.Eta = 100000, 1e300, 1e-300
	return p
}

func TestFixedEpochs(t *testing.T) {
	tests := []struct {
		name   string
		d      Data
		epochs int
		want   algos.Status
	}{
		{"or runs past convergence", orData, 10, algos.Converged},
		{"xor runs past its cycle", xorData, 7, algos.IterationLimit},
		{"or stopped while updating", orData, 3, algos.IterationLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultParams()
			p.MaxEpochs, p.FixedEpochs, p.Average = tt.epochs, true, true
			pr, s, err := Run(tt.d, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s.Status != tt.want || s.Epoch != tt.epochs || s.T != tt.epochs*len(tt.d.X) {
				t.Errorf("%v after %d epochs, t=%d; want %v after %d, t=%d", s.Status, s.Epoch, s.T, tt.want, tt.epochs, tt.epochs*len(tt.d.X))
			}
			p.FixedEpochs = false
			pr2, s2, _ := Run(tt.d, p, nil)
			if w, _ := pr.Classifier(s, 0); tt.epochs > s2.Epoch && reflect.DeepEqual(w, first(pr2.Classifier(s2, 0))) {
				t.Errorf("averaged w = %v with and without FixedEpochs; the extra epochs should move it", w)
			}
		})
	}
}

func first(w []float64, _ float64) []float64 { return w }

// TestNoFMA pins values that a fused multiply-add would change: with
// a = 1 + 2⁻³⁰, a·a = 1 + 2⁻²⁹ + 2⁻⁶⁰ rounds to 1 + 2⁻²⁹, so with separate
// roundings a·a − (1 + 2⁻²⁹) is 0, and fused it is 2⁻⁶⁰. It fails on
// machines that fuse (arm64; amd64 with GOAMD64=v3) if the explicit
// float64 roundings are removed.
func TestNoFMA(t *testing.T) {
	a := 1 + math.Ldexp(1, -30)
	aa := 1 + math.Ldexp(1, -29) // a·a rounded
	if got := Score([]float64{a}, -aa, []float64{a}); got != 0 {
		t.Errorf("Score = %v, want 0", got)
	}
	m := Model{W: []float64{a}, U: []float64{0}, B: -aa, C: 1}
	if got := m.AveragedScore([]float64{a}); got != 0 {
		t.Errorf("AveragedScore = %v, want 0", got)
	}
	// η = a, x = a: the first update adds a·a to w and (with c = 1) to u;
	// the second (y = −1, c = 2) subtracts a·a and 2a·a, rounded first.
	p := DefaultParams()
	p.Eta, p.MaxEpochs = a, 1
	_, s, err := Run(Data{X: [][]float64{{a}, {a}}, Y: []int{1, -1}}, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := s.Models[0]; m.W[0] != 0 || m.U[0] != -aa || m.B != 0 || m.Beta != -a {
		t.Errorf("after two updates w=%v u=%v b=%v β=%v; want 0, %v, 0, %v", m.W[0], m.U[0], m.B, m.Beta, -aa, -a)
	}
}

// TestCycleExplained checks Cycle against the runs' own record: the epoch
// it names starts with the final models (and is the first that does),
// and a task counts as updated exactly when its updates between that
// start and the end of the run, counted from Trajectory's events, are
// more than none. Three classes one-vs-all on points where only class 1
// vs the rest cycles show that a task without updates is not judged.
func TestCycleExplained(t *testing.T) {
	three := Data{X: [][]float64{{0, 0}, {1, 1}, {1, 0}, {0, 1}}, Y: []int{1, 1, 0, 2}}
	tests := []struct {
		name string
		d    Data
		p    func(*Params)
		from int
		want []bool // per task, when pinned
	}{
		{"xor", xorData, func(*Params) {}, 0, []bool{true}},
		{"late cycle", lateCycle, func(p *Params) { p.Margin = 1 }, 14, []bool{true}},
		{"three classes", three, func(*Params) {}, 4, []bool{false, true, false}},
		{"three classes random", three, func(p *Params) { p.Order = Random }, -1, []bool{false, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultParams()
			tt.p(&p)
			pr, states, err := Trajectory(tt.d, p, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			s := states[len(states)-1]
			if s.Status != algos.CycleDetected {
				t.Fatalf("run ends %v, want a cycle", s.Status)
			}
			from, updated, ok := pr.Cycle(s)
			if tt.want != nil && !reflect.DeepEqual(updated, tt.want) {
				t.Errorf("updated = %v, want %v", updated, tt.want)
			}
			if !ok || tt.from >= 0 && from != tt.from {
				t.Fatalf("Cycle = %d, %v, %v; want epoch %d", from, updated, ok, tt.from)
			}
			n := len(tt.d.X)
			for e := 0; e <= from; e++ {
				if got := sameStart(states[e*n].Models, s.Models); got != (e == from) {
					t.Errorf("epoch %d starts as the end does: %v, want %v", e, got, e == from)
				}
			}
			any := false
			for k := range pr.Tasks {
				c := 0
				for _, st := range states[from*n+1:] {
					if st.Event.Updated[k] {
						c++
					}
				}
				if updated[k] != (c > 0) {
					t.Errorf("task %v: updated %v, but %d updates in the cycle", pr.Tasks[k], updated[k], c)
				}
				any = any || c > 0
			}
			if !any {
				t.Errorf("no task updated in the cycle")
			}
			if _, _, ok := pr.Cycle(states[len(states)-2]); ok {
				t.Errorf("Cycle of a running state is ok")
			}
		})
	}
}
