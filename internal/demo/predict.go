package demo

import "context"

// Predict-then-reveal (issue 20 §1): with predict=1 a stepping demo's Step
// becomes a question about the step after the one shown, asked from the
// algorithm's own state and checked against the step it really takes.
//
// A demo declares Spec.Predict; the kit does the rest (the predict, score
// and last keys, the seeded order of the choices, the answer form, the 303
// to the next step, the reveal, the presenter's Enter and the leak tests).

// Question is a multiple-choice question about the step from in.Step to
// in.Step+1 of a demo's run.
type Question struct {
	// Prompt asks it, with the numbers of the state shown: "Will x₃ =
	// (1, 0), y = +1 cause an update?". It must not give the answer away.
	Prompt string
	// Choices are the answers offered, two to five, in any order: the
	// kit shows them in an order seeded by the state, never by which is
	// right. Their Values are short words ("yes", "no", "a", "3-7"),
	// unique within the question, and their Labels say what they mean;
	// neither may depend on which choice is right except through the
	// set of choices as a whole (a right value among distractors built
	// the same way).
	Choices []Option
	// Right is the Value of the right choice.
	Right string
	// Why explains the answer once revealed, with the numbers of the step
	// taken: "y(⟨w, x⟩ + b) = −0.5 ≤ 0, so w ← w + yx = (1, 0)." It is
	// shown only after the step.
	Why string
	// Marks are points the question refers to, drawn over the plot with
	// their labels (three candidate iterates labelled "a", "b", "c", the
	// probe point "q"), in data coordinates.
	Marks []Mark
	// None, when set, says why no question is asked at this step (see
	// NoQuestion); every other field is then empty.
	None string
}

// NoQuestion is the Predictor's answer for a step whose outcome the
// algorithm's stated rule does not decide with margin to spare (a tie
// within rounding, a change of the loss below its rounding): the kit
// shows "No question at this step" with why, and Step goes on unscored.
// why says it in the reader's words: "J changes by less than its
// rounding error at this step".
func NoQuestion(why string) *Question { return &Question{None: why} }

// Mark is a labelled point over the plot, in the plot's data coordinates.
type Mark struct {
	Label  string
	X1, X2 float64
}

// Predictor asks the question about the step after in.Step. It returns
// (nil, nil) when there is no next step to ask about (the run has
// stopped at in.Step), and NoQuestion(why) when the step's outcome is
// not decided with margin to spare. Like Compute it passes ctx to every solver and says
// what kind its errors are (errors.go). It must be a pure function of in:
// the same state gives the same question, on any machine.
type Predictor func(ctx context.Context, in Input) (*Question, error)
