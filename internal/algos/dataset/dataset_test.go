package dataset

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

func TestTruthTables(t *testing.T) {
	tests := []struct {
		name string
		want []int
	}{
		{"or", []int{-1, 1, 1, 1}},
		{"and", []int{-1, -1, -1, 1}},
		{"xor", []int{-1, 1, 1, -1}},
	}
	for _, tt := range tests {
		s, err := New(Spec{Name: tt.name})
		if err != nil || !reflect.DeepEqual(s.Y, tt.want) {
			t.Errorf("New(%q).Y = %v, %v; want %v", tt.name, s.Y, err, tt.want)
		}
	}
}

func TestRandomSets(t *testing.T) {
	for _, name := range []string{"separable", "noisy", "blobs"} {
		spec := Spec{Name: name, N: 50, Margin: 0.5, Seed: 7}
		a, err := New(spec)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := New(spec)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two draws with one seed differ", name)
		}
		spec.Seed = 8
		if c, _ := New(spec); reflect.DeepEqual(a, c) {
			t.Errorf("%s: seeds 7 and 8 give the same set", name)
		}
		if len(a.X) != 50 || len(a.Y) != 50 {
			t.Errorf("%s: %d points, want 50", name, len(a.X))
		}
		for _, x := range a.X {
			for _, v := range x {
				if v != math.Round(v*100)/100 {
					t.Fatalf("%s: %v has more than two decimals", name, v)
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	if _, err := New(Spec{Name: "nope", N: 10}); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown name: %v, want ErrUnknown", err)
	}
	for _, n := range []int{0, MinN - 1, MaxN + 1} {
		if _, err := New(Spec{Name: "noisy", N: n}); err == nil {
			t.Errorf("N = %d accepted, want an error", n)
		}
	}
	if _, err := New(Spec{Name: "separable", N: 10, Margin: math.NaN()}); err == nil {
		t.Errorf("NaN margin accepted")
	}
}
