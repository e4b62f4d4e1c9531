package lessons

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/render"
)

// stepText is the step size the state used: "t = 0.1", or "tₖ = …" under
// a schedule, or "Newton" for Newton's method.
func (r *gdRun) stepText() string {
	switch {
	case r.st.Is("method", "newton"):
		return "Newton's method"
	case r.st.Is("schedule", "constant"):
		return "t = " + sig(r.t0)
	case r.k == 0:
		return "t₁ = " + sig(r.t0)
	}
	return "tₖ = " + sig(r.s.Eta)
}

// figure draws the contours of f over the objective's fixed view, the
// path so far, the start, the current iterate and the stationary points.
func (r *gdRun) figure() (render.DataFigure, error) {
	o := r.obj
	lv := render.ContourLevels(o.levels...)
	fl, err := render.NewField(func(x1, x2 float64) float64 { return o.f.Value([]float64{x1, x2}) }, nil, lv...)
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
	title := fmt.Sprintf("step %d · f = %s · %s", r.k, sig(r.s.F), r.stepText())
	if r.s.Status == algos.Diverged {
		title = fmt.Sprintf("step %d · diverged: stopped on the last finite iterate · %s", r.k, r.stepText())
	}
	method := ""
	if r.sgd {
		method = fmt.Sprintf(" · batch %d", r.st.Int("batch"))
	}
	levels := make([]string, len(o.levels))
	for i, v := range o.levels {
		levels[i] = sig(v)
	}
	start := r.trail.Start()
	markLabel := "minimiser x*"
	if !o.convex {
		markLabel = "stationary points"
	}
	return render.DataFigure{
		Title: title + "\n" + o.name + method,
		Desc: fmt.Sprintf("Contours of the %s at f = %s, and the path of %s from (%s, %s) over %d steps, now at (%s, %s) with f = %s.",
			o.name, strings.Join(levels, ", "), r.stepText(), sig(start[0]), sig(start[1]), r.k, sig(r.s.X[0]), sig(r.s.X[1]), sig(r.s.F)),
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
func (r *gdRun) panel() Panel {
	s, o := r.s, r.obj
	L, oneL, twoL := "none", "—", "—"
	if o.hasL {
		L, oneL, twoL = sig(o.L), sig(1/o.L), sig(2/o.L)
	}
	t := sig(r.t0)
	if r.st.Is("method", "newton") {
		t = "— (Newton)"
	}
	p := Panel{
		Counters: []Counter{
			{"iteration k", strconv.Itoa(r.k), "step"},
			{"f(x⁽ᵏ⁾)", sig(s.F), "objective"},
			{"‖∇f‖", sig(s.GradNorm), "grad"},
			{"L", L, "L"},
			{"1/L", oneL, "one-over-L"},
			{"2/L", twoL, "two-over-L"},
			{"t", t, "t"},
		},
		Status: s.Status.String(), Done: s.Status.Done(), Bad: s.Status == algos.Diverged,
		Start: fmt.Sprintf("x⁽⁰⁾ = (%s, %s): click the plot to start elsewhere. Press → or Step for the first iteration.", coord(s.X[0]), coord(s.X[1])),
		Model: []ModelLine{{Prefix: "x⁽ᵏ⁾:", Facts: []Fact{{o.xl, coord(s.X[0]), "x1"}, {o.yl, coord(s.X[1]), "x2"}}}},
	}
	if o.hasMin && o.convex {
		p.Model = append(p.Model, ModelLine{Prefix: "minimiser:", Facts: []Fact{{o.xl + "*", num(o.xstar[0]), "x1-opt"},
			{o.yl + "*", num(o.xstar[1]), "x2-opt"}, {"f*", sig(o.fstar), "f-opt"}}})
	}
	if r.k > 0 {
		p.Examined = fmt.Sprintf("Iteration %d moved to (%s, %s); ‖∇f‖ is now %s.", r.k, coord(s.X[0]), coord(s.X[1]), sig(s.GradNorm))
		p.Changed = true
	}
	p.Notes = append(p.Notes, r.notes()...)
	return p
}

// coord formats an iterate's coordinate: plainly while it is of a size
// a view shows, with an exponent once a run has blown up.
func coord(v float64) string {
	if math.Abs(v) < 1e4 {
		return num(v)
	}
	return sig(v)
}

// notes say what the step size means for this objective.
func (r *gdRun) notes() []Note {
	s, o := r.s, r.obj
	var out []Note
	if s.Status == algos.Diverged {
		p := fmt.Sprintf("The iterates grew past what a float can hold, so the run stopped on the last finite iterate, x⁽%d⁾.", s.K)
		if o.hasL {
			p = fmt.Sprintf("t = %s is above 2/L = %s: each step overshoots along the steepest direction by more than it gains. %s Lower t below %s.",
				sig(r.t0), sig(2/o.L), p, sig(2/o.L))
		} else {
			p += " On the double well a step t diverges where its curvature 12x₁² − 4 exceeds 2/t: start nearer the minima or lower t."
		}
		out = append(out, Note{TestID: "diverged", Alert: true, Text: p})
	}
	if r.st.Is("method", "newton") {
		out = append(out, r.newtonNote())
	} else if o.hasL && s.Status != algos.Diverged {
		out = append(out, r.rateNote())
	}
	if r.sgd {
		out = append(out, Note{TestID: "sgd", Text: fmt.Sprintf("Each step uses the gradient of %d of the %d points, drawn with seed %d: "+
			"cheaper steps, a noisy path, and with a constant t it hovers near x* instead of settling.", r.st.Int("batch"), gdRows, r.st.Int("seed"))})
	}
	if !o.convex {
		out = append(out, r.wellNote())
	}
	return out
}

func (r *gdRun) rateNote() Note {
	o, t := r.obj, r.t0
	switch {
	case t > 2/o.L && r.obj.f != nil && r.st.Is("objective", objQuadratic):
		return Note{TestID: "too-large", Alert: true, Text: fmt.Sprintf("t = %s > 2/L = %s: along the eigenvector of L the error grows by |1 − tL| = %s per step, so the run diverges.",
			sig(t), sig(2/o.L), sig(math.Abs(1-t*o.L)))}
	case t > 2/o.L:
		return Note{TestID: "too-large", Alert: true, Text: fmt.Sprintf("t = %s > 2/L = %s: past the largest safe step; the run may diverge.", sig(t), sig(2/o.L))}
	case t > 1/o.L:
		return Note{TestID: "rate", Text: fmt.Sprintf("1/L = %s < t = %s < 2/L = %s: the run still converges on this objective, but Theorem 1.8.5's bound is only promised for t ≤ 1/L.",
			sig(1/o.L), sig(t), sig(2/o.L))}
	}
	where := "the dashed curve in the history"
	if r.bound == nil {
		where = "for full-batch steps of constant size (not drawn for this run)"
	}
	return Note{TestID: "rate", Text: fmt.Sprintf("t = %s ≤ 1/L = %s: by Theorem 1.8.5, f(x⁽ᵏ⁾) − f* ≤ ‖x⁽⁰⁾ − x*‖²/(2tk), %s; above 2/L = %s a quadratic diverges.",
		sig(t), sig(1/o.L), where, sig(2/o.L)), Fine: r.lNote()}
}

// lNote says where L comes from.
func (r *gdRun) lNote() string {
	if r.st.Is("objective", objLogistic) {
		return "L = λ_max(X̃ᵀX̃)/(4n) + λ bounds every Hessian's largest eigenvalue, since σ(z)σ(−z) ≤ ¼."
	}
	return "L is the largest eigenvalue of the Hessian ∇²f, which is the same at every point."
}

func (r *gdRun) newtonNote() Note {
	text := "Newton's method steps x ← x − ∇²f(x)⁻¹∇f(x): it solves a 2×2 system with the Hessian each step, and needs no step size."
	if r.st.Is("objective", objQuadratic) {
		text += " On a quadratic its model is exact, so one step lands on x*"
		if r.k >= 1 {
			text += fmt.Sprintf(": after step %d, f − f* = %s.", r.k, sig(r.obj.gap(r.s.F)))
		} else {
			text += ": press Step."
		}
	} else {
		text += " Near x* the error squares each step (quadratic convergence)."
	}
	return Note{TestID: "newton", Text: text}
}

// wellFine says why the double well has no L.
const wellFine = "No L: the Hessian diag(12x₁² − 4, 2) grows without bound, so no one step size is safe everywhere; t diverges where 12x₁² − 4 > 2/t."

// wellNote says which basin the run ends in, or that it stalls at the
// saddle: it replays the run to its end, which on two coordinates is cheap.
func (r *gdRun) wellNote() Note {
	end, err := runGD(r.st, MaxStep, false)
	if err != nil || end.s.Status == algos.Diverged {
		return Note{TestID: "basin", Fine: wellFine, Text: "A non-convex f: which minimum gradient descent finds, if any, depends on the start."}
	}
	x := end.s.X
	switch {
	case math.Abs(x[0]) < 0.5:
		return Note{TestID: "basin", Alert: true, Text: fmt.Sprintf("This run stalls at the saddle (0, 0) after %d steps: ∇f = 0 there, so gradient descent stops, "+
			"though it is no minimum (∇²f = diag(−4, 2)). Near the saddle the steps are tiny.", end.k), Fine: wellFine}
	case x[0] < 0:
		return Note{TestID: "basin", Text: "This start leads into the left valley, to the minimum (−1, 0). Another start (or step size) can pick the other one: " +
			"on a non-convex f the answer depends on where descent starts, and near the saddle (0, 0) it crawls.", Fine: wellFine}
	}
	return Note{TestID: "basin", Text: "This start leads into the right valley, to the minimum (1, 0). Another start (or step size) can pick the other one: " +
		"on a non-convex f the answer depends on where descent starts, and near the saddle (0, 0) it crawls.", Fine: wellFine}
}
