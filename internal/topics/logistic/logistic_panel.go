package logistic

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/textfmt"
)

// roughCertainty is certainty short enough for a counter: a percentage
// down to 99.99 %, then 1 − m·10⁻ᵏ with m rounded up as certainty
// does, so that the confidence shown never exceeds the model's.
func roughCertainty(doubt float64) string {
	if doubt < 1e-4 {
		return "1 − " + doubtUp(doubt, 3)
	}
	return certainty(doubt)
}

// certainty writes a probability near 1 so that its distance from 1
// shows, rounded towards less confidence: "75.68 %" (for 75.687 %),
// "99.97 %", "99.998 %", and "1 − 3.21·10⁻⁹" past six nines, its doubt
// rounded up. Two decimals at least, so that the floor stays within
// 0.01 % of the nearest. doubt is 1 − p, computed directly (σ(−m), not
// 1 − σ(m)), so it keeps its digits.
func certainty(doubt float64) string {
	if doubt < 1e-6 {
		return "1 − " + doubtUp(doubt, 3)
	}
	d := min(max(int(math.Ceil(-math.Log10(doubt)))-2, 2), 4)
	scale := math.Pow(10, float64(d))
	// Rounded down, so that "P ≥ 99.99 %" holds.
	return strconv.FormatFloat(math.Floor(100*(1-doubt)*scale)/scale, 'f', d, 64) + " %"
}

// minDoubt is the least doubt certainty writes: below it σ(−m) is
// subnormal or 0 and has lost its relative precision, so the doubt shown
// is this bound, which it does not exceed.
const minDoubt = 0x1p-1022

// doubtUp writes doubt > 0 as m·10ᵏ with digits significant digits of m
// (trailing zeros dropped), rounded up: the decimal shown is at least
// doubt raised by 16ε of itself, a margin over the rounding of σ.
func doubtUp(doubt float64, digits int) string {
	v := math.Max(doubt*(1+16*0x1p-52), minDoubt)
	m, e, _ := strings.Cut(strconv.FormatFloat(v, 'e', digits-1, 64), "e")
	exp, _ := strconv.Atoi(e)
	if shown, ok := new(big.Rat).SetString(m + "e" + e); ok && shown.Cmp(new(big.Rat).SetFloat64(v)) < 0 {
		// The nearest decimal is below v: take the next one up.
		n, _ := strconv.Atoi(strings.Replace(m, ".", "", 1))
		ds := strconv.Itoa(n + 1)
		if len(ds) > digits { // 9.99 → 10.0: one more power of ten
			ds, exp = ds[:digits], exp+1
		}
		m = ds[:1]
		if digits > 1 {
			m += "." + ds[1:]
		}
	}
	if strings.Contains(m, ".") {
		m = strings.TrimRight(strings.TrimRight(m, "0"), ".")
	}
	return m + "·10" + textfmt.Sup(exp)
}

// panel states the run in numbers and words: the counters, what the step
// did, and the notes that carry the lesson (no minimiser on separable
// data with λ = 0, the smoothness bound on η).
func (r *logisticRun) panel(st demo.State) demo.Panel {
	s, m := r.s, r.s.Model
	norm := floats.Norm(m.W, 2)
	p := demo.Panel{
		Counters: []demo.Counter{
			{"iteration k", strconv.Itoa(r.k), "step"},
			{"J(w, b)", textfmt.Sig(s.Objective), "objective"},
			{"‖∇J‖", textfmt.Sig(s.GradNorm), "grad"},
			{"‖w‖", textfmt.Sig(norm), "wnorm"},
			{"training error", textfmt.Pct(demo.Fraction(r.wrong), 1), "error"},
		},
		Status: logisticStatus(s.Status, s.GradNorm),
		Done:   s.Status.Done(),
		Bad:    s.Status == algos.Diverged,
		Start:  "Start: w = 0 and b = 0, so P(y = +1 | x) = ½ everywhere and there is no boundary yet. Press → or Step for the first iteration.",
		Model:  []demo.ModelLine{{Facts: []demo.Fact{{"w", textfmt.Vec(m.W), "w"}, {"b", textfmt.Num(m.B), "b"}}}},
	}
	if tx, ty, ok := pointset.HeldOut(st); ok {
		p.Counters = append(p.Counters, demo.HeldOutCounter(demo.ErrorRate(m.Score, tx, ty), len(tx)))
	} else {
		p.Counters = append(p.Counters, demo.Counter{"held-out error", "—", "heldout"})
	}
	p.Counters = append(p.Counters, demo.Counter{"largest confidence", roughCertainty(r.leastDoubt()), "confidence"})
	if r.opt.ok() {
		p.Counters = append(p.Counters, demo.Counter{"J* (exact minimum)", textfmt.Sig(r.opt.s.Objective), "optimum"})
	}
	if r.opt.none && s.Status == algos.Converged {
		p.Status, p.Bad = noMinimiserStop(s.GradNorm), true
	}
	if r.k > 0 {
		r.describeStep(&p)
	}
	p.Notes = append([]demo.Note{demo.RuleNote(demo.SignRule)}, r.notes(norm)...)
	return p
}

