package scenes

import (
	"slices"
	"testing"

	"github.com/margin-edu/margin/internal/render"
)

func TestConvexHull(t *testing.T) {
	tests := []struct {
		name string
		in   []render.Vec
		want []render.Vec
	}{
		{"empty", nil, nil},
		{"one point twice", []render.Vec{{1, 1}, {1, 1}}, []render.Vec{{1, 1}}},
		{"segment", []render.Vec{{1, 1}, {0, 0}}, []render.Vec{{0, 0}, {1, 1}}},
		{"square with an inner point", []render.Vec{{0, 0}, {1, 1}, {0.5, 0.5}, {1, 0}, {0, 1}},
			[]render.Vec{{0, 0}, {1, 0}, {1, 1}, {0, 1}}},
		{"collinear", []render.Vec{{0, 0}, {2, 2}, {1, 1}}, []render.Vec{{0, 0}, {2, 2}}},
	}
	for _, tt := range tests {
		if got := convexHull(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("convexHull(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
