package render

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos/dataset"
	"github.com/margin-edu/margin/internal/algos/perceptron"
)

// big is the size budget case: 200 points at step 100.
var big = renderCase{name: "separable200", set: dataset.Spec{Name: "separable", N: 200, Margin: 0.3, Seed: 1}, k: 100}

// TestSVGSize keeps a 200-point plot well under what a page should inline.
func TestSVGSize(t *testing.T) {
	const limit = 100 << 10
	for _, c := range []renderCase{big, {name: "separable200_averaged", set: big.set, k: 100,
		params: func(p *perceptron.Params) { p.Average = true; p.Margin = 1 }}} {
		if n := len(c.svg(t)); n >= limit {
			t.Errorf("%s: SVG is %d bytes, want < %d", c.name, n, limit)
		} else {
			t.Logf("%s: SVG is %d bytes", c.name, n)
		}
	}
}

func BenchmarkPerceptronSVG(b *testing.B) {
	pr, states := big.trajectory(b)
	sc := sceneOf(pr, states[len(states)-1])
	var buf bytes.Buffer
	if _, err := PerceptronSVGFrame(&buf, sc, Options{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PerceptronSVGFrame(io.Discard, sc, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "svg-bytes") // after the loop, which resets metrics
}

// TestLook writes figures at awkward sizes to the -look directory, to
// check by eye that nothing is cramped or cut off; it is skipped otherwise.
func TestLook(t *testing.T) {
	if *look == "" {
		t.Skip("no -look directory")
	}
	sizes := []Options{{Width: 200, Height: 200}, {Width: 400, Height: 400}, {Width: 1000, Height: 700},
		{Width: 2000, Height: 300}, {Width: 300, Height: 2000}, {Width: 1200, Height: 1200}}
	for _, c := range []renderCase{big, cases[3], cases[5]} {
		pr, states := c.trajectory(t)
		for _, opt := range append(sizes, Options{}) {
			var b bytes.Buffer
			if err := PerceptronPNG(&b, sceneOf(pr, states[len(states)-1]), opt); err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s_%dx%d.png", c.name, opt.Width, opt.Height)
			if err := os.WriteFile(filepath.Join(*look, name), b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func BenchmarkPerceptronPNG(b *testing.B) {
	pr, states := big.trajectory(b)
	sc := sceneOf(pr, states[len(states)-1])
	b.ReportAllocs()
	for b.Loop() {
		if err := PerceptronPNG(io.Discard, sc, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// rbfField is an RBF decision function with 50 centres on the default
// 120-cell grid, filled by sign with the margin levels: a kernel SVM's plot.
func rbfField() *Field {
	var c [50][3]float64
	for i := range c {
		a := float64(i)
		c[i] = [3]float64{2 * math.Sin(1.7*a), 2 * math.Cos(2.3*a), float64(1 - 2*(i%2))}
	}
	f := func(x1, x2 float64) float64 {
		s := 0.1
		for _, k := range c {
			s += k[2] * math.Exp(-((x1-k[0])*(x1-k[0])+(x2-k[1])*(x2-k[1]))/0.5)
		}
		return s
	}
	fl, _ := NewField(f, SignTint, MarginLevels()...)
	return fl
}

func BenchmarkFieldSVG(b *testing.B) {
	fl := rbfField()
	draw := func(w io.Writer) error {
		p := plot.New()
		p.Add(fl)
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -3, 3, -3, 3
		f := &Figure{W: 450, H: 450, p: p, Draw: plotDrawer(p, 450), Title: "t", Desc: "d"}
		return f.WriteSVG(w)
	}
	var buf bytes.Buffer
	if err := draw(&buf); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := draw(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "svg-bytes")
}
