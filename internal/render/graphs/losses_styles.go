package graphs

import (
	"image/color"
	"math"

	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/render"
)

// lossStyle is how a loss is drawn and named: Okabe–Ito hues, told apart
// by dash pattern too.
type lossStyle struct {
	name, label string
	color       color.RGBA
	width       float64
	dashes      []float64
	f           func(z float64) float64
	d0          float64 // ℓ′(0), for a convex loss differentiable at 0; NaN otherwise
	kinks       []float64
}

func lossStyles() []lossStyle {
	ln2 := math.Ln2
	return []lossStyle{
		{name: LossZeroOne, label: "zero-one", color: render.Black, width: 2.25, d0: math.NaN(),
			f: func(z float64) float64 { return b2f(z <= 0) }},
		{name: LossPerceptron, label: "perceptron max(0, −z): no ℓ′(0)", color: render.Vermillion, width: 2.25, dashes: []float64{7, 4}, d0: math.NaN(),
			f: func(z float64) float64 { return math.Max(0, -z) }, kinks: []float64{0}},
		{name: LossHinge, label: "hinge max(0, 1 − z): ℓ′(0) = −1", color: render.Blue, width: 3, d0: -1,
			f: func(z float64) float64 { return math.Max(0, 1-z) }, kinks: []float64{1}},
		{name: LossLogistic, label: "logistic (log₂): ℓ′(0) = −0.72", color: render.Green, width: 2.25, dashes: []float64{9, 3, 2, 3}, d0: -1 / (2 * ln2),
			f: func(z float64) float64 { return math.Log1p(math.Exp(-z)) / ln2 }},
		{name: LossSquared, label: "squared (1 − z)²: ℓ′(0) = −2", color: render.Purple, width: 2.25, dashes: []float64{2.5, 2.5}, d0: -2,
			f: func(z float64) float64 { return (1 - z) * (1 - z) }},
	}
}

// b2f is 1 for true and 0 for false.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// line is the loss's line style at th's scale.
func (s lossStyle) line(th render.Theme) draw.LineStyle {
	sty := draw.LineStyle{Color: s.color, Width: th.Pt(s.width)}
	for _, d := range s.dashes {
		sty.Dashes = append(sty.Dashes, th.Pt(d))
	}
	return sty
}
