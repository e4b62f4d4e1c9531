package demotest

import (
	"context"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// Asked is a question at step t of a demo with the runs at t and t+1, to
// check it against.
type Asked struct {
	Q          *demo.Question
	Now, After *demo.Run
	In         demo.Input
}

// AskAt parses query q of spec, asks spec.Predict at step t and runs the
// demo at t and at t+1; q is nil when the predictor says the run has
// stopped, and has None set when no question is asked at t.
func AskAt(t *testing.T, spec demo.Spec, query string, step int) Asked {
	t.Helper()
	d, err := demo.NewDemo(spec)
	if err != nil {
		t.Fatal(err)
	}
	v, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	s, probs := d.Parse(v)
	if len(probs) > 0 {
		t.Fatalf("Parse(%q): %v", query, probs)
	}
	pts, err := s.Points()
	if err != nil {
		t.Fatal(err)
	}
	in := demo.Input{State: s, Points: pts, Step: step}
	q, err := spec.Predict(context.Background(), in)
	if err != nil {
		t.Fatalf("%s?%s step %d: Predict: %v", spec.ID, query, step, err)
	}
	again, err := spec.Predict(context.Background(), in)
	if err != nil || !reflect.DeepEqual(q, again) {
		t.Fatalf("%s?%s step %d: Predict is not deterministic: %+v then %+v (%v)", spec.ID, query, step, q, again, err)
	}
	s.Step = step
	now, err := Execute(d, s)
	if err != nil {
		t.Fatal(err)
	}
	s.Step = step + 1
	after, err := Execute(d, s)
	if err != nil {
		t.Fatal(err)
	}
	if q == nil {
		if !now.Done && now.State.Step == step {
			t.Errorf("%s?%s step %d: no question, but the run goes on", spec.ID, query, step)
		}
		return Asked{Now: now, After: after, In: in}
	}
	if now.Done || now.State.Step != step {
		t.Errorf("%s?%s step %d: a question (or none at this step), but the run stopped at step %d", spec.ID, query, step, now.State.Step)
	}
	if q.None != "" {
		if q.Prompt != "" || len(q.Choices) > 0 {
			t.Errorf("%s?%s step %d: no question (%s), yet a prompt or choices", spec.ID, query, step, q.None)
		}
		return Asked{Q: q, Now: now, After: after, In: in}
	}
	CheckQuestion(t, spec.ID+"?"+query, step, q)
	return Asked{Q: q, Now: now, After: after, In: in}
}

// CheckQuestion checks what every question must be: 2–5 choices with
// unique short values and labels, the right one among them, and a Prompt
// and labels that hold nothing of the explanation.
func CheckQuestion(t *testing.T, where string, step int, q *demo.Question) {
	t.Helper()
	if n := len(q.Choices); n < 2 || n > 5 {
		t.Errorf("%s step %d: %d choices, want 2 to 5", where, step, n)
	}
	values, labels, right := map[string]bool{}, map[string]bool{}, false
	for _, c := range q.Choices {
		if c.Value == "" || len(c.Value) > 12 || strings.ContainsAny(c.Value, " &=?#") || values[c.Value] {
			t.Errorf("%s step %d: value %q empty, long, not URL-plain or repeated", where, step, c.Value)
		}
		if c.Label == "" || labels[c.Label] {
			t.Errorf("%s step %d: label %q empty or repeated", where, step, c.Label)
		}
		values[c.Value], labels[c.Label] = true, true
		right = right || c.Value == q.Right
		if strings.Contains(c.Label, q.Why) {
			t.Errorf("%s step %d: label %q and Why %q share their text", where, step, c.Label, q.Why)
		}
	}
	if !right {
		t.Errorf("%s step %d: Right %q is not among the choices %v", where, step, q.Right, q.Choices)
	}
	if q.Prompt == "" || q.Why == "" || strings.Contains(q.Prompt, q.Why) {
		t.Errorf("%s step %d: Prompt %q or Why %q empty, or the Why in the Prompt", where, step, q.Prompt, q.Why)
	}
}

// NoLeak fails when the Prompt or a label holds the number s, a number
// of the explanation that would give the answer away (as a whole number:
// "0.47" is not in "0.4738").
func NoLeak(t *testing.T, where string, q *demo.Question, s string) {
	t.Helper()
	if HoldsNumber(q.Prompt, s) {
		t.Errorf("%s: the prompt %q holds %q of the explanation", where, q.Prompt, s)
	}
	for _, c := range q.Choices {
		if HoldsNumber(c.Label, s) {
			t.Errorf("%s: label %q holds %q of the explanation", where, c.Label, s)
		}
	}
}

// HoldsNumber reports whether text has the number s, not as part of a
// longer one.
func HoldsNumber(text, s string) bool {
	digit := func(b byte) bool { return b >= '0' && b <= '9' || b == '.' }
	for i := 0; ; {
		j := strings.Index(text[i:], s)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(s)
		if (j == 0 || !digit(text[j-1])) && (end == len(text) || !digit(text[end]) || (text[end] == '.' && (end+1 == len(text) || !digit(text[end+1])))) {
			return true
		}
		i = j + 1
	}
}