// noMinimiserStop says why a run on a J without a minimiser stopped: its
// gradient fell below the tolerance (J → 0 makes ∇J → 0 too), or no step
// lowered J any more.
func noMinimiserStop(grad float64) string {
	if grad < logistic.Tol {
		return "stopped: ‖∇J‖ = " + textfmt.Sig(grad) + " is below the tolerance 10⁻¹⁰, yet J has no minimiser: more steps would lower J and lengthen w further"
	}
	return "stopped: no step lowers J any more (‖∇J‖ = " + textfmt.Sig(grad) + ", its rounding error), yet J has no minimiser"
}

// logisticStatus says where the run stands in words; a Converged run
// with ‖∇J‖ still above the tolerance stalled on rounding.
func logisticStatus(s algos.Status, grad float64) string {
	switch {
	case s == algos.Converged && grad >= logistic.Tol:
		return "stopped: no step lowers J any more (‖∇J‖ = " + textfmt.Sig(grad) + ", its rounding error)"
	}
	switch s {
	case algos.Converged:
		return "converged: ‖∇J‖ < 10⁻¹⁰"
	case algos.Diverged:
		return "diverged: the next iterate overflowed"
	case algos.Running:
		return "running"
	}
	return s.String()
}

// leastDoubt is min over the points of min(P, 1 − P) = σ(−|f(xᵢ)|): one
// minus the largest confidence, computed without cancellation.
func (r *logisticRun) leastDoubt() float64 {
	top := 0.0
	for _, mg := range r.margins {
		top = math.Max(top, math.Abs(mg))
	}
	return logistic.Sigmoid(-top)
}

// describeStep writes out the update that led to the state shown.
func (r *logisticRun) describeStep(p *demo.Panel) {
	p.Changed = true
	if r.gd {
		p.Examined = fmt.Sprintf("Iteration %d is a gradient step (w, b) ← (w, b) − η∇J(w, b) with η = %s.", r.k, textfmt.Sig(r.eta))
		p.Lines = []string{"∇J = (1/n) Σᵢ −yᵢ σ(−yᵢf(xᵢ)) (xᵢ, 1) + λ(w, 0): each point pulls with the probability the model gives its wrong label."}
	} else {
		p.Examined = fmt.Sprintf("Iteration %d is a Newton step (w, b) ← (w, b) − t H⁻¹∇J, with t the first of 1, ½, ¼, … that lowers J enough (Armijo): %s.",
			r.k, newtonT(r.s.Trials))
		p.Lines = []string{"H = (1/n) Σᵢ σᵢ(1 − σᵢ) (xᵢ, 1)(xᵢ, 1)ᵀ + λ diag(1, 1, 0), with σᵢ = σ(f(xᵢ)): the curvature of J."}
	}
	if k := r.k; k > 0 {
		p.Lines = append(p.Lines, jChange(r.j[k-1], r.j[k], len(r.pr.X))+"; ‖∇J‖ is now "+textfmt.Sig(r.s.GradNorm)+".")
	}
}

