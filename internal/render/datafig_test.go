package render_test

import (
	"bytes"
	"errors"
	"image/png"
	"io"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/goldentest"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/fields"
	"github.com/margin-edu/margin/internal/render/rendertest"
)

// rbfFigure is a kernel SVM's plot: an RBF decision function over twelve
// labelled centres, filled by sign, with its levels 0 and ±1.
func rbfFigure(t testing.TB) render.DataFigure {
	t.Helper()
	x := make([][]float64, 12)
	y := make([]int, 12)
	for i := range x {
		a := float64(i)
		x[i] = []float64{2 * math.Sin(1.7*a), 1.5 * math.Cos(2.3*a)}
		y[i] = 1 - 2*(i%2)
	}
	f := func(x1, x2 float64) float64 {
		s := 0.1
		for i, c := range x {
			d2 := (x1-c[0])*(x1-c[0]) + (x2-c[1])*(x2-c[1])
			s += 1.6 * float64(y[i]) * math.Exp(-d2/0.8)
		}
		return s
	}
	lv := fields.MarginLevels()
	fl, err := fields.NewField(f, render.SignTint, lv...)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := render.NewClassPoints(x, y, []bool{false, false, true, false, false, false, false, false, false, true, false, false})
	if err != nil {
		t.Fatal(err)
	}
	legend := append(ps.Legend(),
		render.LegendItem{Label: "f(x) = 0", Thumbs: []plot.Thumbnailer{lv[2]}},
		render.LegendItem{Label: "f(x) = ±1", Thumbs: []plot.Thumbnailer{lv[0]}},
		render.LegendItem{Label: "misclassified", Thumbs: []plot.Thumbnailer{ps.BoldThumb()}})
	return render.DataFigure{
		Title:  "RBF kernel, γ = 1.25 · 12 support vectors\nf(x) = Σᵢ αᵢyᵢ k(xᵢ, x) + b",
		Desc:   "Twelve points, six of each class, and an RBF decision function: blue where f > 0, vermillion elsewhere.",
		View:   render.DataView(x),
		Layers: []plot.Plotter{fl, ps},
		Legend: legend,
	}
}

// pathFigure is gradient descent on f(x) = ½(x₁² + 4x₂²) with step 0.4
// from (−4, 3.5): the path zigzags across the narrow valley.
func pathFigure(t testing.TB) render.DataFigure {
	t.Helper()
	const kappa, eta = 4, 0.4
	f := func(x1, x2 float64) float64 { return 0.5 * (x1*x1 + kappa*x2*x2) }
	xs := [][2]float64{{-4, 3.5}}
	for range 12 {
		x := xs[len(xs)-1]
		xs = append(xs, [2]float64{x[0] - eta*x[0], x[1] - eta*kappa*x[1]})
	}
	lv := fields.ContourLevels(0.5, 2, 8, 18, 32, 50)
	fl, err := fields.NewField(f, nil, lv...)
	if err != nil {
		t.Fatal(err)
	}
	pa, err := render.NewPath(xs)
	if err != nil {
		t.Fatal(err)
	}
	return render.DataFigure{
		Title: "gradient descent · step 12 · f = 0.0001\nf(x) = ½(x₁² + 4x₂²), step size t = 0.4",
		View:  render.View{-5, 5, -5, 5},
		// Layers: the contours, then the path on top.
		Layers: []plot.Plotter{fl, pa},
		Legend: []render.LegendItem{
			{Label: "f = 0.5, 2, 8, 18, 32, 50", Thumbs: []plot.Thumbnailer{lv[0]}},
			{Label: "iterates xᵏ", Thumbs: []plot.Thumbnailer{pa}},
			{Label: "start", Thumbs: []plot.Thumbnailer{pa.StartThumb()}},
			{Label: "current iterate", Thumbs: []plot.Thumbnailer{pa.CurrentThumb()}},
		},
	}
}

