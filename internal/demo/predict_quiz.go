package demo

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"runtime/debug"
	"slices"
)

// Quiz is what a page in predict mode asks and reveals: the question about
// the step after the one shown, and, when the step shown was reached by
// answering (State.Predict.Last), the question about it, to reveal.
type Quiz struct {
	// Ask is nil when the run stops at the step shown, and a NoQuestion
	// when the next step's outcome is not decided with margin to spare.
	Ask  *Question
	Prev *Question // nil unless Last is set
	// Order is the order the choices of Ask are shown in: indices into
	// Ask.Choices, seeded by the demo and the state (ChoiceOrder).
	Order []int
}

// Question asks d's question about the step after step of the state s
// with its points pts: (nil, nil) when the run stops at step. A question
// that breaks Predictor's contract (fewer than two or more than five
// choices, a repeated value, a Right that is no choice's) is the demo's
// bug: an *InternalError.
func (d *Demo) Question(ctx context.Context, s State, pts []Point, step int) (*Question, error) {
	if d.Predict == nil {
		return nil, BadInput(KeyPredict, "this demo asks no questions about its next step; leave predict out")
	}
	// The state given is the one shown at step, so a question reads the
	// same state whether it is asked or revealed.
	q, err := d.Predict(ctx, Input{State: s.AtStep(step), Points: pts, Step: step, Cache: d.Cache})
	if err != nil || q == nil {
		return nil, err
	}
	if q.None != "" {
		if len(q.Choices) > 0 || q.Right != "" || q.Prompt != "" {
			return nil, &InternalError{Demo: d.ID, Err: fmt.Errorf("question at step %d: says there is none (%s) and asks one", step, q.None), stack: debug.Stack()}
		}
		return q, nil
	}
	if err := q.check(); err != nil {
		return nil, &InternalError{Demo: d.ID, Err: fmt.Errorf("question at step %d: %w", step, err), stack: debug.Stack()}
	}
	return q, nil
}

// check holds q to Predictor's contract.
func (q *Question) check() error {
	if len(q.Choices) < 2 || len(q.Choices) > 5 {
		return fmt.Errorf("%d choices; a question offers 2 to 5", len(q.Choices))
	}
	seen := map[string]bool{}
	for _, c := range q.Choices {
		if c.Value == "" || seen[c.Value] {
			return fmt.Errorf("choice value %q is empty or repeated", c.Value)
		}
		seen[c.Value] = true
	}
	if !seen[q.Right] {
		return fmt.Errorf("right answer %q is not one of the choices", q.Right)
	}
	return nil
}

// Choice returns the choice whose Value is v.
func (q *Question) Choice(v string) (Option, bool) {
	i := slices.IndexFunc(q.Choices, func(o Option) bool { return o.Value == v })
	if i < 0 {
		return Option{}, false
	}
	return q.Choices[i], true
}

// Values lists the choices' values in the order given.
func (q *Question) Values() []string {
	out := make([]string, len(q.Choices))
	for i, c := range q.Choices {
		out[i] = c.Value
	}
	return out
}

// ChoiceOrder is the order n choices are shown in at state s: a
// permutation seeded by the demo's ID, the figure state of s (its
// parameters, points and step: no predict keys) and nothing else, so it
// never depends on which choice is right, and a reload or a shared link
// shows the same order.
func (d *Demo) ChoiceOrder(s State, n int) []int {
	h := fnv.New64a()
	h.Write([]byte(d.ID + "?" + s.AtStep(s.Step).Encode(ForPlot)))
	sum := h.Sum64()
	return rand.New(rand.NewPCG(sum, sum^0x9e3779b97f4a7c15)).Perm(n)
}

// AskAfter is the question about the step after run r's state, as a page
// in predict mode asks it (and an answer to it is checked): nil at
// MaxStep or when the run stops at r's step (r.Done, or the Predictor
// says so).
func (d *Demo) AskAfter(ctx context.Context, r *Run) (*Question, error) {
	if r.State.Step >= MaxStep || r.Done {
		return nil, nil // a stopped run has no next step, whatever its Predictor says
	}
	q, err := d.Question(ctx, r.State, r.Points, r.State.Step)
	if err != nil {
		return nil, d.kindOf(r.State, err)
	}
	return q, nil
}

// quiz builds the quiz of a page in predict mode (nil otherwise).
func (d *Demo) quiz(ctx context.Context, r *Run) (*Quiz, error) {
	s := r.State
	if !s.Predict.On {
		return nil, nil
	}
	z := &Quiz{}
	var err error
	if z.Ask, err = d.AskAfter(ctx, r); err != nil {
		return nil, err
	}
	if z.Ask != nil && z.Ask.None == "" {
		z.Order = d.ChoiceOrder(s, len(z.Ask.Choices))
	}
	if s.Predict.Last != "" && s.Step > 0 {
		if z.Prev, err = d.Question(ctx, s, r.Points, s.Step-1); err != nil {
			return nil, err
		}
		if z.Prev != nil && z.Prev.None != "" {
			z.Prev = nil // nothing was asked, so nothing is revealed
		}
	}
	return z, nil
}

// ErrNoQuestion is an answer at a step where the run has stopped.
var ErrNoQuestion = errors.New("the run stops at this step, so there is no next step to predict")
