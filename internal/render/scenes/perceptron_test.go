package scenes

import (
	"bytes"
	"errors"
	"flag"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/dataset"
	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/goldentest"
	"github.com/margin-edu/margin/internal/render"
)

var (
	look = flag.String("look", "", "also write every case as SVG and PNG to this directory, to look at")
)

// renderCase is one golden figure: a data set, parameters and a step.
type renderCase struct {
	name   string
	set    dataset.Spec
	params func(*perceptron.Params)
	k      int
}

func (c renderCase) String() string { return c.name }

// trajectory runs the case's perceptron up to step k.
func (c renderCase) trajectory(t testing.TB) (*perceptron.Problem, []perceptron.State) {
	t.Helper()
	set, err := dataset.New(c.set)
	if err != nil {
		t.Fatalf("dataset.New(%+v): %v", c.set, err)
	}
	p := perceptron.DefaultParams()
	if c.params != nil {
		c.params(&p)
	}
	pr, states, err := perceptron.Trajectory(perceptron.Data{X: set.X, Y: set.Y}, p, c.k)
	if err != nil {
		t.Fatalf("Trajectory: %v", err)
	}
	return pr, states
}

// svg draws the case's last state.
func (c renderCase) svg(t testing.TB) []byte {
	t.Helper()
	pr, states := c.trajectory(t)
	var b bytes.Buffer
	if _, err := PerceptronSVGFrame(&b, sceneOf(pr, states[len(states)-1]), render.Options{}); err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return b.Bytes()
}

var cases = []renderCase{
	{name: "or_step0", set: dataset.Spec{Name: "or"}, k: 0},
	{name: "or_step3", set: dataset.Spec{Name: "or"}, k: 3},
	{name: "xor_cycle", set: dataset.Spec{Name: "xor"}, k: 1000},
	{name: "separable_averaged", set: dataset.Spec{Name: "separable", N: 40, Margin: 0.3, Seed: 1}, k: 49,
		params: func(p *perceptron.Params) { p.Average = true }},
	{name: "margin", set: dataset.Spec{Name: "separable", N: 40, Margin: 0.5, Seed: 2}, k: 53,
		params: func(p *perceptron.Params) { p.Margin = 1 }},
	{name: "blobs_ova", set: dataset.Spec{Name: "blobs", N: 60, Seed: 1}, k: 33},
	{name: "blobs_ovo", set: dataset.Spec{Name: "blobs", N: 60, Seed: 1}, k: 9,
		params: func(p *perceptron.Params) { p.Multiclass = perceptron.OneVsOne }},
}

// TestGolden compares every case byte for byte with
// testdata/perceptron_<case>_golden.svg, like gofmt's golden tests: run
// with -update to rewrite them, and review the SVG diff like code.
func TestGolden(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if *look != "" {
				writeLook(t, c)
			}
			checkGolden(t, "perceptron_"+c.name, c.svg(t))
		})
	}
}

// checkGolden compares got with testdata/<name>_golden.svg (goldentest).
func checkGolden(t *testing.T, name string, got []byte) { goldentest.Check(t, name, got) }

// writeLook writes the case as SVG and PNG to the -look directory.
func writeLook(t *testing.T, c renderCase) {
	t.Helper()
	if err := os.MkdirAll(*look, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*look, c.name+".svg"), c.svg(t), 0o644); err != nil {
		t.Fatal(err)
	}
	pr, states := c.trajectory(t)
	var b bytes.Buffer
	if err := PerceptronPNG(&b, sceneOf(pr, states[len(states)-1]), render.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*look, c.name+".png"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSVGTextAlternative(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkTextAlternative(t, string(c.svg(t))) })
	}
}

// checkTextAlternative is goldentest.CheckTextAlternative.
func checkTextAlternative(t *testing.T, svg string) { goldentest.CheckTextAlternative(t, svg) }

// TestDescSaysWB checks that the text alternative states the weights and
// the bias a sighted reader sees in the title.
func TestDescSaysWB(t *testing.T) {
	c := cases[1] // OR after step 3: w = (1, 1), b = 1
	svg := string(c.svg(t))
	desc := svg[strings.Index(svg, "<desc>"):strings.Index(svg, "</desc>")]
	for _, want := range []string{"w = (1, 1), b = 1", "Step 3", "η·y·x = (0, 1)", "1 of 4 points misclassified", "3 with y = +1, 1 with y = −1"} {
		if !strings.Contains(desc, want) {
			t.Errorf("desc = %q\nwant it to contain %q", desc, want)
		}
	}
}

// TestDeterministic renders every case twice and wants the same bytes.
func TestDeterministic(t *testing.T) {
	for _, c := range cases {
		a, b := c.svg(t), c.svg(t)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two renderings differ", c.name)
		}
	}
}

