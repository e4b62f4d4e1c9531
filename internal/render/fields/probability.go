package fields

import (
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/render"
)

// probabilityRamp shades P(y = +1 | x): white at ½, blue towards 1 (class
// +1), vermillion towards 0 (class −1), light enough for the points on top.
var probabilityRamp = render.Ramp{Lo: 0, Mid: 0.5, Hi: 1, Strength: 0.35}

// ProbabilityFill is the Field fill of a probability P(y = +1 | x), a
// logistic model's σ(w·x + b): white where the model is unsure (P = ½),
// deepening to blue as P → 1 and to vermillion as P → 0, the class
// colours of ClassPoints. Values outside [0, 1] are clamped; NaN is white.
func ProbabilityFill(p float64) color.Color { return probabilityRamp.Color(p) }

// probabilityGrey is the colour of the P ≠ ½ contours: darker than the
// objective contours' grey, since the fill under them is tinted.
var probabilityGrey = color.RGBA{0x70, 0x70, 0x70, 0xFF}

func probabilityStyle() draw.LineStyle {
	return draw.LineStyle{Color: probabilityGrey, Width: vg.Points(0.9)}
}

// ProbabilityLevels are the contours P = 0.1, 0.2, …, 0.9 of a
// probability Field, each labelled with its value: thin grey lines, then
// the boundary P = ½ in DefaultBoundaryStyle, last so it is drawn over the
// others (the order is 0.1…0.4, 0.6…0.9, 0.5). For a linear logistic model
// they are parallel lines, bunched where ‖w‖ is large (a confident model)
// and spread where it is small.
func ProbabilityLevels() []Level {
	var ls []Level
	for _, k := range []int{1, 2, 3, 4, 6, 7, 8, 9, 5} {
		l := Level{Value: float64(k) / 10, LineStyle: probabilityStyle(), Label: "0." + strconv.Itoa(k)}
		if k == 5 {
			l.LineStyle = render.DefaultBoundaryStyle
		}
		ls = append(ls, l)
	}
	return ls
}

// ProbabilityLegend returns the legend items of ProbabilityLevels: the
// boundary P = ½ and the other contours.
func ProbabilityLegend() []render.LegendItem {
	boundary, other := render.DefaultBoundaryStyle, probabilityStyle()
	return []render.LegendItem{
		{Label: "boundary P = 0.5", Thumbs: []plot.Thumbnailer{(*render.LineThumb)(&boundary)}},
		{Label: "P = 0.1, 0.2, …, 0.9", Thumbs: []plot.Thumbnailer{(*render.LineThumb)(&other)}},
	}
}