// jChange says how J went from j0 to j1, a mean of n losses: it fell or
// rose, or it moved within the rounding error nε·J that the step-size
// note does not count as a rise, where rounding and not the step decides
// the sign.
func jChange(j0, j1 float64, n int) string {
	d := j1 - j0
	if r := jRounding(j0, j1, n); math.Abs(d) <= r {
		return fmt.Sprintf("J changed by %s, to %s, within the rounding error nε·J = %s of a mean of %d losses: neither a fall nor a rise",
			textfmt.Sig(math.Abs(d)), textfmt.Sig(j1), textfmt.Sig(r), n)
	}
	verb := "fell"
	if d > 0 {
		verb = "rose"
	}
	return fmt.Sprintf("J %s by %s, to %s", verb, textfmt.Sig(math.Abs(d)), textfmt.Sig(j1))
}

// notes carry the lesson: whether J has a minimiser and what λ does to
// ‖w‖, gradient descent's step-size bound, and a divergence.
func (r *logisticRun) notes(norm float64) []demo.Note {
	var ns []demo.Note
	lam := r.pr.Lambda
	switch {
	case r.opt.none && r.k > 0 && r.w[r.k] > r.w[r.k-1]:
		ns = append(ns, demo.Note{TestID: "no-minimiser", Alert: true, Text: fmt.Sprintf(
			"The data are separable and λ = 0: J has no minimiser. ‖w‖ = %s and growing; %s: overconfident. "+
				"Set λ > 0 and ‖w‖ stays finite.", textfmt.Sig(norm), r.sureness())})
	case r.opt.none:
		ns = append(ns, demo.Note{TestID: "separable", Text: "The data are separable and λ = 0: J has no minimiser, " +
			"so ‖w‖ will grow without bound as J falls towards 0. Set λ > 0 and ‖w‖ stays finite."})
	case r.opt.ok():
		optW := floats.Norm(r.opt.s.Model.W, 2)
		why := fmt.Sprintf("λ = %s > 0, so J has one minimiser, with ‖w*‖ = %s: finite, whatever the data.", textfmt.Sig(lam), textfmt.Sig(optW))
		if lam == 0 {
			why = fmt.Sprintf("No line separates these classes, so J has a minimiser even with λ = 0: ‖w*‖ = %s.", textfmt.Sig(optW))
		}
		ns = append(ns, demo.Note{TestID: "minimiser", Text: why + " " + gapText(r.s.Objective, r.opt.s.Objective)})
	default:
		ns = append(ns, demo.Note{TestID: "no-optimum", Text: "The exact minimiser could not be computed here: " + r.opt.err.Error()})
	}
	if r.gd {
		ns = append(ns, smoothNote(r.pr.L(), r.eta, "λ_max(X̃ᵀX̃)/(4n) + λ = ", r.j, len(r.pr.X), !r.opt.none))
	}
	if r.s.Status == algos.Diverged {
		ns = append(ns, divergedNote())
	}
	return ns
}

// sureness says how sure the model is of the training points: of its
// surest, and of every one when it classifies them all correctly.
func (r *logisticRun) sureness() string {
	worst := math.Inf(1)
	for _, mg := range r.margins {
		worst = math.Min(worst, mg)
	}
	s := "its surest prediction already has P ≥ " + certainty(r.leastDoubt())
	if worst > 0 {
		s += ", and it gives every training point its own label with P ≥ " + certainty(logistic.Sigmoid(-worst))
	}
	return s + ", more so at every step"
}

