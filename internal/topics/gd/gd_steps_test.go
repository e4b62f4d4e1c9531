package gd

import (
	"context"
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/gd"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// TestGDStepSizeCounters: the panel shows the step iteration k used, tₖ,
// beside the base step t, each under its own counter, and tₖ is the
// schedule's closed form computed here (t·γᵏ⁻¹; t·k/W in the warm-up,
// t on the plateau, t(T − k)/(T − W − H) in the fall); the plot's title
// names the same tₖ. Before the first iteration there is no tₖ.
func TestGDStepSizeCounters(t *testing.T) {
	d := gdDemo(t, GDSpec())
	for _, tc := range []struct {
		query string
		base  float64
		want  float64 // tₖ; NaN: none
		title string
	}{
		{"step=0", 0.1, math.NaN(), "t = 0.1"},
		{"step=5", 0.1, 0.1, "t = 0.1"},
		{"schedule=warmup-linear&step=5&t=0.19", 0.19, 0.19 * 5 / 20, "t₅ = 0.0475"},
		{"schedule=warmup-linear&step=0&t=0.19", 0.19, math.NaN(), "t₁ = 0.0095"},
		{"schedule=warmup-linear&step=60&t=0.19", 0.19, 0.19, "t₆₀ = 0.19"},
		{"schedule=warmup-linear&step=150&t=0.05", 0.05, 0.05 * 50 / 100, "t₁₅₀ = 0.025"},
		{"schedule=exp-decay&step=500", 0.1, 0.1 * math.Pow(0.99, 499), "t₅₀₀ = " + textfmt.Sig(0.1*math.Pow(0.99, 499))},
		{"objective=least-squares&batch=1&schedule=exp-decay&step=500", 0.1, 0.1 * math.Pow(0.99, 499), "t₅₀₀"},
	} {
		r := gdExec(t, d, tc.query)
		p := r.Panel()
		tk, base := demotest.Counter(p, "t-k"), demotest.Counter(p, "t")
		if base != textfmt.Sig(tc.base) {
			t.Errorf("%s: base step t = %s, want %s", tc.query, base, textfmt.Sig(tc.base))
		}
		if math.IsNaN(tc.want) {
			if tk != "—" {
				t.Errorf("%s: tₖ = %s before any iteration", tc.query, tk)
			}
		} else if got := demotest.ParseSig(t, tk); math.Abs(got-tc.want) > 5e-4*tc.want {
			t.Errorf("%s: tₖ = %s, want %v", tc.query, tk, tc.want)
		}
		if title, _ := demotest.FigureText(t, r, demo.PlotFigure); !strings.Contains(title, tc.title) {
			t.Errorf("%s: plot title %q lacks %q", tc.query, title, tc.title)
		}
	}
	for _, c := range gdExec(t, d, "method=newton&step=1").Panel().Counters {
		if (c.TestID == "t" || c.TestID == "t-k") && !strings.Contains(c.Value, "Newton") {
			t.Errorf("Newton: %s = %s", c.Label, c.Value)
		}
	}
	// Compare: the same base step, two decays, two different tₖ.
	q, _ := url.ParseQuery("schedule=exp-decay&step=100&b.decay=0.9")
	pair, probs := d.ParseCompare(q)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	c, err := d.ExecuteCompare(context.Background(), pair)
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := c.A.Panel(), c.B.Panel()
	if a, b := demotest.Counter(pa, "t"), demotest.Counter(pb, "t"); a != "0.1" || b != "0.1" {
		t.Errorf("compare: base steps %s | %s, want 0.1 | 0.1", a, b)
	}
	if a, b := demotest.Counter(pa, "t-k"), demotest.Counter(pb, "t-k"); a != textfmt.Sig(0.1*math.Pow(0.99, 99)) || b != textfmt.Sig(0.1*math.Pow(0.9, 99)) {
		t.Errorf("compare: t₁₀₀ = %s | %s, want %s | %s", a, b, textfmt.Sig(0.1*math.Pow(0.99, 99)), textfmt.Sig(0.1*math.Pow(0.9, 99)))
	}
}

// TestGDSGDNote: the mini-batch note follows the schedule: only a
// constant t "never settles", and a decaying run's note gives its total
// t/(1 − γ) and its current tₖ; counts are in words ("1 point").
func TestGDSGDNote(t *testing.T) {
	d := gdDemo(t, GDSpec())
	for _, tc := range []struct {
		query     string
		want, not []string
	}{
		{"batch=1&objective=least-squares&step=500", []string{"of 1 point of the 8", "constant t", "√t", "gap f − f* that scales like t"}, []string{"1 points"}},
		{"batch=1&objective=least-squares&schedule=exp-decay&step=500", []string{"tₖ = t·γᵏ⁻¹ (now t₅₀₀ = " + textfmt.Sig(0.1*math.Pow(0.99, 499)) + ")", "t/(1 − γ) = " + textfmt.Sig(0.1/(1-0.99))},
			[]string{"constant t", "hovers"}},
		{"batch=3&objective=logistic&schedule=warmup-linear&step=50", []string{"of 3 points", "T = 200", "(now t₅₀ = 0.1)"}, []string{"constant t"}},
	} {
		n := gdNote(t, gdExec(t, d, tc.query).Panel(), "sgd")
		for _, w := range tc.want {
			if !strings.Contains(n.Text, w) {
				t.Errorf("%s: SGD note %q lacks %q", tc.query, n.Text, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(n.Text, w) {
				t.Errorf("%s: SGD note %q says %q", tc.query, n.Text, w)
			}
		}
	}
}

// TestSGDJitterScales holds the note's claim to a measurement: SGD with
// one point per step and a constant t, started at x* of the demo's
// least-squares set, has a root-mean-square distance from x* that halves
// when t is divided by 4 (√t) and a mean gap f − f* that is divided by 4
// (t), over 300 000 steps each.
func TestSGDJitterScales(t *testing.T) {
	if testing.Short() {
		t.Skip("300 000 SGD steps per step size")
	}
	obj, err := newObjective(demotest.MustParse(t, gdDemo(t, GDSpec()), "objective=least-squares"))
	if err != nil {
		t.Fatal(err)
	}
	sum := obj.f.(gd.Sum)
	measure := func(eta float64) (rms, gap float64) {
		g := &gd.SGD{F: sum, Eta: eta, Batch: 1, Seed: 3, Iters: 1 << 30}
		s, err := g.Init(obj.xstar)
		if err != nil {
			t.Fatal(err)
		}
		const burn, n = 20000, 300000
		for i := range burn + n {
			s = g.Step(s)
			if i >= burn {
				rms += obj.dist2(s.X) / n
				gap += (s.F - obj.fstar) / n
			}
		}
		return math.Sqrt(rms), gap
	}
	r1, g1 := measure(0.01)
	r2, g2 := measure(0.0025)
	if ratio := r1 / r2; ratio < 1.8 || ratio > 2.3 {
		t.Errorf("spread %v at t = 0.01, %v at t/4: ratio %v, want about √4 = 2", r1, r2, ratio)
	}
	if ratio := g1 / g2; ratio < 3.4 || ratio > 4.8 {
		t.Errorf("gap %v at t = 0.01, %v at t/4: ratio %v, want about 4", g1, g2, ratio)
	}
}
