package regression

import (
	"context"
	"fmt"
	"io"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/render/graphs"
	"github.com/margin-edu/margin/internal/textfmt"
)

// RidgeSpec declares the notes' instability example (§1.3): two points
// x₁ = (0, 1) and x₂ = (ε, 1), the second coordinate the padded 1, with
// y = (1, −1). Least squares needs w = (−2/ε, 1), which explodes as
// ε → 0; ridge (Def. 1.3.4) keeps it bounded. The weights are the notes'
// padded w: both entries are penalised, as Def. 1.3.4 writes it.
func RidgeSpec() demo.Spec {
	return demo.Spec{
		ID: "ridge", Title: "Least squares blows up; ridge does not", Lesson: "linear-regression",
		Data:   demo.DataSpec{Labels: demo.NoLabels},
		Params: demo.Params(ridgeEps, ridgeBoth),
		Panels: []string{"norm"}, PanelLabels: map[string]string{"norm": "‖w‖ against ε"}, Static: true,
		Examples:    []demo.Example{{Name: "lambda", Query: "eps=0.01&lambda=0.01"}},
		Conventions: ridgeConventions(), Explain: demo.Explain{Section: "ridge"},
		Compute: computeRidge,
	}
}

// The ridge demo's parameters: the second point's ε, and a λ that, as
// Def. 1.3.4 writes it, penalises both weights.
var (
	ridgeEps = demo.Float{Key: "eps", Label: "ε", Doc: "the second point's first coordinate", Group: demo.GroupData,
		Default: 0.1, Min: 1e-6, Max: 1, Step: "any", Log: true}
	ridgeBoth = ridgeLambda.Tweak(func(p *demo.Float) {
		p.Doc, p.Max, p.LogZero = "ridge penalty λ‖w‖² on both weights (Def. 1.3.4)", 10, 1e-6
	})
)

// epsProblem is the example's data for ε: rows are the points.
func epsProblem(eps float64) ([][]float64, []float64) {
	return [][]float64{{0, 1}, {eps, 1}}, []float64{1, -1}
}

func computeRidge(ctx context.Context, in demo.Input) (demo.Result, error) {
	eps, lambda := ridgeEps.Get(in.State), ridgeBoth.Get(in.State)
	x, y := epsProblem(eps)
	ls, err := linreg.Fit(x, y, 0, false)
	if err != nil {
		return demo.Result{}, err
	}
	rg, err := linreg.Fit(x, y, lambda, false)
	if err != nil {
		return demo.Result{}, err
	}
	ax, ay := linreg.Augment(x, y, lambda)
	aug, err := linreg.Fit(ax, ay, 0, false)
	if err != nil {
		return demo.Result{}, err
	}
	plotFig := func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
		f, err := ridgeFigure(eps, lambda, ls, rg)
		if err != nil {
			return render.Frame{}, err
		}
		return f.Write(w, png, opt)
	}
	norm := func(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
		c, err := normSweep(eps, lambda)
		if err != nil {
			return render.Frame{}, err
		}
		return render.Frame{}, chart.CurvesSVG(w, c, render.Options{Width: opt.Width})
	}
	return demo.Result{
		Done: true, Plot: plotFig,
		Panels: map[string]demo.Drawer{"norm": norm},
		Panel:  func() demo.Panel { return ridgePanel(eps, lambda, x, ls, rg, aug) },
	}, nil
}

// ridgeView shows both points with room for the lines between them.
var ridgeView = render.View{XMin: -1.5, XMax: 1.5, YMin: -2.5, YMax: 2.5}

