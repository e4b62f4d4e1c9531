package scenes

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/render"
)

// softScene is a soft-margin SVM (C = 1) with f(x) = x₁ + ½x₂ − ½: four
// support vectors on the margin, two inside it and two misclassified,
// with their slack drawn and the perceptron's line for comparison.
func softScene() SVMScene {
	return SVMScene{
		X: [][]float64{
			{1.5, 0}, {1, 1}, {2.5, 1}, {3, -1}, {2, 2}, {3.2, 0.8}, {2.4, -0.6}, {1.8, 2.8}, {0.8, 0.6}, {-0.5, 0.4},
			{-0.5, 0}, {0, -1}, {-2, 0.5}, {-1.5, -1.5}, {-2.2, 1.8}, {-0.8, -2.2}, {-2.6, -0.6}, {0.2, 0.2}, {1.6, 0.6},
		},
		Y:       []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
		Alpha:   []float64{0.3, 0.55, 0, 0, 0, 0, 0, 0, 1, 1, 0.45, 0.4, 0, 0, 0, 0, 0, 1, 1},
		C:       1,
		W:       []float64{1, 0.5},
		B:       -0.5,
		Slack:   true,
		Overlay: &SceneLine{W: []float64{1.1, 1.3}, B: -0.2, Label: "perceptron"},
	}
}

// hardScene is a hard-margin SVM, w = (0.8, 0.6), b = 0, after an SMO
// step on the pair x₁, x₁₁.
func hardScene() SVMScene {
	return SVMScene{
		X: [][]float64{{1, 1.0 / 3}, {0.2, 1.4}, {2, 1}, {1.5, 2}, {3, 0}, {0.5, 2.5},
			{-2, -1}, {-1, -2}, {-2.5, 0.5}, {0, -2.5}, {-1.25, 0}},
		Y:     []int{1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1},
		Alpha: []float64{0.3, 0.2, 0, 0, 0, 0, 0, 0, 0, 0, 0.5},
		C:     math.Inf(1),
		W:     []float64{0.8, 0.6},
		Pair:  [2]int{0, 10},
	}
}

// hullScene is XOR with a few more points: no hard margin exists, and the
// certificate λ = ¼ on the four corners shows the hulls meeting at 0.
func hullScene() SVMScene {
	return SVMScene{
		X:    [][]float64{{1, 1}, {-1, -1}, {1, -1}, {-1, 1}, {1.6, 1.3}, {-1.4, -1.7}, {1.5, -1.6}, {-1.7, 1.2}},
		Y:    []int{1, 1, -1, -1, 1, 1, -1, -1},
		C:    math.Inf(1),
		Hull: []float64{0.25, 0.25, 0.25, 0.25, 0, 0, 0, 0},
	}
}

// kernelScene is a kernel SVM whose f(x) = x₁² + x₂² − 1 is a circle:
// class −1 inside, +1 outside, with a support vector of each kind.
func kernelScene() SVMScene {
	return SVMScene{
		X: [][]float64{{0, 0}, {0.3, -0.2}, {-0.4, 0.3}, {0.5, 0.5}, {-0.2, -0.5},
			{1.8, 0}, {0, -1.7}, {-1.3, 1.1}, {1.2, 1.2}, {1, 0.2}, {math.Sqrt2, 0}, {0.3, 0.4}, {-1.6, -0.9}},
		Y:        []int{-1, -1, -1, -1, -1, 1, 1, 1, 1, 1, 1, 1, 1},
		Alpha:    []float64{0.8, 0, 0, 10, 0, 0, 0, 0, 0, 10, 1.2, 10, 0},
		C:        10,
		Decision: func(x1, x2 float64) float64 { return x1*x1 + x2*x2 - 1 },
		Pair:     [2]int{3, 9},
	}
}

// bigScene is 200 points of two overlapping Gaussian blobs with the
// soft-margin solution's kinds read from α: the size and speed budget.
func bigScene() SVMScene {
	r := rand.New(rand.NewPCG(1, 2))
	sc := SVMScene{C: 1, W: []float64{1.1, 0.9}, B: -0.1, Slack: true, Pair: [2]int{17, 140}}
	for i := range 200 {
		y := 1 - 2*(i%2)
		x := []float64{float64(y)*0.9 + r.NormFloat64(), float64(y)*0.7 + r.NormFloat64()}
		sc.X, sc.Y = append(sc.X, x), append(sc.Y, y)
		m := float64(y) * (sc.W[0]*x[0] + sc.W[1]*x[1] + sc.B)
		switch {
		case m < 1:
			sc.Alpha = append(sc.Alpha, 1)
		case m < 1.05:
			sc.Alpha = append(sc.Alpha, 0.5)
		default:
			sc.Alpha = append(sc.Alpha, 0)
		}
	}
	return sc
}