var dataFigures = []struct {
	name string
	fig  func(testing.TB) render.DataFigure
}{
	{"rbf", rbfFigure},
	{"path", pathFigure},
}

// TestDataFigureGolden draws each figure twice, from one DataFigure value
// and from a new one, wants the same bytes, and compares them with
// testdata/datafig_<case>_golden.svg. Drawing it at another size in
// between checks that scaling the layers leaves them as they were.
func TestDataFigureGolden(t *testing.T) {
	for _, c := range dataFigures {
		t.Run(c.name, func(t *testing.T) {
			f := c.fig(t)
			a := rendertest.SVG(t, f, render.Options{})
			rendertest.SVG(t, f, render.Options{Width: 1200, Height: 1200})
			if b := rendertest.SVG(t, f, render.Options{}); !bytes.Equal(a, b) {
				t.Fatal("two renderings of one figure differ (did scaling change a layer?)")
			}
			if b := rendertest.SVG(t, c.fig(t), render.Options{}); !bytes.Equal(a, b) {
				t.Fatal("two renderings of the same figure differ")
			}
			goldentest.CheckTextAlternative(t, string(a))
			goldentest.Check(t, "datafig_"+c.name, a)
			if *rendertest.Look != "" {
				rendertest.WriteLook(t, c.name, f)
			}
		})
	}
}

// TestDataFigureFrame: equal units across and up, the data area inside
// the figure, a view that holds the one asked for, and Write giving the
// same frame for SVG and PNG.
func TestDataFigureFrame(t *testing.T) {
	for _, c := range dataFigures {
		f := c.fig(t)
		for _, opt := range []render.Options{{}, {Width: 200, Height: 200}, {Width: 2000, Height: 300}, {Width: 300, Height: 2000}, {Width: 1000, Height: 700}} {
			fr, err := f.WriteSVG(io.Discard, opt)
			if err != nil {
				t.Fatal(err)
			}
			ux := (fr.View.XMax - fr.View.XMin) / fr.Width
			uy := (fr.View.YMax - fr.View.YMin) / fr.Height
			if math.Abs(ux-uy) > 1e-9*ux {
				t.Errorf("%s %+v: %g data units per pt across, %g up; want equal", c.name, opt, ux, uy)
			}
			if fr.Left <= 0 || fr.Top <= 0 || fr.Left+fr.Width >= fr.ViewBoxWidth || fr.Top+fr.Height >= fr.ViewBoxHeight {
				t.Errorf("%s %+v: data area %+v not inside the figure", c.name, opt, fr)
			}
			v := f.View
			if fr.View.XMin > v.XMin || fr.View.XMax < v.XMax || fr.View.YMin > v.YMin || fr.View.YMax < v.YMax {
				t.Errorf("%s %+v: view %+v does not hold %+v", c.name, opt, fr.View, v)
			}
			if pf, err := f.Write(io.Discard, true, opt); err != nil || pf != fr {
				t.Errorf("%s %+v: Write(png) frame = %+v, %v; want %+v", c.name, opt, pf, err, fr)
			}
		}
	}
}

func TestDataFigurePNGSize(t *testing.T) {
	for _, opt := range []render.Options{{}, {Width: 200, Height: 200}, {Width: 801, Height: 455}} {
		var b bytes.Buffer
		if err := pathFigure(t).WritePNG(&b, opt); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("%+v: decoding: %v", opt, err)
		}
		w, h := opt.Width, opt.Height
		if w == 0 {
			w, h = render.DefaultSize, render.DefaultSize
		}
		if got := img.Bounds().Size(); got.X != w || got.Y != h {
			t.Errorf("PNG for %+v is %v, want %dx%d", opt, got, w, h)
		}
	}
}

