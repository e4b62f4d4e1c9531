package render

import (
	"math"
	"testing"
)

const tol = 1e-12

func sameVecs(a, b []Vec) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i].X-b[i].X) > tol || math.Abs(a[i].Y-b[i].Y) > tol {
			return false
		}
	}
	return true
}

func TestClip(t *testing.T) {
	square := []Vec{{0, 0}, {1, 0}, {1, 1}, {0, 1}}
	tests := []struct {
		name string
		h    HalfPlane
		want []Vec
	}{
		{"x ≥ 0.5 keeps the right half", HalfPlane{A: [2]float64{1, 0}, B: -0.5},
			[]Vec{{0.5, 0}, {1, 0}, {1, 1}, {0.5, 1}}},
		{"y ≤ 0.25 keeps the bottom strip", HalfPlane{A: [2]float64{0, -1}, B: 0.25},
			[]Vec{{0, 0}, {1, 0}, {1, 0.25}, {0, 0.25}}},
		{"x + y ≥ 1 keeps the upper triangle", HalfPlane{A: [2]float64{1, 1}, B: -1},
			[]Vec{{1, 0}, {1, 1}, {0, 1}}},
		{"x + y ≤ 0.5 cuts a corner", HalfPlane{A: [2]float64{-1, -1}, B: 0.5},
			[]Vec{{0, 0}, {0.5, 0}, {0, 0.5}}},
		{"x ≥ 2 misses the square", HalfPlane{A: [2]float64{1, 0}, B: -2}, nil},
		{"x ≥ −1 holds everywhere", HalfPlane{A: [2]float64{1, 0}, B: 1}, square},
		{"w = 0, b > 0: everything", HalfPlane{B: 1, Strict: true}, square},
		{"w = 0, b = 0, ≥: everything", HalfPlane{}, square},
		{"w = 0, b = 0, >: nothing (sgn(0) = −1)", HalfPlane{Strict: true}, nil},
		{"w = 0, b < 0: nothing", HalfPlane{B: -1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := clip(square, tt.h); !sameVecs(got, tt.want) {
				t.Errorf("clip(square, %+v) = %v, want %v", tt.h, got, tt.want)
			}
		})
	}
}

func TestLineInView(t *testing.T) {
	v := View{0, 2, 0, 1}
	tests := []struct {
		name   string
		a      Vec
		b      float64
		ok     bool
		p0, p1 Vec
	}{
		{"vertical x = 1", Vec{1, 0}, -1, true, Vec{1, 1}, Vec{1, 0}},
		{"horizontal y = 0.5", Vec{0, 2}, -1, true, Vec{0, 0.5}, Vec{2, 0.5}},
		{"diagonal x = y", Vec{1, -1}, 0, true, Vec{0, 0}, Vec{1, 1}},
		{"outside, x = 3", Vec{1, 0}, -3, false, Vec{}, Vec{}},
		{"w = 0", Vec{}, 1, false, Vec{}, Vec{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p0, p1, ok := LineInView(tt.a, tt.b, v)
			if ok != tt.ok {
				t.Fatalf("lineInView(%v, %v) ok = %v, want %v", tt.a, tt.b, ok, tt.ok)
			}
			if ok && !sameVecs([]Vec{p0, p1}, []Vec{tt.p0, tt.p1}) && !sameVecs([]Vec{p1, p0}, []Vec{tt.p0, tt.p1}) {
				t.Errorf("lineInView(%v, %v) = %v, %v, want %v, %v", tt.a, tt.b, p0, p1, tt.p0, tt.p1)
			}
		})
	}
}

func TestDataView(t *testing.T) {
	tests := []struct {
		name string
		x    [][]float64
		want View
	}{
		{"truth table gets room", [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, View{-0.4, 1.4, -0.4, 1.4}},
		{"small set pads by the larger side", [][]float64{{0, 0}, {10, 2}}, View{-4, 14, -4, 6}},
		{"larger set pads 15 %", [][]float64{{0, 0}, {10, 2}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1}}, View{-1.5, 11.5, -1.5, 3.5}},
		{"one point", [][]float64{{3, 4}}, View{2, 4, 3, 5}},
		{"empty", nil, View{-1, 1, -1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DataView(tt.x)
			if math.Abs(got.XMin-tt.want.XMin)+math.Abs(got.XMax-tt.want.XMax)+
				math.Abs(got.YMin-tt.want.YMin)+math.Abs(got.YMax-tt.want.YMax) > 1e-9 {
				t.Errorf("DataView(%v) = %+v, want %+v", tt.x, got, tt.want)
			}
		})
	}
}

func TestWithAspect(t *testing.T) {
	v := View{0, 1, 0, 1}
	got := v.withAspect(200, 100) // twice as wide as tall: widen x
	if want := (View{-0.5, 1.5, 0, 1}); got != want {
		t.Errorf("withAspect(200, 100) = %+v, want %+v", got, want)
	}
	got = v.withAspect(100, 400)
	if want := (View{0, 1, -1.5, 2.5}); got != want {
		t.Errorf("withAspect(100, 400) = %+v, want %+v", got, want)
	}
}

// TestFitArrows: the arrows start on the boundary, at a right angle, and
// stay in view.
func TestFitArrows(t *testing.T) {
	v := View{-4, 4, -4, 4}
	tests := []struct {
		name      string
		w, old    Vec
		b         float64
		wantScale float64 // 0: scaled, any value
		onLine    bool
	}{
		{"readable w is drawn to scale", Vec{1, 1}, Vec{}, 0.5, 1, true},
		{"long w is scaled", Vec{30, -40}, Vec{20, -10}, 10, 0, true},
		{"boundary off screen: from the centre", Vec{1, 0}, Vec{}, 100, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fit, ok := FitArrows(tt.w, tt.b, tt.old, !tt.old.IsZero(), v)
			if !ok {
				t.Fatal("no arrow")
			}
			if tt.wantScale != 0 && fit.Scale != tt.wantScale {
				t.Errorf("scale = %v, want %v", fit.Scale, tt.wantScale)
			}
			if on := math.Abs(tt.w.Dot(fit.Base)+tt.b) < 1e-9; on != tt.onLine {
				t.Errorf("base %v on the boundary = %v, want %v", fit.Base, on, tt.onLine)
			}
			for _, d := range []Vec{tt.w, tt.old} {
				if tip := fit.Base.Add(d.Scale(fit.Scale)); !v.contains(tip) {
					t.Errorf("tip %v out of view %+v", tip, v)
				}
			}
		})
	}
	if _, ok := FitArrows(Vec{}, 1, Vec{}, false, v); ok {
		t.Error("w = 0 gave an arrow")
	}
}