// TestPerceptronErrors: a scene render cannot draw is an error, with
// nothing written, never a panic.
func TestPerceptronErrors(t *testing.T) {
	pr, states := cases[1].trajectory(t)
	ok := sceneOf(pr, states[len(states)-1])
	prOVA, statesOVA := cases[5].trajectory(t)
	ova := sceneOf(prOVA, statesOVA[len(statesOVA)-1])
	edit := func(sc PerceptronScene, f func(*PerceptronScene)) PerceptronScene {
		sc.Tasks = append([]PerceptronTask(nil), sc.Tasks...)
		f(&sc)
		return sc
	}
	d3 := PerceptronScene{X: [][]float64{{0, 0, 1}, {1, 0, 0}}, Y: []int{-1, 1}, Classes: []int{-1, 1}, Binary: true,
		Wrong: []bool{true, false}, Event: PerceptronEvent{I: -1},
		Tasks: []PerceptronTask{{Pos: 1, Neg: -1, W: []float64{0, 0, 0}, CurW: []float64{0, 0, 0}}}}
	tests := []struct {
		name string
		sc   PerceptronScene
		want error
	}{
		{"d = 3", d3, render.ErrDimension},
		{"no perceptrons", edit(ok, func(sc *PerceptronScene) { sc.Tasks = nil }), render.ErrNoState},
		{"no points", edit(ok, func(sc *PerceptronScene) { sc.X = nil }), render.ErrNoData},
		{"zero scene", PerceptronScene{}, render.ErrNoData},
		{"fewer labels than points", edit(ok, func(sc *PerceptronScene) { sc.Y = sc.Y[1:] }), render.ErrShape},
		{"fewer misclassified flags than points", edit(ok, func(sc *PerceptronScene) { sc.Wrong = nil }), render.ErrShape},
		{"two-class scene with three perceptrons", edit(ova, func(sc *PerceptronScene) { sc.Binary = true }), render.ErrShape},
		{"event out of range", edit(ok, func(sc *PerceptronScene) { sc.Event.I = 99 }), render.ErrShape},
		{"update of the wrong size", edit(ok, func(sc *PerceptronScene) { sc.Event.DeltaW = []float64{1} }), render.ErrShape},
		{"w of the wrong size", edit(ok, func(sc *PerceptronScene) { sc.Tasks[0].W = []float64{1} }), render.ErrShape},
		{"updated without the old w", edit(ok, func(sc *PerceptronScene) { sc.Tasks[0].Updated, sc.Tasks[0].BeforeW = true, nil }), render.ErrShape},
		{"a point of another dimension", edit(ok, func(sc *PerceptronScene) {
			sc.X = append([][]float64{{1}}, sc.X[1:]...)
		}), render.ErrShape},
		{"a label not among the classes", edit(ova, func(sc *PerceptronScene) { sc.Classes = sc.Classes[1:] }), render.ErrShape},
		{"a perceptron for a class not in the data", edit(ova, func(sc *PerceptronScene) { sc.Tasks[0].Pos = 9 }), render.ErrShape},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if _, err := PerceptronSVGFrame(&b, tt.sc, render.Options{}); !errors.Is(err, tt.want) {
				t.Errorf("PerceptronSVGFrame error = %v, want %v", err, tt.want)
			}
			if err := PerceptronPNG(&b, tt.sc, render.Options{}); !errors.Is(err, tt.want) {
				t.Errorf("PerceptronPNG error = %v, want %v", err, tt.want)
			}
			if b.Len() != 0 {
				t.Errorf("wrote %d bytes on error", b.Len())
			}
		})
	}
}

