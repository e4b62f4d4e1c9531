package svm

import (
	"context"
	"fmt"
	"image/color"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/render/fields"
	"github.com/margin-edu/margin/internal/textfmt"
)

// psiW and psiB are 001's example: the hyperplane w·ψ(x) + b = 0 in the
// space of ψ(x) = (x₁², x₁x₂, x₂²), which is the curve
// x₁² + 3x₁x₂ + x₂² = 3 in the plane.
var (
	psiW = [3]float64{1, 3, 1}
	psiB = -3.0
)

// psi is 001's feature map ψ(x) = (x₁², x₁x₂, x₂²).
func psi(x1, x2 float64) [3]float64 { return [3]float64{x1 * x1, x1 * x2, x2 * x2} }

// PsiScore is w·ψ(x) + b for 001's w and b.
func PsiScore(x1, x2 float64) float64 {
	z := psi(x1, x2)
	return psiW[0]*z[0] + psiW[1]*z[1] + psiW[2]*z[2] + psiB
}

// KernelMapSpec declares the feature-map demo: 001's quadratic boundary in
// the plane and, beside it, the same points lifted by ψ into three
// dimensions where a plane separates them; and 000's kernel identity
// (⟨x, z⟩ + 1)² = ⟨φ(x), φ(z)⟩ checked on two points the learner picks.
func KernelMapSpec() demo.Spec {
	return demo.Spec{
		ID: "kernel-map", Title: "Feature maps and the kernel trick", Lesson: "kernels",
		Data: demo.DataSpec{Labels: demo.ClassLabels, MaxClasses: 2, Default: "psi",
			Sets: []demo.Option{{"psi", "labelled by 001's curve (random)"}}, Make: psiPoints},
		Params: demo.Params(psiN, pointset.Seed, pickX1, pickX2, pickZ1, pickZ2, azimuth, elevation),
		Panels: []string{"lift"}, PanelLabels: map[string]string{"lift": "Points lifted to three dimensions"}, Static: true,
		Examples:    []demo.Example{{Name: "default", Query: ""}},
		Conventions: kernelMapStated(), Explain: demo.Explain{Section: "quadratic"},
		Compute: computeKernelMap,
	}
}

// The feature-map demo's parameters: the size of its one random set, the
// two points of the kernel check and the 3-D view's angles.
var (
	psiN           = pointset.N.Tweak(func(p *demo.Int) { p.Doc, p.Max = "points of the random set", 200 })
	pickX1, pickX2 = pickCoord("x1", "x₁", 1), pickCoord("x2", "x₂", 2)
	pickZ1, pickZ2 = pickCoord("z1", "z₁", 3), pickCoord("z2", "z₂", -1)
	// The view's angles are form controls (GroupView has no form): the
	// prose sends the reader to them to turn the lifted points.
	azimuth = demo.Int{Key: "azim", Label: "rotate (azimuth °)", Doc: "azimuth of the 3-D view, in degrees", Group: demo.GroupAlgo,
		Default: -20, Min: -180, Max: 180}
	elevation = demo.Int{Key: "elev", Label: "tilt (elevation °)", Doc: "elevation of the 3-D view, in degrees", Group: demo.GroupAlgo,
		Default: 15, Min: -90, Max: 90}
)

// pickCoord declares a coordinate of the two points of the kernel check.
func pickCoord(key, label string, def float64) demo.Float {
	return demo.Float{Key: key, Label: label, Doc: "a coordinate of the two points of the kernel check", Group: demo.GroupAlgo,
		Default: def, Min: -10, Max: 10, Step: "0.1"}
}

// psiPoints draws n points uniformly from [−2.5, 2.5]², rounded to two
// decimals as every random set is, labelled by the side of 001's curve
// they fall on; a point exactly on it counts as −1.
func psiPoints(s demo.State) ([][]float64, []float64, error) {
	n := psiN.Get(s)
	r := rand.New(rand.NewPCG(uint64(pointset.Seed.Get(s)), 0x707369)) // "psi"
	x, y := make([][]float64, n), make([]float64, n)
	round := func(v float64) float64 { return math.Round(v*100) / 100 }
	for i := range x {
		x[i] = []float64{round(5*r.Float64() - 2.5), round(5*r.Float64() - 2.5)}
		y[i] = -1
		if PsiScore(x[i][0], x[i][1]) > 0 {
			y[i] = 1
		}
	}
	return x, y, nil
}

