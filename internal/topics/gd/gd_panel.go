package gd

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/gd"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/fields"
	"github.com/margin-edu/margin/internal/textfmt"
)

// stepText is the step size of the state shown: "t = 0.1" for a
// constant step, "t₅ = 0.0475" (the step iteration k used, and at k = 0
// the one iteration 1 will use) under a schedule, or "Newton's method".
func (r *gdRun) stepText() string {
	switch {
	case isNewton(r.st):
		return "Newton's method"
	case schedule.Is(r.st, "constant"):
		return "t = " + textfmt.Sig(r.t0)
	case r.k == 0:
		return "t₁ = " + textfmt.Sig(r.etaOf(1))
	}
	return "t" + subDigits(r.k) + " = " + textfmt.Sig(r.s.Eta)
}

// pathName is the method and its step, as the plot's description names
// the path: "gradient descent with t₅ = 0.0475".
func (r *gdRun) pathName() string {
	if isNewton(r.st) {
		return r.methodName()
	}
	return r.methodName() + " with " + r.stepText()
}

// etaOf is the step size iteration k of the run uses, by its schedule.
func (r *gdRun) etaOf(k int) float64 {
	switch m := r.m.(type) {
	case *gd.GD:
		return m.Schedule.Eta(m.Eta, k, m.Iters)
	case *gd.SGD:
		return m.Schedule.Eta(m.Eta, k, m.Iters)
	}
	return r.t0
}

// subDigits writes k ≥ 0 in subscript digits.
func subDigits(k int) string {
	sub := []rune("₀₁₂₃₄₅₆₇₈₉")
	var out []rune
	for _, c := range strconv.Itoa(k) {
		out = append(out, sub[c-'0'])
	}
	return string(out)
}

// figure draws the contours of f over the objective's fixed view, the
// path so far, the start, the current iterate and the stationary points.
func (r *gdRun) figure() (render.DataFigure, error) {
	o := r.obj
	lv := fields.ContourLevels(o.levels...)
	fl, err := fields.NewField(func(x1, x2 float64) float64 { return o.f.Value([]float64{x1, x2}) }, nil, lv...)
	if err != nil {
		return render.DataFigure{}, err
	}
	xy, current := r.trail.Iterates([2]float64{r.s.X[0], r.s.X[1]})
	pa, err := render.NewPath(xy)
	if err != nil {
		return render.DataFigure{}, err
	}
	pa.Current = current
	pk, err := render.NewPicks(o.marks, o.labels)
	if err != nil {
		return render.DataFigure{}, err
	}
	title := fmt.Sprintf("step %d · f = %s · %s", r.k, textfmt.Sig(r.s.F), r.stepText())
	switch r.s.Status {
	case algos.Diverged:
		title = fmt.Sprintf("step %d · f = %s · diverged: step %d refused · %s", r.k, textfmt.Sig(r.s.F), r.k+1, r.stepText())
	case algos.Stalled:
		title = fmt.Sprintf("step %d · f = %s · stalled: step %d would not move x", r.k, textfmt.Sig(r.s.F), r.k+1)
	}
	batchText := ""
	if r.sgd {
		batchText = fmt.Sprintf(" · batch %d", batch.Get(r.st))
	}
	levels := make([]string, len(o.levels))
	for i, v := range o.levels {
		levels[i] = textfmt.Sig(v)
	}
	start := r.trail.Start()
	markLabel := "minimiser x*"
	if !o.convex {
		markLabel = "stationary points"
	}
	return render.DataFigure{
		Title: title + "\n" + o.name + batchText,
		Desc: fmt.Sprintf("Contours of the %s at f = %s, and the path of %s from (%s, %s) over %s, now at (%s, %s) with f = %s.",
			o.name, strings.Join(levels, ", "), r.pathName(), textfmt.Sig(start[0]), textfmt.Sig(start[1]), textfmt.Plural(r.k, "steps"), textfmt.Sig(r.s.X[0]), textfmt.Sig(r.s.X[1]), textfmt.Sig(r.s.F)),
		XLabel: o.xl, YLabel: o.yl,
		View:   o.view,
		Layers: []plot.Plotter{fl, pa, pk},
		Legend: []render.LegendItem{
			{Label: "contours of f", Thumbs: []plot.Thumbnailer{lv[0]}},
			{Label: "iterates", Thumbs: []plot.Thumbnailer{pa}},
			{Label: "start x⁽⁰⁾", Thumbs: []plot.Thumbnailer{pa.StartThumb()}},
			{Label: "x⁽ᵏ⁾", Thumbs: []plot.Thumbnailer{pa.CurrentThumb()}, Hidden: current < 0},
			{Label: markLabel, Thumbs: []plot.Thumbnailer{pk}},
		},
	}, nil
}