// ridgeFigure draws the two points, the least-squares line
// y = w₁x + w₂ through both, and the ridge line when λ > 0.
func ridgeFigure(eps, lambda float64, ls, rg linreg.Model) (render.DataFigure, error) {
	obs, err := graphs.NewObservations([][2]float64{{0, 1}, {eps, -1}})
	if err != nil {
		return render.DataFigure{}, err
	}
	line := func(m linreg.Model) func(float64) float64 {
		return func(t float64) float64 { return m.W[0]*t + m.W[1] }
	}
	lsg, err := graphs.NewGraph(line(ls), graphs.GraphStyle(1, false))
	if err != nil {
		return render.DataFigure{}, err
	}
	rgg, err := graphs.NewGraph(line(rg), graphs.GraphStyle(0, false))
	if err != nil {
		return render.DataFigure{}, err
	}
	layers := []plot.Plotter{lsg}
	if lambda > 0 {
		layers = append(layers, rgg)
	}
	layers = append(layers, obs)
	title := fmt.Sprintf("ε = %s · least squares w = %s", textfmt.Sig(eps), textfmt.Vec(ls.W))
	detail := "\nλ = 0: ridge is least squares"
	if lambda > 0 {
		detail = fmt.Sprintf("\nridge λ = %s: w = %s", textfmt.Sig(lambda), textfmt.Vec(rg.W))
	}
	desc := fmt.Sprintf("The points (0, 1) and (%s, −1), and the least-squares line through both, %s, "+
		"whose slope −2/ε grows without bound as ε shrinks.", textfmt.Sig(eps), lineText(ls.W[0], ls.W[1]))
	if lambda > 0 {
		desc += fmt.Sprintf(" The ridge line with λ = %s is %s.", textfmt.Sig(lambda), lineText(rg.W[0], rg.W[1]))
	}
	return graphFigure(title+detail, desc, ridgeView, layers, []render.LegendItem{
		{Label: "least squares (λ = 0)", Thumbs: []plot.Thumbnailer{lsg}},
		{Label: "ridge", Thumbs: []plot.Thumbnailer{rgg}, Hidden: lambda == 0},
		{Label: "x₁ = (0, 1), x₂ = (ε, 1)", Thumbs: []plot.Thumbnailer{obs.Thumb(false)}},
	}), nil
}

// normSweep charts ‖w‖ against ε on log axes, for least squares and for
// the chosen λ: the first grows like 2/ε, the second levels off.
func normSweep(eps, lambda float64) (chart.Curves, error) {
	c := chart.Curves{Title: "‖w‖ against ε", XLabel: "ε", YLabel: "‖w‖", LogX: true, LogY: true, Mark: eps}
	ls := chart.Curve{Name: "least squares"}
	rg := chart.Curve{Name: "ridge λ = " + textfmt.Sig(lambda)}
	for k := 0; k <= 24; k++ {
		e := math.Pow(10, -6+float64(k)/4)
		x, y := epsProblem(e)
		for _, s := range []struct {
			c *chart.Curve
			l float64
		}{{&ls, 0}, {&rg, lambda}} {
			m, err := linreg.Fit(x, y, s.l, false)
			if err != nil {
				return c, err
			}
			s.c.X, s.c.Y = append(s.c.X, e), append(s.c.Y, floats.Norm(m.W, 2))
		}
	}
	c.Series = []chart.Curve{ls}
	if lambda > 0 {
		c.Series = append(c.Series, rg)
	}
	return c, nil
}

