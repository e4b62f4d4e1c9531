package gd

import (
	"context"
	"fmt"
	"math"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/symeig"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// notes say what the step size means for this objective.
func (r *gdRun) notes() []demo.Note {
	s, o := r.s, r.obj
	var out []demo.Note
	if s.Status == algos.Diverged {
		p := refusal(s, r.k) + "."
		if o.hasL {
			p = fmt.Sprintf("t = %s is above 2/L = %s: each step overshoots along the steepest direction by more than it gains. %s Lower t below %s.",
				textfmt.Sig(r.t0), textfmt.Sig(2/o.L), p, textfmt.Sig(2/o.L))
		} else {
			p += " On the double well a step t diverges where its curvature 12x₁² − 4 exceeds 2/t: start nearer the minima or lower t."
		}
		out = append(out, demo.Note{TestID: "diverged", Alert: true, Text: p})
	}
	if isNewton(r.st) {
		out = append(out, r.newtonNote())
	} else if o.hasL && s.Status != algos.Diverged {
		out = append(out, r.rateNote())
	}
	if r.sgd {
		out = append(out, r.sgdNote())
	}
	if !o.convex {
		out = append(out, r.wellNote())
	}
	return out
}

// sgdNote says what mini-batches do to the run, by its schedule: with a
// constant t the iterates never settle, and near x* their spread scales
// like √t and the gap f − f* like t (the kicks t∇fᵢ are damped by the
// curvature, so the variance is of order t); a schedule shrinks the kicks
// with tₖ.
func (r *gdRun) sgdNote() demo.Note {
	text := fmt.Sprintf("Each step uses the gradient of %s of the %d points, drawn with seed %d: cheaper steps and a noisy path. ",
		textfmt.Plural(batch.Get(r.st), "points"), gdRows, batchSeed.Get(r.st))
	now := ""
	if r.k > 0 {
		now = fmt.Sprintf(" (now %s)", r.stepText())
	}
	switch schedule.Get(r.st) {
	case "exp-decay":
		g := decay.Get(r.st)
		text += fmt.Sprintf("Exponential decay shrinks the kicks with the step tₖ = t·γᵏ⁻¹%s, so the noise dies down; ", now)
		if g < 1 {
			text += fmt.Sprintf("but the steps add up to at most t/(1 − γ) = %s, so a fast decay can also stop the run short of x*.", textfmt.Sig(r.t0/(1-g)))
		} else {
			text += "with γ = 1 the step never shrinks, and the run jitters as with a constant t."
		}
	case "warmup-linear":
		text += fmt.Sprintf("The schedule's linear fall to 0 at step T = %d shrinks the kicks with the step tₖ%s, so the noise dies down towards the end of the run.", runLen.Get(r.st), now)
	default:
		text += "With a constant t the run never settles: near x* it keeps jittering, with a spread around x* that scales like √t and a gap f − f* that scales like t, so a smaller t (or a schedule that shrinks it) ends nearer."
	}
	return demo.Note{TestID: "sgd", Text: text}
}

// stepRegime is where a step size t lies against 1/L and 2/L.
type stepRegime int

const (
	belowOneOverL stepRegime = iota // t < 1/L
	atOneOverL                      // t = 1/L
	betweenLs                       // 1/L < t < 2/L
	atTwoOverL                      // t = 2/L
	aboveTwoOverL                   // t > 2/L
)

// regimeOf places t against 1/L and 2/L. L is computed (an eigenvalue,
// 10.000000000000002 for κ = 10) while t is typed, so a t within a
// relative 1e-12 of a threshold counts as equal to it.
func regimeOf(t, L float64) stepRegime {
	near := func(v float64) bool { return math.Abs(t-v) <= 1e-12*v }
	switch {
	case near(1 / L):
		return atOneOverL
	case near(2 / L):
		return atTwoOverL
	case t < 1/L:
		return belowOneOverL
	case t < 2/L:
		return betweenLs
	}
	return aboveTwoOverL
}

func (r *gdRun) rateNote() demo.Note {
	o, t := r.obj, r.t0
	switch regimeOf(t, o.L) {
	case aboveTwoOverL:
		if o.constHess {
			return demo.Note{TestID: "too-large", Alert: true, Text: fmt.Sprintf("t = %s > 2/L = %s: along the eigenvector of L the error grows by |1 − tL| = %s per step, so the run diverges.",
				textfmt.Sig(t), textfmt.Sig(2/o.L), textfmt.Sig(math.Abs(1-t*o.L)))}
		}
		return demo.Note{TestID: "too-large", Alert: true, Text: fmt.Sprintf("t = %s > 2/L = %s: past the largest safe step; the run may diverge.", textfmt.Sig(t), textfmt.Sig(2/o.L))}
	case atTwoOverL:
		return r.edgeNote()
	case betweenLs:
		text := fmt.Sprintf("1/L = %s < t = %s < 2/L = %s: the steep directions overshoot and zigzag, yet step 1 of the proof of Theorem 1.8.5 still gives descent, "+
			"f(x⁺) ≤ f(x) − t(1 − tL/2)‖∇f(x)‖², a decrease for every t < 2/L", textfmt.Sig(1/o.L), textfmt.Sig(t), textfmt.Sig(2/o.L))
		switch {
		case r.sgd:
			text += " when the step follows the full gradient; a mini-batch's gradient is only an estimate of it."
		case r.constantGD():
			text += ", and the run converges."
		default:
			text += fmt.Sprintf(" (the schedule's steps tₖ never exceed t = %s).", textfmt.Sig(t))
		}
		text += " What fails above 1/L is step 2's factor ½, so the theorem's bound is proved only for t ≤ 1/L"
		if r.constantGD() {
			text += " and the history does not draw it."
		} else {
			text += "."
		}
		return demo.Note{TestID: "rate", Text: text, Fine: r.lNote()}
	}
	where := "the dashed curve in the history"
	if r.bound == nil {
		where = "for full-batch steps of constant size (not drawn for this run)"
	}
	cmp := "≤"
	if regimeOf(t, o.L) == atOneOverL {
		cmp = "="
	}
	return demo.Note{TestID: "rate", Text: fmt.Sprintf("t = %s %s 1/L = %s: by Theorem 1.8.5, f(x⁽ᵏ⁾) − f* ≤ ‖x⁽⁰⁾ − x*‖²/(2tk), %s; above 2/L = %s a quadratic diverges.",
		textfmt.Sig(t), cmp, textfmt.Sig(1/o.L), where, textfmt.Sig(2/o.L)) + r.boundNow(), Fine: r.lNote()}
}

// boundNow is Theorem 1.8.5's bound at the current step, beside the gap
// it bounds, when the theorem covers the run and k ≥ 1: "At step 10 the
// bound is 6.25/2 = 3.125, and the gap f(x⁽ᵏ⁾) − f* is 0.3745."
func (r *gdRun) boundNow() string {
	if !r.boundApplies() || r.k < 1 || !r.obj.hasMin {
		return ""
	}
	x0 := r.trail.Start()
	d0, den := r.obj.dist2(x0[:]), 2*r.t0*float64(r.k)
	return fmt.Sprintf(" At step %d the bound is %s/%s = %s, and the gap f(x⁽ᵏ⁾) − f* is %s.",
		r.k, textfmt.Sig(d0), textfmt.Sig(den), textfmt.Sig(d0/den), textfmt.Sig(r.obj.gap(r.s.F)))
}

// edgeNote is the rate note at t = 2/L. On an objective whose Hessian is
// the same everywhere it says where f ends: the error along the top
// eigenvector v is multiplied by 1 − tL = −1 at every step while the
// others shrink, so f tends to f* + ½L(vᵀ(x⁽⁰⁾ − x*))².
func (r *gdRun) edgeNote() demo.Note {
	o := r.obj
	head := fmt.Sprintf("t = 2/L = %s: ", textfmt.Sig(2/o.L))
	if !o.constHess {
		return demo.Note{TestID: "edge", Alert: true, Text: head + "the edge of the safe range. Step 1 of the proof of Theorem 1.8.5 promises no descent here " +
			"(its factor 1 − tL/2 is 0), and on a quadratic of curvature L the steepest direction would bounce for ever without shrinking; " +
			"whether this run converges depends on the curvature it meets, which can be below L.", Fine: r.lNote()}
	}
	c, ok := r.topComponent()
	if !ok {
		return demo.Note{TestID: "edge", Alert: true, Text: head + "along the eigenvector of L the error is multiplied by 1 − tL = −1 at every step, so it neither grows nor shrinks.", Fine: r.lNote()}
	}
	x0 := r.trail.Start()
	if math.Abs(c) <= 1e-12*math.Sqrt(o.dist2(x0[:])) {
		return demo.Note{TestID: "edge", Text: head + "along the eigenvector of L the error would be multiplied by 1 − tL = −1 at every step, " +
			"but this start has no component along it, so nothing bounces and the run converges along the other directions.", Fine: r.lNote()}
	}
	limit := o.fstar + o.L*c*c/2
	return demo.Note{TestID: "edge", Alert: true, Text: head + fmt.Sprintf("along the eigenvector v of L the error is multiplied by 1 − tL = −1 at every step, "+
		"so it never shrinks: the start's component vᵀ(x⁽⁰⁾ − x*) = %s stays, the iterates end up bouncing between two points, "+
		"and f tends to f* + ½L(vᵀ(x⁽⁰⁾ − x*))² = %s, not to f* = %s. The run does not converge; any t below 2/L would.",
		textfmt.Sig(c), textfmt.Sig(limit), textfmt.Sig(o.fstar)), Fine: r.lNote()}
}

// topComponent is vᵀ(x⁽⁰⁾ − x*), v a unit eigenvector of the Hessian's
// largest eigenvalue (its sign is the solver's).
func (r *gdRun) topComponent() (float64, bool) {
	x0 := r.trail.Start()
	vals, vecs, ok := symeig.Decompose(r.obj.f.Hessian(x0[:]), true)
	if !ok {
		return 0, false
	}
	top := len(vals) - 1
	c := 0.0
	for i := range vals {
		c += vecs.At(i, top) * (x0[i] - r.obj.xstar[i])
	}
	return c, true
}

// lNote says where L comes from.
func (r *gdRun) lNote() string {
	if objChoice.Is(r.st, objLogistic) {
		return "L = λ_max(X̃ᵀX̃)/(4n) + λ bounds every Hessian's largest eigenvalue, since σ(z)σ(−z) ≤ ¼."
	}
	return "L is the largest eigenvalue of the Hessian ∇²f, which is the same at every point."
}

func (r *gdRun) newtonNote() demo.Note {
	text := "Newton's method steps x ← x − ∇²f(x)⁻¹∇f(x): it solves a 2×2 system with the Hessian each step, and needs no step size."
	s := r.s
	switch {
	case isQuad(r.st):
		text += " On a quadratic its model is exact, so one step lands on x*"
		if r.k >= 1 {
			text += fmt.Sprintf(": after step %d, f − f* = %s.", r.k, textfmt.Sig(r.obj.gap(s.F)))
		} else {
			text += ": press Step."
		}
	case s.Status == algos.Stalled:
		return r.stallNote(text)
	case s.Status == algos.Converged:
		text += fmt.Sprintf(" This run converged after %s (‖∇f‖ = %s < %s): once near a stationary point the error roughly squares each step.",
			textfmt.Plural(r.k, "steps"), textfmt.Sig(s.GradNorm), textfmt.Sig(gdTol))
	default:
		text += " Near a minimiser with a positive definite Hessian the error roughly squares each step (quadratic convergence); " +
			"far from one its quadratic model can be a poor guide."
	}
	return demo.Note{TestID: "newton", Text: text}
}

// stallNote says why Newton's run stopped: its step would not move x.
func (r *gdRun) stallNote(text string) demo.Note {
	s := r.s
	text += fmt.Sprintf(" This run stalled: step %d would leave x = (%s, %s) where it is, although ‖∇f‖ = %s, and so would every later step, so the run stops at step %d.",
		r.k+1, iterateCoord(s.X[0]), iterateCoord(s.X[1]), textfmt.Sig(s.GradNorm), r.k)
	vals, _, ok := symeig.Decompose(r.obj.f.Hessian(s.X), false)
	if ok && len(vals) == 2 {
		lo, hi := vals[0], vals[1]
		if math.Abs(lo) <= 1e-12*math.Abs(hi) {
			text += fmt.Sprintf(" Here ∇²f has eigenvalues %s and %s: it is singular, so the quadratic model has no bottom along the eigenvector of %s; "+
				"Margin's solve drops that direction, and what is left of the step is zero.", textfmt.Sig(lo), textfmt.Sig(hi), textfmt.Sig(lo))
		} else {
			text += fmt.Sprintf(" Here ∇²f has eigenvalues %s and %s, and the step is below the rounding of x.", textfmt.Sig(lo), textfmt.Sig(hi))
		}
	}
	if r.obj.convex && r.obj.hasMin {
		text += fmt.Sprintf(" The minimiser is %s away: far from it the quadratic model was a poor guide, and the steps overshot into a region where f has almost no curvature.",
			textfmt.Sig(math.Sqrt(r.obj.dist2(s.X))))
	}
	return demo.Note{TestID: "newton", Alert: true, Text: text}
}

// wellFine says why the double well has no L.
const wellFine = "No L: the Hessian diag(12x₁² − 4, 2) grows without bound, so no one step size is safe everywhere; t diverges where 12x₁² − 4 > 2/t."

// wellNote says which basin the run ends in, or that it stalls at the
// saddle: it runs on to the end of the kept run, which on two coordinates
// is cheap (the note is the same whatever the request's context).
func (r *gdRun) wellNote() demo.Note {
	s, k, _, err := keptGD(context.Background(), r.cache, r.st, r.m, r.s0, demo.MaxStep)
	if err != nil || s.Status == algos.Diverged {
		return demo.Note{TestID: "basin", Fine: wellFine, Text: "A non-convex f: which minimum gradient descent finds, if any, depends on the start."}
	}
	x := s.X
	switch {
	case math.Abs(x[0]) < 0.5:
		return demo.Note{TestID: "basin", Alert: true, Text: fmt.Sprintf("This run stalls at the saddle (0, 0) after %s: ∇f = 0 there, so gradient descent stops, "+
			"though it is no minimum (∇²f = diag(−4, 2)). Near the saddle the steps are tiny.", textfmt.Plural(k, "steps")), Fine: wellFine}
	case x[0] < 0:
		return demo.Note{TestID: "basin", Text: "This start leads into the left valley, to the minimum (−1, 0). Another start (or step size) can pick the other one: " +
			"on a non-convex f the answer depends on where descent starts, and near the saddle (0, 0) it crawls.", Fine: wellFine}
	}
	return demo.Note{TestID: "basin", Text: "This start leads into the right valley, to the minimum (1, 0). Another start (or step size) can pick the other one: " +
		"on a non-convex f the answer depends on where descent starts, and near the saddle (0, 0) it crawls.", Fine: wellFine}
}
