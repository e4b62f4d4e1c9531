package render

import (
	"slices"
	"testing"
)

func TestConvexHull(t *testing.T) {
	tests := []struct {
		name string
		in   []vec
		want []vec
	}{
		{"empty", nil, nil},
		{"one point twice", []vec{{1, 1}, {1, 1}}, []vec{{1, 1}}},
		{"segment", []vec{{1, 1}, {0, 0}}, []vec{{0, 0}, {1, 1}}},
		{"square with an inner point", []vec{{0, 0}, {1, 1}, {0.5, 0.5}, {1, 0}, {0, 1}},
			[]vec{{0, 0}, {1, 0}, {1, 1}, {0, 1}}},
		{"collinear", []vec{{0, 0}, {2, 2}, {1, 1}}, []vec{{0, 0}, {2, 2}}},
	}
	for _, tt := range tests {
		if got := convexHull(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("convexHull(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