// smoothNote states gradient descent's step-size bound for an L-smooth J
// (formula, when given, says where L comes from): by the descent lemma
// (§1.8 of the notes) every η < 2/L lowers J at every step, η = 1/L by
// the most the lemma guarantees, and, when J has a minimiser (hasMin),
// converges; on a J without one there is nothing to converge to.
// L bounds the curvature everywhere, so a larger η may still work: the
// note counts the steps that raised J so far (j holds J of states 0…k),
// apart from rises within the rounding of a mean of n losses, which it
// names as rounding.
func smoothNote(L, eta float64, formula string, j []float64, n int, hasMin bool) demo.Note {
	lemma := fmt.Sprintf("J is L-smooth with L = %s%s: for every η < 2/L = %s gradient descent lowers J at every step (the descent lemma), "+
		"and η = 1/L = %s gives the largest decrease the lemma guarantees, ‖∇J‖²/(2L) per step", formula, textfmt.Sig(L), textfmt.Sig(2/L), textfmt.Sig(1/L))
	n0 := demo.Note{TestID: "smooth", Text: lemma + "; J has a minimiser, and every such η converges to it."}
	if !hasMin {
		n0.Text = lemma + ". J has no minimiser here, so the iterates converge to nothing: J falls towards 0 while ‖w‖ grows."
	}
	rises, tiny, tol := jRises(j, n)
	steps := len(j) - 1
	switch {
	case eta >= 2/L && rises > 0:
		n0.Alert = true
		n0.Text += fmt.Sprintf(" Here η = %s ≥ 2/L overshoots: J rose at %s.", textfmt.Sig(eta), risesOf(rises, steps))
	case eta >= 2/L:
		n0.Text += fmt.Sprintf(" Here η = %s ≥ 2/L, which the bound does not cover; L bounds the steepest curvature anywhere, "+
			"and J has fallen at every step so far.", textfmt.Sig(eta))
	case rises > 0:
		n0.Text += fmt.Sprintf(" J rose at %s.", risesOf(rises, steps))
	}
	if tiny > 0 {
		n0.Fine = fmt.Sprintf("(Not counted: %s at which J went up by less than the rounding error of a mean of %d losses, "+
			"nε·J ≤ %s: rounding, not a rise.)", textfmt.Plural(tiny, "steps"), n, textfmt.Sig(tol))
	}
	return n0
}

// risesOf says at how many of the steps so far J rose: "3 of the 20
// steps so far", "the one step so far".
func risesOf(rises, steps int) string {
	if steps == 1 {
		return "the one step so far"
	}
	return fmt.Sprintf("%d of the %d steps so far", rises, steps)
}

// jRises counts the steps at which J rose: by more than the rounding
// error nε·max(J before, J after) of a mean of n terms (rises), and by at
// most that (tiny, rounding noise near the minimum), with the largest
// such bound (tol).
func jRises(j []float64, n int) (rises, tiny int, tol float64) {
	for i := 1; i < len(j); i++ {
		d := j[i] - j[i-1]
		if !(d > 0) {
			continue
		}
		r := jRounding(j[i-1], j[i], n)
		if d > r {
			rises++
			continue
		}
		tiny++
		tol = math.Max(tol, r)
	}
	return rises, tiny, tol
}

// newtonT says which step size the line search took, from the number of
// step sizes it tried.
func newtonT(trials int) string {
	if trials <= 1 {
		return "here the full step, t = 1"
	}
	return fmt.Sprintf("here t = 2%s, after %s", textfmt.Sup(1-trials), textfmt.Plural(trials-1, "halvings"))
}

// gapText says how far J is above the exact minimum J*.
func gapText(j, opt float64) string {
	if math.Abs(j-opt) <= 1e-12*math.Max(1, math.Abs(opt)) {
		return fmt.Sprintf("J equals its minimum J* = %s to rounding (Newton's method finds J* to ‖∇J‖ < 10⁻¹⁰).", textfmt.Sig(opt))
	}
	return fmt.Sprintf("J is %s above its minimum J* = %s, which Newton's method finds to ‖∇J‖ < 10⁻¹⁰.", textfmt.Sig(j-opt), textfmt.Sig(opt))
}

// divergedNote explains a run that stopped on an overflow.
func divergedNote() demo.Note {
	return demo.Note{TestID: "diverged", Alert: true,
		Text: "The next iterate would have overflowed: η is far too large for this J. Lower η below 2/L."}
}