func computeKernelMap(ctx context.Context, in demo.Input) (demo.Result, error) {
	st := in.State
	x, yf := demo.Columns(in.Points)
	y := pointset.SignLabels(yf)
	a := [2]float64{pickX1.Get(st), pickX2.Get(st)}
	b := [2]float64{pickZ1.Get(st), pickZ2.Get(st)}
	lifted := make([][3]float64, len(x))
	for i, p := range x {
		lifted[i] = psi(p[0], p[1])
	}
	return demo.Result{
		Done: true,
		Plot: mapPlot(x, y, a, b),
		Panels: map[string]demo.Drawer{"lift": func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
			l := chart.Lift{
				Title: "the points lifted by ψ(x) = (x₁², x₁x₂, x₂²), and the plane w·ψ(x) + b = 0",
				P:     lifted, Y: y, Axes: [3]string{"x₁²", "x₁x₂", "x₂²"},
				Plane:   &[4]float64{psiW[0], psiW[1], psiW[2], psiB},
				Azimuth: float64(azimuth.Get(st)), Elevation: float64(elevation.Get(st)),
			}
			o := render.Options{Width: opt.Width, Height: opt.Width}
			if png {
				return render.Frame{}, chart.LiftPNG(w, l, o)
			}
			return render.Frame{}, chart.LiftSVG(w, l, o)
		}},
		Panel: func() demo.Panel { return mapPanel(a, b) },
	}, nil
}

// mapPlot draws the plane: the two sides of 001's curve tinted, the
// curve, the points and the two picked points x and z.
func mapPlot(x [][]float64, y []int, a, b [2]float64) demo.Drawer {
	return func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
		field, err := fields.NewField(PsiScore, sideFill, fields.Level{Value: 0, LineStyle: render.DefaultBoundaryStyle})
		if err != nil {
			return render.Frame{}, err
		}
		pts, err := render.NewClassPoints(x, y, nil)
		if err != nil {
			return render.Frame{}, err
		}
		picks, err := render.NewPicks([][2]float64{a, b}, []string{"x", "z"})
		if err != nil {
			return render.Frame{}, err
		}
		view := render.DataView(append(append([][]float64{}, x...), a[:], b[:]))
		f := render.DataFigure{
			Title:  "001's boundary w·ψ(x) + b = 0\nx₁² + 3x₁x₂ + x₂² = 3: a hyperbola here, a plane after ψ",
			View:   view,
			Layers: []plot.Plotter{field, pts, picks},
			Legend: append(pts.Legend(), render.LegendItem{Label: "picked x, z", Thumbs: []plot.Thumbnailer{picks}}),
		}
		return f.Write(w, png, opt)
	}
}

// sideFill tints the side w·ψ(x) + b > 0 blue and the other vermillion,
// lightly, as the SVM figures tint their regions.
func sideFill(v float64) color.Color {
	if v > 0 {
		return color.NRGBA{R: 0, G: 114, B: 178, A: 40}
	}
	return color.NRGBA{R: 213, G: 94, B: 0, A: 40}
}