func ridgePanel(eps, lambda float64, x [][]float64, ls, rg, aug linreg.Model) demo.Panel {
	want := []float64{-2 / eps, 1}
	rel := math.Max(math.Abs(ls.W[0]-want[0])/math.Abs(want[0]), math.Abs(ls.W[1]-want[1]))
	sv := linreg.SingularValues(x)
	n := float64(len(x))
	// ‖w‖ ≤ ‖y‖/(2√(nλ)) for every ε; the counter carries the digits
	// that tell ‖w‖ from the bound (4.9997 against 5 at ε = 0.2, λ = 0.01).
	bound := math.Sqrt(2) / (2 * math.Sqrt(n*lambda))
	rgNorm, boundText := apart(floats.Norm(rg.W, 2), bound)
	p := demo.Panel{
		Counters: []demo.Counter{
			{"least squares w", textfmt.Vec(ls.W), "w-ls"},
			{"−2/ε", textfmt.Sig(want[0]), "formula"},
			{"‖w‖ (λ = 0)", textfmt.Sig(floats.Norm(ls.W, 2)), "norm-ls"},
			{"ridge w", textfmt.Vec(rg.W), "w-ridge"},
			{"‖w‖ ridge", rgNorm, "norm-ridge"},
		},
		Done: true, Status: "solved",
		Examined: fmt.Sprintf("X has the padded points x₁ = (0, 1) and x₂ = (%s, 1) as its columns, as in the notes; y = (1, −1).", textfmt.Sig(eps)),
		Lines: []string{
			fmt.Sprintf("Least squares solves both equations exactly: w₂ = 1 from x₁, then %s·w₁ + 1 = −1, so w₁ = −2/ε = %s "+
				"(%s).", textfmt.Sig(eps), textfmt.Sig(want[0]), agreement(rel)),
		},
	}
	ratio := sv[0] / sv[len(sv)-1]
	p.Tables = []demo.Table{{
		TestID: "svd", Caption: "Singular values of X and of the ridge system (Prop. 1.3.5): XXᵀ + nλI has eigenvalues σᵢ² + nλ.",
		Head: []string{"i", "σᵢ", "σᵢ²", "σᵢ² + nλ"},
		Rows: [][]string{
			{"1", textfmt.Sig(sv[0]), textfmt.Sig(sv[0] * sv[0]), textfmt.Sig(sv[0]*sv[0] + n*lambda)},
			{"2", textfmt.Sig(sv[1]), textfmt.Sig(sv[1] * sv[1]), textfmt.Sig(sv[1]*sv[1] + n*lambda)},
		},
	}}
	p.Notes = append(p.Notes, conditionNote(sv))
	if lambda > 0 {
		cond := (sv[0]*sv[0] + n*lambda) / (sv[1]*sv[1] + n*lambda)
		p.Notes = append(p.Notes, demo.Note{TestID: "ridge", Text: fmt.Sprintf(
			"With λ = %s the smallest eigenvalue of XXᵀ + nλI is at least nλ = %s, its condition number is %s instead of XXᵀ's %s, and w stays bounded as ε → 0.",
			textfmt.Sig(lambda), textfmt.Sig(n*lambda), textfmt.Sig(cond), textfmt.Sig(ratio*ratio))})
		p.Notes = append(p.Notes, demo.Note{TestID: "bound", Text: fmt.Sprintf(
			"‖w‖ = %s: whatever ε, ridge keeps ‖w‖ at most ‖y‖/(2√(nλ)) = %s, the largest value of σ/(σ² + nλ) times ‖y‖.",
			rgNorm, boundText)})
		diff := math.Max(math.Abs(aug.W[0]-rg.W[0]), math.Abs(aug.W[1]-rg.W[1]))
		p.Notes = append(p.Notes, demo.Note{TestID: "augment", Text: fmt.Sprintf(
			"Remark 1.3.6: plain least squares on X with two more columns √(nλ)·e₁, √(nλ)·e₂ (labels 0) gives w = %s, the ridge answer to within %s.",
			textfmt.Vec(aug.W), textfmt.Sig(diff))})
	}
	return p
}

// illConditioned is the ratio σ₁/σ₂ from which the ridge demo calls X
// nearly singular: XXᵀ then has a condition number of 100 or more, and
// solving the normal equation through it loses two digits or more.
const illConditioned = 10

// conditionNote reads the singular values of X: nearly dependent columns
// when σ₁/σ₂ is large, well conditioned otherwise.
func conditionNote(sv []float64) demo.Note {
	ratio := sv[0] / sv[len(sv)-1]
	small := sv[len(sv)-1] * sv[len(sv)-1]
	if ratio >= illConditioned {
		return demo.Note{TestID: "condition", Text: fmt.Sprintf(
			"σ₁/σ₂ = %s: the columns of X, the two points, are nearly dependent, so the normal equation divides by the small σ₂² = %s "+
				"and XXᵀ has the condition number (σ₁/σ₂)² = %s, which costs about %s digits.",
			textfmt.Sig(ratio), textfmt.Sig(small), textfmt.Sig(ratio*ratio), textfmt.Sig(math.Round(10*math.Log10(ratio*ratio))/10))}
	}
	return demo.Note{TestID: "condition", Text: fmt.Sprintf(
		"σ₁/σ₂ = %s, below %d: X is well conditioned, its columns are not nearly dependent, and the normal equation divides by "+
			"σ₂² = %s, which is not small: least squares is stable here.", textfmt.Sig(ratio), illConditioned, textfmt.Sig(small))}
}

// agreement says how closely a solver's answer matches a formula.
func agreement(rel float64) string {
	if rel == 0 {
		return "the SVD solve gives exactly this"
	}
	return "the SVD solve agrees to a relative " + textfmt.Sig(rel)
}
