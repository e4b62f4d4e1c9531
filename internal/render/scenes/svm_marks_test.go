package scenes

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/render"
)

// svmOverOf returns the figure's layer of rings and labels.
func svmOverOf(t *testing.T, f render.DataFigure) *svmOver {
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
			svg := svmSVG(t, tt.scene, render.Options{})
			ptR := render.MarkerRadius(len(tt.scene.X))
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
	soft := svmSVG(t, softScene(), render.Options{})
	for _, want := range []string{">α=0.55<", ">α=0.3<", ">ξ=1.8<", ">2/‖w‖ = 1.79<"} {
		if !strings.Contains(soft, want) {
			t.Errorf("soft scene: no label %q", want)
		}
	}
	hard := svmSVG(t, hardScene(), render.Options{})
	for _, want := range []string{">i: α=0.3<", ">j: α=0.5<", ">α=0.2<"} {
		if !strings.Contains(hard, want) {
			t.Errorf("hard scene: no label %q", want)
		}
	}
	big := svmSVG(t, bigScene(), render.Options{})
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
	small := svmSVG(t, softScene(), render.Options{Width: 300, Height: 300})
	if strings.Contains(small, ">α=") {
		t.Error("300 px: α labels drawn; want none")
	}
}

func TestGrowth(t *testing.T) {
	big := math.Sqrt(1 + (maxGrow*maxGrow-1)*0.5)
	tests := []struct {
		name string
		size []float64
		want []float64
	}{
		{"no sizes", nil, nil},
		{"all zero", []float64{0, 0}, []float64{1, 1}},
		{"zero, half, largest", []float64{0, 1, 2}, []float64{1, big, maxGrow}},
		{"one point", []float64{3}, []float64{maxGrow}},
	}
	for _, tt := range tests {
		got := growth(tt.size)
		if (got == nil) != (tt.want == nil) || len(got) != len(tt.want) {
			t.Fatalf("growth(%v) = %v, want %v", tt.size, got, tt.want)
		}
		for i := range got {
			if math.Abs(got[i]-tt.want[i]) > 1e-12 {
				t.Errorf("growth(%s)[%d] = %v, want %v", tt.name, i, got[i], tt.want[i])
			}
		}
	}
}

// TestSVMPointSize: with Size, the largest point's marker is 2.2 times
// the normal radius and its ring grows with it, points of size 0 and the
// legend's swatches keep the normal size, and the <desc> says so.
func TestSVMPointSize(t *testing.T) {
	sc := hardScene() // support vectors x₁, x₂ (y = +1) and x₁₁ (y = −1)
	plain := svmSVG(t, sc, render.Options{})
	sc.Size = make([]float64, len(sc.X))
	sc.Size[0], sc.Size[1], sc.Size[10] = 2, 1, 0.5
	sized := svmSVG(t, sc, render.Options{})
	ptR := render.MarkerRadius(len(sc.X))
	arc := func(r float64) string {
		s := strconv.FormatFloat(r, 'g', 5, 64)
		return "A" + s + "," + s + " "
	}
	half := math.Sqrt(1 + (maxGrow*maxGrow-1)*0.5)
	for _, tt := range []struct {
		name      string
		r         float64
		plain, sz int // circles in each SVG, legend aside
		arcs      int // per circle: a ring is stroked (two arcs), a disc filled and stroked (four)
	}{
		// x₁ to x₆ are the discs of y = +1; x₁ and x₂ grow.
		{"normal disc", ptR, 6, 4, 4},
		{"largest disc", maxGrow * ptR, 0, 1, 4},
		{"largest ring", 1.25*maxGrow*ptR + 2, 0, 1, 2},
		{"x₂'s ring", 1.25*half*ptR + 2, 0, 1, 2},
		{"normal ring", 1.25*ptR + 2, 3, 0, 2},
	} {
		got := (strings.Count(plain, arc(tt.r)) - strings.Count(sized, arc(tt.r))) / tt.arcs
		if want := tt.plain - tt.sz; got != want {
			t.Errorf("%s (r = %.4g): %d more circles without Size than with, want %d", tt.name, tt.r, got, want)
		}
		if n := strings.Count(sized, arc(tt.r)); tt.plain == 0 && n != tt.arcs*tt.sz {
			t.Errorf("%s (r = %.4g): %d arcs with Size, want %d", tt.name, tt.r, n, tt.arcs*tt.sz)
		}
	}
	desc := sized[strings.Index(sized, "<desc>"):strings.Index(sized, "</desc>")]
	if want := "up to 1.7 times the normal radius for the largest, x₁ (2)"; !strings.Contains(desc, want) {
		t.Errorf("desc = %q\nwant it to contain %q", desc, want)
	}
	if strings.Contains(plain, "marker area") {
		t.Error("the <desc> mentions sizes without Size")
	}
}
