package gd

import (
	"math"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
)

func TestDoubleWellStationary(t *testing.T) {
	// a = 0 by hand: minima (±1, 0) with f = 0, saddle (0, 0) with f = 1.
	pts := DoubleWell{}.StationaryPoints()
	want := []Stationary{{[]float64{-1, 0}, 0, Minimum}, {[]float64{0, 0}, 1, Saddle}, {[]float64{1, 0}, 0, Minimum}}
	if len(pts) != 3 {
		t.Fatalf("a = 0: %d stationary points, want 3", len(pts))
	}
	for i, p := range pts {
		if dist(p.X, want[i].X) > 1e-15 || math.Abs(p.F-want[i].F) > 1e-15 || p.Kind != want[i].Kind {
			t.Errorf("a = 0: point %d = %+v, want %+v", i, p, want[i])
		}
	}
	for _, c := range []struct {
		tilt   float64
		n      int
		lowest float64 // sign of the global minimiser's x
	}{{0.5, 3, -1}, {-1.2, 3, 1}, {1.5, 3, -1}, {1.6, 1, -1}, {-4, 1, 1}} {
		dw := DoubleWell{Tilt: c.tilt}
		pts := dw.StationaryPoints()
		if len(pts) != c.n {
			t.Errorf("a = %v: %d stationary points, want %d", c.tilt, len(pts), c.n)
		}
		g := make([]float64, 2)
		for i, p := range pts {
			dw.Grad(g, p.X)
			if norm(g) > 1e-12 || p.F != dw.Value(p.X) {
				t.Errorf("a = %v: ∇f(%v) = %v, want 0", c.tilt, p.X, g)
			}
			h := dw.Hessian(p.X)
			hxx := h.At(0, 0)
			// Kinds from the Hessian's signs: h_yy = 2 > 0 always.
			wantKind := Saddle
			if hxx > 0 {
				wantKind = Minimum
			}
			if p.Kind != wantKind || h.At(1, 1) != 2 || h.At(0, 1) != 0 {
				t.Errorf("a = %v: point %v has ∇²f = diag(%v, %v) but kind %v", c.tilt, p.X, hxx, h.At(1, 1), p.Kind)
			}
			// With three points the middle one is the saddle.
			if c.n == 3 && (i == 1) != (p.Kind == Saddle) {
				t.Errorf("a = %v: point %d is a %v", c.tilt, i, p.Kind)
			}
		}
		xs, fs, err := dw.Minimiser()
		if err != nil || math.Copysign(1, xs[0]) != c.lowest {
			t.Errorf("a = %v: minimiser %v (%v), want x of sign %v", c.tilt, xs, err, c.lowest)
		}
		for _, p := range pts {
			if p.F < fs {
				t.Errorf("a = %v: %v is lower than the minimiser %v", c.tilt, p, xs)
			}
		}
	}
}

// TestDoubleWellDescent: descent picks the valley on the side it starts,
// and from x = 0 exactly it slides down y onto the saddle and stays.
func TestDoubleWellDescent(t *testing.T) {
	for _, c := range []struct {
		x0   []float64
		want []float64
	}{
		{[]float64{0.1, 1}, []float64{1, 0}},
		{[]float64{-0.1, 1}, []float64{-1, 0}},
		{[]float64{0, 1}, []float64{0, 0}},
		{[]float64{1.5, -1}, []float64{1, 0}},
	} {
		g := &GD{F: DoubleWell{}, Eta: 0.05, Iters: 2000, Tol: 1e-12}
		s0, err := g.Init(c.x0)
		if err != nil {
			t.Fatal(err)
		}
		s, _, _ := algos.Replay[State](g, s0, 2000)
		if s.Status != algos.Converged || dist(s.X, c.want) > 1e-12 {
			t.Errorf("from %v: %v at %v, want converged to %v", c.x0, s.Status, s.X, c.want)
		}
	}
	// Newton heads for the nearest stationary point, the saddle included.
	g := &GD{F: DoubleWell{}, Method: Newton, Iters: 50, Tol: 1e-14}
	s0, _ := g.Init([]float64{0.3, 2})
	s, _, _ := algos.Replay[State](g, s0, 50)
	if s.Status != algos.Converged || dist(s.X, []float64{0, 0}) > 1e-12 {
		t.Errorf("Newton from (0.3, 2): %v at %v, want the saddle (0, 0)", s.Status, s.X)
	}
}
