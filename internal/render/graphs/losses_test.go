package graphs

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/goldentest"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/rendertest"
)

// lossChart is the soft-margin lesson's chart: every loss, and the
// margins yᵢf(xᵢ) of the points of render/scene's soft-margin test scene
// under its f(x) = x₁ + ½x₂ − ½.
func lossChart() LossChart {
	x := [][]float64{
		{1.5, 0}, {1, 1}, {2.5, 1}, {3, -1}, {2, 2}, {3.2, 0.8}, {2.4, -0.6}, {1.8, 2.8}, {0.8, 0.6}, {-0.5, 0.4},
		{-0.5, 0}, {0, -1}, {-2, 0.5}, {-1.5, -1.5}, {-2.2, 1.8}, {-0.8, -2.2}, {-2.6, -0.6}, {0.2, 0.2}, {1.6, 0.6},
	}
	y := []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1}
	w, b := []float64{1, 0.5}, -0.5
	var m []float64
	for i, xi := range x {
		m = append(m, float64(y[i])*(w[0]*xi[0]+w[1]*xi[1]+b))
	}
	return LossChart{Title: "losses of the score z = y·ŷ", Margins: m}
}

func lossSVG(t *testing.T, c LossChart, opt render.Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := LossChartSVG(&b, c, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestLossChartGolden compares the chart with
// testdata/losses_all_golden.svg after drawing it twice.
func TestLossChartGolden(t *testing.T) {
	a := lossSVG(t, lossChart(), render.Options{})
	if b := lossSVG(t, lossChart(), render.Options{}); a != b {
		t.Fatal("two renderings of the same chart differ")
	}
	goldentest.CheckTextAlternative(t, a)
	goldentest.Check(t, "losses_all", []byte(a))
	if *rendertest.Look == "" {
		return
	}
	if err := os.MkdirAll(*rendertest.Look, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []render.Options{{Width: 300, Height: 220}, {}, {Width: 1920, Height: 1080}} {
		var b bytes.Buffer
		if err := LossChartPNG(&b, lossChart(), opt); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(*rendertest.Look, fmt.Sprintf("losses_all_%dx%d.png", opt.Width, opt.Height))
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLossChartContent: the legend names each loss and its derivative at
// 0, the <desc> says it in words, and a chart of some losses names those
// only.
func TestLossChartContent(t *testing.T) {
	tests := []struct {
		name         string
		chart        LossChart
		want, absent []string
	}{
		{"all", lossChart(),
			[]string{">logistic (log₂): ℓ′(0) = −0.72<", ">hinge max(0, 1 − z): ℓ′(0) = −1<", ">perceptron max(0, −z): no ℓ′(0)<",
				">tangent at z = 0<", ">score z = y·ŷ<", ">loss ℓ(z)<", ">2 →<",
				"<desc>Classification losses against the score z = y·ŷ from −3 to 3",
				"has a kink at 0, where it has no derivative", "derivative −1/(2 ln 2) ≈ −0.72",
				"scores of 19 training points; 4 of them are below 1, with total hinge loss 5.4."},
			nil},
		{"hinge and perceptron", LossChart{Losses: []string{LossHinge, LossPerceptron}, Desc: "Two losses."},
			[]string{">hinge max(0, 1 − z): ℓ′(0) = −1<", ">perceptron max(0, −z): no ℓ′(0)<", "<desc>Two losses. Classification losses",
				"<title>Classification losses against the score y·ŷ</title>"},
			[]string{"logistic", "squared", "zero-one", "training point"}},
		{"zero-one only", LossChart{Losses: []string{LossZeroOne}, Margins: []float64{-4, 0.5}},
			[]string{">← 1<", "jumping at 0"}, []string{"tangent", "hinge loss ξᵢ"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svg := html.UnescapeString(lossSVG(t, tt.chart, render.Options{}))
			for _, w := range tt.want {
				if !strings.Contains(svg, w) {
					t.Errorf("the SVG lacks %q", w)
				}
			}
			for _, w := range tt.absent {
				if strings.Contains(svg, w) {
					t.Errorf("the SVG has %q; want it left out", w)
				}
			}
			if strings.Contains(svg, "NaN") {
				t.Error("the SVG has NaN")
			}
		})
	}
}

func TestLossChartErrors(t *testing.T) {
	tests := []struct {
		name  string
		chart LossChart
		want  error
	}{
		{"unknown loss", LossChart{Losses: []string{"exponential"}}, render.ErrShape},
		{"loss twice", LossChart{Losses: []string{LossHinge, LossHinge}}, render.ErrShape},
		{"NaN margin", LossChart{Margins: []float64{0, math.NaN()}}, render.ErrNotFinite},
		{"infinite margin", LossChart{Losses: []string{LossHinge}, Margins: []float64{math.Inf(1)}}, render.ErrNotFinite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := LossChartSVG(&b, tt.chart, render.Options{}); !errors.Is(err, tt.want) {
				t.Errorf("LossChartSVG error = %v, want %v", err, tt.want)
			}
			if err := LossChartPNG(&b, tt.chart, render.Options{}); !errors.Is(err, tt.want) {
				t.Errorf("LossChartPNG error = %v, want %v", err, tt.want)
			}
			if b.Len() != 0 {
				t.Errorf("wrote %d bytes on error", b.Len())
			}
		})
	}
}

func TestLossChartPNGSize(t *testing.T) {
	for _, opt := range []render.Options{{}, {Width: 300, Height: 220}, {Width: 1920, Height: 1080}} {
		var b bytes.Buffer
		if err := LossChartPNG(&b, lossChart(), opt); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatal(err)
		}
		w, h := opt.Width, opt.Height
		if w == 0 {
			w, h = render.DefaultSize, DefaultLossHeight
		}
		if got := img.Bounds().Size(); got.X != w || got.Y != h {
			t.Errorf("PNG for %+v is %v, want %dx%d", opt, got, w, h)
		}
	}
}

func BenchmarkLossChartSVG(b *testing.B) {
	c := lossChart()
	for range 10 { // 190 margins
		c.Margins = append(c.Margins, c.Margins[:19]...)
	}
	var buf bytes.Buffer
	if err := LossChartSVG(&buf, c, render.Options{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := LossChartSVG(io.Discard, c, render.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "svg-bytes")
}

// TestLossChartTangentsNamed: the tangents at z = 0 are all black, so
// each is named with its slope beside it (not on a thumbnail).
func TestLossChartTangentsNamed(t *testing.T) {
	s := lossSVG(t, lossChart(), render.Options{})
	for _, want := range []string{">hinge slope −1<", ">logistic slope −0.72<", ">squared slope −2<"} {
		if !strings.Contains(s, want) {
			t.Errorf("the chart lacks the tangent label %q", want)
		}
	}
	if s := lossSVG(t, lossChart(), render.Options{Width: 300, Height: 220}); strings.Contains(s, " slope ") {
		t.Error("a thumbnail names the tangents")
	}
}
