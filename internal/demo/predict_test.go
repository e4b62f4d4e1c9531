package demo_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// toyPredict is the toy objective demo asking a three-choice question
// whose right answer is right(step).
func toyPredict(right func(step int) string) demo.Spec {
	spec := demotest.ObjectiveSpec("toy")
	spec.Predict = func(_ context.Context, in demo.Input) (*demo.Question, error) {
		return &demo.Question{Prompt: "Which?", Right: right(in.Step), Why: "because",
			Choices: []demo.Option{{Value: "x", Label: "ex"}, {Value: "y", Label: "why"}, {Value: "z", Label: "zed"}}}, nil
	}
	return spec
}

// shown is the order the page shows the choices in at step k.
func shown(t *testing.T, spec demo.Spec, k int) []string {
	t.Helper()
	r := demotest.Run(t, spec, fmt.Sprintf("predict=1&step=%d", k))
	var out []string
	for _, i := range r.Quiz.Order {
		out = append(out, r.Quiz.Ask.Choices[i].Value)
	}
	return out
}

// TestChoiceOrderIgnoresRight: the same state shows the same order
// whichever choice is right, and over many states each position holds
// the right answer sometimes.
func TestChoiceOrderIgnoresRight(t *testing.T) {
	rightAt := map[int]bool{}
	for k := range 40 {
		var orders [][]string
		for _, r := range []string{"x", "y", "z"} {
			orders = append(orders, shown(t, toyPredict(func(int) string { return r }), k))
		}
		if !slices.Equal(orders[0], orders[1]) || !slices.Equal(orders[0], orders[2]) {
			t.Fatalf("step %d: the order depends on the right answer: %v", k, orders)
		}
		if again := shown(t, toyPredict(func(int) string { return "x" }), k); !slices.Equal(again, orders[0]) {
			t.Fatalf("step %d: order %v, then %v", k, orders[0], again)
		}
		rightAt[slices.Index(orders[0], "x")] = true
	}
	if len(rightAt) != 3 {
		t.Errorf("over 40 states the right answer sat only at positions %v", rightAt)
	}
}

// TestPredictKeys: the keys parse, round-trip and are refused with a
// problem naming the key.
func TestPredictKeys(t *testing.T) {
	d, err := demo.NewDemo(toyPredict(func(int) string { return "x" }))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := demo.NewDemo(demotest.ObjectiveSpec("toy"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		d         *demo.Demo
		q, want   string // want: the canonical page query, or the key refused
		refused   bool
		plotQuery string
	}{
		{d: d, q: "predict=1", want: "predict=1"},
		{d: d, q: "predict=1&score=0-0&step=2", want: "predict=1&step=2"},
		{d: d, q: "step=2&score=1-3&predict=1&last=wrong", want: "last=wrong&predict=1&score=1-3&step=2", plotQuery: "step=2"},
		{d: d, q: "score=1-3&step=2&last=right", want: "step=2"},
		{d: d, q: "predict=0&step=2", want: "step=2"},
		{d: d, q: "predict=2", want: "predict", refused: true},
		{d: d, q: "predict=1&score=4-3", want: "score", refused: true},
		{d: d, q: "predict=1&score=1-200001", want: "score", refused: true},
		{d: d, q: "predict=1&score=x", want: "score", refused: true},
		{d: d, q: "predict=1&last=maybe&step=1", want: "last", refused: true},
		{d: d, q: "predict=1&last=right", want: "last", refused: true},
		{d: plain, q: "predict=1", want: "predict", refused: true},
		{d: plain, q: "score=1-1", want: "score", refused: true},
	} {
		v, _ := url.ParseQuery(tc.q)
		s, probs := tc.d.Parse(v)
		if tc.refused {
			if probs[tc.want] == "" {
				t.Errorf("%s: problems %v, want one naming %s", tc.q, probs, tc.want)
			}
			continue
		}
		if len(probs) > 0 {
			t.Errorf("%s: %v", tc.q, probs)
			continue
		}
		if got := s.Encode(demo.ForPage); got != tc.want {
			t.Errorf("%s: canonical %q, want %q", tc.q, got, tc.want)
		}
		if got := s.Encode(demo.ForPlot); tc.plotQuery != "" && got != tc.plotQuery {
			t.Errorf("%s: plot query %q, want %q", tc.q, got, tc.plotQuery)
		}
		if strings.Contains(s.AtStep(3).Encode(demo.ForPage), "last=") {
			t.Errorf("%s: a plain step keeps last", tc.q)
		}
	}
	if !strings.Contains(plainProblem(plain), "asks no questions") {
		t.Errorf("a demo without questions refuses predict=1 with %q", plainProblem(plain))
	}
}

func plainProblem(d *demo.Demo) string {
	_, probs := d.Parse(url.Values{"predict": {"1"}})
	return probs["predict"]
}

// TestNoQuestionAtAStep: where the predictor says no question is asked,
// the page says so and why, offers no choices, and the next step is
// reached unscored (no last=, the score kept); a question that says
// there is none and asks one is the demo's bug.
func TestNoQuestionAtAStep(t *testing.T) {
	spec := demotest.ObjectiveSpec("toy")
	spec.Predict = func(_ context.Context, in demo.Input) (*demo.Question, error) {
		if in.Step == 2 {
			return demo.NoQuestion("a tie within rounding decides it"), nil
		}
		return &demo.Question{Prompt: "Which?", Right: "x", Why: "because",
			Choices: []demo.Option{{Value: "x", Label: "ex"}, {Value: "y", Label: "why"}}}, nil
	}
	r := demotest.Run(t, spec, "predict=1&score=1-2&step=2")
	if r.Quiz == nil || r.Quiz.Ask == nil || r.Quiz.Ask.None == "" || len(r.Quiz.Order) != 0 {
		t.Fatalf("quiz at step 2 = %+v, want no question with its reason", r.Quiz)
	}
	// The step after a step without a question reveals nothing, even
	// when a URL says how it was met.
	dd, err := demo.NewDemo(spec)
	if err != nil {
		t.Fatal(err)
	}
	r3, err := demotest.Execute(dd, demotest.MustParse(t, dd, "predict=1&score=1-2&step=3&last=shown"))
	if err != nil {
		t.Fatal(err)
	}
	if r3.Quiz.Prev != nil {
		t.Errorf("step 3 after no question reveals %+v", r3.Quiz.Prev)
	}
	if r3.Quiz.Ask == nil || r3.Quiz.Ask.None != "" {
		t.Errorf("step 3 asks %+v, want its question", r3.Quiz.Ask)
	}

	bad := demotest.ObjectiveSpec("toy")
	bad.Predict = func(context.Context, demo.Input) (*demo.Question, error) {
		q := demo.NoQuestion("none")
		q.Prompt = "Which?"
		return q, nil
	}
	d, err := demo.NewDemo(bad)
	if err != nil {
		t.Fatal(err)
	}
	s := demotest.MustParse(t, d, "predict=1")
	var ie *demo.InternalError
	if _, err := d.Question(context.Background(), s, nil, 0); !errors.As(err, &ie) {
		t.Errorf("a question that says none and asks: error %v, want an *InternalError", err)
	}
}