// TestDataFigureDefaults: a figure with nothing but a view still has axis
// names and a text alternative.
func TestDataFigureDefaults(t *testing.T) {
	svg := string(rendertest.SVG(t, render.DataFigure{View: render.View{-1, 1, -2, 2}}, render.Options{}))
	goldentest.CheckTextAlternative(t, svg)
	for _, want := range []string{">x₁<", ">x₂<", "<desc>A plot of x₁ (across, −1 to 1) and x₂ (up, −2 to 2).</desc>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
}

func TestDataFigureErrors(t *testing.T) {
	ok := render.View{-1, 1, -1, 1}
	tests := []struct {
		name string
		f    render.DataFigure
		want error
	}{
		{"zero view", render.DataFigure{}, render.ErrShape},
		{"inverted view", render.DataFigure{View: render.View{1, -1, -1, 1}}, render.ErrShape},
		{"NaN view", render.DataFigure{View: render.View{math.NaN(), 1, -1, 1}}, render.ErrNotFinite},
		{"infinite view", render.DataFigure{View: render.View{-1, math.Inf(1), -1, 1}}, render.ErrNotFinite},
		{"nil layer", render.DataFigure{View: ok, Layers: []plot.Plotter{nil}}, render.ErrShape},
		{"nil swatch", render.DataFigure{View: ok, Legend: []render.LegendItem{{Label: "a", Thumbs: []plot.Thumbnailer{nil}}}}, render.ErrShape},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if _, err := tt.f.WriteSVG(&b, render.Options{}); !errors.Is(err, tt.want) {
				t.Errorf("WriteSVG error = %v, want %v", err, tt.want)
			}
			if err := tt.f.WritePNG(&b, render.Options{}); !errors.Is(err, tt.want) {
				t.Errorf("WritePNG error = %v, want %v", err, tt.want)
			}
			if _, err := tt.f.Write(&b, true, render.Options{}); !errors.Is(err, tt.want) {
				t.Errorf("Write error = %v, want %v", err, tt.want)
			}
			if b.Len() != 0 {
				t.Errorf("wrote %d bytes on error", b.Len())
			}
		})
	}
}

func TestNewClassPoints(t *testing.T) {
	x := [][]float64{{0, 0}, {1, 1}}
	tests := []struct {
		name  string
		x     [][]float64
		class []int
		bold  []bool
		want  error
	}{
		{"labels for other points", x, []int{1}, nil, render.ErrShape},
		{"bold for other points", x, nil, []bool{true}, render.ErrShape},
		{"negative class", x, []int{0, -2}, nil, render.ErrShape},
		{"one coordinate", [][]float64{{0}, {1}}, nil, nil, render.ErrDimension},
		{"NaN", [][]float64{{0, math.NaN()}}, nil, nil, render.ErrNotFinite},
	}
	for _, tt := range tests {
		if _, err := render.NewClassPoints(tt.x, tt.class, tt.bold); !errors.Is(err, tt.want) {
			t.Errorf("NewClassPoints(%s) error = %v, want %v", tt.name, err, tt.want)
		}
	}
	legend := []struct {
		class []int
		want  string
	}{
		{[]int{-1, 1}, "y = +1, y = −1"},
		{[]int{2, 0}, "class 0, class 2"},
		{nil, ""},
	}
	for _, tt := range legend {
		ps, err := render.NewClassPoints(x, tt.class, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range ps.Legend() {
			got = append(got, it.Label)
		}
		if s := strings.Join(got, ", "); s != tt.want {
			t.Errorf("NewClassPoints(x, %v, nil).Legend() = %q, want %q", tt.class, s, tt.want)
		}
	}
	// No points is a custom data set before the first click: it draws
	// nothing rather than failing.
	ps, err := render.NewClassPoints(nil, nil, nil)
	if err != nil {
		t.Fatalf("NewClassPoints(nil) = %v, want no error", err)
	}
	rendertest.SVG(t, render.DataFigure{View: render.DataView(nil), Layers: []plot.Plotter{ps}, Legend: ps.Legend()}, render.Options{})
}
