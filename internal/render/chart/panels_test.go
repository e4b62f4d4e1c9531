package chart

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/render"
)

// smoBars is α of a soft-margin SVM on 10 points after an SMO step that
// optimised α₃ and α₈.
func smoBars() Bars {
	return Bars{
		Title:         "α after SMO step 4 · 4 support vectors",
		Name:          "SVM dual variables after step 4",
		Desc:          "α for 10 points; α₃ = 1 and α₈ = 0.6 were optimised at this step.",
		YLabel:        "αᵢ",
		Values:        []float64{0, 0.4, 1, 0, 0, 0, 0, 0.6, 0.8, 0},
		Class:         []int{1, 1, 1, 1, 1, -1, -1, -1, -1, -1},
		Bounds:        []Bound{{Value: 0}, {Value: 1, Label: "C = 1"}},
		Highlight:     []Highlight{{Index: 2, Label: "i"}, {Index: 7, Label: "j"}},
		HighlightName: "pair optimised",
	}
}

// gram is the linear-kernel Gram matrix of a few points.
func gram(x [][2]float64) [][]float64 {
	k := make([][]float64, len(x))
	for i := range x {
		k[i] = make([]float64, len(x))
		for j := range x {
			k[i][j] = x[i][0]*x[j][0] + x[i][1]*x[j][1]
		}
	}
	return k
}

func gramMatrix() Matrix {
	return Matrix{
		Title:  "Gram matrix, linear kernel",
		Label:  "xᵢ·xⱼ",
		Values: gram([][2]float64{{1, 1}, {2, 0.5}, {0.5, -1}, {-1, -1.5}, {-2, 0}}),
	}
}

func TestBarsGolden(t *testing.T) {
	var a, b bytes.Buffer
	for _, w := range []*bytes.Buffer{&a, &b} {
		if err := BarsSVG(w, smoBars(), render.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two renderings of the same bars differ")
	}
	checkTextAlternative(t, a.String())
	checkGolden(t, "bars_smo", a.Bytes())
}

func TestMatrixGolden(t *testing.T) {
	var a, b bytes.Buffer
	for _, w := range []*bytes.Buffer{&a, &b} {
		if err := MatrixSVG(w, gramMatrix(), render.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two renderings of the same matrix differ")
	}
	svg := a.String()
	checkTextAlternative(t, svg)
	if !strings.Contains(svg, "<desc>A heat map of a 5×5 matrix of xᵢ·xⱼ, values from") {
		t.Errorf("default <desc> missing; got %.200q", svg[strings.Index(svg, "<desc>"):])
	}
	checkGolden(t, "matrix_gram", a.Bytes())
}

// TestMatrixSize: a 200×200 Gram matrix is one raster, not 40 000 boxes.
func TestMatrixSize(t *testing.T) {
	x := make([][2]float64, 200)
	for i := range x {
		a := float64(i) * 0.1
		x[i] = [2]float64{math.Cos(a) * (1 + a/10), math.Sin(3*a) - 0.5}
	}
	var b bytes.Buffer
	if err := MatrixSVG(&b, Matrix{Title: "Gram", Values: gram(x)}, render.Options{}); err != nil {
		t.Fatal(err)
	}
	if n := b.Len(); n > 200<<10 {
		t.Errorf("200×200 matrix: %d bytes of SVG, want < 200 KB", n)
	} else {
		t.Logf("200×200 matrix: %d bytes of SVG", n)
	}
	if n := strings.Count(b.String(), "<image "); n != 2 {
		t.Errorf("%d <image> elements, want 2 (the cells and the colour bar)", n)
	}
}

func TestBarsErrors(t *testing.T) {
	ok := smoBars()
	mod := func(f func(*Bars)) Bars {
		b := ok
		f(&b)
		return b
	}
	tests := []struct {
		name string
		b    Bars
		want error
	}{
		{"no values", Bars{}, render.ErrNoData},
		{"NaN value", mod(func(b *Bars) { b.Values = []float64{1, math.NaN()}; b.Class = nil; b.Highlight = nil }), render.ErrNotFinite},
		{"infinite bound", mod(func(b *Bars) { b.Bounds = []Bound{{Value: math.Inf(1)}} }), render.ErrNotFinite},
		{"classes for other points", mod(func(b *Bars) { b.Class = []int{1, -1} }), render.ErrShape},
		{"highlight out of range", mod(func(b *Bars) { b.Highlight = []Highlight{{Index: 10}} }), render.ErrShape},
		{"negative highlight", mod(func(b *Bars) { b.Highlight = []Highlight{{Index: -1}} }), render.ErrShape},
		{"too many bars", Bars{Values: make([]float64, maxBars+1)}, render.ErrShape},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := BarsSVG(&b, tt.b, render.Options{}); !errors.Is(err, tt.want) {
				t.Errorf("BarsSVG error = %v, want %v", err, tt.want)
			}
			if b.Len() != 0 {
				t.Errorf("wrote %d bytes on error", b.Len())
			}
		})
	}
}

func TestMatrixErrors(t *testing.T) {
	tests := []struct {
		name string
		m    Matrix
		want error
	}{
		{"nil", Matrix{}, render.ErrNoData},
		{"empty row", Matrix{Values: [][]float64{{}}}, render.ErrNoData},
		{"ragged", Matrix{Values: [][]float64{{1, 2}, {3}}}, render.ErrShape},
		{"NaN", Matrix{Values: [][]float64{{1, math.NaN()}, {3, 4}}}, render.ErrNotFinite},
		{"infinite scale", Matrix{Values: [][]float64{{1}}, Scale: math.Inf(1)}, render.ErrNotFinite},
		{"too large", Matrix{Values: make([][]float64, maxMatrixSide+1)}, render.ErrShape},
	}
	tests[len(tests)-1].m.Values[0] = []float64{1}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := MatrixSVG(&b, tt.m, render.Options{}); !errors.Is(err, tt.want) {
				t.Errorf("MatrixSVG error = %v, want %v", err, tt.want)
			}
			if b.Len() != 0 {
				t.Errorf("wrote %d bytes on error", b.Len())
			}
		})
	}
}

// TestPanelsOdd draws bars and matrices at the edges of what is valid, at
// awkward sizes; none may fail or panic.
func TestPanelsOdd(t *testing.T) {
	bars := []Bars{
		{Values: []float64{0}},
		{Values: []float64{-1, 2, -3}, Class: []int{0, 1, 2}, Bounds: []Bound{{Value: 5, Label: "5"}}},
		{Values: make([]float64, maxBars), Highlight: []Highlight{{Index: 0, Label: "i"}, {Index: maxBars - 1, Label: "j"}}},
		{Values: []float64{1e300, -1e300}},
		{Values: []float64{1, 2}, Class: []int{7, -3}},
	}
	matrices := []Matrix{
		{Values: [][]float64{{0}}},
		{Values: [][]float64{{1, 2, 3}}},
		{Values: [][]float64{{1}, {2}, {3}, {4}}, Scale: -2},
		{Values: [][]float64{{-1e300, 1e300}, {0, 1}}},
	}
	for _, opt := range []render.Options{{}, {Width: 200, Height: 200}, {Width: 2000, Height: 240}, {Width: 240, Height: 2000}} {
		for i, b := range bars {
			if err := BarsSVG(&bytes.Buffer{}, b, opt); err != nil {
				t.Errorf("bars %d %+v: %v", i, opt, err)
			}
		}
		for i, m := range matrices {
			if err := MatrixSVG(&bytes.Buffer{}, m, opt); err != nil {
				t.Errorf("matrix %d %+v: %v", i, opt, err)
			}
		}
	}
}
