package logistic

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// panel lists the probe's class probabilities and the run's numbers.
func (r *softmaxRun) panel() demo.Panel {
	s := r.s
	p := demo.Panel{
		Counters: []demo.Counter{
			{"iteration k", strconv.Itoa(r.k), "step"},
			{"J(W, b)", textfmt.Sig(s.Objective), "objective"},
			{"‖∇J‖", textfmt.Sig(s.GradNorm), "grad"},
			{"training error", textfmt.Pct(r.trainingError(), 1), "error"},
			{"prediction at q", "class " + strconv.Itoa(s.Model.Predict(r.q[:])), "probe-class"},
		},
		Status: logisticStatus(s.Status, s.GradNorm), Done: s.Status.Done(), Bad: s.Status == algos.Diverged,
		Start:  fmt.Sprintf("Start: W = 0 and b = 0, so every class has probability 1/%d everywhere. Press → or Step for the first iteration.", r.sm.C),
		Tables: []demo.Table{r.probeTable()},
		Notes:  []demo.Note{demo.RuleNote(demo.ArgmaxRule)},
	}
	for c, w := range s.Model.W {
		p.Model = append(p.Model, demo.ModelLine{Prefix: "class " + strconv.Itoa(c) + ":",
			Facts: []demo.Fact{{"w", textfmt.Vec(w), "w" + strconv.Itoa(c)}, {"b", textfmt.Num(s.Model.B[c]), "b" + strconv.Itoa(c)}}})
	}
	if r.k > 0 {
		p.Changed = true
		p.Examined = fmt.Sprintf("Iteration %d is a gradient step (W, b) ← (W, b) − η∇J(W, b) with η = %s.", r.k, textfmt.Sig(r.eta))
		p.Lines = []string{"The gradient in w_c is (1/n) Σᵢ (P(c | xᵢ) − [yᵢ = c]) xᵢ + λw_c: each point raises its own class's score " +
			"and lowers the others' by as much as their probabilities miss."}
	}
	if r.optErr == nil {
		p.Counters = append(p.Counters, demo.Counter{"J* (exact minimum)", textfmt.Sig(r.opt.Objective), "optimum"})
		p.Notes = append(p.Notes, demo.Note{TestID: "minimiser", Text: fmt.Sprintf("With λ = %s > 0, J has one minimiser (taking Σ_c b_c = 0). ",
			textfmt.Sig(r.sm.Lambda)) + gapText(s.Objective, r.opt.Objective)})
	} else {
		p.Notes = append(p.Notes, demo.Note{TestID: "no-optimum", Text: "The exact minimiser could not be computed here: " + r.optErr.Error()})
	}
	p.Notes = append(p.Notes, smoothNote(r.sm.L(), r.eta, "λ_max(X̃ᵀX̃)/(2n) + λ = ", r.j, len(r.sm.X), true))
	if s.Status == algos.Diverged {
		p.Notes = append(p.Notes, divergedNote())
	}
	return p
}

// probeTable lists P(c | q) and the scores behind it at the probe q, the
// arg max marked: the prediction is the likeliest class. Every column
// has a heading, which a screen reader reads with each cell (axe's
// td-has-header).
func (r *softmaxRun) probeTable() demo.Table {
	m, q := r.s.Model, r.q[:]
	scores, probs, pred := m.Scores(q), m.Proba(q), m.Predict(q)
	t := demo.Table{TestID: "probe", Caption: "The probe q = " + textfmt.Vec(q) + ": P(c | q) = exp(s_c) / Σ_l exp(s_l)",
		Head: []string{"class c", "score s_c = w_c·q + b_c", "P(c | q)", "arg max"}}
	for c := range probs {
		mark := ""
		if c == pred {
			mark = "◀ the prediction"
			if slices.Index(probs[c+1:], probs[c]) >= 0 {
				mark += " (a tie, which goes to the smallest class)"
			}
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(c), textfmt.Sig(scores[c]), textfmt.Sig(probs[c]), mark})
	}
	return t
}