// mapPanel writes out 000's kernel identity on the picked points, both
// sides with their numbers, and Remark 1.7.5's two maps. Every number of
// the arithmetic is printed by exact, so the sums and squares hold with
// the numbers as printed: (200 + 1)² = 40401, not 40400.
func mapPanel(a, b [2]float64) demo.Panel {
	ip := a[0]*b[0] + a[1]*b[1]
	k := (ip + 1) * (ip + 1)
	fa, fb := phi(a), phi(b)
	// The terms φᵢ(x)φᵢ(z), the √2 ones as the 2xᵢzᵢ they are, so that
	// each term is a short decimal of the inputs.
	prod := [7]float64{fa[0] * fb[0], fa[1] * fb[1], fa[2] * fb[2], fa[3] * fb[3], 2 * a[0] * b[0], 2 * a[1] * b[1], 1}
	terms := make([]string, len(prod))
	var dot float64
	for i, v := range prod {
		dot += v
		terms[i] = exact(v)
	}
	p := demo.Panel{
		Done: true, Status: "identity holds",
		Examined: fmt.Sprintf("The kernel trick on x = %s and z = %s, with φ(x) = (vec(xxᵀ), √2x, 1) ∈ ℝ⁷:", exactVec(a[:]), exactVec(b[:])),
		Lines: []string{
			fmt.Sprintf("⟨x, z⟩ = %s·%s + %s·%s = %s", textfmt.Paren(exact(a[0])), textfmt.Paren(exact(b[0])), textfmt.Paren(exact(a[1])), textfmt.Paren(exact(b[1])), exact(ip)),
			fmt.Sprintf("k(x, z) = (⟨x, z⟩ + 1)² = (%s + 1)² = %s", textfmt.Paren(exact(ip)), exact(k)),
			"φ(x) = " + textfmt.Vec(fa[:]),
			"φ(z) = " + textfmt.Vec(fb[:]),
			"⟨φ(x), φ(z)⟩ = " + strings.ReplaceAll(strings.Join(terms, " + "), "+ −", "− ") + " = " + exact(dot),
		},
		Counters: []demo.Counter{
			{"(⟨x, z⟩ + 1)²", exact(k), "kernel"},
			{"⟨φ(x), φ(z)⟩", exact(dot), "features"},
			{"w·ψ(x) + b", exact(PsiScore(a[0], a[1])), "score-x"},
			{"w·ψ(z) + b", exact(PsiScore(b[0], b[1])), "score-z"},
		},
	}
	if exact(k) != exact(dot) {
		// Not reached for coordinates of a few decimals; a float's
		// round-off could show for long ones.
		p.Status = "the two sides differ by round-off: " + textfmt.Sig(dot-k)
	}
	s3 := a[0]*a[0]*b[0]*b[0] + 2*a[0]*a[1]*b[0]*b[1] + a[1]*a[1]*b[1]*b[1]
	// Remark 1.7.5's names: φ into ℝ³ with the √2, ψ into ℝ⁴ with x₁x₂
	// twice. That ψ is not the lift ψ(x) = (x₁², x₁x₂, x₂²) of
	// Cornwell's slides the plot and the score use, so each row says its
	// map.
	p.Tables = []demo.Table{{TestID: "remark", Caption: "Remark 1.7.5: two maps, one kernel ⟨x, z⟩²: φ into ℝ³ and the remark's ψ into ℝ⁴ (not the lift ψ)",
		Head: []string{"map", "at x", "at z", "inner product"},
		Rows: [][]string{
			{"φ(x) = (x₁², √2x₁x₂, x₂²)", textfmt.Vec([]float64{a[0] * a[0], math.Sqrt2 * a[0] * a[1], a[1] * a[1]}),
				textfmt.Vec([]float64{b[0] * b[0], math.Sqrt2 * b[0] * b[1], b[1] * b[1]}), exact(s3)},
			{"ψ(x) = (x₁², x₁x₂, x₁x₂, x₂²)", exactVec([]float64{a[0] * a[0], a[0] * a[1], a[0] * a[1], a[1] * a[1]}),
				exactVec([]float64{b[0] * b[0], b[0] * b[1], b[0] * b[1], b[1] * b[1]}), exact(s3)},
			{"⟨x, z⟩²", "", "", exact(ip * ip)},
		}}}
	return p
}

// kernelMapStated is the demo's model box: a check, not a fit. Its φ is
// the notes' φ(x) = (vec(xxᵀ), √2x, 1) of the kernel check, its ψ the lift
// ψ(x) = (x₁², x₁x₂, x₂²) of Cornwell's slides, the names the panel and
// the lesson give them.
func kernelMapStated() *demo.Conventions {
	return &demo.Conventions{
		Procedure: func(s demo.State) string {
			return "nothing is minimised: k(x, z) = (⟨x, z⟩ + 1)² against ⟨φ(x), φ(z)⟩ with φ(x) = (vec(xxᵀ), √2x, 1), " +
				"for the two points set, and the points lifted by ψ(x) = (x₁², x₁x₂, x₂²) with the plane w·ψ(x) + b = 0"
		},
		Bias: demo.BiasNotApplicable, Labels: demo.LabelsSigned,
	}
}

// exactDigits is how many significant digits exact keeps of a value that
// is not an integer: the kernel check's numbers are sums and products of
// coordinates with a decimal or two (at most 9 significant digits), so 12
// print them exactly while dropping a float's round-off (16.564899999999998
// is 1.1²·3.7² = 16.5649).
const exactDigits = 12

// exact prints v for arithmetic that must hold as printed: an integer in
// full (40401, where the 4 significant figures of sig give 40400), any
// other value to exactDigits significant digits without trailing zeros,
// with a true minus sign and −0 as 0. (The lead's textfmt is to print
// exact integers exactly everywhere; this helper can then fold into it.)
func exact(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) >= 1e15:
		return textfmt.Sig(v)
	case v == 0:
		return "0"
	case v != math.Trunc(v):
		v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', exactDigits, 64), 64)
	}
	return strings.Replace(strconv.FormatFloat(v, 'f', -1, 64), "-", "−", 1)
}

// exactVec writes a vector with exact's numbers: "(1, −0.5)".
func exactVec(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = exact(x)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// phi is 000's φ(x) = (vec(xxᵀ), √2x, 1) for x in the plane.
func phi(x [2]float64) [7]float64 {
	r := math.Sqrt2
	return [7]float64{x[0] * x[0], x[0] * x[1], x[1] * x[0], x[1] * x[1], r * x[0], r * x[1], 1}
}
