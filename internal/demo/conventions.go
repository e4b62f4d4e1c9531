package demo

import (
	"fmt"
	"strconv"
)

// Conventions is what a demo declares about the model it fits, so that
// nothing it does is hidden: the kit states each next to the plot (the
// "model" box), generated from this declaration, and a course-wide test
// holds every demo to stating each one that applies to it.
//
// Closed sets are kinds (BiasKind, Penalty, Scaling, LabelKind); what
// depends on the state (the objective with λ, C and n filled in, the
// stopping rule with its tolerance) is a function of the state.
type Conventions struct {
	// Objective is what the demo minimises, with the state's numbers filled
	// in: "J(w, b) = (λ/2)‖w‖² + (1/n)Σ log(1 + e^(−yᵢf(xᵢ))), λ = 0.01,
	// n = 40". n is the number of points the demo runs on (0 for a demo
	// without points, which reads its own size). nil when nothing is
	// minimised; Procedure then says what the demo does instead.
	Objective func(s State, n int) string
	// Fills are the parameters Objective fills in: the course's test
	// changes each and expects the text to change with it.
	Fills []Declarer
	// Procedure replaces Objective for a demo that minimises nothing in
	// the usual sense (the perceptron's mistake-driven updates, kNN's
	// vote, a kernel's check): what it computes, in a sentence.
	Procedure func(s State) string
	Bias      BiasKind
	Penalty   Penalty
	// BiasFor, when set, gives the bias and penalty of state s instead,
	// for a demo whose methods differ (Pegasos augments, subgradient
	// descent keeps b apart).
	BiasFor func(s State) (BiasKind, Penalty)
	Scaling Scaling
	// ScalingNote adds what the demo does to the inputs that is not a
	// scaling: "features x, x², …, xᵖ of the raw x".
	ScalingNote func(s State) string
	Labels      LabelKind
	// Seed is the parameter that seeds the run's random order or
	// sampling (demo.Aseed), zero when the run has none; SeedUse says
	// what it seeds: "the points SGD samples". The seed is stated when the
	// parameter applies (its When).
	Seed    Int
	SeedUse string
	// Stop is the solver's stopping rule, with its tolerance and budget
	// filled in; Tolerance is the parameter that sets the tolerance, if
	// one does (the test changes it and expects Stop to change).
	Stop      func(s State) string
	Tolerance Declarer
}

// BiasKind is how a model carries its bias b.
type BiasKind int

const (
	// BiasNone: the model has no bias term (f(x) = ⟨w, x⟩, a kernel
	// expansion without b, an objective of x itself).
	BiasNone BiasKind = iota
	// BiasSeparate: b is a parameter of its own beside w.
	BiasSeparate
	// BiasAugmented: each x is padded to x̃ = (x, 1) and b is the last
	// coordinate of the weight vector, so whatever penalises w
	// penalises b too.
	BiasAugmented
	// BiasNotApplicable: the demo fits no model with weights (a
	// classifier by vote or from a known distribution, a loss chart).
	BiasNotApplicable
)

// Penalty is whether a regulariser reaches the bias.
type Penalty int

const (
	// NoPenalty: the objective has no regulariser at all.
	NoPenalty Penalty = iota
	// BiasFree: w is penalised, b is not.
	BiasFree
	// BiasPenalised: the regulariser penalises b with w.
	BiasPenalised
)

// Scaling is what the demo does to the data's scale. Margin never
// scales silently: NotScaled is stated too.
type Scaling int

const (
	// NotScaled: the inputs are used as given.
	NotScaled Scaling = iota
	// CentredForIntercept: not scaled; the solver centres x and y to find
	// the unpenalised b = ȳ − x̄·w, which gives the same fit as the raw data.
	CentredForIntercept
)

// LabelKind is the label convention the algorithm computes with.
type LabelKind int

