package gd

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/graphs"
)

// lossFact is what the gallery's table says about one loss: ℓ as a
// function of the score z = y·ŷ, and Theorem 1.6.3 of notes 000 (a convex
// ℓ is classification-calibrated iff it is differentiable at 0 with
// ℓ'(0) < 0).
type lossFact struct {
	key, name, formula string
	convex             bool
	deriv0             string // ℓ'(0), or why there is none
	calibrated         string
}

// lossFacts lists the gallery's losses in the chart's legend order.
var lossFacts = []lossFact{
	{graphs.LossZeroOne, "0-1", "1 if z ≤ 0, else 0", false, "none (jump)", "— (the loss the others stand in for)"},
	{graphs.LossPerceptron, "perceptron", "max(0, −z)", true, "none (kink)", "no: not differentiable at 0"},
	{graphs.LossHinge, "hinge", "max(0, 1 − z)", true, "−1", "yes"},
	{graphs.LossLogistic, "logistic", "log₂(1 + e⁻ᶻ)", true, "−1/(2 ln 2) ≈ −0.7213", "yes"},
	{graphs.LossSquared, "squared", "(1 − z)²", true, "−2", "yes"},
}

// lossSets are the gallery's choices of losses to draw.
var lossSets = map[string][]string{
	"all":        nil,
	"convex":     {graphs.LossPerceptron, graphs.LossHinge, graphs.LossLogistic, graphs.LossSquared},
	"calibrated": {graphs.LossHinge, graphs.LossLogistic, graphs.LossSquared},
	"margin":     {graphs.LossZeroOne, graphs.LossPerceptron, graphs.LossHinge},
}

// losses chooses which of lossSets the gallery draws.
var losses = demo.Choice{Key: "losses", Label: "losses shown", Doc: "which losses the chart draws", Group: demo.GroupAlgo, Default: "all",
	Options: []demo.Option{{"all", "all five"}, {"convex", "the convex ones"}, {"calibrated", "the calibrated ones"}, {"margin", "0-1, perceptron, hinge"}}}

// LossGallerySpec declares the chart of classification losses against
// the score z = y·ŷ, with a table of which are convex and calibrated.
func LossGallerySpec() demo.Spec {
	return demo.Spec{
		ID: "loss-gallery", Title: "Classification losses", Lesson: "gradient-descent", Static: true,
		Data:        demo.DataSpec{Labels: demo.NoLabels},
		Params:      demo.Params(losses),
		Examples:    []demo.Example{{Name: "default", Query: ""}},
		Conventions: lossGalleryConventions(), Explain: demo.Explain{Section: "losses"},
		Compute: computeLossGallery,
	}
}

func computeLossGallery(ctx context.Context, in demo.Input) (demo.Result, error) {
	keys := lossSets[losses.Get(in.State)]
	chart := graphs.LossChart{Losses: keys, Title: "classification losses ℓ(z) of the score z = y·ŷ\ntangents at z = 0 where ℓ'(0) exists",
		Name: "Classification losses against the score z = y·ŷ"}
	draw := func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
		if png {
			return render.Frame{}, graphs.LossChartPNG(w, chart, opt)
		}
		return render.Frame{}, graphs.LossChartSVG(w, chart, opt)
	}
	return demo.Result{Step: 0, Done: true, Plot: draw, Panel: func() demo.Panel { return lossPanel(keys) }}, nil
}

func lossPanel(keys []string) demo.Panel {
	tb := demo.Table{TestID: "losses", Caption: "Which losses are convex and classification-calibrated (Theorem 1.6.3: a convex ℓ is calibrated iff ℓ'(0) exists and is < 0)",
		Head: []string{"loss", "ℓ(z)", "convex?", "ℓ'(0)", "calibrated?"}}
	var names []string
	calibrated := 0
	for _, f := range lossFacts {
		if keys != nil && !slices.Contains(keys, f.key) {
			continue
		}
		convex := "no"
		if f.convex {
			convex = "yes"
		}
		if f.calibrated == "yes" {
			calibrated++
		}
		names = append(names, f.name)
		tb.Rows = append(tb.Rows, []string{f.name, f.formula, convex, f.deriv0, f.calibrated})
	}
	return demo.Panel{
		Status: fmt.Sprintf("%d of %d losses drawn", len(names), len(lossFacts)), Done: true,
		Counters: []demo.Counter{
			{"losses drawn", strconv.Itoa(len(names)), "drawn"},
			{"calibrated among them", strconv.Itoa(calibrated), "calibrated"},
		},
		Start:  "The chart draws ℓ(z) against the score z = y·ŷ for " + strings.Join(names, ", ") + ", with the tangent at z = 0 where ℓ'(0) exists; the table says which are convex and calibrated.",
		Tables: []demo.Table{tb},
		Notes: []demo.Note{{TestID: "calibration", Text: "A calibrated surrogate's minimiser has the sign of the Bayes " +
			"classifier, so minimising it by gradient descent also drives the 0-1 risk down. The perceptron loss is convex but flat for z > 0 with a kink at 0: " +
			"it has no ℓ'(0), and w = 0 minimises it."}},
	}
}
