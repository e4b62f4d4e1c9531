package linreg

import (
	"math"
	"testing"
)

// TestOtherMinimiser: a second line with the least loss is found where
// the optimal set is more than a point, and its loss is the minimum; a
// line pinned by its points has none.
func TestOtherMinimiser(t *testing.T) {
	tests := []struct {
		name  string
		x, y  []float64
		loss  Loss
		param float64
		want  bool
	}{
		{"two points, absolute: the line through both", []float64{0, 1}, []float64{0, 1}, Absolute, 0, false},
		{"three collinear points, absolute", []float64{0, 1, 2}, []float64{1, 2, 3}, Absolute, 0, false},
		{"a tube wide enough for all", []float64{0, 1, 2}, []float64{0, 0.1, 0}, EpsInsensitive, 0.5, true},
		{"four corners of a square, absolute", []float64{0, 1, 0, 1}, []float64{0, 0, 1, 1}, Absolute, 0, true},
		{"one x: only w·x + b is fixed", []float64{2, 2}, []float64{1, 3}, Absolute, 0, true},
		{"squared is unique", []float64{0, 1, 0, 1}, []float64{0, 0, 1, 1}, Squared, 0, false},
	}
	for _, tt := range tests {
		w, b, err := FitLine(tt.x, tt.y, tt.loss, tt.param)
		if err != nil {
			t.Fatal(err)
		}
		w2, b2, ok := OtherMinimiser(tt.x, tt.y, tt.loss, tt.param, w, b)
		if ok != tt.want {
			t.Errorf("%s: OtherMinimiser(%v, %v) = (%v, %v, %v), want ok %v", tt.name, w, b, w2, b2, ok, tt.want)
			continue
		}
		if !ok {
			continue
		}
		f, f2 := lineLoss(tt.x, tt.y, tt.loss, tt.param, w, b), lineLoss(tt.x, tt.y, tt.loss, tt.param, w2, b2)
		if math.Abs(f2-f) > 1e-12 || math.Hypot(w2-w, b2-b) < 1e-6 {
			t.Errorf("%s: (%v, %v) loss %v against (%v, %v) loss %v", tt.name, w2, b2, f2, w, b, f)
		}
	}
}
