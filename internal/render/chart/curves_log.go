package chart

import (
	"math"
	"strconv"

	"github.com/margin-edu/margin/internal/render"
	"gonum.org/v1/plot"
)

// runs splits a series' sorted points into the runs a line joins: all of
// them, or on a log y axis the stretches between points with y ≤ 0, which
// it cannot show (a training error of exactly 0 at a high degree).
func (c Curves) runs(pts []vec) [][]vec {
	if !c.LogY {
		return [][]vec{pts}
	}
	var out [][]vec
	start := 0
	for i := 0; i <= len(pts); i++ {
		if i == len(pts) || pts[i].Y <= 0 {
			if i > start {
				out = append(out, pts[start:i])
			}
			start = i + 1
		}
	}
	return out
}

// logYRange spans the positive y of every series, padded by 6 % of the
// decades below and 15 % above (room for the mark's label), and by half a
// decade each way when they span less than one.
func (c Curves) logYRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		for _, y := range s.Y {
			if y > 0 {
				lo, hi = math.Min(lo, y), math.Max(hi, y)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return 0.1, 10
	}
	a, b := math.Log10(lo), math.Log10(hi)
	if b-a < 1 {
		mid := (a + b) / 2
		a, b = math.Min(a, mid-0.5), math.Max(b, mid+0.5)
	}
	span := b - a
	return math.Pow(10, a-0.06*span), math.Pow(10, b+0.15*span)
}

// logYTicks marks a log y axis with render.LogTicks (about eight labelled
// decades). An axis that holds fewer than two decades also labels its
// 2× and 5× ticks, so it never has a single label to read the scale from.
type logYTicks struct{ percent bool }

func (t logYTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := render.LogTicks{N: 8}.Ticks(lo, hi)
	labelled := 0
	for _, tk := range ts {
		if tk.Label != "" {
			labelled++
		}
	}
	for i, tk := range ts {
		m := tk.Value / math.Pow(10, math.Floor(math.Log10(tk.Value)+1e-9))
		if tk.Label == "" && labelled < 2 && (math.Abs(m-2) < 1e-6 || math.Abs(m-5) < 1e-6) {
			ts[i].Label = strconv.FormatFloat(tk.Value, 'g', 3, 64)
		}
		if t.percent && ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(100*tk.Value, 'g', 3, 64) + "%"
		}
	}
	return ts
}