func TestPNGSize(t *testing.T) {
	pr, states := cases[1].trajectory(t)
	for _, opt := range []render.Options{{}, {Width: 200, Height: 200}, {Width: 801, Height: 455}, {Width: 2000, Height: 2000}} {
		var b bytes.Buffer
		if err := PerceptronPNG(&b, sceneOf(pr, states[len(states)-1]), opt); err != nil {
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

// TestFrame checks that the frame is where the drawing puts the data and
// that the axes have equal units, at sizes from tall to wide.
func TestFrame(t *testing.T) {
	for _, c := range cases[:7] {
		pr, states := c.trajectory(t)
		for _, opt := range []render.Options{{}, {Width: 200, Height: 200}, {Width: 2000, Height: 300}, {Width: 300, Height: 2000}, {Width: 1000, Height: 700}} {
			f, err := PerceptronSVGFrame(io.Discard, sceneOf(pr, states[len(states)-1]), opt)
			if err != nil {
				t.Fatal(err)
			}
			ux := (f.View.XMax - f.View.XMin) / f.Width
			uy := (f.View.YMax - f.View.YMin) / f.Height
			if math.Abs(ux-uy) > 1e-9*ux {
				t.Errorf("%s %+v: %g data units per pt across, %g up; want equal", c.name, opt, ux, uy)
			}
			if f.Left <= 0 || f.Top <= 0 || f.Left+f.Width >= f.ViewBoxWidth || f.Top+f.Height >= f.ViewBoxHeight {
				t.Errorf("%s %+v: data area %+v not inside the figure", c.name, opt, f)
			}
			dv := render.DataView(pr.X)
			if f.View.XMin > dv.XMin || f.View.XMax < dv.XMax || f.View.YMin > dv.YMin || f.View.YMax < dv.YMax {
				t.Errorf("%s %+v: view %+v does not contain the data view %+v", c.name, opt, f.View, dv)
			}
			x1, x2 := f.DataAt(f.Left, f.Top+f.Height)
			if math.Abs(x1-f.View.XMin) > 1e-9 || math.Abs(x2-f.View.YMin) > 1e-9 {
				t.Errorf("%s: DataAt(bottom-left) = (%g, %g), want (%g, %g)", c.name, x1, x2, f.View.XMin, f.View.YMin)
			}
		}
	}
}

// TestFrameSameEveryStep: the page maps clicks with one frame per data set.
func TestFrameSameEveryStep(t *testing.T) {
	for _, c := range cases[:7] {
		pr, states := c.trajectory(t)
		first, err := PerceptronSVGFrame(io.Discard, sceneOf(pr, states[0]), render.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k < len(states); k++ {
			if f, _ := PerceptronSVGFrame(io.Discard, sceneOf(pr, states[k]), render.Options{}); f != first {
				t.Fatalf("%s: frame at step %d = %+v, at step 0 = %+v", c.name, k, f, first)
			}
		}
	}
}

func TestInlineSVG(t *testing.T) {
	svg := cases[0].svg(t)
	if !bytes.HasPrefix(svg, []byte("<?xml")) {
		t.Errorf("standalone SVG starts %.20q, want the XML declaration", svg)
	}
	in := render.InlineSVG(svg)
	if !bytes.HasPrefix(in, []byte(`<svg role="img"`)) {
		t.Errorf("InlineSVG starts %.30q, want <svg role=\"img\"", in)
	}
	if got := render.InlineSVG([]byte("no svg")); string(got) != "no svg" {
		t.Errorf("InlineSVG(%q) = %q, want it unchanged", "no svg", got)
	}
}

// TestOddInputs renders data sets at the edges of what Init accepts; none
// may panic or fail.
func TestOddInputs(t *testing.T) {
	tests := []struct {
		name string
		d    perceptron.Data
		p    func(*perceptron.Params)
	}{
		{"one point", perceptron.Data{X: [][]float64{{1, 2}}, Y: []int{1}}, nil},
		{"all points equal", perceptron.Data{X: [][]float64{{1, 1}, {1, 1}, {1, 1}}, Y: []int{1, -1, 1}}, nil},
		{"one class, one-vs-one", perceptron.Data{X: [][]float64{{0, 0}, {1, 1}}, Y: []int{0, 0}},
			func(p *perceptron.Params) { p.Multiclass = perceptron.OneVsOne }},
		{"classes 0 and 7", perceptron.Data{X: [][]float64{{0, 0}, {1, 1}, {2, 0}}, Y: []int{0, 7, 7}}, nil},
		{"ten classes", perceptron.Data{X: [][]float64{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}},
			Y: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}, nil},
		{"huge coordinates", perceptron.Data{X: [][]float64{{-3e6, 1e6}, {2e6, 5e6}}, Y: []int{1, -1}}, nil},
		{"tiny spread", perceptron.Data{X: [][]float64{{1e-7, 0}, {0, 2e-7}, {3e-7, 1e-7}}, Y: []int{1, -1, 1}},
			func(p *perceptron.Params) { p.Average = true; p.Margin = 0.5 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := perceptron.DefaultParams()
			p.MaxEpochs = 5
			if tt.p != nil {
				tt.p(&p)
			}
			pr, states, err := perceptron.Trajectory(tt.d, p, 7)
			if err != nil {
				t.Fatal(err)
			}
			for _, opt := range []render.Options{{}, {Width: 200, Height: 200}, {Width: 2000, Height: 240}} {
				for k := range states {
					var b bytes.Buffer
					if _, err := PerceptronSVGFrame(&b, sceneOf(pr, states[k]), opt); err != nil {
						t.Fatalf("step %d %+v: %v", k, opt, err)
					}
				}
				if err := PerceptronPNG(io.Discard, sceneOf(pr, states[len(states)-1]), opt); err != nil {
					t.Fatalf("png %+v: %v", opt, err)
				}
			}
		})
	}
}

// TestAveragedArrowLabel: with averaging the bold boundary is w̄'s but the
// arrow is the current w, which is what the update changes; its legend
// entry says so, while a plain run's arrow is just w.
func TestAveragedArrowLabel(t *testing.T) {
	for _, c := range cases[:5] {
		pr, _ := c.trajectory(t)
		svg := string(c.svg(t))
		averaged := strings.Contains(svg, ">current w, not w̄")
		if averaged != pr.P.Average {
			t.Errorf("%s: averaged %v, but the legend names the arrow the current w: %v", c.name, pr.P.Average, averaged)
		}
		if pr.P.Average && strings.Contains(svg, ">w (scaled)<") {
			t.Errorf("%s: an averaged run's legend lists an arrow as plain w", c.name)
		}
	}
}
