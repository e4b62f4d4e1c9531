// Figures and counters several demos draw alike.

package demo

import (
	"io"
	"math"

	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/fields"
	"github.com/margin-edu/margin/internal/render/scenes"
	"github.com/margin-edu/margin/internal/textfmt"
)

// FieldRes is the probability field's grid: its contours are exact at
// any resolution (the score is linear), and the fill is a smooth ramp
// that browsers and the PNG writer interpolate, so a coarse grid looks
// like the default one at a ninth of its cells (and of the embedded
// raster's bytes, whose encoding was the figure's largest cost).
const FieldRes = 40

// ScoreLevels turns the levels P = p of a probability into the levels
// f = logit p of the score under it.
func ScoreLevels(ls []fields.Level) []fields.Level {
	out := make([]fields.Level, len(ls))
	for i, l := range ls {
		out[i] = l
		out[i].Value = math.Log(l.Value / (1 - l.Value))
	}
	return out
}

// HeldOutCounter shows the error on n held-out points.
func HeldOutCounter(r float64, n int) Counter {
	return Counter{"held-out error (" + textfmt.Count(n, "point", "points") + ")", textfmt.Pct(r, 1), "heldout"}
}

// SvmOneClass is why an SVM demo cannot run on one class.
const SvmOneClass = "An SVM separates two classes; these points have one."

// OneClassResult shows points of a single class: no two-class model
// exists until the other class has a point, which the panel asks for;
// why says so in the demo's own terms.
func OneClassResult(x [][]float64, y []int, in Input, why string) Result {
	scene := scenes.SVMScene{X: x, Y: y, C: math.Inf(1), Pair: [2]int{-1, -1}, Title: "one class only: add a point of the other class"}
	return Result{
		Done: true,
		Plot: SceneDrawer(scene),
		Panel: func() Panel {
			return Panel{Status: "needs two classes", Done: true, Bad: true,
				Start: why,
				Notes: []Note{{TestID: "one-class", Alert: true,
					Text: "Add a point of the other class: choose its label under the plot and click where it goes."}}}
		},
	}
}

// SceneDrawer draws an SVM scene, the main plot of every SVM demo.
func SceneDrawer(scene scenes.SVMScene) Drawer {
	return func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
		f, err := scenes.SVMFigure(scene)
		if err != nil {
			return render.Frame{}, err
		}
		return f.Write(w, png, opt)
	}
}
