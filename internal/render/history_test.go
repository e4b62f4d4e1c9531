package render

import (
	"slices"
	"testing"

	"gonum.org/v1/plot/plotter"
)

func TestSampleIndices(t *testing.T) {
	tests := []struct {
		n, m      int
		wantLen   int
		wantFirst []int
	}{
		{5, 10, 5, []int{0, 1, 2}},
		{2000, 2000, 2000, []int{0, 1, 2}},
		{10001, 2000, 2000, []int{0, 5, 10}},
		{4001, 3, 3, []int{0, 2000, 4000}},
	}
	for _, tt := range tests {
		got := sampleIndices(tt.n, tt.m)
		if len(got) != tt.wantLen || !slices.Equal(got[:len(tt.wantFirst)], tt.wantFirst) || got[len(got)-1] != tt.n-1 {
			t.Errorf("sampleIndices(%d, %d) = %v…%v (len %d), want len %d starting %v and ending %d",
				tt.n, tt.m, got[:min(3, len(got))], got[len(got)-1], len(got), tt.wantLen, tt.wantFirst, tt.n-1)
		}
		for i := 1; i < len(got); i++ {
			if got[i] <= got[i-1] {
				t.Fatalf("sampleIndices(%d, %d) not increasing at %d: %v", tt.n, tt.m, i, got[i-1:i+1])
			}
		}
	}
}

func TestSteps(t *testing.T) {
	in := plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 2, Y: 1}, {X: 3, Y: 1}, {X: 4, Y: 1}, {X: 5, Y: 2}, {X: 6, Y: 2}}
	want := plotter.XYs{{X: 0, Y: 0}, {X: 2, Y: 1}, {X: 5, Y: 2}, {X: 6, Y: 2}}
	if got := steps(in); !slices.Equal(got, want) {
		t.Errorf("steps(%v) = %v, want %v", in, got, want)
	}
}
