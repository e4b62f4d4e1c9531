package scenes

import (
	"bytes"
	"html"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/render"
)

// svmDesc returns the <desc> of sc's figure.
func svmDesc(t *testing.T, sc SVMScene) string {
	t.Helper()
	svg := svmSVG(t, sc, render.Options{})
	return html.UnescapeString(svg[strings.Index(svg, "<desc>")+len("<desc>") : strings.Index(svg, "</desc>")])
}

func TestSVMDesc(t *testing.T) {
	tests := []struct {
		name  string
		scene SVMScene
		want  []string
	}{
		{"soft", softScene(), []string{"soft margin, C = 1", "2/‖w‖ = 1.79 wide",
			"8 support vectors: 4 on the margin, 2 inside the margin, 2 misclassified.",
			"4 points violate the margin, with total slack Σξᵢ = 5.4", "perceptron (w = (1.1, 1.3), b = −0.2) is dashed grey",
			"10 with y = +1, 9 with y = −1"}},
		{"hard", hardScene(), []string{"hard margin", "2/‖w‖ = 2 wide", "3 support vectors: 3 on the margin.",
			"pair i = x₁ (α = 0.3) and j = x₁₁ (α = 0.5)."}},
		{"hull", hullScene(), []string{"Not linearly separable", "the 4 points with certificate weight λᵢ > 0", "meet at (0, 0)"}},
		{"kernel", kernelScene(), []string{"kernel SVM, C = 10", "decision function f is shown as a field",
			"5 support vectors: 2 on the margin, 2 inside the margin, 1 misclassified."}},
		{"points only", SVMScene{X: [][]float64{{0, 0}, {1, 1}}, Y: []int{1, -1}, C: 1},
			[]string{"2 points in two dimensions (1 with y = +1, 1 with y = −1)."}},
		{"state 0", SVMScene{X: [][]float64{{0, 0}, {1, 1}}, Y: []int{1, -1}, C: 1, Alpha: []float64{0, 0}, W: []float64{0, 0}},
			[]string{"w = 0, so f is the constant b = 0 and every point is predicted −1", "Every αᵢ is 0: no support vectors."}},
		{"w = 0 at the optimum", SVMScene{X: [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, Y: []int{-1, 1, 1, -1}, C: 1,
			Alpha: []float64{1, 1, 1, 1}, W: []float64{0, 0}, Kind: []string{SVInside, SVInside, SVInside, SVInside}},
			[]string{"every point is predicted −1", "4 support vectors: 4 inside the margin."}},
		{"w = 0, b > 0", SVMScene{X: [][]float64{{0, 0}, {1, 1}}, Y: []int{1, -1}, C: 1, W: []float64{0, 0}, B: 0.5},
			[]string{"w = 0, so f is the constant b = 0.5 and every point is predicted +1"}},
		{"caller's desc first", SVMScene{X: [][]float64{{0, 0}}, Y: []int{1}, C: 1, W: []float64{1, 0}, Desc: "The OR data."},
			[]string{"The OR data. SVM (soft margin"}},
		{"an iterate", SVMScene{X: [][]float64{{0, 0}, {1, 1}}, Y: []int{1, -1}, C: math.Inf(1), W: []float64{-1, -1}, B: 1,
			Problem: "Pegasos, λ = 0.01"}, []string{"2/‖w‖ = 1.41 wide, each of them 1/‖w‖ = 0.707 from the boundary"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := svmDesc(t, tt.scene)
			for _, w := range tt.want {
				if !strings.Contains(d, w) {
					t.Errorf("desc = %q\nwant it to contain %q", d, w)
				}
			}
			// No state says "yet": a scene cannot tell a run that goes on
			// from one that has ended. Without multipliers there are no
			// support vectors to count, and without a model no classifier.
			if strings.Contains(d, "yet") {
				t.Errorf("desc = %q says \"yet\"", d)
			}
			if tt.scene.Alpha == nil && tt.scene.Kind == nil && strings.Contains(d, "support vector") {
				t.Errorf("desc = %q counts support vectors of a scene without multipliers", d)
			}
			if tt.scene.W == nil && tt.scene.Decision == nil && tt.scene.Alpha == nil && tt.scene.Hull == nil {
				f, err := SVMFigure(tt.scene)
				if err != nil {
					t.Fatal(err)
				}
				for _, text := range []string{d, f.Title} {
					if strings.Contains(text, "SVM") || strings.Contains(text, "classifier") || strings.Contains(text, "margin") {
						t.Errorf("%q names a classifier the scene does not have", text)
					}
				}
			}
		})
	}
}

func TestSig(t *testing.T) {
	tests := []struct {
		v    float64
		d    int
		want string
	}{
		{0.4123, 2, "0.41"}, {1, 2, "1"}, {-0.5, 2, "−0.5"}, {123.4, 2, "120"}, {40401, 2, "40401"},
		{3e-5, 2, "3·10⁻⁵"}, {1.234e9, 3, "1.2·10⁹"}, {1.23e7, 3, "12300000"}, {1.7889, 3, "1.79"},
	}
	for _, tt := range tests {
		if got := sig(tt.v, tt.d); got != tt.want {
			t.Errorf("sig(%v, %d) = %q, want %q", tt.v, tt.d, got, tt.want)
		}
	}
}

// TestSVMSampledPoint: Pair [i, −1] marks the one point a stochastic step
// drew, and Problem names the trainer in place of a hard margin.
func TestSVMSampledPoint(t *testing.T) {
	sc := SVMScene{X: [][]float64{{0, 0}, {2, 0}, {0, 2}}, Y: []int{-1, 1, 1}, C: math.Inf(1),
		W: []float64{1, 1}, B: -1, Pair: [2]int{2, -1}, Problem: "Pegasos, λ = 0.01"}
	f, err := SVMFigure(sc)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := f.WriteSVG(&buf, render.Options{}); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	for _, want := range []string{"sampled i = x₃", "point sampled", "Pegasos, λ = 0.01"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if strings.Contains(svg, "hard margin") || strings.Contains(svg, "SMO pair") {
		t.Error("a Pegasos scene is described as a hard-margin SMO step")
	}
}

// TestHaloOnce: a haloed label is one <text> element with a white stroke
// under its fill, not nine copies a screen reader would read nine times,
// and no halo marker (render's private-use U+E000, U+E001) reaches the SVG.
func TestHaloOnce(t *testing.T) {
	s := svmSVG(t, softScene(), render.Options{})
	if strings.Contains(s, "\uE000") || strings.Contains(s, "&#xE000;") || strings.Contains(s, "\uE001") {
		t.Fatal("a halo marker reached the SVG")
	}
	texts := regexp.MustCompile(`(?s)<text [^>]*>([^<]*)</text>`).FindAllStringSubmatch(s, -1)
	seen := map[string]int{}
	for _, m := range texts {
		seen[m[1]]++
	}
	// "w" is also the legend's entry for the arrow.
	for label, want := range map[string]int{"w": 2, "2/‖w‖ = 1.79": 1} {
		if seen[label] != want {
			t.Errorf("label %q is written %d times, want %d", label, seen[label], want)
		}
	}
	halo := regexp.MustCompile(`stroke:#FFFFFF;stroke-width:[0-9.]+px;stroke-linejoin:round;paint-order:stroke">w</text>`)
	if !halo.MatchString(s) {
		t.Error(`the label "w" has no white stroke halo`)
	}
}
