package demo_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/render/chart"
)

// stoppingSpec is rowsSpec with a history and a question about each
// next step, none after the last.
func stoppingSpec() demo.Spec {
	spec := rowsSpec()
	compute := spec.Compute
	spec.Compute = func(ctx context.Context, in demo.Input) (demo.Result, error) {
		res, err := compute(ctx, in)
		if err != nil {
			return res, err
		}
		var s chart.Series
		s.Label = "k"
		for i := 0; i <= res.Step; i++ {
			s.T, s.Y = append(s.T, float64(i)), append(s.Y, float64(i))
		}
		res.History = &chart.History{Title: "k", XLabel: "iteration k", Now: float64(res.Step), Series: []chart.Series{s}}
		return res, nil
	}
	spec.Predict = func(_ context.Context, in demo.Input) (*demo.Question, error) {
		if in.Step >= rowLen.Get(in.State) {
			return nil, nil
		}
		return &demo.Question{Prompt: "Step " + strconv.Itoa(in.Step+1) + ": even?", Right: "yes",
			Choices: []demo.Option{{Value: "yes", Label: "yes"}, {Value: "no", Label: "no"}}}, nil
	}
	return spec
}

// TestStoppedStepEverywhere: a run that stops at step k, asked for step
// k+5, shows k wherever the kit writes a step.
func TestStoppedStepEverywhere(t *testing.T) {
	d, err := demo.NewDemo(stoppingSpec())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q string
		k int
	}{
		{"len=4", 4},
		{"len=1", 1},
		{"len=40&kind=b", 40},
	} {
		demotest.StoppedStep(t, d, c.q, c.k)
	}
}

// TestCompareHeldStep: in a comparison, the run that stops first shows
// its own last step in its panel, its row of the table and its note, and
// the comparison's step is the other run's.
func TestCompareHeldStep(t *testing.T) {
	d, err := demo.NewDemo(stoppingSpec())
	if err != nil {
		t.Fatal(err)
	}
	q, _ := url.ParseQuery("len=9&b.len=3&step=14")
	p, probs := d.ParseCompare(q)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	cmp, err := d.ExecuteCompare(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	v, err := demo.CompareViewOn(cmp, d.ComparePath())
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Step != 9 || v.Controls.Step != 9 || v.A.View.Step != 9 || v.B.View.Step != 3 {
		t.Errorf("steps: comparison %d, controls %d, a %d, b %d; want 9, 9, 9, 3", cmp.Step, v.Controls.Step, v.A.View.Step, v.B.View.Step)
	}
	if v.A.Held != "" || !strings.HasPrefix(v.B.Held, "stopped at step 3;") {
		t.Errorf("held: a %q, b %q", v.A.Held, v.B.Held)
	}
	for _, r := range v.Table.Rows {
		if r.TestID == "step" && (r.A != "9" || r.B != "3") {
			t.Errorf("step row %s | %s, want 9 | 3", r.A, r.B)
		}
	}
	demotest.CompareRows(t, d, "len=9&b.len=3&step=14")
}
