package perceptron

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/dataset"
)

// worstDemo is the heaviest problem a demo replays: ten classes of six
// random 2-D points, one-vs-one (45 perceptrons), never separable.
func worstDemo(tb testing.TB) (*Problem, State) {
	tb.Helper()
	r := rand.New(rand.NewPCG(3, 3))
	var d Data
	for i := range 60 {
		d.X = append(d.X, []float64{r.NormFloat64(), r.NormFloat64()})
		d.Y = append(d.Y, i%10)
	}
	p := DefaultParams()
	p.Multiclass, p.Average = OneVsOne, true
	pr, s, err := Init(d, p)
	if err != nil {
		tb.Fatal(err)
	}
	return pr, s
}

// errorEvery is a recorder that computes the training error of every
// tenth state, as a history plot does.
func errorEvery(pr *Problem, sum *float64) algos.Recorder[State] {
	return algos.RecorderFunc[State](func(k int, s State) error {
		if k%10 == 0 {
			*sum += pr.TrainingError(s)
		}
		return nil
	})
}

// TestReplayMatchesTrajectory: Replay to k, which steps in place, reaches
// Trajectory's state k, which steps purely; and replaying twice gives the
// same bits.
func TestReplayMatchesTrajectory(t *testing.T) {
	blobs, _ := dataset.New(dataset.Spec{Name: "blobs", N: 30, Seed: 2})
	noisy, _ := dataset.New(dataset.Spec{Name: "noisy", N: 25, Seed: 4})
	tests := []struct {
		name string
		d    Data
		p    func(*Params)
	}{
		{"or", orData, func(*Params) {}},
		{"xor", xorData, func(*Params) {}},
		{"late cycle", lateCycle, func(p *Params) { p.Margin = 1 }},
		{"noisy random averaged", Data{X: noisy.X, Y: noisy.Y}, func(p *Params) { p.Order, p.Average, p.MaxEpochs = Random, true, 8 }},
		{"blobs ovo", Data{X: blobs.X, Y: blobs.Y}, func(p *Params) { p.Multiclass = OneVsOne }},
		{"blobs ova fixed", Data{X: blobs.X, Y: blobs.Y}, func(p *Params) { p.FixedEpochs, p.MaxEpochs = true, 5 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultParams()
			tt.p(&p)
			_, states, err := Trajectory(tt.d, p, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			last := len(states) - 1
			for _, k := range []int{0, 1, 2, 3, last / 2, last - 1, last, last + 5} {
				k = max(k, 0)
				pr, s0, _ := Init(tt.d, p)
				a, ka, _ := algos.Replay(pr, s0, k)
				b, kb, _ := algos.Replay(pr, s0, k)
				want := states[min(k, last)]
				if ka != min(k, last) || kb != ka {
					t.Fatalf("Replay(%d) stopped at %d and %d, want %d", k, ka, kb, min(k, last))
				}
				if msg := diffState(a, want); msg != "" {
					t.Errorf("Replay(%d) vs Trajectory: %s", k, msg)
				}
				if msg := diffState(a, b); msg != "" {
					t.Errorf("Replay(%d) twice: %s", k, msg)
				}
			}
		})
	}
}

// diffState compares two states bit for bit on what a demo shows.
func diffState(a, b State) string {
	switch {
	case a.T != b.T || a.Epoch != b.Epoch || a.Pos != b.Pos:
		return "step counters differ"
	case a.Mistakes != b.Mistakes || a.EpochMistakes != b.EpochMistakes:
		return "mistakes differ"
	case a.Status != b.Status:
		return "status " + a.Status.String() + " vs " + b.Status.String()
	case a.Event.I != b.Event.I || !slices.Equal(a.Event.Updated, b.Event.Updated) ||
		!slices.Equal(a.Event.Seen, b.Event.Seen) || !sameBits(a.Event.Margin, b.Event.Margin):
		return "events differ"
	case len(a.Models) != len(b.Models):
		return "model counts differ"
	case len(a.Event.Before) != len(b.Event.Before):
		// Advance leaves Before out; a state Replay returns has it.
		return "one event lacks the models before the step"
	}
	for k := range a.Event.Before {
		if !sameBits(a.Event.Before[k].W, b.Event.Before[k].W) || a.Event.Before[k].B != b.Event.Before[k].B {
			return "the models before the step differ"
		}
	}
	for k := range a.Models {
		ma, mb := a.Models[k], b.Models[k]
		if !sameBits(ma.W, mb.W) || !sameBits(ma.U, mb.U) || !sameBits([]float64{ma.B, ma.Beta, ma.C}, []float64{mb.B, mb.Beta, mb.C}) {
			return "models differ"
		}
	}
	return ""
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// TestReplayMemory: 20000 steps of the worst demo, with the training error
// of 2000 states, allocate less than 5 MB (about 50 kB today; 12.5 MB
// before Advance reused its events and Predict stopped building averaged
// vectors).
func TestReplayMemory(t *testing.T) {
	pr, s0 := worstDemo(t)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var sum float64
	_, k, _ := algos.Replay(pr, s0, 20000, errorEvery(pr, &sum))
	runtime.ReadMemStats(&after)
	if k != 20000 {
		t.Fatalf("replay stopped at %d, want 20000", k)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 5<<20 {
		t.Errorf("replay allocated %d bytes, want < 5 MB", got)
	}
}

// TestInPlaceDoesNotAllocate: Advance in steady state and TrainingError
// allocate nothing per call; Step still gives each state fresh events.
func TestInPlaceDoesNotAllocate(t *testing.T) {
	pr, s0 := worstDemo(t)
	s := pr.Clone(s0)
	for range 120 { // two epochs: events sized, epoch starts indexed
		pr.Advance(&s)
	}
	if a := testing.AllocsPerRun(50, func() { pr.Advance(&s) }); a != 0 {
		t.Errorf("Advance allocates %v times per step, want 0", a)
	}
	if a := testing.AllocsPerRun(20, func() { pr.TrainingError(s) }); a != 0 {
		t.Errorf("TrainingError allocates %v times per call, want 0", a)
	}
	s1 := pr.Step(s)
	updated := slices.Clone(s1.Event.Updated)
	margin := slices.Clone(s1.Event.Margin)
	pr.Step(s1)
	c := pr.Clone(s1)
	pr.Advance(&c)
	if !slices.Equal(s1.Event.Updated, updated) || !sameBits(s1.Event.Margin, margin) {
		t.Errorf("stepping on from a state changed its Event")
	}
}

func BenchmarkReplayWorst(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		pr, s0 := worstDemo(b)
		var sum float64
		algos.Replay(pr, s0, 20000, errorEvery(pr, &sum))
	}
}

// TestResumedRun: a state kept from one replay and stepped on later by
// another Problem of the same data (a demo's next request) reaches the
// states a replay from 0 reaches, to the last bit, however far the first
// run went meanwhile; the late cycle is found from every resumed state,
// although the fresh Problem never saw the epochs before it.
func TestResumedRun(t *testing.T) {
	blobs, _ := dataset.New(dataset.Spec{Name: "blobs", N: 30, Seed: 2})
	noisy, _ := dataset.New(dataset.Spec{Name: "noisy", N: 25, Seed: 4})
	tests := []struct {
		name string
		d    Data
		p    func(*Params)
	}{
		{"late cycle", lateCycle, func(p *Params) { p.Margin = 1 }},
		{"late cycle random", lateCycle, func(p *Params) { p.Margin, p.Order, p.MaxEpochs = 1, Random, 50 }},
		{"xor", xorData, func(*Params) {}},
		{"noisy random averaged", Data{X: noisy.X, Y: noisy.Y}, func(p *Params) { p.Order, p.Average, p.MaxEpochs = Random, true, 8 }},
		{"blobs ovo", Data{X: blobs.X, Y: blobs.Y}, func(p *Params) { p.Multiclass = OneVsOne }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultParams()
			tt.p(&p)
			_, states, err := Trajectory(tt.d, p, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			last := len(states) - 1
			// Checkpoints every 5 steps, each a copy of a state of one
			// replay that then runs to the end, as a kept run holds them.
			pr, s0, _ := Init(tt.d, p)
			var marks []State
			s := s0
			for {
				marks = append(marks, s)
				if s.Status.Done() {
					break
				}
				s, _, _ = algos.Replay(pr, s, 5)
			}
			for _, m := range marks {
				for _, dk := range []int{0, 1, 4, last} {
					fresh, _, _ := Init(tt.d, p) // the next request's Problem
					got, k, _ := algos.Replay(fresh, m, dk)
					want := states[min(m.T+dk, last)]
					if m.T+k != min(m.T+dk, last) {
						t.Fatalf("from state %d, %d steps stopped at %d", m.T, dk, m.T+k)
					}
					if msg := diffState(got, want); msg != "" {
						t.Fatalf("from state %d, %d steps: %s", m.T, dk, msg)
					}
				}
			}
			if got := marks[len(marks)-1]; got.Status != states[last].Status || got.T != states[last].T {
				t.Errorf("the kept run ended %v at t=%d, the replay %v at t=%d", got.Status, got.T, states[last].Status, states[last].T)
			}
		})
	}
}
