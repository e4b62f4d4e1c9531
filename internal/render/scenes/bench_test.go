package scenes

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/margin-edu/margin/internal/algos/dataset"
	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/render"
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
	if _, err := PerceptronSVGFrame(&buf, sc, render.Options{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PerceptronSVGFrame(io.Discard, sc, render.Options{}); err != nil {
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
	sizes := []render.Options{{Width: 200, Height: 200}, {Width: 400, Height: 400}, {Width: 1000, Height: 700},
		{Width: 2000, Height: 300}, {Width: 300, Height: 2000}, {Width: 1200, Height: 1200}}
	for _, c := range []renderCase{big, cases[3], cases[5]} {
		pr, states := c.trajectory(t)
		for _, opt := range append(sizes, render.Options{}) {
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
		if err := PerceptronPNG(io.Discard, sc, render.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
