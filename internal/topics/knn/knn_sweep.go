package knn

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/margin-edu/margin/internal/algos/knn"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/textfmt"
)

// sweepKs are the k of the error-against-k chart: odd (so two classes
// never tie), about evenly spaced on a log axis, from 1 up to n, and n
// itself, where every neighbourhood is the whole sample (a tie there goes
// to −1).
func sweepKs(n int) []int {
	ks := []int{1}
	for k := 3; k < n; {
		ks = append(ks, k)
		next := int(math.Round(float64(k) * 1.3))
		next += 1 - next%2 // the next odd number from there
		k = max(next, k+2)
	}
	if n > 1 {
		ks = append(ks, n)
	}
	return ks
}

// knnSweep is the training error and the risk or held-out error at each
// k of sweepKs.
type knnSweep struct {
	ks          []int
	train, held []float64
}

// bytes estimates sw's memory, for the cache.
func (sw knnSweep) bytes() int64 {
	return demo.FloatsBytes(sw.train, sw.held) + 24 + 8*int64(len(sw.ks))
}

// sweep returns the k sweep of r's points, memoised in r's cache: it
// depends on the points, labels, metric and held-out set only, not on the
// k shown, so moving k redraws the chart without recomputing it.
func (r *knnRun) sweep() (knnSweep, error) {
	parts := [][]float64{{float64(r.c.Metric), demo.B2f(r.held), demo.B2f(r.exact())}, intsAsFloats(r.y), intsAsFloats(r.ty)}
	if r.exact() {
		m := mixtureParamsOf(r.s)
		parts = append(parts, []float64{m.pi, m.h, m.sigma})
	}
	parts = append(append(parts, r.x...), r.tx...)
	return demo.Memoise(r.ctx, r.cache, demo.FloatsKey("knn-sweep", parts...), knnSweep.bytes, func(ctx context.Context) (knnSweep, error) {
		sw, err := computeSweep(r.x, r.y, r.tx, r.ty, r.held, r.c.Metric)
		if err != nil {
			return knnSweep{}, err
		}
		if r.exact() {
			// Not through the cache: this is inside one of its
			// computations, and these risks are kept as part of sw.
			sw.held = computeRisks(r.x, r.y, sw.ks, r.c.Metric, mixtureParamsOf(r.s), sweepCells, riskSplit)
		}
		return sw, nil
	})
}

// computeSweep trains kNN at each k of sweepKs and measures its training
// error and, when held, its error on tx, ty.
func computeSweep(x [][]float64, y []int, tx [][]float64, ty []int, held bool, m knn.Metric) (knnSweep, error) {
	sw := knnSweep{ks: sweepKs(len(x))}
	codes, classes := knn.Encode(y)
	for _, k := range sw.ks {
		c, err := knn.New(x, codes, k, m)
		if err != nil {
			return knnSweep{}, err
		}
		sw.train = append(sw.train, c.TrainingError())
		if !held {
			continue
		}
		p, err := c.PredictAll(tx)
		if err != nil {
			return knnSweep{}, err
		}
		wrong := 0
		for i, v := range p {
			if classes[v] != ty[i] {
				wrong++
			}
		}
		sw.held = append(sw.held, float64(wrong)/float64(len(tx)))
	}
	return sw, nil
}

func intsAsFloats(v []int) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// sweepChart draws the training error and the risk (the mixture) or the
// held-out error (a shape) against k on a log axis, the Bayes error as a
// dashed line when the data are the mixture, and the k shown marked.
func (r *knnRun) sweepChart(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
	sw, err := r.sweep()
	if err != nil {
		return render.Frame{}, err
	}
	ks := intsAsFloats(sw.ks)
	c := chart.Curves{
		Title:  fmt.Sprintf("error against k (%s, %s)", r.c.Metric, textfmt.Plural(len(r.x), "points")),
		XLabel: "k", YLabel: "error", LogX: true, Percent: true, // Curves names the log scale
		Series: []chart.Curve{{Name: "training error", X: ks, Y: sw.train}},
		Mark:   float64(neighbours.Get(r.s)),
	}
	if r.held || r.exact() {
		c.Series = append(c.Series, chart.Curve{Name: r.testName(), X: ks, Y: sw.held})
	}
	if r.m != nil && len(ks) > 1 {
		c.Series = append(c.Series, chart.Curve{Name: "Bayes error", X: []float64{ks[0], ks[len(ks)-1]},
			Y: []float64{r.bayesErr, r.bayesErr}, Dashed: true})
	}
	if len(ks) == 1 {
		c.LogX = false
	}
	return render.Frame{}, chart.CurvesSVG(w, c, render.Options{Width: opt.Width})
}
