package dataset

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

var shapeNames = []string{"circles", "moons", "checkerboard", "xor-cloud"}

// Rounding to two decimals moves a point by at most 0.005√2 ≈ 0.0071.
const roundTol = 0.008

func TestShapesCountsAndBalance(t *testing.T) {
	for _, name := range shapeNames {
		for _, n := range []int{MinN, 41, MaxN} {
			s, err := New(Spec{Name: name, N: n, Noise: 0.1, Seed: 3})
			if err != nil {
				t.Fatalf("New(%q, N=%d) = %v", name, n, err)
			}
			if len(s.X) != n || len(s.Y) != n {
				t.Errorf("New(%q, N=%d): %d points, %d labels; want %d", name, n, len(s.X), len(s.Y), n)
			}
			pos := 0
			for i, y := range s.Y {
				if want := 1 - 2*(i%2); y != want {
					t.Fatalf("New(%q).Y[%d] = %d, want %d (labels alternate)", name, i, y, want)
				}
				if y > 0 {
					pos++
				}
			}
			if want := (n + 1) / 2; pos != want {
				t.Errorf("New(%q, N=%d): %d points +1, want %d", name, n, pos, want)
			}
			for _, x := range s.X {
				for _, v := range x {
					if v != math.Round(v*100)/100 {
						t.Fatalf("%s: %v has more than two decimals", name, v)
					}
				}
			}
		}
	}
}

func TestShapesRuleWithoutNoise(t *testing.T) {
	tests := []struct {
		name string
		// ok reports whether x, labelled y, obeys the set's rule.
		ok func(x []float64, y int) bool
	}{
		{"circles", func(x []float64, y int) bool {
			want := 1.0
			if y < 0 {
				want = 2
			}
			return math.Abs(math.Hypot(x[0], x[1])-want) <= roundTol
		}},
		{"moons", func(x []float64, y int) bool {
			// Undo the centring and scaling, then undo the lower moon's flip.
			u, v := x[0]/moonScale+moonCX, x[1]/moonScale+moonCY
			if y < 0 {
				u, v = 1-u, 0.5-v
			}
			return math.Abs(math.Hypot(u, v)-1) <= roundTol && v >= -roundTol
		}},
		{"checkerboard", func(x []float64, y int) bool {
			in := math.Abs(x[0]) <= 2 && math.Abs(x[1]) <= 2
			return in && checkerLabel(x[0], x[1]) == y
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(Spec{Name: tt.name, N: 200, Seed: 11})
			if err != nil {
				t.Fatal(err)
			}
			for i, x := range s.X {
				if !tt.ok(x, s.Y[i]) {
					t.Errorf("point %d = %v labelled %d breaks the rule", i, x, s.Y[i])
				}
			}
		})
	}
}

func TestXORCloudQuadrants(t *testing.T) {
	s, err := New(Spec{Name: "xor-cloud", N: 400, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	agree := 0
	for i, x := range s.X {
		want := 1 // coordinates of opposite signs
		if x[0]*x[1] > 0 {
			want = -1
		}
		if s.Y[i] == want {
			agree++
		}
	}
	// σ = 0.35 puts a point across an axis with probability about 0.4%.
	if agree < 390 {
		t.Errorf("%d of 400 xor-cloud points in their label's quadrants, want at least 390", agree)
	}
}

func TestShapesNoiseMovesPoints(t *testing.T) {
	clean, _ := New(Spec{Name: "circles", N: 100, Seed: 2})
	noisy, _ := New(Spec{Name: "circles", N: 100, Noise: 0.3, Seed: 2})
	off := 0
	for _, x := range noisy.X {
		r := math.Hypot(x[0], x[1])
		if math.Abs(r-1) > 0.05 && math.Abs(r-2) > 0.05 {
			off++
		}
	}
	if off < 50 {
		t.Errorf("noise 0.3: %d of 100 points off both circles, want at least 50", off)
	}
	if !reflect.DeepEqual(clean.Y, noisy.Y) {
		t.Errorf("noise changed the labels: %v, want %v", noisy.Y, clean.Y)
	}
}

func TestShapesDeterminism(t *testing.T) {
	for _, name := range shapeNames {
		for _, noise := range []float64{0, 0.2} {
			spec := Spec{Name: name, N: 60, Noise: noise, Seed: 7}
			a, err := New(spec)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := New(spec); !reflect.DeepEqual(a, b) {
				t.Errorf("%s, noise %v: two draws with one seed differ", name, noise)
			}
			spec.Seed = 8
			if c, _ := New(spec); reflect.DeepEqual(a, c) {
				t.Errorf("%s, noise %v: seeds 7 and 8 give the same set", name, noise)
			}
		}
	}
}

func TestShapesNoiseRange(t *testing.T) {
	for _, name := range shapeNames {
		for _, noise := range []float64{0, 0.5, 1} {
			if _, err := New(Spec{Name: name, N: 10, Noise: noise}); err != nil {
				t.Errorf("New(%q, noise %v) = %v, want no error", name, noise, err)
			}
		}
		for _, noise := range []float64{-0.01, 1.01, math.NaN(), math.Inf(1)} {
			_, err := New(Spec{Name: name, N: 10, Noise: noise})
			if err == nil || !strings.Contains(err.Error(), "give 0 to 1") {
				t.Errorf("New(%q, noise %v) = %v, want an error saying 0 to 1", name, noise, err)
			}
		}
	}
	// The older sets ignore Noise.
	if _, err := New(Spec{Name: "noisy", N: 10, Noise: 5}); err != nil {
		t.Errorf("New(noisy, noise 5) = %v, want Noise ignored", err)
	}
}

func TestNamesOrder(t *testing.T) {
	want := []string{"or", "and", "xor", "circles", "moons", "checkerboard", "xor-cloud", "separable", "noisy", "blobs"}
	if got := Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
}
