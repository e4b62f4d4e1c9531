package svm

import (
	"context"
	"math"
	"testing"
)

// TestBiasRange checks the offsets the KKT conditions allow. On XOR with
// C = 1 every αᵢ = C and w = 0, so the primal is Σᵢ max(0, 1 − yᵢb),
// which is 4 − b·Σyᵢ = 4 for every b in [−1, 1] and larger outside: the
// interval is [−1, 1] and SMO's b its midpoint. On OR some
// multiplier is free and b is pinned.
func TestBiasRange(t *testing.T) {
	xor := [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	p := DefaultParams()
	pr, _, err := New(xor, []int{-1, 1, 1, -1}, p)
	if err != nil {
		t.Fatal(err)
	}
	s, err := pr.Solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, free := pr.BiasRange(s)
	if lo != -1 || hi != 1 || free != 0 || s.B != 0 {
		t.Fatalf("XOR: BiasRange = [%v, %v], %d free, b = %v; want [−1, 1], 0 free, b = 0", lo, hi, free, s.B)
	}
	at := func(b float64) float64 { s2 := s; s2.B = b; return pr.Primal(s2) }
	for _, b := range []float64{lo, (lo + hi) / 2, hi, 0.3} {
		if got := at(b); math.Abs(got-at(s.B)) > 1e-12 {
			t.Errorf("XOR: primal %v at b = %v, %v at SMO's b", got, b, at(s.B))
		}
	}
	for _, b := range []float64{lo - 0.1, hi + 0.1} {
		if at(b) <= at(s.B) {
			t.Errorf("XOR: primal %v at b = %v outside the interval is not above the optimum %v", at(b), b, at(s.B))
		}
	}

	pr, _, err = New(xor, []int{-1, 1, 1, 1}, p)
	if err != nil {
		t.Fatal(err)
	}
	if s, err = pr.Solve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if lo, hi, free := pr.BiasRange(s); free == 0 || lo != s.B || hi != s.B {
		t.Errorf("OR: BiasRange = [%v, %v], %d free; want b = %v pinned by a free multiplier", lo, hi, free, s.B)
	}
}
