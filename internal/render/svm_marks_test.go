package render

import (
	"strconv"
	"strings"
	"testing"
)

// svmOverOf returns the figure's layer of rings and labels.
func svmOverOf(t *testing.T, f DataFigure) *svmOver {
	t.Helper()
	for _, l := range f.Layers {
		if o, ok := l.(*svmOver); ok {
			return o
		}
	}
	t.Fatal("no svmOver layer")
	return nil
}

// TestSVMRings counts the rings of each kind, in the figure's layer and
// in the SVG: each ring is a circle of the ring's radius (a misclassified
// point's double ring has a second, wider one), solid, dashed or thin.
func TestSVMRings(t *testing.T) {
	tests := []struct {
		name                  string
		scene                 SVMScene
		margin, inside, wrong int
	}{
		{"soft, kinds from α and f", softScene(), 4, 2, 2},
		{"hard", hardScene(), 3, 0, 0},
		{"kernel", kernelScene(), 2, 2, 1},
		{"kinds given", func() SVMScene {
			sc := softScene()
			sc.Kind = make([]string, len(sc.X))
			sc.Kind[2], sc.Kind[3], sc.Kind[12] = SVMargin, SVInside, SVMisclassified
			return sc
		}(), 1, 1, 1},
		{"hull", hullScene(), 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := SVMFigure(tt.scene)
			if err != nil {
				t.Fatal(err)
			}
			var got [4]int
			for _, r := range svmOverOf(t, f).rings {
				got[r.kind]++
			}
			if got[kindMargin] != tt.margin || got[kindInside] != tt.inside || got[kindWrong] != tt.wrong {
				t.Errorf("rings on margin, inside, misclassified = %d, %d, %d; want %d, %d, %d",
					got[kindMargin], got[kindInside], got[kindWrong], tt.margin, tt.inside, tt.wrong)
			}
			svg := svmSVG(t, tt.scene, Options{})
			ptR := markerRadius(len(tt.scene.X))
			r := strconv.FormatFloat(1.25*ptR+2, 'g', 5, 64)
			arc := "A" + r + "," + r + " "
			width := strconv.FormatFloat(0.75+ptR/6, 'g', 5, 64)
			var solid, dashed, thin int
			for _, line := range strings.Split(svg, "\n") {
				if !strings.Contains(line, arc) || !strings.Contains(line, "fill:none;stroke:#000000;") {
					continue
				}
				n := strings.Count(line, arc) / 2 // a circle is two arcs
				switch {
				case strings.Contains(line, "stroke-dasharray"):
					dashed += n
				case strings.Contains(line, "stroke-width:"+width+`"`):
					solid += n
				default:
					thin += n
				}
			}
			if solid != tt.margin || dashed != tt.inside || thin != tt.wrong {
				t.Errorf("SVG has %d solid, %d dashed, %d thin rings of radius %s; want %d, %d, %d",
					solid, dashed, thin, r, tt.margin, tt.inside, tt.wrong)
			}
		})
	}
}

// TestSVMLabels: α is written beside each support vector while there
// are at most 15, and then only for the pair; ξ while there are at most
// 8 violators.
func TestSVMLabels(t *testing.T) {
	soft := svmSVG(t, softScene(), Options{})
	for _, want := range []string{">α=0.55<", ">α=0.3<", ">ξ=1.8<", ">2/‖w‖ = 1.79<"} {
		if !strings.Contains(soft, want) {
			t.Errorf("soft scene: no label %q", want)
		}
	}
	hard := svmSVG(t, hardScene(), Options{})
	for _, want := range []string{">i: α=0.3<", ">j: α=0.5<", ">α=0.2<"} {
		if !strings.Contains(hard, want) {
			t.Errorf("hard scene: no label %q", want)
		}
	}
	big := svmSVG(t, bigScene(), Options{})
	if n := strings.Count(big, ">α="); n != 0 {
		t.Errorf("200 points: %d α labels, want none besides the pair's", n)
	}
	if n := strings.Count(big, ">ξ="); n != 0 {
		t.Errorf("200 points: %d ξ labels, want none", n)
	}
	if !strings.Contains(big, ">i: α=") || !strings.Contains(big, ">j: α=") {
		t.Error("200 points: the pair is not labelled")
	}
	// A thumbnail has room for the pair's labels only.
	small := svmSVG(t, softScene(), Options{Width: 300, Height: 300})
	if strings.Contains(small, ">α=") {
		t.Error("300 px: α labels drawn; want none")
	}
}