// sizedScene is an RBF SVM (γ = 0.7, C = 2) on 30 noisy points, each
// point sized by its αᵢ: the representer theorem's picture of
// f(x) = Σᵢ αᵢyᵢK(xᵢ, x) + b as a weighted sum over the training points.
// The α, b and kinds are the svm package's solution, rounded.
func sizedScene() SVMScene {
	sc := SVMScene{
		X: [][]float64{{3.17, -0.76}, {-1.54, -1.07}, {1.14, 1.81}, {-2.09, -1.96}, {0.22, 2}, {-1.51, -0.24},
			{0.9, 1.5}, {-0.5, -2.18}, {1.87, -0.52}, {0.37, -3.16}, {-0.1, 0.62}, {-2.21, -1.21}, {1.19, -0.86},
			{0.5, -2.1}, {1.23, 1.33}, {-0.62, -0.14}, {0.35, 0.25}, {-0.57, -0.22}, {-0.63, -0.27}, {-1.62, 0.14},
			{1.57, 0.94}, {-1.4, 0.51}, {1.88, 2.54}, {-1.05, -0.48}, {1.68, 0.06}, {-1.54, -1.76}, {1.72, 1.43},
			{-0.81, -0.87}, {0.75, 0.17}, {-0.37, -0.36}},
		Alpha: []float64{0.8575, 0, 0, 0.6882, 0.3632, 0, 0, 0.2237, 0, 0.6224, 1.918, 0.4437, 1.183, 0.8523, 0,
			1.863, 0.2388, 0, 2, 0, 0.1445, 1.041, 0.7429, 0, 0, 0, 0.286, 0, 0, 2},
		C:    2,
		Pair: [2]int{-1, -1},
	}
	e := &rbfTerms{gamma: 0.7, b: 0.0628}
	for i := range sc.X {
		sc.Y = append(sc.Y, 1-2*(i%2))
		if a := sc.Alpha[i]; a > 0 {
			e.x = append(e.x, [2]float64{sc.X[i][0], sc.X[i][1]})
			e.c = append(e.c, a*float64(sc.Y[i]))
		}
	}
	sc.Kind = make([]string, len(sc.X))
	for _, i := range []int{0, 3, 4, 7, 9, 10, 11, 12, 13, 15, 16, 20, 21, 22, 26} {
		sc.Kind[i] = SVMargin
	}
	sc.Kind[18], sc.Kind[29] = SVMisclassified, SVInside
	sc.Size = sc.Alpha
	sc.Decision, sc.DecisionGrid = e.eval, e.grid
	return sc
}

var svmScenes = []struct {
	name  string
	scene func() SVMScene
}{
	{"soft", softScene},
	{"hard_pair", hardScene},
	{"hull", hullScene},
	{"kernel", kernelScene},
	{"sized", sizedScene},
}