const (
	// LabelsNone: the demo has no labels (an objective of x).
	LabelsNone LabelKind = iota
	// LabelsSigned: y ∈ {−1, +1}; an uploaded 0 counts as −1.
	LabelsSigned
	// LabelsSignedOrClasses: y ∈ {−1, +1} for two classes; any other
	// labels (0/1 too) are classes 0…k−1 that a multiclass scheme splits
	// into ±1 problems (the perceptron).
	LabelsSignedOrClasses
	// LabelsZeroOne: y ∈ {0, 1}, the algorithm's own convention.
	LabelsZeroOne
	// LabelsClasses: classes 0…k−1, k = DataSpec.MaxClasses.
	LabelsClasses
	// LabelsReal: a real-valued y (regression).
	LabelsReal
)

// ConventionLine is one statement of the model box: "bias" and what holds.
type ConventionLine struct{ Term, Text, TestID string }

// ConventionLines states d's conventions in s, n the number of points it
// runs on, in a fixed order: what is minimised, the bias, scaling,
// labels, the random seed and the stopping rule. It states only what
// applies: a demo declares no Stop for a closed-form answer, no Seed
// without a random order. A demo that declares nothing states nothing.
func (d *Demo) ConventionLines(s State, n int) []ConventionLine {
	c := d.Conventions
	if c == nil {
		return nil
	}
	var out []ConventionLine
	add := func(term, id, text string) {
		if text != "" {
			out = append(out, ConventionLine{term, text, "conv-" + id})
		}
	}
	switch {
	case c.Objective != nil:
		add("minimises", "loss", c.Objective(s, n))
	case c.Procedure != nil:
		add("computes", "loss", c.Procedure(s))
	}
	bias, pen := c.Bias, c.Penalty
	if c.BiasFor != nil {
		bias, pen = c.BiasFor(s)
	}
	add("bias", "bias", biasText(bias, pen))
	scale := c.Scaling.text()
	if c.ScalingNote != nil {
		scale += "; " + c.ScalingNote(s)
	}
	add("data", "scaling", scale)
	add("labels", "labels", c.Labels.text(d.Data.MaxClasses, d.HasPoints()))
	if c.Seed.Key != "" && s.Applies(c.Seed.Key) {
		use := c.SeedUse
		if use == "" {
			use = "the random order"
		}
		add("seed", "seed", fmt.Sprintf("%s = %s (%s)", c.Seed.Key, strconv.Itoa(c.Seed.Get(s)), use))
	}
	if c.Stop != nil {
		add("stops", "stop", c.Stop(s))
	}
	return out
}

func biasText(kind BiasKind, pen Penalty) string {
	var b string
	switch kind {
	case BiasNone:
		return "none: no bias term"
	case BiasNotApplicable:
		return ""
	case BiasSeparate:
		b = "b is a separate parameter"
	case BiasAugmented:
		b = "augmented: x̃ = (x, 1), b is the weight of the constant 1"
	}
	switch pen {
	case BiasFree:
		return b + ", not regularised"
	case BiasPenalised:
		return b + ", regularised with w"
	}
	return b + "; nothing is regularised"
}

func (s Scaling) text() string {
	if s == CentredForIntercept {
		return "not scaled; the solver centres x and y only to find the unpenalised b = ȳ − x̄·w (the same fit)"
	}
	return "not scaled: the coordinates as given"
}

func (l LabelKind) text(maxClasses int, points bool) string {
	switch l {
	case LabelsSigned:
		if points {
			return "y ∈ {−1, +1} (an uploaded 0 counts as −1)"
		}
		return "y ∈ {−1, +1}"
	case LabelsSignedOrClasses:
		return fmt.Sprintf("y ∈ {−1, +1}; any other labels (0 and 1 too) are classes 0…%d, "+
			"which the multiclass scheme splits into ±1 problems", maxClasses-1)
	case LabelsZeroOne:
		return "y ∈ {0, 1}"
	case LabelsClasses:
		return fmt.Sprintf("classes 0…%d", maxClasses-1)
	case LabelsReal:
		return "a real-valued y"
	}
	return ""
}
