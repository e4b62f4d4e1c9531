package bigmath

import (
	"math"
	"math/big"
	"testing"
)

// TestAgainstMath: Exp and Log round to math's values within a float64
// ulp or two over many magnitudes, and inverse each other to far more
// bits than float64 holds.
func TestAgainstMath(t *testing.T) {
	for _, x := range []float64{-700, -50, -3.5, -1, -1e-9, 0, 1e-12, 0.5, 1, 2, math.Ln2, 10, 88.7, 700} {
		got := Float64(Exp(New(x)))
		if want := math.Exp(x); math.Abs(got-want) > 2*ulp(want) {
			t.Errorf("Exp(%v) = %v, want %v", x, got, want)
		}
	}
	for _, x := range []float64{1e-300, 1e-10, 0.1, 0.7, 1, 1.0000001, 2, math.E, 10, 1e10, 1e300} {
		got := Float64(Log(New(x)))
		if want := math.Log(x); math.Abs(got-want) > 2*ulp(want) {
			t.Errorf("Log(%v) = %v, want %v", x, got, want)
		}
		back := Exp(Log(New(x)))
		rel := Quo(Sub(back, New(x)), New(x))
		if f := math.Abs(Float64(rel)); f > 1e-50 {
			t.Errorf("Exp(Log(%v)) off by %v relative", x, f)
		}
	}
	// Values float64 cannot tell apart, told apart here.
	a, b := Exp(New(1)), Exp(Add(New(1), new(big.Float).SetMantExp(big.NewFloat(1), -80)))
	if a.Cmp(b) >= 0 {
		t.Errorf("Exp(1) = %v is not below Exp(1 + 2^-80) = %v", a, b)
	}
	if got := Float64(Sigmoid(New(0))); got != 0.5 {
		t.Errorf("Sigmoid(0) = %v, want 0.5", got)
	}
	if got, want := Float64(Log1pExp(New(-2))), math.Log1p(math.Exp(-2)); math.Abs(got-want) > 2*ulp(want) {
		t.Errorf("Log1pExp(-2) = %v, want %v", got, want)
	}
}

// TestTails: far from 0 the softplus and the sigmoid keep their digits
// (log(1 + e^x) ≈ e^x below, ≈ x above, where 1 + e^x rounded to 200
// bits would lose them) and take arguments far past e^x's range.
func TestTails(t *testing.T) {
	for _, x := range []float64{-3, -50, -700, -1e5} {
		got, want := Log1pExp(New(x)), Exp(New(x))
		// log(1 + a) = a − a²/2 + a³/3 − …: relative to a, off by
		// −a/2 + a²/3 − a³/4 + ….
		rel := Float64(Quo(Sub(got, want), want))
		a := Float64(want)
		if wantRel := -a/2 + a*a/3 - a*a*a/4; math.Abs(rel-wantRel) > 1e-3*math.Abs(wantRel)+1e-55 {
			t.Errorf("Log1pExp(%v) off e^x by %v relative, want %v", x, rel, wantRel)
		}
	}
	for _, x := range []float64{3, 1e5, 1e100} {
		if d := Float64(Sub(Log1pExp(New(x)), New(x))); math.Abs(d-math.Log1p(math.Exp(-x))) > 1e-15*math.Exp(-x)+1e-300 {
			t.Errorf("Log1pExp(%v) − x = %v, want log(1 + e^−x)", x, d)
		}
	}
	if got := Float64(Sigmoid(New(-1e100))); got != 0 {
		t.Errorf("Sigmoid(−1e100) = %v, want 0", got)
	}
	if got := Float64(Sigmoid(New(1e100))); got != 1 {
		t.Errorf("Sigmoid(1e100) = %v, want 1", got)
	}
	s := Sigmoid(New(-50))
	if rel := Float64(Quo(Sub(s, Exp(New(-50))), Exp(New(-50)))); math.Abs(rel+math.Exp(-50)) > 1e-30 {
		t.Errorf("Sigmoid(−50) off e^−50 by %v relative, want −e^−50", rel)
	}
	if got := Exp(New(-2e9)); got.Sign() != 0 {
		t.Errorf("Exp(−2e9) = %v, want 0 (past big.Float's range)", got)
	}
	if got := Float64(Log1pExp(New(-2e9))); got != 0 {
		t.Errorf("Log1pExp(−2e9) = %v, want 0", got)
	}
}

func ulp(x float64) float64 {
	if x == 0 {
		return math.SmallestNonzeroFloat64
	}
	return math.Abs(math.Nextafter(x, math.Inf(1)) - x)
}