func svmSVG(t testing.TB, sc SVMScene, opt render.Options) string {
	t.Helper()
	f, err := SVMFigure(sc)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := f.WriteSVG(&b, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSVMGolden compares each scene with testdata/svm_<case>_golden.svg,
// after checking that two renderings, one at another size in between,
// give the same bytes.
func TestSVMGolden(t *testing.T) {
	for _, c := range svmScenes {
		t.Run(c.name, func(t *testing.T) {
			a := svmSVG(t, c.scene(), render.Options{})
			f, err := SVMFigure(c.scene())
			if err != nil {
				t.Fatal(err)
			}
			f.WriteSVG(io.Discard, render.Options{Width: 1920, Height: 1080})
			var b bytes.Buffer
			f.WriteSVG(&b, render.Options{})
			if b.String() != a {
				t.Fatal("two renderings of one scene differ (did scaling change a layer?)")
			}
			checkTextAlternative(t, a)
			checkGolden(t, "svm_"+c.name, []byte(a))
			if *look != "" {
				writeSVMLook(t, c.name, f)
			}
		})
	}
}

// writeSVMLook writes the figure as PNG at the sizes it must read at: a
// thumbnail, the page's 600 px, and a 1920×1080 presenter view.
func writeSVMLook(t *testing.T, name string, f render.DataFigure) {
	t.Helper()
	if err := os.MkdirAll(*look, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []render.Options{{Width: 300, Height: 300}, {}, {Width: 1920, Height: 1080}} {
		var b bytes.Buffer
		if err := f.WritePNG(&b, opt); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(*look, fmt.Sprintf("svm_%s_%dx%d.png", name, opt.Width, opt.Height))
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSVMLookBig(t *testing.T) {
	if *look == "" {
		t.Skip("no -look directory")
	}
	f, err := SVMFigure(bigScene())
	if err != nil {
		t.Fatal(err)
	}
	writeSVMLook(t, "big", f)
}

// TestSVMEdges draws scenes at the edges of what a solver gives; none may
// fail, panic or write NaN, at sizes from a thumbnail to a presenter's.
func TestSVMEdges(t *testing.T) {
	two := [][]float64{{0, 0}, {1, 1}}
	tests := []struct {
		name  string
		scene SVMScene
	}{
		{"before a solve", SVMScene{X: two, Y: []int{1, -1}, C: math.Inf(1)}},
		{"α = 0, w = 0", SVMScene{X: two, Y: []int{1, -1}, C: 1, Alpha: []float64{0, 0}, W: []float64{0, 0}}},
		{"w = 0, b < 0", SVMScene{X: two, Y: []int{1, -1}, C: 1, W: []float64{0, 0}, B: -2, Slack: true}},
		{"lines outside the view", SVMScene{X: two, Y: []int{1, -1}, C: 1, W: []float64{1, 0}, B: -100, Alpha: []float64{1, 1}, Slack: true}},
		{"band wider than the view", SVMScene{X: two, Y: []int{1, -1}, C: 1, W: []float64{0.01, 0.01}, B: -0.01}},
		{"one class", SVMScene{X: two, Y: []int{1, 1}, C: 1, W: []float64{1, 1}, B: -1, Alpha: []float64{0.5, 0}}},
		{"one point", SVMScene{X: [][]float64{{2, 3}}, Y: []int{-1}, C: 1, W: []float64{1, 0}, B: -2, Alpha: []float64{1}, Slack: true}},
		{"huge coordinates", SVMScene{X: [][]float64{{-3e6, 1e6}, {2e6, 5e6}}, Y: []int{1, -1}, C: 1,
			W: []float64{-4e-7, -8e-7}, B: 1.2, Alpha: []float64{1e-13, 1e-13}}},
		{"tiny coordinates", SVMScene{X: [][]float64{{1e-7, 0}, {0, 2e-7}, {3e-7, 1e-7}}, Y: []int{1, -1, 1}, C: 1e9,
			W: []float64{1e7, -1e7}, B: 0, Alpha: []float64{2e13, 4e13, 2e13}, Pair: [2]int{0, 1}}},
		{"kernel before a solve", SVMScene{X: two, Y: []int{1, -1}, C: 1, Alpha: []float64{0, 0},
			Decision: func(x1, x2 float64) float64 { return 0 }}},
		{"kernel f NaN", SVMScene{X: two, Y: []int{1, -1}, C: 1, Alpha: []float64{1, 1},
			Decision: func(x1, x2 float64) float64 { return math.NaN() }}},
		{"certificate for one class", SVMScene{X: two, Y: []int{1, -1}, C: math.Inf(1), Hull: []float64{1, 0}}},
		{"stepping, before a solve", SVMScene{X: two, Y: []int{1, -1}, C: 1, Stepping: true, Slack: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, opt := range []render.Options{{Width: 200, Height: 200}, {}, {Width: 1920, Height: 1080}, {Width: 300, Height: 2000}} {
				svg := svmSVG(t, tt.scene, opt)
				if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
					t.Errorf("%+v: the SVG has NaN or Inf", opt)
				}
				checkTextAlternative(t, svg)
			}
			f, _ := SVMFigure(tt.scene)
			if err := f.WritePNG(io.Discard, render.Options{}); err != nil {
				t.Fatal(err)
			}
		})
	}
	for _, c := range svmScenes {
		if svg := svmSVG(t, c.scene(), render.Options{}); strings.Contains(svg, "NaN") {
			t.Errorf("%s: the SVG has NaN", c.name)
		}
	}
}

// TestSVMSteppingFrame: while stepping, the figure keeps its data area
// from before the first step to the last, whatever each step shows.
func TestSVMSteppingFrame(t *testing.T) {
	end := softScene()
	states := []SVMScene{
		{X: end.X, Y: end.Y, C: 1},
		{X: end.X, Y: end.Y, C: 1, Alpha: make([]float64, len(end.X)), W: []float64{0, 0}},
		{X: end.X, Y: end.Y, C: 1, Alpha: end.Alpha, W: []float64{0.3, 0.1}, B: 0.2, Pair: [2]int{8, 17}},
		end,
	}
	var first render.Frame
	for k, sc := range states {
		sc.Stepping, sc.Slack, sc.Overlay = true, true, end.Overlay
		f, err := SVMFigure(sc)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := f.WriteSVG(io.Discard, render.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			first = fr
		} else if fr != first {
			t.Errorf("state %d: frame %+v, want %+v as at state 0", k, fr, first)
		}
	}
}

func TestSVMErrors(t *testing.T) {
	two := [][]float64{{0, 0}, {1, 1}}
	ok := func(f func(*SVMScene)) SVMScene {
		sc := SVMScene{X: two, Y: []int{1, -1}, C: 1}
		f(&sc)
		return sc
	}
	nan := math.NaN()
	tests := []struct {
		name  string
		scene SVMScene
		want  error
	}{
		{"no points", SVMScene{C: 1}, render.ErrNoData},
		{"3-D points", ok(func(s *SVMScene) { s.X = [][]float64{{0, 0, 0}, {1, 1, 1}} }), render.ErrDimension},
		{"1-D point", ok(func(s *SVMScene) { s.X = [][]float64{{0}, {1, 1}} }), render.ErrDimension},
		{"NaN coordinate", ok(func(s *SVMScene) { s.X = [][]float64{{0, nan}, {1, 1}} }), render.ErrNotFinite},
		{"infinite coordinate", ok(func(s *SVMScene) { s.X = [][]float64{{0, 0}, {math.Inf(-1), 1}} }), render.ErrNotFinite},
		{"NaN α", ok(func(s *SVMScene) { s.Alpha = []float64{nan, 0} }), render.ErrNotFinite},
		{"infinite λ", ok(func(s *SVMScene) { s.Hull = []float64{math.Inf(1), 0} }), render.ErrNotFinite},
		{"NaN w", ok(func(s *SVMScene) { s.W = []float64{nan, 0} }), render.ErrNotFinite},
		{"NaN b", ok(func(s *SVMScene) { s.B = nan }), render.ErrNotFinite},
		{"NaN C", ok(func(s *SVMScene) { s.C = nan }), render.ErrNotFinite},
		{"infinite overlay", ok(func(s *SVMScene) { s.Overlay = &SceneLine{W: []float64{1, 1}, B: math.Inf(1)} }), render.ErrNotFinite},
		{"label 0", ok(func(s *SVMScene) { s.Y = []int{1, 0} }), render.ErrShape},
		{"labels for other points", ok(func(s *SVMScene) { s.Y = []int{1} }), render.ErrShape},
		{"α for other points", ok(func(s *SVMScene) { s.Alpha = []float64{1} }), render.ErrShape},
		{"kinds for other points", ok(func(s *SVMScene) { s.Kind = []string{""} }), render.ErrShape},
		{"unknown kind", ok(func(s *SVMScene) { s.Kind = []string{"", "bound"} }), render.ErrShape},
		{"λ for other points", ok(func(s *SVMScene) { s.Hull = []float64{1, 1, 1} }), render.ErrShape},
		{"C = 0", ok(func(s *SVMScene) { s.C = 0 }), render.ErrShape},
		{"3-D w", ok(func(s *SVMScene) { s.W = []float64{1, 1, 1} }), render.ErrShape},
		{"overlay without w", ok(func(s *SVMScene) { s.Overlay = &SceneLine{Label: "perceptron"} }), render.ErrShape},
		{"w and Decision", ok(func(s *SVMScene) { s.W, s.Decision = []float64{1, 1}, func(a, b float64) float64 { return a } }), render.ErrShape},
		{"pair out of range", ok(func(s *SVMScene) { s.Pair = [2]int{0, 2} }), render.ErrShape},
		{"pair below −1", ok(func(s *SVMScene) { s.Pair = [2]int{-2, 1} }), render.ErrShape},
		{"sizes for other points", ok(func(s *SVMScene) { s.Size = []float64{1} }), render.ErrShape},
		{"negative size", ok(func(s *SVMScene) { s.Size = []float64{1, -0.5} }), render.ErrShape},
		{"NaN size", ok(func(s *SVMScene) { s.Size = []float64{nan, 1} }), render.ErrNotFinite},
		{"infinite size", ok(func(s *SVMScene) { s.Size = []float64{0, math.Inf(1)} }), render.ErrNotFinite},
		{"DecisionGrid without Decision", ok(func(s *SVMScene) { s.DecisionGrid = func(xs, ys, z []float64) {} }), render.ErrShape},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := SVMFigure(tt.scene); !errors.Is(err, tt.want) {
				t.Errorf("SVMFigure error = %v, want %v", err, tt.want)
			}
		})
	}
}
