package scenes

import (
	"regexp"
	"testing"
)

// TestSVMFigureIterateHasNoKinds: kinds of support vector belong to an
// optimum. A scene of a stochastic step (Pair [i, −1]) derives none from
// its α and f, so its figure counts no support vectors by kind; the same
// scene without the sampled point (an optimum's) does.
func TestSVMFigureIterateHasNoKinds(t *testing.T) {
	kinds := regexp.MustCompile(`[0-9]+ (on the margin|inside the margin|misclassified)`)
	sc := SVMScene{
		X: [][]float64{{-1, 0}, {1, 0}, {0.2, 0}}, Y: []int{-1, 1, 1}, Alpha: []float64{0.5, 0.4, 0.3}, C: 1,
		Decision: func(x1, _ float64) float64 { return 1.3 * x1 }, // yᵢf(xᵢ) = 1.3, 1.3, 0.26
		Pair:     [2]int{2, -1},
	}
	f, err := SVMFigure(sc)
	if err != nil {
		t.Fatal(err)
	}
	if m := kinds.FindString(f.Desc); m != "" {
		t.Errorf("an iterate's figure says %q: %s", m, f.Desc)
	}
	sc.Pair = [2]int{-1, -1}
	if f, err = SVMFigure(sc); err != nil {
		t.Fatal(err)
	}
	if m := kinds.FindString(f.Desc); m == "" {
		t.Errorf("an optimum's figure names no kinds: %s", f.Desc)
	}
}

// TestSVMFigureIterateWeightsNotZero: an iterate with nonzero weights is
// never described as "every αᵢ is 0" (kernel-pegasos at step 3 said so
// beside a panel listing two nonzero weights).
func TestSVMFigureIterateWeightsNotZero(t *testing.T) {
	sc := SVMScene{
		X: [][]float64{{-1, 0}, {1, 0}}, Y: []int{-1, 1}, Alpha: []float64{-0.5556, 0.2222}, C: 1,
		Decision: func(x1, _ float64) float64 { return x1 },
		Pair:     [2]int{1, -1},
	}
	f, err := SVMFigure(sc)
	if err != nil {
		t.Fatal(err)
	}
	if regexp.MustCompile(`Every αᵢ is 0`).MatchString(f.Desc) {
		t.Errorf("an iterate with weights %v says every αᵢ is 0: %s", sc.Alpha, f.Desc)
	}
	sc.Alpha = []float64{0, 0}
	if f, err = SVMFigure(sc); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`Every αᵢ is 0`).MatchString(f.Desc) {
		t.Errorf("all-zero weights are not said to be zero: %s", f.Desc)
	}
}

// TestSVMFigureBeyondTheBandIsNoKind: a point with αᵢ > 0 outside the
// band (yᵢf(xᵢ) > 1, which only a run short of its optimum has) is
// counted outside the band, not on the margin; one at yᵢf(xᵢ) = 1 is on
// the margin.
func TestSVMFigureBeyondTheBandIsNoKind(t *testing.T) {
	sc := SVMScene{
		X: [][]float64{{-1, 0}, {1, 0}, {2, 0}}, Y: []int{-1, 1, 1}, Alpha: []float64{0.5, 0.4, 0.3}, C: 1,
		W: []float64{1, 0}, // yᵢf(xᵢ) = 1, 1, 2
	}
	f, err := SVMFigure(sc)
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`([0-9]+) on the margin`).FindStringSubmatch(f.Desc); m == nil || m[1] != "2" {
		t.Errorf("want 2 on the margin (the point at yf = 2 is not): %s", f.Desc)
	}
	if !regexp.MustCompile(`3 support vectors: 2 on the margin, 1 outside the band`).MatchString(f.Desc) {
		t.Errorf("want the point at yf = 2 counted outside the band: %s", f.Desc)
	}
}
