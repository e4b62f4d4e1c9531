package svm

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/textfmt"
)

// KernelGramSpec declares the Mercer demo: the Gram matrix of a function
// on the current points and its eigenvalues, for the four kernels and two
// functions that are not kernels.
func KernelGramSpec() demo.Spec {
	return demo.Spec{
		ID: "kernel-gram", Title: "Mercer's theorem: the Gram matrix and its eigenvalues", Lesson: "kernels",
		Data:   kernelData(),
		Params: append(pointset.ShapeParams(30, "seeds the random set"), kernelParams(true)...),
		Panels: []string{"gram", "eigen"}, PanelLabels: map[string]string{"gram": "Gram matrix", "eigen": "Eigenvalues of the Gram matrix"}, Static: true,
		Examples:    []demo.Example{{Name: "default", Query: ""}},
		Conventions: gramConventions(), Explain: demo.Explain{Section: "mercer"},
		Compute: computeGram,
	}
}

// namedBelow is how many points the Gram demo keeps in their own order,
// so the heat map's rows x₁…xₙ are the plot's points; more are ordered by
// class, which shows the blocks a good kernel makes.
const namedBelow = 20

func computeGram(ctx context.Context, in demo.Input) (demo.Result, error) {
	x, yf := demo.Columns(in.Points)
	y := pointset.SignLabels(yf)
	order := gramOrder(y)
	xs := make([][]float64, len(x))
	for i, j := range order {
		xs[i] = x[j]
	}
	k := kernelOf(in.State)
	K := svm.Gram(k, xs)
	sp, err := svm.Eigenvalues(K)
	if err != nil {
		return demo.Result{}, demo.UncomputableIf(err, svm.ErrNotFinite)
	}
	n := len(xs)
	values := make([][]float64, n)
	for i := range values {
		values[i] = make([]float64, n)
		for j := range values[i] {
			values[i][j] = K.At(i, j)
		}
	}
	name := kernelName(k)
	title := "Gram matrix of " + name
	if n > namedBelow {
		title += " · rows by class (−1, then +1)"
	}
	return demo.Result{
		Done: true,
		Plot: gramPlot(x, y, k),
		Panels: map[string]demo.Drawer{
			"gram": func(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
				return render.Frame{}, chart.MatrixSVG(w, chart.Matrix{Title: title, Label: "k(xᵢ, xⱼ)", Values: values}, render.Options{Width: opt.Width, Height: 500 * opt.Width / 600})
			},
			"eigen": func(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
				return render.Frame{}, chart.SpectrumSVG(w, chart.Spectrum{Title: "eigenvalues of K, " + name, Values: sp.Values}, render.Options{Width: opt.Width})
			},
		},
		Panel: func() demo.Panel { return gramPanel(k, sp, n) },
	}, nil
}

// gramPlot draws the points whose Gram matrix the demo shows, and says
// only that: the demo computes K and its eigenvalues, and fits nothing.
func gramPlot(x [][]float64, y []int, k svm.Kernel) demo.Drawer {
	return func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
		pts, err := render.NewClassPoints(x, y, nil)
		if err != nil {
			return render.Frame{}, err
		}
		f := render.DataFigure{
			Title:  fmt.Sprintf("%s · k(x, z) = %s", textfmt.Plural(len(x), "points"), kernelFormula(k)),
			Desc:   gramDesc(y, k),
			View:   render.DataView(x),
			Layers: []plot.Plotter{pts},
			Legend: pts.Legend(),
		}
		return f.Write(w, png, opt)
	}
}

// gramDesc is the <desc> of the Gram demo's plot: the points, their
// classes and what the labels are used for.
func gramDesc(y []int, k svm.Kernel) string {
	pos := 0
	for _, v := range y {
		if v > 0 {
			pos++
		}
	}
	order := "The matrix lists them in this order, x₁ to x" + render.PointName(len(y) - 1)[1:] + "."
	if len(y) > namedBelow {
		order = "The matrix lists them by class, the −1 points first, so that blocks of similar points show."
	}
	return fmt.Sprintf("The %s whose Gram matrix Kᵢⱼ = k(xᵢ, xⱼ) the demo computes, for k(x, z) = %s: %d with y = +1, %d with y = −1. "+
		"K does not use the labels. %s", textfmt.Plural(len(y), "points"), kernelFormula(k), pos, len(y)-pos, order)
}

