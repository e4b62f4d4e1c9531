package demo

import (
	"math"
	"testing"

	"github.com/margin-edu/margin/internal/render"
)

// TestPlaceMarksLabelsApart: two marks whose rings overlap get their
// labels moved out of each other's way, at least two radii apart; a mark
// alone keeps its label on its centre.
func TestPlaceMarksLabelsApart(t *testing.T) {
	f := render.Frame{ViewBoxWidth: 600, ViewBoxHeight: 600, Left: 50, Top: 50, Width: 500, Height: 500,
		View: render.View{XMin: -3, XMax: 3, YMin: -3, YMax: 3}}
	const r = 11
	for _, tc := range []struct {
		name  string
		marks []Mark
	}{
		{"0.17 apart", []Mark{{"i", 0.5, 0.5}, {"j", 0.62, 0.62}}},
		{"on top of each other", []Mark{{"i", 1, 1}, {"j", 1, 1}}},
		{"three crowded", []Mark{{"a", 0, 0}, {"b", 0.1, 0}, {"c", 0.05, 0.1}}},
	} {
		out := placeMarks(tc.marks, f, r)
		for i := range out {
			for j := i + 1; j < len(out); j++ {
				if d := math.Hypot(out[i].LX-out[j].LX, out[i].LY-out[j].LY); d < 2*r {
					t.Errorf("%s: labels %s and %s %.1f apart, want ≥ %d", tc.name, out[i].Label, out[j].Label, d, 2*r)
				}
			}
		}
	}
	alone := placeMarks([]Mark{{"q", 0, 0}, {"p", 2, 2}}, f, r)
	for _, m := range alone {
		if m.LX != m.X || m.LY != m.Y {
			t.Errorf("mark %s alone: label at (%v, %v), ring at (%v, %v)", m.Label, m.LX, m.LY, m.X, m.Y)
		}
	}
}
