package fields

import (
	"bytes"
	"io"
	"math"
	"testing"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/render"
)

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
	fl, _ := NewField(f, render.SignTint, MarginLevels()...)
	return fl
}

func BenchmarkFieldSVG(b *testing.B) {
	fl := rbfField()
	draw := func(w io.Writer) error {
		p := plot.New()
		p.Add(fl)
		f := render.PlotFigure(p, 450, 450, render.View{-3, 3, -3, 3}, "t", "d")
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
