package feasible

import (
	"errors"
	"math"
	"testing"
)

// TestNonNegative: x₁ + x₂ = 1 with x₁ − x₂ = 0 has x = (½, ½); with
// x₁ − x₂ = 2 it needs x₂ = −½ < 0.
func TestNonNegative(t *testing.T) {
	var s System
	s.Add([]float64{1, 1}, 1)
	s.Add([]float64{1, -1}, 0)
	x, err := s.NonNegative()
	if err != nil || math.Abs(x[0]-0.5) > 1e-15 || math.Abs(x[1]-0.5) > 1e-15 {
		t.Errorf("x = %v, %v; want (½, ½)", x, err)
	}
	var u System
	u.Add([]float64{1, 1}, 1)
	u.Add([]float64{1, -1}, 2)
	if _, err := u.NonNegative(); !errors.Is(err, ErrInfeasible) {
		t.Errorf("x₂ = −½ needed: err = %v", err)
	}
}

// TestDependentRows: a copy of a row is dropped when its right-hand side
// agrees and makes the system inconsistent when it does not.
func TestDependentRows(t *testing.T) {
	var s System
	if !s.Add([]float64{1, 2, 3}, 1) || !s.Add([]float64{2, 4, 6}, 2) || len(s.rows) != 1 {
		t.Fatalf("agreeing copy: rows %d", len(s.rows))
	}
	if s.Add([]float64{3, 6, 9}, 1) {
		t.Error("a copy with a different right-hand side was accepted")
	}
	// Simplex on the wide system: x ≥ 0 with x₁ + 2x₂ + 3x₃ = 1.
	x, err := s.NonNegative()
	if err != nil || math.Abs(x[0]+2*x[1]+3*x[2]-1) > 1e-12 || x[0] < 0 || x[1] < 0 || x[2] < 0 {
		t.Errorf("x = %v, %v", x, err)
	}
}
