package svm

import (
	"fmt"
	"math"
	"slices"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/textfmt"
)

// svmRecorder keeps the history chart's series while SMO steps: the dual
// value and the KKT gap at every step (both are in the state), and the
// primal, which costs a pass over the points, at up to maxErrorSamples
// evenly spaced steps (always the first and the last).
type svmRecorder struct {
	pr     *svm.Problem
	clock  demo.SampleClock
	dual   chart.Series // −D(α)
	primal chart.Series
	dgap   chart.Series // a feasible primal value + D(α), the duality gap
	kkt    chart.Series // m(α) − M(α)
	// best is the smallest feasible primal value seen so far, which the
	// hard margin's gap is measured against: ½‖w‖²/γ² of w scaled to
	// feasibility (feasiblePrimal), +Inf while no w has separated the
	// points. The soft margin's primal is feasible at every state, and
	// its gap is measured against the state's own.
	best float64
}

func newSVMRecorder(pr *svm.Problem, k int) *svmRecorder {
	return &svmRecorder{pr: pr, clock: demo.NewSampleClock(k), best: math.Inf(1)}
}

// feasiblePrimal is a primal value of a feasible point built from state
// s, which bounds the optimum from above (weak duality) as the dual
// value −D(α) bounds it from below. The soft margin's (1.6.a) is
// feasible at every (w, b), so it is the primal itself. The hard
// margin's ½‖w‖² is feasible only when yᵢf(xᵢ) ≥ 1 for all i, so w is
// scaled to feasibility: with uᵢ = ⟨w, xᵢ⟩, the best b leaves the margin
// γ = (min over y = +1 of uᵢ − max over y = −1 of uᵢ)/2, and (w/γ, b/γ)
// is feasible with value ½‖w‖²/γ². It is +Inf when γ ≤ 0: no b makes
// any multiple of w separate the points.
func feasiblePrimal(pr *svm.Problem, s svm.State) float64 {
	if !pr.P.Hard {
		return pr.Primal(s)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	ww := 0.0
	for i, g := range s.G {
		u := pr.Y[i] * (g + 1) // yᵢuᵢ = Gᵢ + 1
		ww += s.Alpha[i] * (g + 1)
		if pr.Y[i] > 0 {
			lo = math.Min(lo, u)
		} else {
			hi = math.Max(hi, u)
		}
	}
	gamma := (lo - hi) / 2
	if !(gamma > 0) {
		return math.Inf(1)
	}
	return ww / 2 / (gamma * gamma)
}

// Record implements algos.Recorder.
func (r *svmRecorder) Record(k int, s svm.State) error {
	if s.Status == algos.Infeasible {
		return nil
	}
	r.add(k, s.T, s.Dual, s.Gap, feasiblePrimal(r.pr, s), func() float64 { return r.pr.Primal(s) })
	return nil
}

// add records state k of a run, from its scalars: its SMO iteration t,
// D(α), the gap m − M, the feasible primal value (feasiblePrimal) and
// the primal objective (called only when sampled). A run kept between
// requests (keptSMO) feeds the values it kept.
func (r *svmRecorder) add(k, t int, dual, gap, feasible float64, primal func() float64) {
	tf := float64(t)
	r.best = math.Min(r.best, feasible)
	r.dual.T, r.dual.Y = append(r.dual.T, tf), append(r.dual.Y, -dual)
	r.kkt.T, r.kkt.Y = append(r.kkt.T, tf), append(r.kkt.Y, gap)
	if r.clock.Due(k) {
		r.addPrimal(tf, primal(), dual)
	}
}

func (r *svmRecorder) sample(s svm.State) {
	r.best = math.Min(r.best, feasiblePrimal(r.pr, s))
	r.addPrimal(float64(s.T), r.pr.Primal(s), s.Dual)
}

// addPrimal samples the primal and the duality gap against the best
// feasible value so far, which has no point before a feasible one.
func (r *svmRecorder) addPrimal(t, p, dual float64) {
	r.primal.T, r.primal.Y = append(r.primal.T, t), append(r.primal.Y, p)
	if !r.pr.P.Hard {
		r.dgap.T, r.dgap.Y = append(r.dgap.T, t), append(r.dgap.Y, math.Abs(p+dual))
	} else if !math.IsInf(r.best, 1) {
		r.dgap.T, r.dgap.Y = append(r.dgap.T, t), append(r.dgap.Y, math.Max(0, r.best+dual))
	}
}

// finish samples the last state when the spacing skipped it.
func (r *svmRecorder) finish(s svm.State) {
	if s.Status == algos.Infeasible {
		return
	}
	if n := len(r.primal.T); n == 0 || r.primal.T[n-1] != float64(s.T) {
		r.sample(s)
	}
}

// history finishes the chart of the run to s; nil when the recorder did
// not record (recorded false) or there was nothing to solve.
func (r *svmRecorder) history(pr *svm.Problem, s svm.State, recorded bool) *chart.History {
	if s.Status == algos.Infeasible || !recorded {
		return nil
	}
	r.finish(s)
	primalName := "primal"
	if pr.P.Hard {
		primalName = "½‖w‖²"
	}
	r.primal.Label, r.primal.Lines = primalName, true
	r.dual.Label, r.dual.Lines, r.dual.Compare = "−D(α)", true, &r.primal
	r.dgap.Label, r.dgap.Log, r.dgap.Lines = "duality gap", true, true
	if pr.P.Hard {
		r.dgap.Label = "duality gap (best feasible ½‖w‖²)"
	}
	r.kkt.Label, r.kkt.Log, r.kkt.Lines = "KKT violation m − M", true, true
	p := pr.Primal(s)
	dgap := math.Abs(p + s.Dual)
	if pr.P.Hard {
		dgap = r.best + s.Dual
	}
	kkt, kktDesc := "m − M = "+textfmt.Sig(s.Gap), "now "+textfmt.Sig(s.Gap)
	switch {
	// A log axis has no place for a value ≤ 0: say so rather than print
	// it under a curve that stops.
	case s.Gap < 0:
		kkt += " (< 0: off the log axis)"
		kktDesc = fmt.Sprintf("now %s, which a log scale cannot show: the curve stops where m − M falls below 0, "+
			"where every KKT condition holds and a whole interval of b is optimal", textfmt.Sig(s.Gap))
	case s.Gap == 0:
		kkt += " (off the log axis)"
		kktDesc = "now exactly 0, which a log scale cannot show: every KKT condition holds exactly"
	}
	gapOf, gapName := "between them, |primal + D(α)| (the primal (1.6.a) is feasible at every (w, b))", "duality gap"
	if pr.P.Hard {
		gapOf = "the best feasible ½‖w‖² so far (w scaled until every yᵢf(xᵢ) ≥ 1) + D(α), which bounds the distance to the optimum"
	}
	dgapText, dgapDesc := gapName+" "+textfmt.Sig(math.Max(0, dgap)), "now "+textfmt.Sig(math.Max(0, dgap))
	switch {
	case math.IsInf(r.best, 1):
		dgapText = "no feasible w yet: no duality gap"
		dgapDesc = "not drawn yet: no w so far separates the points, so no feasible primal value bounds the optimum from above"
	case dgap <= 0:
		dgapText += " (off the log axis)"
		dgapDesc = "now 0, which a log scale cannot show: a feasible primal value meets the dual value, so this α is optimal"
	}
	title := fmt.Sprintf("after step %d: D(α) = %s · %s = %s · %s · %s", s.T, textfmt.Sig(s.Dual), primalName, textfmt.Sig(p), dgapText, kkt)
	return &chart.History{
		Title: title, Name: "SMO history: " + title, XLabel: "SMO step t", Now: float64(s.T),
		Desc: fmt.Sprintf("Three panels against the SMO step t from 0 to %d. Top: the dual value −D(α), rising to the optimum, "+
			"and the %s, which meets it there; now %s and %s. Middle: the duality gap, %s, on a log scale, %s. "+
			"Bottom: the stopping quantity, the KKT violation m(α) − M(α), on a log scale, %s.",
			s.T, primalName, textfmt.Sig(-s.Dual), textfmt.Sig(p), gapOf, dgapDesc, kktDesc),
		Series: []chart.Series{r.dual, r.dgap, r.kkt},
	}
}

// alphaBars is every αᵢ in its box [0, C], with the pair just optimised.
func alphaBars(pr *svm.Problem, s svm.State) chart.Bars {
	b := chart.Bars{
		Title:  fmt.Sprintf("α after step %d · %s", s.T, textfmt.Plural(len(pr.Support(s)), "support vectors")),
		YLabel: "αᵢ", Values: s.Alpha, Class: labelsOf(pr), HighlightName: "pair optimised",
	}
	if !pr.P.Hard {
		b.Bounds = []chart.Bound{{Value: pr.P.C, Label: "C = " + textfmt.Sig(pr.P.C)}}
	}
	if s.I >= 0 {
		b.Highlight = []chart.Highlight{{Index: s.I, Label: "i"}, {Index: s.J, Label: "j"}}
	}
	return b
}

// kktBars is each point's KKT violation: zero for a point whose αᵢ
// agrees with its position (αᵢ = 0 outside the band, 0 < αᵢ < C on it,
// αᵢ = C inside it), so the bars show what SMO still has to fix.
func kktBars(pr *svm.Problem, s svm.State) chart.Bars {
	v := pr.Violations(s)
	worst := slices.Max(v)
	b := chart.Bars{
		Title:  fmt.Sprintf("KKT violation per point after step %d · largest %s", s.T, textfmt.Sig(worst)),
		YLabel: "violation", Values: v, Class: labelsOf(pr), HighlightName: "pair optimised",
	}
	if s.I >= 0 {
		b.Highlight = []chart.Highlight{{Index: s.I, Label: "i"}, {Index: s.J, Label: "j"}}
	}
	return b
}
