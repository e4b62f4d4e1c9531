package scenes

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/margin-edu/margin/internal/render"
)

func BenchmarkSVMFigure(b *testing.B) {
	sc := bigScene()
	var buf bytes.Buffer
	f, err := SVMFigure(sc)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := f.WriteSVG(&buf, render.Options{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		f, err := SVMFigure(sc)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.WriteSVG(io.Discard, render.Options{}); err != nil {
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
		if n := len(svmSVG(t, c.scene, render.Options{})); n >= limit {
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
		if _, err := f.WriteSVG(io.Discard, render.Options{}); err != nil {
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
		if err := f.WritePNG(io.Discard, render.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// rbfTerms is a synthetic kernel expansion f(x) = Σₖ cₖ·exp(−γ‖x − xₖ‖²) + b
// with a Decision for single points and a separable Grid, as the svm
// package's Expansion provides them.
type rbfTerms struct {
	x     [][2]float64
	c     []float64
	gamma float64
	b     float64
}

func (e *rbfTerms) eval(x1, x2 float64) float64 {
	f := e.b
	for k, p := range e.x {
		d1, d2 := x1-p[0], x2-p[1]
		f += e.c[k] * math.Exp(-e.gamma*(d1*d1+d2*d2))
	}
	return f
}

func (e *rbfTerms) grid(xs, ys []float64, z []float64) {
	nx := len(xs)
	for k := range z {
		z[k] = e.b
	}
	ex := make([]float64, nx)
	for k, p := range e.x {
		for i, g := range xs {
			ex[i] = math.Exp(-e.gamma * (g - p[0]) * (g - p[0]))
		}
		for j, g := range ys {
			cy := e.c[k] * math.Exp(-e.gamma*(g-p[1])*(g-p[1]))
			row := z[j*nx : (j+1)*nx]
			for i, v := range ex {
				row[i] += cy * v
			}
		}
	}
}

// rbfScene is a kernel SVM page's figure: n points of two noisy blobs,
// the first terms of them (alternating classes) the support vectors of an
// RBF expansion, sized by α, with an SMO pair.
func rbfScene(n, terms int) (SVMScene, *rbfTerms) {
	r := rand.New(rand.NewPCG(3, 4))
	e := &rbfTerms{gamma: 1, b: -0.05}
	sc := SVMScene{C: 1, Pair: [2]int{4, 7}, Alpha: make([]float64, n), Size: make([]float64, n)}
	for i := range n {
		y := 1 - 2*(i%2)
		x := []float64{float64(y) + r.NormFloat64(), float64(y) + r.NormFloat64()}
		sc.X, sc.Y = append(sc.X, x), append(sc.Y, y)
		if i < terms {
			a := 0.2 + 0.8*r.Float64()
			sc.Alpha[i], sc.Size[i] = a, a
			e.x = append(e.x, [2]float64{x[0], x[1]})
			e.c = append(e.c, a*float64(y))
		}
	}
	sc.Decision, sc.DecisionGrid = e.eval, e.grid
	return sc, e
}

// BenchmarkSVMFigureRBF is a kernel SVM page: 300 points, 150 RBF terms,
// the field sampled through DecisionGrid; the budget is 8 ms.
func BenchmarkSVMFigureRBF(b *testing.B) {
	for _, grid := range []bool{true, false} {
		name := "grid"
		if !grid {
			name = "pointwise"
		}
		b.Run(name, func(b *testing.B) {
			sc, _ := rbfScene(300, 150)
			if !grid {
				sc.DecisionGrid = nil
			}
			var buf bytes.Buffer
			f, err := SVMFigure(sc)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := f.WriteSVG(&buf, render.Options{}); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				f, err := SVMFigure(sc)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := f.WriteSVG(io.Discard, render.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "svg-bytes")
		})
	}
}

// TestSVMDecisionGrid: with DecisionGrid the figure calls Decision only
// at the support vectors, to tell their kinds, and not at all when Kind
// is given; never per grid node: it samples the field in one call.
func TestSVMDecisionGrid(t *testing.T) {
	for _, kinds := range []bool{false, true} {
		sc, e := rbfScene(300, 150)
		if kinds {
			sc.Kind = make([]string, len(sc.X))
		}
		var calls, grids int
		sc.Decision = func(x1, x2 float64) float64 { calls++; return e.eval(x1, x2) }
		sc.DecisionGrid = func(xs, ys, z []float64) { grids++; e.grid(xs, ys, z) }
		f, err := SVMFigure(sc)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteSVG(io.Discard, render.Options{}); err != nil {
			t.Fatal(err)
		}
		want := 150 // the support vectors
		if kinds {
			want = 0
		}
		if calls != want || grids != 1 {
			t.Errorf("kinds given %v: one drawing called Decision %d times and DecisionGrid %d; want %d and 1", kinds, calls, grids, want)
		}
	}
}
