package perceptron

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// perceptronPanel describes the shown state and writes the last update
// out with its numbers, in the notes' notation, so a student can check it
// by hand.
func perceptronPanel(ctx context.Context, pr *perceptron.Problem, s perceptron.State, st demo.State) demo.Panel {
	p := demo.Panel{
		Counters: perceptronCounters(pr, s),
		Status:   s.Status.String(),
		Done:     s.Status.Done(),
		Bad:      s.Status.Done() && s.Status != algos.Converged,
		Start:    "Start: w = 0 and b = 0. Press → or Step to examine the first point.",
	}
	for k, t := range pr.Tasks {
		m := s.Models[k]
		ml := demo.ModelLine{Facts: []demo.Fact{{"w", textfmt.Vec(m.W), "w"}, {"b", textfmt.Num(m.B), "b"}}}
		if len(pr.Tasks) > 1 {
			ml.Prefix = taskName(pr, t) + ":"
		}
		if pr.P.Average {
			w, b := m.Averaged()
			ml.Extra = fmt.Sprintf("(averaged: w̄ = %s, b̄ = %s)", textfmt.Vec(w), textfmt.Num(b))
		}
		p.Model = append(p.Model, ml)
	}
	if s.Event.I >= 0 {
		perceptronStep(&p, pr, s)
	}
	p.Notes = append([]demo.Note{predictionNote(pr)}, perceptronNotes(ctx, pr, s, st)...)
	return p
}

// perceptronCounters are the panel's counters, each named by what it
// counts, so that a compare table pairs only like with like: "mistakes"
// (updates at a score ≤ 0) wherever they are all the updates, and
// "updates" beside them when a margin or several perceptrons make the two
// differ; the training error of the current w, b, and for the averaged
// perceptron that of w̄, b̄, which it predicts with, beside it.
func perceptronCounters(pr *perceptron.Problem, s perceptron.State) []demo.Counter {
	cs := []demo.Counter{
		{"iteration t", strconv.Itoa(s.T), "step"},
		{"epoch", strconv.Itoa(s.CurrentEpoch()), "epoch"},
	}
	if !pr.UpdatesAreMistakes() {
		cs = append(cs, demo.Counter{"updates", strconv.Itoa(s.Mistakes), "updates"})
	}
	if pr.P.Margin > 0 || pr.UpdatesAreMistakes() {
		cs = append(cs, demo.Counter{"mistakes", strconv.Itoa(s.Mistakes - s.Violations), "mistakes"})
	}
	wb, avg := "w, b", "w̄, b̄"
	if !pr.Binary() {
		wb, avg = "the current classifiers", "the averaged classifiers"
	}
	if pr.P.Average {
		cs = append(cs, demo.Counter{"training error of " + avg, textfmt.Pct(pr.TrainingError(s), 1), "error-averaged"})
	}
	return append(cs, demo.Counter{"training error of " + wb, textfmt.Pct(pr.CurrentTrainingError(s), 1), "error"})
}

// predictionNote says in small print how the panel's error counts: the
// course's prediction rule, which for two classes differs from
// Algorithm 1's test for a mistake at a score of 0.
func predictionNote(pr *perceptron.Problem) demo.Note {
	if !pr.Binary() {
		return demo.Note{TestID: "prediction-rule", Fine: "A prediction is the class with the largest vote (one-vs-all: its score ⟨w, x⟩ + b; " +
			"one-vs-one: its scores minus the scores against it), a tie going to the lowest class; the error counts the points whose prediction is not their class."}
	}
	fine := demo.SignRule
	if pr.P.Average {
		fine += " Averaged, the prediction uses w̄ and b̄ in place of w and b."
	}
	return demo.Note{TestID: "prediction-rule", Fine: fine + " A mistake of Algorithm 1 is y(⟨w, x⟩ + b) ≤ 0, a stricter test at a score of 0: " +
		"at w = 0, b = 0 every point is a mistake, though the −1 points are predicted right."}
}

