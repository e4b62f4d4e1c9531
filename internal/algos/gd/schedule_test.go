package gd

import (
	"errors"
	"math"
	"testing"
)

func TestScheduleEta(t *testing.T) {
	for _, c := range []struct {
		name  string
		s     Schedule
		eta0  float64
		iters int
		want  []float64 // η_1, η_2, …
	}{
		{"constant", Schedule{}, 0.3, 3, []float64{0.3, 0.3, 0.3}},
		{"exp-decay ½", Schedule{Kind: ExpDecay, Decay: 0.5}, 2, 4, []float64{2, 1, 0.5, 0.25}},
		{"exp-decay default", Schedule{Kind: ExpDecay}, 1, 3, []float64{1, 0.99, 0.99 * 0.99}},
		{"exp-decay 1", Schedule{Kind: ExpDecay, Decay: 1}, 3, 3, []float64{3, 3, 3}},
		// W = 4, T = 10: up by ¼, then down by 1/6 to 0 at k = 10.
		{"warmup 4 of 10", Schedule{Kind: WarmupLinear, Warmup: 4}, 1, 10,
			[]float64{0.25, 0.5, 0.75, 1, 5.0 / 6, 4.0 / 6, 3.0 / 6, 2.0 / 6, 1.0 / 6, 0}},
		{"warmup 0", Schedule{Kind: WarmupLinear}, 2, 4, []float64{1.5, 1, 0.5, 0}},
		// W = 2, H = 3, T = 9: up by ½, three steps at η₀, down by ¼ to 0.
		{"warmup 2, hold 3 of 9", Schedule{Kind: WarmupLinear, Warmup: 2, Hold: 3}, 1, 9,
			[]float64{0.5, 1, 1, 1, 1, 0.75, 0.5, 0.25, 0}},
		{"hold to the end", Schedule{Kind: WarmupLinear, Warmup: 1, Hold: 2}, 2, 3, []float64{2, 2, 2}},
		{"warmup all", Schedule{Kind: WarmupLinear, Warmup: 3}, 3, 3, []float64{1, 2, 3}},
	} {
		for i, want := range c.want {
			if got := c.s.Eta(c.eta0, i+1, c.iters); math.Abs(got-want) > 1e-15 {
				t.Errorf("%s: η_%d = %v, want %v", c.name, i+1, got, want)
			}
		}
		// The run reports the schedule's η in every state.
		f := mustQuad(t, [][]float64{{1}}, []float64{0})
		g := &GD{F: f, Eta: c.eta0, Schedule: c.s, Iters: c.iters}
		s0, err := g.Init([]float64{1})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range run(t, g, s0, c.iters)[1:] {
			if s.Eta != c.s.Eta(c.eta0, s.K, c.iters) {
				t.Errorf("%s: state %d used η = %v, want %v", c.name, s.K, s.Eta, c.s.Eta(c.eta0, s.K, c.iters))
			}
		}
	}
	if got := (Schedule{Kind: WarmupLinear, Warmup: 2}).Eta(1, 6, 5); got != 0 {
		t.Errorf("warm-up past the end: η = %v, want 0", got)
	}
}

func TestInitErrors(t *testing.T) {
	q := shifted2D(t, 2, 0)
	x, y := line(5, 1)
	ls := mustLS(t, x, y, 0)
	big := mustLS(t, [][]float64{{1}}, []float64{1e60}, 0)
	for _, c := range []struct {
		name string
		init func() (State, error)
		want error
	}{
		{"no F", (&GD{Eta: 1, Iters: 1}).initAt(nil), ErrParameters},
		{"eta 0", (&GD{F: q, Iters: 1}).initAt([]float64{0, 0}), ErrParameters},
		{"eta Inf", (&GD{F: q, Eta: math.Inf(1), Iters: 1}).initAt([]float64{0, 0}), ErrParameters},
		{"iters 0", (&GD{F: q, Eta: 1}).initAt([]float64{0, 0}), ErrParameters},
		{"tol < 0", (&GD{F: q, Eta: 1, Iters: 1, Tol: -1}).initAt([]float64{0, 0}), ErrParameters},
		{"decay 2", (&GD{F: q, Eta: 1, Iters: 1, Schedule: Schedule{Kind: ExpDecay, Decay: 2}}).initAt([]float64{0, 0}), ErrParameters},
		{"warmup > iters", (&GD{F: q, Eta: 1, Iters: 3, Schedule: Schedule{Kind: WarmupLinear, Warmup: 4}}).initAt([]float64{0, 0}), ErrParameters},
		{"hold past the end", (&GD{F: q, Eta: 1, Iters: 5, Schedule: Schedule{Kind: WarmupLinear, Warmup: 2, Hold: 4}}).initAt([]float64{0, 0}), ErrParameters},
		{"hold < 0", (&GD{F: q, Eta: 1, Iters: 5, Schedule: Schedule{Kind: WarmupLinear, Hold: -1}}).initAt([]float64{0, 0}), ErrParameters},
		{"method 7", (&GD{F: q, Iters: 3, Method: 7}).initAt([]float64{0, 0}), ErrParameters},
		{"x0 length", (&GD{F: q, Eta: 1, Iters: 1}).initAt([]float64{0}), ErrShape},
		{"x0 NaN", (&GD{F: q, Eta: 1, Iters: 1}).initAt([]float64{math.NaN(), 0}), ErrNotFinite},
		{"f(x0) huge", (&GD{F: big, Eta: 1, Iters: 1}).initAt([]float64{0, 0}), ErrNotFinite},
		{"batch 0", (&SGD{F: ls, Eta: 1, Iters: 1}).initAt([]float64{0, 0, 0}), ErrParameters},
		{"batch > n", (&SGD{F: ls, Eta: 1, Iters: 1, Batch: 6}).initAt([]float64{0, 0, 0}), ErrParameters},
	} {
		if _, err := c.init(); !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
	}
	// Newton needs no η.
	if _, err := (&GD{F: q, Method: Newton, Iters: 1}).Init([]float64{0, 0}); err != nil {
		t.Errorf("Newton without η: %v", err)
	}
}

func (g *GD) initAt(x0 []float64) func() (State, error) {
	return func() (State, error) { return g.Init(x0) }
}

func (g *SGD) initAt(x0 []float64) func() (State, error) {
	return func() (State, error) { return g.Init(x0) }
}
