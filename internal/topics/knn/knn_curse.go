package knn

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/margin-edu/margin/internal/algos/knn"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/textfmt"
)

// CurseDims are the dimensions the curse-of-dimensionality chart
// measures, from the plane to a thousand.
var CurseDims = []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}

// MaxCurseN is the most points per dimension the curse demo draws: within
// knn's limits on n and on the coordinates over all of CurseDims (a fifth
// of a second at most).
const MaxCurseN = min(knn.MaxCurseN, knn.MaxCurseValues/curseDimsSum)

// curseDimsSum is Σ CurseDims, which a test checks.
const curseDimsSum = 1888

// The curse demo's n and seed: the point sets' keys, worded for uniform
// points in every dimension.
var (
	curseN = pointset.N.Tweak(func(p *demo.Int) {
		p.Doc, p.Default, p.Min, p.Max, p.When = "uniform points in [0, 1]^D per dimension D", 1000, 2, MaxCurseN, nil
	})
	curseSeed = pointset.Seed.Tweak(func(p *demo.Int) { p.Doc = "seeds the points and queries (each dimension its own stream)" })
)

// CurseSpec declares the curse-of-dimensionality demo: how close the
// nearest of n uniform points is compared with the farthest, as the
// dimension grows from 1 to 1000.
func CurseSpec() demo.Spec {
	return demo.Spec{
		ID: "curse", Title: "The curse of dimensionality", Lesson: "knn-bayes",
		Data:        demo.DataSpec{Labels: demo.NoLabels},
		Params:      demo.Params(curseN, curseSeed),
		Static:      true,
		Examples:    []demo.Example{{Name: "default", Query: "n=200"}},
		Conventions: curseConventions(), Explain: demo.Explain{Section: "curse"},
		Compute: computeCurse,
	}
}

func computeCurse(ctx context.Context, in demo.Input) (demo.Result, error) {
	n, seed := curseN.Get(in.State), curseSeed.Get(in.State)
	rows, err := knn.CurseOfDimensionality(CurseDims, n, uint64(seed))
	if err != nil {
		return demo.Result{}, demo.Problems{curseN.Key: err.Error()}
	}
	plot := func(w io.Writer, png bool, opt render.Options) (render.Frame, error) {
		if png {
			return render.Frame{}, chart.CurvesPNG(w, curseCurves(rows, n), opt)
		}
		return render.Frame{}, chart.CurvesSVG(w, curseCurves(rows, n), opt)
	}
	return demo.Result{Done: true, Plot: plot, Panel: func() demo.Panel { return cursePanel(rows, n) }}, nil
}

// curseCurves charts the ratio nearest/farthest against D on a log axis.
func curseCurves(rows []knn.CurseRow, n int) chart.Curves {
	d, ratio := make([]float64, len(rows)), make([]float64, len(rows))
	for i, r := range rows {
		d[i], ratio[i] = float64(r.D), r.Ratio
	}
	last := rows[len(rows)-1]
	return chart.Curves{
		Title: fmt.Sprintf("nearest ÷ farthest distance: %s in 1-D, %s in %d-D\nmean over %d queries, %d uniform points in [0, 1]^D",
			textfmt.Sig(rows[0].Ratio), textfmt.Sig(last.Ratio), last.D, knn.CurseQueries, n),
		XLabel: "dimension D", YLabel: "nearest ÷ farthest", LogX: true, // Curves names the log scale
		Series: []chart.Curve{{Name: "nearest ÷ farthest distance", X: d, Y: ratio}},
		Mark:   math.NaN(),
	}
}

func cursePanel(rows []knn.CurseRow, n int) demo.Panel {
	t := demo.Table{TestID: "curse-rows", Caption: fmt.Sprintf("Mean distances from %d queries to %d uniform points in [0, 1]^D", knn.CurseQueries, n),
		Head: []string{"D", "nearest", "farthest", "nearest ÷ farthest", "spread of all distances (sd ÷ mean)"}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{strconv.Itoa(r.D), textfmt.Sig(r.Nearest), textfmt.Sig(r.Farthest), textfmt.Sig(r.Ratio), spreadText(r.Spread)})
	}
	last := rows[len(rows)-1]
	return demo.Panel{
		Status: "all points look alike", Done: true,
		Start: fmt.Sprintf("For each dimension D, %d query points and %d data points drawn uniformly in [0, 1]^D; "+
			"each query's nearest and farthest data point, averaged over the queries.", knn.CurseQueries, n),
		Counters: []demo.Counter{
			{"points per dimension", strconv.Itoa(n), "n"},
			{fmt.Sprintf("ratio at D = %d", rows[0].D), textfmt.Sig(rows[0].Ratio), "ratio-low"},
			{fmt.Sprintf("ratio at D = %d", last.D), textfmt.Sig(last.Ratio), "ratio-high"},
		},
		Tables: []demo.Table{t},
		Notes: []demo.Note{{TestID: "curse",
			Text: "In high dimensions the nearest point is almost as far as the farthest: the neighbourhood kNN votes in " +
				"is no longer local, so its vote says little about x.",
			Fine: "Distances grow like √D while their spread stays about constant, so their ratio tends to 1."}},
	}
}

// spreadText writes a relative spread as a percentage to two significant
// digits ("48 %", "5.9 %"), as the lesson quotes it.
func spreadText(v float64) string {
	return strconv.FormatFloat(100*v, 'g', 2, 64) + " %"
}