// perceptronStep writes out what the step did to each task it saw.
func perceptronStep(p *demo.Panel, pr *perceptron.Problem, s perceptron.State) {
	i := s.Event.I
	x := pr.X[i]
	p.Examined = fmt.Sprintf("Step %d examines %s = %s, %s.", s.T, render.PointName(i), textfmt.Vec(x), labelName(pr, pr.Y[i]))
	for k, t := range pr.Tasks {
		if !s.Event.Seen[k] {
			continue
		}
		y, _ := t.Label(pr.Y[i])
		before := s.Event.Before[k]
		prefix := ""
		if len(pr.Tasks) > 1 {
			prefix = taskName(pr, t) + ": "
		}
		p.Lines = append(p.Lines, prefix+marginLine(y, before, x, s.Event.Margin[k], pr.P.Margin, s.Event.Updated[k]))
		if s.Event.Updated[k] {
			p.Changed = true
			after := s.Models[k]
			eta, ys := textfmt.Num(pr.P.Eta), "("+textfmt.Signed(y)+")"
			p.Lines = append(p.Lines,
				fmt.Sprintf("w ← w + η·y·x = %s + %s·%s·%s = %s", textfmt.Vec(before.W), eta, ys, textfmt.Vec(x), textfmt.Vec(after.W)),
				fmt.Sprintf("b ← b + η·y = %s + %s·%s = %s", textfmt.Num(before.B), eta, ys, textfmt.Num(after.B)))
		}
	}
}

// marginLine writes the score y(⟨w, x⟩ + b) with numbers and says what it
// implies: a mistake (score ≤ 0), a margin violation (correct but with
// score ≤ γ, margin perceptron only), or no update.
func marginLine(y float64, m perceptron.Model, x []float64, score, gamma float64, updated bool) string {
	calc := fmt.Sprintf("score y(⟨w, x⟩ + b) = %s·(⟨%s, %s⟩ + %s) = %s", "("+textfmt.Signed(y)+")", textfmt.Vec(m.W), textfmt.Vec(x), textfmt.Paren(textfmt.Num(m.B)), textfmt.Num(score))
	switch {
	case updated && score <= 0:
		return calc + " ≤ 0: a mistake, so update"
	case updated:
		return fmt.Sprintf("%s ≤ γ = %s: correct but inside the margin, a margin violation, so update", calc, textfmt.Num(gamma))
	case gamma > 0:
		return fmt.Sprintf("%s > γ = %s: no update", calc, textfmt.Num(gamma))
	}
	return calc + " > 0: correct, no update"
}

// perceptronNotes are the bound of Theorem 1.2.8 and what the run's end
// means.
func perceptronNotes(ctx context.Context, pr *perceptron.Problem, s perceptron.State, st demo.State) []demo.Note {
	var notes []demo.Note
	if pr.Binary() {
		notes = append(notes, boundNote(ctx, pr, s))
	}
	if s.Status == algos.CycleDetected {
		notes = append(notes, demo.Note{TestID: "cycle", Alert: true, Text: cycleText(pr, s)})
	}
	if pr.P.Average && !pr.P.FixedEpochs {
		notes = append(notes, demo.Note{TestID: "averaged-stop", Text: "Algorithm 7 runs a fixed number of epochs; this run " +
			"stops at the first epoch without an update. Set stop to “after all epochs” for the fixed-epoch run."})
	}
	return notes
}

// cycleText says what a detected cycle proves: the models at the end of
// epoch s.Epoch are those at the start of an earlier epoch, with updates
// in between, which on separable data cannot happen in any order (each
// update raises ⟨(w, b), (w*, b*)⟩); so each task that updated in between
// is not linearly separable. Only in cyclic order does the run then
// repeat for ever.
func cycleText(pr *perceptron.Problem, s perceptron.State) string {
	from, updated, ok := pr.Cycle(s)
	if !ok {
		return "Cycle: the weights at the start of an epoch repeat an earlier epoch start."
	}
	weights := "the weights are"
	if len(pr.Tasks) > 1 {
		weights = "every classifier's weights are"
	}
	out := fmt.Sprintf("Cycle: after epoch %d %s back to what they were at the start of epoch %d, with updates in between. ",
		s.Epoch, weights, from+1)
	proof := "On separable data every update raises ⟨(w, b), (w*, b*)⟩, so (w, b) could never return, in any visiting order: "
	out += proof + cycleFinding(pr, updated) + "."
	if !pr.Binary() {
		out += " A classifier that made no update in between is not judged."
	}
	if pr.P.Order == perceptron.Random {
		return out + " In random order the next epochs visit new permutations, so the run need not repeat; it stops because the repeat has settled the question."
	}
	return out + " In cyclic order the run is deterministic, so the same epochs would repeat forever."
}

