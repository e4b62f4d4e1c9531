package chart

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/render"
	"gonum.org/v1/gonum/mat"
)

// gramSpectrum returns the ascending eigenvalues of the Gram matrix of k
// on 40 points of a spiral.
func gramSpectrum(t testing.TB, k func(x, z [2]float64) float64) []float64 {
	t.Helper()
	var x [][2]float64
	for i := range 40 {
		a := 0.35 * float64(i)
		x = append(x, [2]float64{math.Round(100*(0.3+a/4)*math.Cos(a)) / 100, math.Round(100*(0.3+a/4)*math.Sin(a)) / 100})
	}
	K := mat.NewSymDense(len(x), nil)
	for i := range x {
		for j := i; j < len(x); j++ {
			K.SetSym(i, j, k(x[i], x[j]))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(K, false) {
		t.Fatal("eigendecomposition failed")
	}
	return es.Values(nil)
}

func rbf(x, z [2]float64) float64 {
	return math.Exp(-0.5 * ((x[0]-z[0])*(x[0]-z[0]) + (x[1]-z[1])*(x[1]-z[1])))
}

func sigmoid(x, z [2]float64) float64 { return math.Tanh(x[0]*z[0] + x[1]*z[1] - 1) }

var spectrumCases = []struct {
	name string
	s    func(t testing.TB) Spectrum
}{
	{"psd", func(t testing.TB) Spectrum {
		return Spectrum{Title: "RBF kernel, γ = 0.5, on 40 points", Values: gramSpectrum(t, rbf)}
	}},
	{"not_psd", func(t testing.TB) Spectrum {
		return Spectrum{Title: "tanh(x·z − 1) on 40 points", Values: gramSpectrum(t, sigmoid)}
	}},
}

func spectrumSVG(t *testing.T, s Spectrum, opt render.Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := SpectrumSVG(&b, s, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestSpectrumGolden(t *testing.T) {
	for _, c := range spectrumCases {
		t.Run(c.name, func(t *testing.T) {
			s := c.s(t)
			a, b := spectrumSVG(t, s, render.Options{}), spectrumSVG(t, s, render.Options{})
			if a != b {
				t.Fatal("two renderings of one spectrum differ")
			}
			checkTextAlternative(t, a)
			checkGolden(t, "spectrum_"+c.name, []byte(a))
			if *look != "" {
				writeSVGLook(t, "spectrum_"+c.name, []byte(a))
			}
		})
	}
}

// writeSVGLook writes an SVG to the -look directory, to view in a
// browser (chromium --headless --screenshot turns it into a PNG).
func writeSVGLook(t *testing.T, name string, svg []byte) {
	t.Helper()
	if err := os.MkdirAll(*look, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*look, name+".svg"), svg, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSpectrumTitle(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		tol    float64
		want   string
	}{
		{"PSD", []float64{0, 1, 2}, 0, "all 3 eigenvalues ≥ 0 (up to round-off): positive semi-definite"},
		{"round-off below 0", []float64{-3e-13, 1, 2e3}, 0, "all 3 eigenvalues ≥ 0 (up to round-off)"},
		{"just past the default tolerance", []float64{-2e-9, 0.5}, 0, "1 negative eigenvalue: not a kernel"},
		{"three negative", []float64{-0.83, -0.1, -1e-3, 0, 4}, 0, "3 negative eigenvalues: not a kernel"},
		{"within a given tolerance", []float64{-1e-3, 1}, 0.01, "all 2 eigenvalues ≥ 0"},
		{"one value", []float64{7}, 0, "its eigenvalue is ≥ 0 (up to round-off)"},
	}
	for _, tt := range tests {
		svg := spectrumSVG(t, Spectrum{Title: "K", Values: tt.values, Tol: tt.tol}, render.Options{})
		title := svg[strings.Index(svg, "<title>"):strings.Index(svg, "</title>")]
		if !strings.Contains(title, "K: "+tt.want) {
			t.Errorf("%s: <title> = %q, want it to contain %q", tt.name, title, "K: "+tt.want)
		}
	}
	svg := spectrumSVG(t, Spectrum{Values: []float64{-0.83, -0.1, 2}}, render.Options{})
	if !strings.Contains(svg, ">λ_min = −0.83<") {
		t.Error("the smallest eigenvalue is not labelled λ_min = −0.83")
	}
	desc := svg[strings.Index(svg, "<desc>"):strings.Index(svg, "</desc>")]
	for _, want := range []string{"3 eigenvalues of a symmetric matrix", "λ_min = −0.83 to λ_max = 2", "2 eigenvalues are below −2·10⁻⁹", "not a kernel"} {
		if !strings.Contains(desc, want) {
			t.Errorf("desc = %q\nwant it to contain %q", desc, want)
		}
	}
}

// TestSpectrumDrawing: up to 100 eigenvalues are dots on stems, negative
// ones vermillion; beyond that a filled curve with no stems, and a few
// negative ones still dots.
func TestSpectrumDrawing(t *testing.T) {
	count := func(svg, colour string) (dots, lines int) {
		for _, l := range strings.Split(svg, "\n") {
			switch {
			case strings.Contains(l, "A") && strings.Contains(l, "fill:"+colour):
				dots++
			case strings.Contains(l, "fill:none;stroke:"+colour):
				lines++
			}
		}
		return dots, lines
	}
	few := spectrumSVG(t, Spectrum{Values: []float64{-2, -1, 0.5, 1, 3}}, render.Options{})
	if d, l := count(few, "#D55E00"); d != 3 || l != 2 { // the legend's swatch too
		t.Errorf("5 values, 2 negative: %d vermillion dots and %d stems, want 3 and 2", d, l)
	}
	if d, l := count(few, "#0072B2"); d != 4 || l != 3 {
		t.Errorf("5 values, 3 nonnegative: %d blue dots and %d stems, want 4 and 3", d, l)
	}
	many := make([]float64, 500)
	for i := range many {
		many[i] = float64(i - 3)
	}
	svg := spectrumSVG(t, Spectrum{Values: many}, render.Options{})
	if d, l := count(svg, "#0072B2"); d != 1 || l != 1 {
		t.Errorf("500 values: %d blue dots and %d blue lines, want the legend's dot and one curve", d, l)
	}
	if d, _ := count(svg, "#D55E00"); d != 4 {
		t.Errorf("500 values, 3 negative: %d vermillion dots, want 3 and the legend's", d)
	}
}

// TestSymlogTicks: every label names the value its tick marks, and 0 is
// labelled.
func TestSymlogTicks(t *testing.T) {
	for _, c := range []float64{1e-9, 0.05, 3} {
		tk := symlogTicks{c: c, n: 5}
		sc := asinhScale{c}
		zero := false
		for _, x := range tk.Ticks(sc.f(-2e3), sc.f(5e5)) {
			if x.Label == "" {
				continue
			}
			zero = zero || x.Label == "0"
			v, err := parseLabel(x.Label)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(sc.f(v)-x.Value) > 1e-9 {
				t.Errorf("c = %v: label %q at u = %v, which is λ = %v", c, x.Label, x.Value, sc.inv(x.Value))
			}
		}
		if !zero {
			t.Errorf("c = %v: 0 is not labelled", c)
		}
	}
}

// parseLabel reads a tick label: "−0.01", "2×10⁻⁵", "10⁶".
func parseLabel(s string) (float64, error) {
	s = strings.ReplaceAll(s, "−", "-")
	sup := strings.NewReplacer("⁻", "-", "⁰", "0", "¹", "1", "²", "2", "³", "3", "⁴", "4", "⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9")
	m, e, ok := strings.Cut(s, "10")
	if !ok || strings.Contains(s, ".") || !strings.HasPrefix(e, "-") && !strings.ContainsAny(e, "⁰¹²³⁴⁵⁶⁷⁸⁹") {
		var v float64
		_, err := fmt.Sscan(s, &v)
		return v, err
	}
	m = strings.TrimSuffix(m, "×")
	mant := 1.0
	switch m {
	case "-":
		mant = -1
	case "":
	default:
		if _, err := fmt.Sscan(m, &mant); err != nil {
			return 0, err
		}
	}
	var k int
	if _, err := fmt.Sscan(sup.Replace(e), &k); err != nil {
		return 0, fmt.Errorf("label %q: %w", s, err)
	}
	return mant * math.Pow(10, float64(k)), nil
}

func TestSpectrumErrors(t *testing.T) {
	tests := []struct {
		name string
		s    Spectrum
		want error
	}{
		{"no values", Spectrum{}, render.ErrNoData},
		{"descending", Spectrum{Values: []float64{2, 1}}, render.ErrShape},
		{"negative tolerance", Spectrum{Values: []float64{1}, Tol: -1}, render.ErrShape},
		{"too many", Spectrum{Values: make([]float64, maxSpectrum+1)}, render.ErrShape},
		{"NaN value", Spectrum{Values: []float64{0, math.NaN()}}, render.ErrNotFinite},
		{"infinite tolerance", Spectrum{Values: []float64{1}, Tol: math.Inf(1)}, render.ErrNotFinite},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := SpectrumSVG(&b, tt.s, render.Options{}); !errors.Is(err, tt.want) {
			t.Errorf("SpectrumSVG(%s) error = %v, want %v", tt.name, err, tt.want)
		}
		if b.Len() != 0 {
			t.Errorf("SpectrumSVG(%s) wrote %d bytes before failing", tt.name, b.Len())
		}
	}
}
