package render_test

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/goldentest"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/rendertest"
)

// picksFigure is a data figure of twelve points with two of them picked
// as x and z for a kernel check.
func picksFigure(t testing.TB) render.DataFigure {
	t.Helper()
	x := [][]float64{{0.5, 1.2}, {1.4, 0.3}, {2.1, 1.6}, {1.1, 2.2}, {2.6, 0.6}, {0.2, 2.8},
		{-1.2, -0.4}, {-0.3, -1.5}, {-2, 0.8}, {-1.6, -1.8}, {-0.6, 0.1}, {0.6, -0.9}}
	y := []int{1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1}
	ps, err := render.NewClassPoints(x, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := render.NewPicks([][2]float64{{2.1, 1.6}, {-0.6, 0.1}}, []string{"x", "z"})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range x {
		pk.Avoid = append(pk.Avoid, [2]float64{q[0], q[1]})
	}
	return render.DataFigure{
		Title:  "k(x, z) = exp(−γ‖x − z‖²) = 0.029 for γ = 0.5",
		Desc:   "Two points are picked, x = (2.1, 1.6) and z = (−0.6, 0.1), marked by yellow diamonds.",
		View:   render.DataView(x),
		Layers: []plot.Plotter{ps, pk},
		Legend: append(ps.Legend(), render.LegendItem{Label: "picked: x, z", Thumbs: []plot.Thumbnailer{pk}}),
	}
}

func TestPicksGolden(t *testing.T) {
	f := picksFigure(t)
	a, b := rendertest.SVG(t, f, render.Options{}), rendertest.SVG(t, f, render.Options{})
	if !bytes.Equal(a, b) {
		t.Fatal("two renderings of one figure differ")
	}
	goldentest.CheckTextAlternative(t, string(a))
	for _, want := range []string{">x<", ">z<"} {
		if !strings.Contains(string(a), want) {
			t.Errorf("no label %s", want)
		}
	}
	// The names survive a thumbnail: they are what the figure is about.
	small := string(rendertest.SVG(t, f, render.Options{Width: 300, Height: 300}))
	if !strings.Contains(small, ">x<") || !strings.Contains(small, ">z<") {
		t.Error("300 px: the picks are not named")
	}
	goldentest.Check(t, "picks_pair", a)
	if *rendertest.Look != "" {
		rendertest.WriteLook(t, "picks_pair", f)
	}
}

func TestNewPicksErrors(t *testing.T) {
	tests := []struct {
		name   string
		pts    [][2]float64
		labels []string
		want   error
	}{
		{"labels for other points", [][2]float64{{0, 0}}, []string{"x", "z"}, render.ErrShape},
		{"NaN", [][2]float64{{0, math.NaN()}}, nil, render.ErrNotFinite},
		{"infinite", [][2]float64{{math.Inf(1), 0}}, []string{"x"}, render.ErrNotFinite},
	}
	for _, tt := range tests {
		if _, err := render.NewPicks(tt.pts, tt.labels); !errors.Is(err, tt.want) {
			t.Errorf("NewPicks(%s) error = %v, want %v", tt.name, err, tt.want)
		}
	}
}
