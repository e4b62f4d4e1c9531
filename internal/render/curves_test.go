package render

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
)

// sweep is an RBF SVM's training and held-out error against γ from 10⁻²
// to 10³: training error falls to 0 as γ grows, held-out error is
// U-shaped, lowest near γ = 1, the current setting.
func sweep() Curves {
	c := Curves{Title: "RBF SVM, C = 1: error against γ", XLabel: "γ", YLabel: "error", LogX: true, Percent: true, Mark: 1}
	train := Curve{Name: "training"}
	held := Curve{Name: "held-out", Dashed: true}
	for k := -4; k <= 6; k++ {
		g := math.Pow(10, float64(k)/2)
		l := math.Log10(g)
		train.X, train.Y = append(train.X, g), append(train.Y, math.Round(1000*0.42/(1+math.Exp(2.2*(l+0.3))))/1000)
		held.X, held.Y = append(held.X, g), append(held.Y, math.Round(1000*(0.1+0.03*l*l+0.3/(1+math.Exp(3*(l+1.2)))))/1000)
	}
	c.Series = []Curve{train, held}
	return c
}

func curvesSVG(t *testing.T, c Curves, opt Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := CurvesSVG(&b, c, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestCurvesGolden(t *testing.T) {
	a, b := curvesSVG(t, sweep(), Options{}), curvesSVG(t, sweep(), Options{})
	if a != b {
		t.Fatal("two renderings of one chart differ")
	}
	checkTextAlternative(t, a)
	checkGolden(t, "curves_gamma", []byte(a))
	if *look != "" {
		writeSVGLook(t, "curves_gamma", []byte(a))
	}
}

func TestCurvesDesc(t *testing.T) {
	svg := curvesSVG(t, sweep(), Options{})
	desc := svg[strings.Index(svg, "<desc>"):strings.Index(svg, "</desc>")]
	for _, want := range []string{"A line chart of error against γ (log scale).", "held-out: from 49.5% at γ = 0.01 to 37% at γ = 1000",
		"lowest 10.8% at γ = 1.", "A vertical line marks the current setting, γ = 1."} {
		if !strings.Contains(desc, want) {
			t.Errorf("desc = %q\nwant it to contain %q", desc, want)
		}
	}
	for _, want := range []string{">0%<", ">50%<", ">0.01<", ">1000<", ">γ = 1<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no label %s", want)
		}
	}
}

// TestCurvesLinear: on a linear axis, points given out of order are
// joined in order of x, a mark at 0 is a mark, and no mark is NaN.
func TestCurvesLinear(t *testing.T) {
	c := Curves{XLabel: "degree d", YLabel: "error", Mark: 0,
		Series: []Curve{{Name: "a", X: []float64{3, 1, 2}, Y: []float64{0.3, 0.1, 0.2}}, {Name: "empty"}}}
	svg := curvesSVG(t, c, Options{})
	if !strings.Contains(svg, ">current setting<") {
		t.Error("a mark at x = 0 is not drawn")
	}
	c.Mark = math.NaN()
	if svg := curvesSVG(t, c, Options{}); strings.Contains(svg, "current setting") {
		t.Error("Mark = NaN draws a mark")
	}
	pts := c.Series[0].sorted()
	for i := 1; i < len(pts); i++ {
		if pts[i].X < pts[i-1].X {
			t.Errorf("sorted() = %v, not in order of x", pts)
		}
	}
}

func TestPercentTicks(t *testing.T) {
	var got []string
	for _, tk := range (percentTicks{niceTicks{n: 4}}).Ticks(-0.003, 0.055) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if want := "0% 1% 2% 3% 4% 5%"; strings.Join(got, " ") != want {
		t.Errorf("percent labels on [−0.003, 0.055] = %q, want %q", strings.Join(got, " "), want)
	}
}

func TestCurvesErrors(t *testing.T) {
	one := []Curve{{X: []float64{1, 2}, Y: []float64{0, 1}}}
	tests := []struct {
		name string
		c    Curves
		want error
	}{
		{"no series", Curves{Mark: math.NaN()}, ErrNoData},
		{"lengths differ", Curves{Series: []Curve{{X: []float64{1}, Y: nil}}, Mark: math.NaN()}, ErrShape},
		{"too many series", Curves{Series: make([]Curve, maxCurves+1), Mark: math.NaN()}, ErrShape},
		{"x = 0 on a log axis", Curves{LogX: true, Series: []Curve{{X: []float64{0, 1}, Y: []float64{1, 1}}}, Mark: math.NaN()}, ErrShape},
		{"mark 0 on a log axis", Curves{LogX: true, Series: one}, ErrShape},
		{"NaN y", Curves{Series: []Curve{{X: []float64{1}, Y: []float64{math.NaN()}}}, Mark: math.NaN()}, ErrNotFinite},
		{"infinite mark", Curves{Series: one, Mark: math.Inf(1)}, ErrNotFinite},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := CurvesSVG(&b, tt.c, Options{}); !errors.Is(err, tt.want) {
			t.Errorf("CurvesSVG(%s) error = %v, want %v", tt.name, err, tt.want)
		}
		if b.Len() != 0 {
			t.Errorf("CurvesSVG(%s) wrote %d bytes before failing", tt.name, b.Len())
		}
	}
}
