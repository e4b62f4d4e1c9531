package render

import "testing"

func TestClassOrder(t *testing.T) {
	tests := []struct {
		in, want []int
	}{
		{[]int{-1, 1, -1}, []int{1, -1}},
		{[]int{-1, -1}, []int{-1}},
		{[]int{2, 0, 1, 0}, []int{0, 1, 2}},
		{nil, nil},
	}
	for _, tt := range tests {
		got := ClassOrder(tt.in)
		if len(got) != len(tt.want) || len(got) > 0 && !equalInts(got, tt.want) {
			t.Errorf("classOrder(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func equalInts(a, b []int) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestNewPicksEmpty: no points is an empty layer, not an error (a demo's
// custom data start empty); picks_test.go, an external test, checks the
// rest.
func TestNewPicksEmpty(t *testing.T) {
	if pk, err := NewPicks(nil, nil); err != nil || pk == nil || len(pk.pts) != 0 {
		t.Errorf("NewPicks(nil, nil) = %v, %v; want an empty layer", pk, err)
	}
}
