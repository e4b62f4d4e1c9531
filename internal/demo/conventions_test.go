package demo

import (
	"context"
	"net/url"
	"strings"
	"testing"
)

// conventionsDemo is a toy demo with every convention declared: a λ the
// objective fills in, a seed that applies only with order=random, a
// tolerance and an explained section.
func conventionsDemo(t *testing.T, conv *Conventions) *Demo {
	t.Helper()
	d, err := NewDemo(Spec{ID: "toy", Title: "Toy", Lesson: "toy", Params: Params(toyOrder, toySeed, Lambda),
		Conventions: conv, Explain: Explain{Section: "step"},
		Compute: func(context.Context, Input) (Result, error) { return Result{}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var (
	toyOrder = Choice{Key: "order", Group: GroupAlgo, Default: "cyclic", Options: []Option{{"cyclic", "cyclic"}, {"random", "random"}}}
	toySeed  = Aseed.Tweak(func(p *Int) {
		p.DefaultFrom, p.Default, p.When = "", 1, func(s State) bool { return toyOrder.Is(s, "random") }
	})
)

func TestConventionLines(t *testing.T) {
	conv := &Conventions{
		Objective: func(s State, n int) string { return "λ = " + FmtNum(Lambda.Get(s)) + ", n = " + itoa(n) },
		Bias:      BiasAugmented, Penalty: BiasPenalised, Labels: LabelsSigned,
		Seed: toySeed, SeedUse: "the order",
		Stop: func(State) string { return "after T steps" },
	}
	d := conventionsDemo(t, conv)
	tests := []struct {
		query string
		want  []string // Term: Text, in order
	}{
		{"", []string{"minimises: λ = 0.01, n = 7", "bias: augmented: x̃ = (x, 1), b is the weight of the constant 1, regularised with w",
			"data: not scaled: the coordinates as given", "labels: y ∈ {−1, +1}", "stops: after T steps"}},
		{"order=random&aseed=5&lambda=2", []string{"minimises: λ = 2, n = 7", "bias: augmented: x̃ = (x, 1), b is the weight of the constant 1, regularised with w",
			"data: not scaled: the coordinates as given", "labels: y ∈ {−1, +1}", "seed: aseed = 5 (the order)", "stops: after T steps"}},
	}
	for _, tt := range tests {
		q, _ := url.ParseQuery(tt.query)
		s, probs := d.Parse(q)
		if len(probs) > 0 {
			t.Fatalf("Parse(%q): %v", tt.query, probs)
		}
		var got []string
		for _, l := range d.ConventionLines(s, 7) {
			got = append(got, l.Term+": "+l.Text)
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("ConventionLines(%q) =\n%s\nwant\n%s", tt.query, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
	if got := conventionsDemo(t, nil).ConventionLines(d.Default(), 7); got != nil {
		t.Errorf("a demo that declares nothing states %v", got)
	}
}

func TestBiasText(t *testing.T) {
	tests := []struct {
		kind BiasKind
		pen  Penalty
		want string
	}{
		{BiasNone, NoPenalty, "none: no bias term"},
		{BiasSeparate, BiasFree, "b is a separate parameter, not regularised"},
		{BiasSeparate, NoPenalty, "b is a separate parameter; nothing is regularised"},
		{BiasAugmented, BiasPenalised, "augmented: x̃ = (x, 1), b is the weight of the constant 1, regularised with w"},
		{BiasNotApplicable, NoPenalty, ""},
	}
	for _, tt := range tests {
		if got := biasText(tt.kind, tt.pen); got != tt.want {
			t.Errorf("biasText(%v, %v) = %q, want %q", tt.kind, tt.pen, got, tt.want)
		}
	}
}

func TestExplainLink(t *testing.T) {
	d := conventionsDemo(t, nil)
	d.explainTitle = "One step"
	if got := d.explainLink(d.LessonPath()); got != (ExplainLink{"#step", "One step"}) {
		t.Errorf("on the lesson page: %+v", got)
	}
	if got := d.explainLink(d.PresentPath()); got != (ExplainLink{"/lessons/toy#step", "One step"}) {
		t.Errorf("in the presenter view: %+v", got)
	}
	d.Explain.Section = ""
	if got := d.explainLink(d.LessonPath()); got != (ExplainLink{}) {
		t.Errorf("with no section: %+v, want no link", got)
	}
}

func itoa(n int) string { return FmtNum(float64(n)) }
