package dataset

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

// TestCurveInputsDistinct: every curve's inputs are increasing, inside
// [−1, 1] and distinct after rounding, at the largest N too, so a degree
// N−1 polynomial can interpolate them.
func TestCurveInputsDistinct(t *testing.T) {
	for _, name := range CurveNames() {
		for _, n := range []int{MinN, 10, 100, MaxN} {
			c, err := NewCurve(CurveSpec{Name: name, N: n, Noise: 0.3, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			for i, x := range c.X {
				if x < -1 || x > 1 || (i > 0 && !(x > c.X[i-1])) {
					t.Fatalf("%s n=%d: x[%d] = %v after %v", name, n, i, x, c.X[max(i-1, 0)])
				}
			}
		}
	}
}

// TestCurveNoise: with no noise y is the true function (to the rounding);
// with noise the residuals have about the asked-for spread.
func TestCurveNoise(t *testing.T) {
	c, err := NewCurve(CurveSpec{Name: "sine", N: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range c.X {
		if math.Abs(c.Y[i]-math.Sin(math.Pi*x)) > 5e-4 {
			t.Fatalf("noiseless y[%d] = %v, sin(πx) = %v", i, c.Y[i], math.Sin(math.Pi*x))
		}
	}
	c, _ = NewCurve(CurveSpec{Name: "line", N: MaxN, Noise: 0.5, Seed: 3})
	var ss float64
	for i, x := range c.X {
		r := c.Y[i] - c.F(x)
		ss += r * r
	}
	if sd := math.Sqrt(ss / MaxN); sd < 0.45 || sd > 0.55 {
		t.Errorf("noise sd = %v, want about 0.5", sd)
	}
}

// TestCurveSeeded: the same spec gives the same set; another seed another.
func TestCurveSeeded(t *testing.T) {
	s := CurveSpec{Name: "cubic", N: 30, Noise: 0.2, Seed: 9}
	a, _ := NewCurve(s)
	b, _ := NewCurve(s)
	s.Seed = 10
	c, _ := NewCurve(s)
	if !reflect.DeepEqual(a.Y, b.Y) || reflect.DeepEqual(a.Y, c.Y) {
		t.Error("curves are not seeded")
	}
}

func TestCurveErrors(t *testing.T) {
	for _, s := range []CurveSpec{{Name: "spiral", N: 10}, {Name: "sine", N: 3}, {Name: "sine", N: MaxN + 1},
		{Name: "sine", N: 10, Noise: -1}, {Name: "sine", N: 10, Noise: math.NaN()}} {
		if _, err := NewCurve(s); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
	if _, err := NewCurve(CurveSpec{Name: "spiral", N: 10}); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown curve: %v", err)
	}
}
