package regression

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/fields"
	"github.com/margin-edu/margin/internal/render/graphs"
	"github.com/margin-edu/margin/internal/textfmt"
)

// lassoView is the part of the (w₁, w₂) plane the figure shows: a box
// around the origin (where the run starts) and the least-squares answer
// (where it would end with α = 0), padded by a third. It depends on the
// data only, so the axes stay put while α or the step changes.
func (r *lassoRun) view() render.View {
	lo1, hi1 := math.Min(0, r.ls.W[0]), math.Max(0, r.ls.W[0])
	lo2, hi2 := math.Min(0, r.ls.W[1]), math.Max(0, r.ls.W[1])
	pad := math.Max(hi1-lo1, hi2-lo2)/3 + 0.1
	return render.View{XMin: lo1 - pad, XMax: hi1 + pad, YMin: lo2 - pad, YMax: hi2 + pad}
}

// l1 is ‖w‖₁ for two weights.
func l1(w []float64) float64 { return math.Abs(w[0]) + math.Abs(w[1]) }

// figure draws the contours of the least-squares part over the (w₁, w₂)
// plane, the one through the lasso solution w* in blue, the ℓ1 ball
// through w*, and the coordinate-descent path from 0, one axis per step.
func (r *lassoRun) figure() (render.DataFigure, error) {
	fmin, f0 := r.lsPart(r.ls.W[0], r.ls.W[1]), r.lsPart(0, 0)
	var rings []float64
	for i := 1; i <= 6; i++ {
		q := float64(i) / 6
		if v := fmin + (f0-fmin)*q*q; v > fmin {
			rings = append(rings, v)
		}
	}
	grey := fields.ContourLevels(rings...)
	greyThumb := fields.ContourLevels(0)[0] // the legend's swatch, also when there are no rings
	fl, err := fields.NewField(r.lsPart, nil, grey...)
	if err != nil {
		return render.DataFigure{}, err
	}
	through := fields.Level{Value: r.lsPart(r.sol.W[0], r.sol.W[1]), LineStyle: draw.LineStyle{Color: render.ClassColor(0), Width: vg.Points(2)}}
	tf, err := fields.NewField(r.lsPart, nil, through)
	if err != nil {
		return render.DataFigure{}, err
	}
	radius := l1(r.sol.W)
	ball := fields.Level{Value: radius, LineStyle: graphs.GraphStyle(1, true)}
	bf, err := fields.NewField(func(w1, w2 float64) float64 { return math.Abs(w1) + math.Abs(w2) }, nil, ball)
	if err != nil {
		return render.DataFigure{}, err
	}
	pa, err := render.NewPath(r.trail)
	if err != nil {
		return render.DataFigure{}, err
	}
	pk, err := render.NewPicks([][2]float64{{r.ls.W[0], r.ls.W[1]}, {r.sol.W[0], r.sol.W[1]}}, []string{"LS", "w*"})
	if err != nil {
		return render.DataFigure{}, err
	}
	s := r.s
	title := fmt.Sprintf("step %d · w = (%s, %s) · J = %s · α = %s", s.T, textfmt.Sig(s.W[0]), textfmt.Sig(s.W[1]), textfmt.Sig(s.Objective), textfmt.Sig(r.alpha))
	detail := fmt.Sprintf("\nlasso w* = (%s, %s), least squares (%s, %s)", textfmt.Sig(r.sol.W[0]), textfmt.Sig(r.sol.W[1]), textfmt.Sig(r.ls.W[0]), textfmt.Sig(r.ls.W[1]))
	desc := fmt.Sprintf("The plane of the two weights (w₁, w₂). Grey contours of the least-squares part (1/2n)‖y − Xw − b·1‖² "+
		"(b at its best for each w) around the least-squares answer (%s, %s); the contour through the lasso solution w* = (%s, %s); "+
		"the ℓ1 ball |w₁| + |w₂| = %s through w*; and the path of coordinate descent from (0, 0) over %s, each along one axis, now at (%s, %s).",
		textfmt.Sig(r.ls.W[0]), textfmt.Sig(r.ls.W[1]), textfmt.Sig(r.sol.W[0]), textfmt.Sig(r.sol.W[1]), textfmt.Sig(radius),
		textfmt.Plural(s.T, "steps"), textfmt.Sig(s.W[0]), textfmt.Sig(s.W[1]))
	return render.DataFigure{
		Title: title + detail, Desc: desc, XLabel: "w₁", YLabel: "w₂", View: r.view(),
		Layers: []plot.Plotter{fl, tf, bf, pa, pk},
		Legend: []render.LegendItem{
			{Label: "least-squares contours", Thumbs: []plot.Thumbnailer{greyThumb}, Hidden: len(grey) == 0},
			{Label: "contour through w*", Thumbs: []plot.Thumbnailer{through}},
			{Label: "ℓ1 ball through w*", Thumbs: []plot.Thumbnailer{ball}, Hidden: radius == 0},
			{Label: "coordinate steps", Thumbs: []plot.Thumbnailer{pa}},
			{Label: "w⁽ᵏ⁾", Thumbs: []plot.Thumbnailer{pa.CurrentThumb()}},
		},
	}, nil
}
