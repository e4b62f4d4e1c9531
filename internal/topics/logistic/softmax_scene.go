package logistic

import (
	"fmt"
	"io"
	"math"
	"slices"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/fields"
	"github.com/margin-edu/margin/internal/textfmt"
)

// regions tint each class's region, {x : s_c(x) ≥ s_l(x) for all l}, a
// convex polygon since the scores are affine: class 0 fills the view and
// the others are painted over it, ties going to the smaller class (strict
// against the classes before) as Predict gives them.
func (r *softmaxRun) regions() ([]plot.Plotter, error) {
	m := r.s.Model
	var out []plot.Plotter
	if r.tied() {
		return nil, nil
	}
	for j := range m.W {
		var planes []render.HalfPlane
		for l := range m.W {
			if j == 0 || l == j {
				continue
			}
			planes = append(planes, render.HalfPlane{
				A: [2]float64{m.W[j][0] - m.W[l][0], m.W[j][1] - m.W[l][1]}, B: m.B[j] - m.B[l], Strict: l < j})
		}
		reg, err := render.NewRegion(render.ClassTint(float64(j)), planes...)
		if err != nil {
			return nil, err
		}
		out = append(out, reg)
	}
	return out, nil
}

// borders draws the edges between the regions as the zero lines of
// s_a − max_{l≠a} s_l, one field per class but the last (whose edges all
// border another class's region). The function is continuous, so the
// lines run right into the points where three regions meet, and on an
// edge a|b the fields of a and b are exact negatives, so they cross the
// grid at the same points. It is linear but for kinks on the other
// edges, so marching squares draws its zero line exactly except in the
// cells at a junction, and a coarse grid serves.
func (r *softmaxRun) borders() ([]plot.Plotter, error) {
	if r.flat() {
		return nil, nil
	}
	c := len(r.s.Model.W)
	var out []plot.Plotter
	for a := 0; a < c-1; a++ {
		f, err := fields.NewField(func(x1, x2 float64) float64 {
			best := math.Inf(-1)
			for l := 0; l < c; l++ {
				if l != a {
					best = math.Max(best, r.score(l, x1, x2))
				}
			}
			return r.score(a, x1, x2) - best
		}, nil, fields.Level{Value: 0, LineStyle: render.DefaultBoundaryStyle})
		if err != nil {
			return nil, err
		}
		f.Res = demo.FieldRes
		out = append(out, f)
	}
	return out, nil
}

func (r *softmaxRun) title() string {
	t := fmt.Sprintf("step %d · J = %s", r.k, textfmt.Sig(r.s.Objective))
	switch {
	case r.tied():
		t += fmt.Sprintf(" · P = 1/%d everywhere", r.sm.C)
	case r.flat():
		t += " · W = 0: one class everywhere"
	default:
		t += fmt.Sprintf(" · training error %.1f %%", 100*r.trainingError())
	}
	return t + "\n" + r.method()
}

func (r *softmaxRun) method() string {
	return "softmax regression by gradient descent, η = " + textfmt.Sig(r.eta) + ", λ = " + textfmt.Sig(r.sm.Lambda)
}

// draw shows the regions of the predicted class with crisp edges, the
// points (misclassified ones in bold) and the probe q.
func (r *softmaxRun) draw(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
	layers, err := r.regions()
	if err != nil {
		return render.Frame{}, err
	}
	borders, err := r.borders()
	if err != nil {
		return render.Frame{}, err
	}
	layers = append(layers, borders...)
	var wrong []bool
	if !r.tied() {
		wrong = r.wrong()
	}
	pts, err := render.NewClassPoints(r.sm.X, r.sm.Y, wrong)
	if err != nil {
		return render.Frame{}, err
	}
	picks, err := render.NewPicks([][2]float64{r.q}, []string{"q"})
	if err != nil {
		return render.Frame{}, err
	}
	avoid := make([][2]float64, len(r.sm.X))
	for i, x := range r.sm.X {
		avoid[i] = [2]float64{x[0], x[1]}
	}
	picks.Avoid = avoid
	anyWrong := slices.Contains(wrong, true)
	edge := fields.Level{LineStyle: render.DefaultBoundaryStyle}
	legend := append(pts.Legend(),
		render.LegendItem{Label: "boundary between classes", Thumbs: []plot.Thumbnailer{edge}, Hidden: borders == nil},
		render.LegendItem{Label: "misclassified", Thumbs: []plot.Thumbnailer{pts.BoldThumb()}, Hidden: !anyWrong},
		render.LegendItem{Label: "probe q", Thumbs: []plot.Thumbnailer{picks}})
	f := render.DataFigure{
		Title:  r.title(),
		View:   render.DataView(append(append([][]float64{}, r.sm.X...), r.q[:])),
		Layers: append(layers, pts, picks),
		Legend: legend,
		Desc: fmt.Sprintf("The plane split by the class softmax regression predicts, arg max_c P(c | x), after %s of %s: "+
			"each region tinted in its class's colour, with black lines between regions. The %d training points are drawn by class; "+
			"%.1f %% are misclassified (bold edge). A yellow diamond marks the probe q = %s, predicted class %d.",
			textfmt.Plural(r.k, "iterations"), r.method(), len(r.sm.X), 100*r.trainingError(), textfmt.Vec(r.q[:]), r.s.Model.Predict(r.q[:])),
	}
	return f.Write(w, png, opt)
}