// panel gives the counters and the notes on the step size.
func (r *gdRun) panel() demo.Panel {
	s, o := r.s, r.obj
	L, oneL, twoL := "none", "—", "—"
	if o.hasL {
		L, oneL, twoL = textfmt.Sig(o.L), textfmt.Sig(1/o.L), textfmt.Sig(2/o.L)
	}
	// The base step t, and the step tₖ iteration k used (the same under
	// a constant schedule; none before the first iteration).
	t, tk := textfmt.Sig(r.t0), "—"
	if r.k > 0 {
		tk = textfmt.Sig(s.Eta)
	}
	if isNewton(r.st) {
		t, tk = "— (Newton)", "— (Newton)"
	}
	p := demo.Panel{
		Counters: []demo.Counter{
			{"iteration k", strconv.Itoa(r.k), "step"},
			{"f(x⁽ᵏ⁾)", textfmt.Sig(s.F), "objective"},
			{"‖∇f‖", textfmt.Sig(s.GradNorm), "grad"},
			{"L", L, "L"},
			{"1/L", oneL, "one-over-L"},
			{"2/L", twoL, "two-over-L"},
			{"step size tₖ", tk, "t-k"},
			{"base step t", t, "t"},
		},
		Status: s.Status.String(), Done: s.Status.Done(), Bad: s.Status == algos.Diverged || s.Status == algos.Stalled,
		Start: fmt.Sprintf("x⁽⁰⁾ = (%s, %s): click the plot to start elsewhere. Press → or Step for the first iteration.", iterateCoord(s.X[0]), iterateCoord(s.X[1])),
		Model: []demo.ModelLine{{Prefix: "x⁽ᵏ⁾:", Facts: []demo.Fact{{o.xl, iterateCoord(s.X[0]), "x1"}, {o.yl, iterateCoord(s.X[1]), "x2"}}}},
	}
	if o.hasMin && o.convex {
		p.Model = append(p.Model, demo.ModelLine{Prefix: "minimiser:", Facts: []demo.Fact{{o.xl + "*", textfmt.Num(o.xstar[0]), "x1-opt"},
			{o.yl + "*", textfmt.Num(o.xstar[1]), "x2-opt"}, {"f*", textfmt.Sig(o.fstar), "f-opt"}}})
	}
	if r.k > 0 {
		p.Examined = fmt.Sprintf("Iteration %d moved to (%s, %s); ‖∇f‖ is now %s.", r.k, iterateCoord(s.X[0]), iterateCoord(s.X[1]), textfmt.Sig(s.GradNorm))
		p.Changed = true
	}
	p.Notes = append(p.Notes, r.notes()...)
	return p
}

// iterateCoord formats an iterate's coordinate: plainly while it is of a
// size a view shows, with an exponent once a run has blown up.
func iterateCoord(v float64) string {
	if math.Abs(v) < 1e4 {
		return textfmt.Num(v)
	}
	return textfmt.Sig(v)
}

// capText is the demo's cap on |f| and on each coordinate, gd.Blowup:
// "10¹⁰⁰".
func capText() string { return "10" + textfmt.Sup(int(math.Round(math.Log10(gd.Blowup)))) }

// refusal says why step k+1 of the Diverged state s (state k) was
// refused, from the step it computed (s.Next), and that the run stops on
// x⁽ᵏ⁾: "Step 1213 would take f to 1.17·10¹⁰⁰, past the demo's cap …".
func refusal(s gd.State, k int) string {
	stop := fmt.Sprintf(", so the run stops at step %d, on x⁽%s⁾", k, textfmt.Sup(k))
	if s.Next == nil {
		return fmt.Sprintf("Newton's step %d found no direction (the Hessian could not be factorised)", k+1) + stop
	}
	over := func(v float64) bool { return !(math.Abs(v) <= gd.Blowup) }
	past := "past the cap of " + capText() + " the demo puts on |f| and on each coordinate"
	switch {
	case !finite(s.NextF) || !finite(s.Next...):
		return fmt.Sprintf("Step %d would leave the numbers float64 holds (f = %v at x = %s)", k+1, s.NextF, textfmt.VecWith(s.Next, textfmt.Sig)) + stop
	case over(s.NextF):
		return fmt.Sprintf("Step %d would take f to %s, %s", k+1, textfmt.Sig(s.NextF), past) + stop
	case over(s.Next[0]) || over(s.Next[1]):
		return fmt.Sprintf("Step %d would move x to %s, %s", k+1, textfmt.VecWith(s.Next, textfmt.Sig), past) + stop
	}
	return fmt.Sprintf("Step %d would reach x = %s, where ∇f is not finite", k+1, textfmt.VecWith(s.Next, textfmt.Sig)) + stop
}

// finite reports whether every v is a finite number.
func finite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