// gramOrder is the order of the points in the matrix: their own for a
// few, else by class.
func gramOrder(y []int) []int {
	idx := make([]int, len(y))
	for i := range idx {
		idx[i] = i
	}
	if len(y) > namedBelow {
		slices.SortStableFunc(idx, func(a, b int) int { return y[a] - y[b] })
	}
	return idx
}

func gramPanel(k svm.Kernel, sp svm.Spectrum, n int) demo.Panel {
	lo, hi, neg := sp.Values[0], sp.Values[len(sp.Values)-1], sp.Negatives()
	p := demo.Panel{
		Counters: []demo.Counter{
			{"points n", strconv.Itoa(n), "n"},
			{"smallest eigenvalue", textfmt.Sig(lo), "min-eig"},
			{"largest eigenvalue", textfmt.Sig(hi), "max-eig"},
			{"negative eigenvalues", strconv.Itoa(neg), "negative"},
		},
		Done: true, Status: "positive semi-definite", Examined: "k(x, z) = " + kernelFormula(k) + " on these " + textfmt.Plural(n, "points") + ".",
		Lines: []string{"K is symmetric by construction: Kᵢⱼ = k(xᵢ, xⱼ) = k(xⱼ, xᵢ) = Kⱼᵢ.",
			fmt.Sprintf("Its %d eigenvalues run from %s to %s.", n, textfmt.Sig(lo), textfmt.Sig(hi))},
	}
	if sp.PSD {
		p.Notes = append(p.Notes, demo.Note{TestID: "psd", Text: "Every eigenvalue is ≥ 0 up to round-off (≥ −10⁻⁹·max(1, λ_max)), so αᵀKα ≥ 0 for every α: " +
			"K passes Mercer's test on these points. (Passing on one set of points does not prove k is a kernel; failing on one set proves it is not.)"})
		return p
	}
	p.Status, p.Bad = "not positive semi-definite: not a kernel", true
	consequence := "In the SVM dual, ½αᵀQα − Σαᵢ with Qᵢⱼ = yᵢyⱼKᵢⱼ is then not convex: it can fall without bound along " +
		"such a direction, and a solver like SMO finds at best a local solution that depends on where it starts."
	if k.Kind == svm.NegSqDist {
		// −‖x − z‖² is conditionally positive definite: on Σ cᵢ = 0 its
		// form is 2‖Σ cᵢxᵢ‖² ≥ 0, and the SVM dual has that constraint.
		consequence = "Its negative direction is the all-ones one, though: for weights with Σ cᵢ = 0 the form Σ cᵢcⱼKᵢⱼ " +
			"equals 2‖Σ cᵢxᵢ‖² ≥ 0, and the SVM dual's constraint Σ αᵢyᵢ = 0 keeps it there, so that dual stays a linear SVM's. " +
			"Kernelized SGD, which has no bias and no such constraint, would fall without bound."
	}
	p.Notes = append(p.Notes, demo.Note{TestID: "not-psd", Alert: true, Text: fmt.Sprintf(
		"K has %s: along its eigenvector α, αᵀKα = %s·‖α‖² < 0, which no inner product ⟨Σαᵢφ(xᵢ), Σαᵢφ(xᵢ)⟩ = ‖Σαᵢφ(xᵢ)‖² can be. "+
			"By Mercer's theorem k is not a kernel. %s", textfmt.Plural(neg, "negative eigenvalues"), textfmt.Sig(lo), consequence)})
	return p
}

// kernelFormula writes k(x, z) with its numbers.
func kernelFormula(k svm.Kernel) string {
	switch k.Kind {
	case svm.Poly:
		return fmt.Sprintf("(%s + %s⟨x, z⟩)^%d", textfmt.Sig(k.Coef0), textfmt.Sig(k.Gamma), k.Degree)
	case svm.RBF:
		return "exp(−" + textfmt.Sig(k.Gamma) + "·‖x − z‖²)"
	case svm.Laplace:
		return "exp(−" + textfmt.Sig(k.Gamma) + "·‖x − z‖)"
	case svm.Linear:
		return "⟨x, z⟩"
	}
	return kernelName(k)
}
