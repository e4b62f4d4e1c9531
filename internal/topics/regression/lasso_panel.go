package regression

import (
	"fmt"
	"math"
	"strconv"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// sub writes a coordinate's 1-based index as a subscript: w₁, w₂.
func sub(j int) string { return string(rune('₀' + j + 1)) }

// panel gives the step's soft-thresholding with its numbers filled in,
// the iterate beside the solution, and notes on sparsity read off the
// solution's optimality conditions.
func (r *lassoRun) panel() demo.Panel {
	s, d := r.s, len(r.s.W)
	sweep := 0
	if s.T > 0 {
		sweep = (s.T-1)/d + 1
	}
	p := demo.Panel{
		Counters: []demo.Counter{
			{"step k", strconv.Itoa(s.T), "step"},
			{"sweep", strconv.Itoa(sweep), "sweep"},
			{"J(w, b)", textfmt.Sig(s.Objective), "objective"},
			{"J at w*", textfmt.Sig(r.sol.Objective), "optimum"},
			{"α", textfmt.Sig(r.alpha), "alpha"},
			{"α_max", textfmt.Sig(r.alphaMax), "alpha-max"},
		},
		Status: s.Status.String(), Done: s.Status.Done(), Bad: s.Status == algos.IterationLimit,
		Start: fmt.Sprintf("w⁽⁰⁾ = (0, 0) and b = ȳ = %s, the best intercept for w = 0. Press → or Step: each step updates one "+
			"coordinate, w₁ then w₂, then w₁ again.", textfmt.Sig(s.B)),
		Model: []demo.ModelLine{
			{Prefix: "w⁽ᵏ⁾:", Facts: []demo.Fact{{"w₁", coef(s.W[0]), "w1"}, {"w₂", coef(s.W[1]), "w2"}, {"b", coef(s.B), "b"}}},
			{Prefix: "lasso solution:", Facts: []demo.Fact{{"w₁*", coef(r.sol.W[0]), "w1-opt"}, {"w₂*", coef(r.sol.W[1]), "w2-opt"}, {"b*", coef(r.sol.B), "b-opt"}}},
			{Prefix: "least squares (α = 0):", Facts: []demo.Fact{{"w₁", coef(r.ls.W[0]), "w1-ls"}, {"w₂", coef(r.ls.W[1]), "w2-ls"}, {"b", coef(r.ls.B), "b-ls"}}},
		},
	}
	if s.T > 0 {
		p.Examined, p.Lines = r.stepLines(sweep)
		p.Changed = s.Last.New != s.Last.Old
	}
	p.Notes = r.notes()
	return p
}

// stepLines writes the step's coordinate update: ρⱼ, zⱼ, the
// soft-thresholding S(ρⱼ, α) and the new wⱼ, every number filled in.
func (r *lassoRun) stepLines(sweep int) (string, []string) {
	st, a := r.s.Last, r.alpha
	w := "w" + sub(st.J)
	examined := fmt.Sprintf("Step %d (sweep %d) updates %s alone, to the value that minimises J with the other weight held.", r.s.T, sweep, w)
	lines := []string{
		fmt.Sprintf("ρ%s = (1/n) Σᵢ x̃ᵢ%s(rᵢ + x̃ᵢ%s·%s) = %s, with r = ỹ − X̃w the residual and %s = %s before the step.",
			sub(st.J), sub(st.J), sub(st.J), w, textfmt.Sig(st.Rho), w, coef(st.Old)),
		fmt.Sprintf("z%s = (1/n) Σᵢ x̃ᵢ%s² = %s.", sub(st.J), sub(st.J), textfmt.Sig(st.Z)),
	}
	rho, thr := textfmt.Sig(st.Rho), textfmt.Sig(a)
	switch soft := linreg.SoftThreshold(st.Rho, a); {
	case soft == 0:
		rhoText, aText := apart(math.Abs(st.Rho), a)
		lines = append(lines, fmt.Sprintf("|ρ%s| = %s ≤ α = %s, so S(ρ%s, α) = 0: %s = 0 exactly.", sub(st.J), rhoText, aText, sub(st.J), w))
	case st.Rho > 0:
		lines = append(lines, fmt.Sprintf("ρ%s = %s > α = %s, so S(ρ%s, α) = ρ%s − α = %s, and %s = S(ρ%s, α)/z%s = %s/%s = %s.",
			sub(st.J), rho, thr, sub(st.J), sub(st.J), textfmt.Sig(soft), w, sub(st.J), sub(st.J), textfmt.Sig(soft), textfmt.Sig(st.Z), coef(st.New)))
	default:
		lines = append(lines, fmt.Sprintf("ρ%s = %s < −α = −%s, so S(ρ%s, α) = ρ%s + α = %s, and %s = S(ρ%s, α)/z%s = %s/%s = %s.",
			sub(st.J), rho, thr, sub(st.J), sub(st.J), textfmt.Sig(soft), w, sub(st.J), sub(st.J), textfmt.Sig(soft), textfmt.Sig(st.Z), coef(st.New)))
	}
	return examined, lines
}

// notes reads the solution: which weights are exactly zero and why
// (|x̃ⱼ·r/n| ≤ α), the α from which every weight is zero, and how the
// run stopped.
func (r *lassoRun) notes() []demo.Note {
	var out []demo.Note
	if !r.predicting {
		out = r.solutionNotes()
	}
	out = append(out, demo.Note{TestID: "alpha-max", Text: fmt.Sprintf(
		"α_max = max over j of |x̃ⱼ·ỹ|/n = %s: from there on the lasso's answer is w = 0, the constant model b = ȳ.", textfmt.Sig(r.alphaMax))})
	zeros := "neither weight is 0"
	if r.ridge.W[0] == 0 || r.ridge.W[1] == 0 {
		zeros = "a weight is 0 only because the data make it so"
	}
	out = append(out, demo.Note{TestID: "ridge", Text: fmt.Sprintf(
		"Ridge at the same α, minimising (1/2n)‖y − Xw − b·1‖² + (α/2)‖w‖₂², gives w = (%s, %s): %s. Its penalty's slope αwⱼ vanishes at 0, "+
			"so a small weight costs almost nothing and is shrunk, never cut.", coef(r.ridge.W[0]), coef(r.ridge.W[1]), zeros)})
	switch r.s.Status {
	case algos.Converged:
		out = append(out, demo.Note{TestID: "converged", Text: fmt.Sprintf(
			"Converged after %s: the last sweep moved no weight by more than %s·(1 + max|wⱼ|).", textfmt.Plural(r.s.T, "steps"), textfmt.Sig(linreg.LassoTol))})
	case algos.IterationLimit:
		out = append(out, demo.Note{TestID: "limit", Alert: true, Text: fmt.Sprintf(
			"The run stopped at its budget of %d steps before converging; lower the correlation ρ for faster progress.", demo.MaxStep)})
	}
	return out
}

// solutionNotes read the solution's optimality conditions, weight by
// weight: they speak of w* and of a step taken there, never of the steps
// on the way, whose ρⱼ can pass α while wⱼ* = 0 (seed 13, ρ = 0.9,
// α = 1.5: step 1 sets w₁ = 0.1555, w₁* = 0). A page that asks about the
// next step leaves them out while the run goes on: beside "will w₁ be
// exactly 0 after it?" they read as its answer.
func (r *lassoRun) solutionNotes() []demo.Note {
	var out []demo.Note
	g := r.l.Gradient(r.sol)
	for j, w := range r.sol.W {
		gText, aText := apart(math.Abs(g[j]), r.alpha)
		if w == 0 {
			out = append(out, demo.Note{TestID: "zero" + strconv.Itoa(j+1), Text: fmt.Sprintf(
				"At the solution w%s = 0 exactly: there feature %d's pull on the residual, |x̃%s·r|/n = %s, is at most α = %s, "+
					"so a step on w%s taken at the solution soft-thresholds it to 0 and it stays there; on the way the pull can be larger, "+
					"as the step's lines show. Ridge only shrinks a weight; the ℓ1 penalty's kink at 0 holds it there.",
				sub(j), j+1, sub(j), gText, aText, sub(j))})
			continue
		}
		out = append(out, demo.Note{TestID: "active" + strconv.Itoa(j+1), Text: fmt.Sprintf(
			"At the solution w%s = %s ≠ 0 and x̃%s·r/n = %s = α·sign(w%s): the pull of the data on w%s balances the penalty.",
			sub(j), coef(w), sub(j), textfmt.Sig(g[j]), sub(j), sub(j))})
	}
	return out
}
