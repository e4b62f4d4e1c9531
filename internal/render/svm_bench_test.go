package render

import (
	"bytes"
	"io"
	"math"
	"testing"
)

func BenchmarkSVMFigure(b *testing.B) {
	sc := bigScene()
	var buf bytes.Buffer
	f, err := SVMFigure(sc)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := f.WriteSVG(&buf, Options{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		f, err := SVMFigure(sc)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.WriteSVG(io.Discard, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "svg-bytes")
}

// TestSVMSize keeps the 200-point figure well under what a page should
// inline.
func TestSVMSize(t *testing.T) {
	const limit = 100 << 10
	for _, c := range []struct {
		name  string
		scene SVMScene
	}{{"linear", bigScene()}, {"kernel", bigKernelScene()}} {
		if n := len(svmSVG(t, c.scene, Options{})); n >= limit {
			t.Errorf("%s, 200 points: SVG is %d bytes, want < %d", c.name, n, limit)
		} else {
			t.Logf("%s, 200 points: SVG is %d bytes", c.name, n)
		}
	}
}

// bigKernelScene is bigScene with an RBF decision function.
func bigKernelScene() SVMScene {
	sc := bigScene()
	sc.W, sc.Slack = nil, false
	sc.Decision = func(x1, x2 float64) float64 {
		return 1.1*x1 + 0.9*x2 - 0.1 + 0.8*math.Sin(1.5*x1)*math.Exp(-x2*x2/4)
	}
	return sc
}

func BenchmarkSVMFigureKernel(b *testing.B) {
	sc := bigKernelScene()
	b.ReportAllocs()
	for b.Loop() {
		f, err := SVMFigure(sc)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.WriteSVG(io.Discard, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSVMFigurePNG(b *testing.B) {
	f, err := SVMFigure(bigScene())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := f.WritePNG(io.Discard, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