// cycleFinding is what a cycle in which the tasks updated[k] made updates
// proves: for two classes that no line separates the points, otherwise
// which one-vs-all or one-vs-one problems are not linearly separable.
func cycleFinding(pr *perceptron.Problem, updated []bool) string {
	if pr.Binary() {
		return "no line separates these points"
	}
	var names []string
	for k, t := range pr.Tasks {
		if k < len(updated) && updated[k] {
			names = append(names, taskName(pr, t))
		}
	}
	verb := "is"
	if len(names) > 1 {
		verb = "are"
	}
	return andList(names) + " " + verb + " not linearly separable"
}

// boundNote computes γ, C and C²/γ² of Theorem 1.2.8 on the augmented
// points (x, 1), which is the form of the theorem that covers a bias.
func boundNote(ctx context.Context, pr *perceptron.Problem, s perceptron.State) demo.Note {
	mb := perceptron.Bound(ctx, pr.X, pr.Y)
	n := demo.Note{TestID: "bound"}
	switch {
	case !mb.Separable:
		n.Text = "No line separates these points: the convex hulls of the two classes meet (a linear program proves it), " +
			"so Theorem 1.2.8 gives no bound and the perceptron never converges on them."
		return n
	case mb.Gamma <= 0:
		n.Text = "A line separates these points (a linear program proves it), but their margin γ is too thin for the " +
			"max-margin solver to pin down in its budget; Theorem 1.2.8 holds with that tiny γ, and its bound is huge."
		return n
	}
	n.Fine = "(γ and C on the augmented points (x, 1), as the theorem needs with a bias.)"
	bound := mb.Mistakes
	if p := pr.P; p.Margin > 0 {
		// Updates at score ≤ γ grow ‖w‖² by at most 2ηγ + η²C² each,
		// while ⟨w, w*⟩ still grows by ηγ*: M ≤ (C² + 2γ/η)/γ*².
		term := 2 * p.Margin / p.Eta
		bound = (mb.C*mb.C + term) / (mb.Gamma * mb.Gamma)
		n.Text = fmt.Sprintf("Separable with data margin γ* = %s, C = %s; the margin perceptron's proof allows at most "+
			"(C² + 2γ/η)/γ*² = %s updates (2γ/η = %s); so far %d.", textfmt.Num(mb.Gamma), textfmt.Num(mb.C), fmtBound(bound), textfmt.Num(term), s.Mistakes)
		return n
	}
	n.Text = fmt.Sprintf("Separable: γ = %s, C = %s, so Theorem 1.2.8 allows at most C²/γ² = %s mistakes; so far %d.",
		textfmt.Num(mb.Gamma), textfmt.Num(mb.C), fmtBound(bound), s.Mistakes)
	return n
}

func fmtBound(b float64) string { return strconv.FormatFloat(b, 'f', 1, 64) }

// labelName is "y = +1" / "y = −1" for two classes, "class k" otherwise.
func labelName(pr *perceptron.Problem, c int) string {
	switch {
	case !pr.Binary():
		return fmt.Sprintf("class %d", c)
	case c == 1:
		return "y = +1"
	}
	return "y = −1"
}

func taskName(pr *perceptron.Problem, t perceptron.Task) string {
	switch {
	case pr.Binary():
		return "+1 vs −1"
	case t.Rest:
		return fmt.Sprintf("class %d vs rest", t.Pos)
	}
	return fmt.Sprintf("class %d vs %d", t.Pos, t.Neg)
}

// andList joins "a", "a and b", "a, b and c".
func andList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
