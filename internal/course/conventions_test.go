package course

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// TestConventionsStated holds every demo of the course to stating its
// model ("nothing hidden"), from its own declaration:
//   - what it minimises (or, when nothing is, what it computes), its
//     scaling, and for a model with weights its bias;
//   - a classifier or a regression its label convention;
//   - a demo with an algorithm seed (aseed, or an algorithm group's seed)
//     that seed, with the state's value, wherever it applies;
//   - a demo with a tolerance (tol) its stopping rule with that
//     tolerance, a stepping demo its stopping rule at all;
//   - the numbers the objective fills in are the state's: changing λ, C,
//     η… changes the text, which then shows the new value, and n is the
//     number of points the demo runs on.
func TestConventionsStated(t *testing.T) {
	t.Parallel()
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range c.Demos {
		t.Run(d.ID, func(t *testing.T) {
			conv := d.Conventions
			if conv == nil {
				t.Fatal("declares no Conventions")
			}
			def := d.Default()
			r, err := demotest.Execute(d, def)
			if err != nil {
				t.Fatal(err)
			}
			n := len(r.Points)
			lines := byID(d.ConventionLines(def, n))
			want := []string{"conv-loss", "conv-scaling"}
			if conv.Bias != demo.BiasNotApplicable {
				want = append(want, "conv-bias")
			}
			if d.Data.Labels != demo.NoLabels {
				want = append(want, "conv-labels")
			}
			if !d.Static {
				want = append(want, "conv-stop")
			}
			for _, id := range want {
				if lines[id] == "" {
					t.Errorf("states no %s in its default state; it states %v", id, lines)
				}
			}
			if got := lines["conv-scaling"]; !strings.Contains(got, "not scaled") {
				t.Errorf("scaling = %q, want it to say the data are not scaled", got)
			}
			switch want := labelsFor(d); {
			case want != 0 && conv.Labels != want:
				t.Errorf("labels %v, want %v for data labels %v", conv.Labels, want, d.Data.Labels)
			}
			if got := lines["conv-loss"]; strings.Contains(got, "n = ") && n > 0 && !strings.Contains(got, "n = "+strconv.Itoa(n)) {
				t.Errorf("objective %q, want n = %d, the points it runs on", got, n)
			}
			checkSeed(t, d)
			checkTolerance(t, d, n)
			checkFills(t, d, def, n)
		})
	}
}

// labelsFor is the label kind a demo's data imply, 0 when several fit.
func labelsFor(d *demo.Demo) demo.LabelKind {
	switch {
	case d.Data.Labels == demo.RealLabels:
		return demo.LabelsReal
	case d.Data.Labels == demo.ClassLabels && d.Data.MaxClasses > 2:
		return 0 // ±1 with a multiclass scheme, or classes 0…k−1
	case d.Data.Labels == demo.ClassLabels:
		return demo.LabelsSigned
	}
	return 0
}

func byID(lines []demo.ConventionLine) map[string]string {
	m := map[string]string{}
	for _, l := range lines {
		m[l.TestID] = l.Text
	}
	return m
}

// isAlgoSeed reports whether p seeds the algorithm (its order, sampling or
// batches) rather than the data.
func isAlgoSeed(p demo.Param) bool {
	return p.Key == demo.Aseed.Key || (p.Group == demo.GroupAlgo && strings.Contains(p.Key, "seed"))
}

// checkSeed finds a state where d's algorithm seed applies, sets it to
// an unusual value and expects the model box to state it.
func checkSeed(t *testing.T, d *demo.Demo) {
	t.Helper()
	for _, p := range d.Params() {
		if !isAlgoSeed(p) {
			continue
		}
		if d.Conventions.Seed.Key != p.Key {
			t.Errorf("has the algorithm seed %s but declares Seed %q", p.Key, d.Conventions.Seed.Key)
			continue
		}
		rng := rand.New(rand.NewPCG(7, uint64(len(d.ID))))
		found := false
		for i := 0; i < 400 && !found; i++ {
			s, probs := d.Parse(randomState(d, rng))
			if len(probs) > 0 || !s.Applies(p.Key) {
				continue
			}
			found = true
			s, err := s.With(p.Key, "4242")
			if err != nil {
				t.Fatal(err)
			}
			if got := byID(d.ConventionLines(s, 10))["conv-seed"]; !strings.Contains(got, "4242") {
				t.Errorf("%s: seed line %q, want the seed 4242", s.Encode(demo.ForPage), got)
			}
		}
		if !found {
			t.Errorf("found no state where %s applies", p.Key)
		}
	}
}

// checkTolerance expects a demo with a tol parameter to declare it and
// to state a different stopping rule for each of its values.
func checkTolerance(t *testing.T, d *demo.Demo, n int) {
	t.Helper()
	for _, p := range d.Params() {
		if p.Key != "tol" {
			continue
		}
		if d.Conventions.Tolerance == nil || d.Conventions.Tolerance.Param().Key != p.Key {
			t.Errorf("has the tolerance %s but does not declare it as its Tolerance", p.Key)
			continue
		}
		seen := map[string]string{}
		for _, o := range p.Options {
			s, err := d.Default().With(p.Key, o.Value)
			if err != nil {
				t.Fatal(err)
			}
			v, _ := strconv.ParseFloat(o.Value, 64)
			stop := byID(d.ConventionLines(s, n))["conv-stop"]
			if !strings.Contains(stop, textfmt.Sig(v)) {
				t.Errorf("tol=%s: stopping rule %q, want the tolerance %s", o.Value, stop, textfmt.Sig(v))
			}
			if prev, dup := seen[stop]; dup {
				t.Errorf("tol=%s and tol=%s state the same stopping rule %q", prev, o.Value, stop)
			}
			seen[stop] = o.Value
		}
	}
}

// checkFills changes each parameter the objective fills in and expects
// the statement to change and show the new value.
func checkFills(t *testing.T, d *demo.Demo, def demo.State, n int) {
	t.Helper()
	before := byID(d.ConventionLines(def, n))["conv-loss"]
	for _, f := range d.Conventions.Fills {
		p := f.Param()
		if !def.Applies(p.Key) {
			continue
		}
		v := p.Max
		if def.Value(p.Key) == demo.FmtNum(p.Max) {
			v = p.Min
			if p.OpenMin {
				v = (p.Min + p.Max) / 2
			}
		}
		if p.Kind == demo.KindInt {
			v = float64(int(v))
		}
		s, err := def.With(p.Key, demo.FmtNum(v))
		if err != nil {
			t.Fatalf("%s=%s: %v", p.Key, demo.FmtNum(v), err)
		}
		after := byID(d.ConventionLines(s, n))["conv-loss"]
		if after == before {
			t.Errorf("%s=%s leaves the objective as it was: %q", p.Key, demo.FmtNum(v), after)
		}
		if !strings.Contains(after, textfmt.Sig(v)) && !strings.Contains(after, textfmt.Num(v)) {
			t.Errorf("%s=%s: objective %q, want the value %s", p.Key, demo.FmtNum(v), after, textfmt.Sig(v))
		}
	}
}

// TestConventionNumbers pins a few statements to states whose numbers
// the notes give: the C, λ and ε a reader sets show in the box.
func TestConventionNumbers(t *testing.T) {
	t.Parallel()
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		demo, query, id, want string // want "": the box states no such line
	}{
		{"svm-soft", "C=0.1", "conv-loss", "C = 0.1, n = 40"},
		{"svm-soft", "tol=1e-06", "conv-stop", "ε = 1·10⁻⁶"},
		{"svm-hard", "", "conv-bias", "separate parameter, not regularised"},
		{"svm-sgd", "lambda=0.5", "conv-loss", "λ = 0.5"},
		{"svm-sgd", "", "conv-bias", "augmented: x̃ = (x, 1), b is the weight of the constant 1, regularised with w"},
		{"svm-sgd", "method=subgradient", "conv-bias", "separate parameter, not regularised"},
		{"svm-sgd", "aseed=9", "conv-seed", "aseed = 9"},
		{"svm-sgd", "method=subgradient", "conv-seed", ""}, // full batch: no sampling, no seed
		{"perceptron", "", "conv-seed", ""},                // cyclic order
		{"knn", "", "conv-stop", ""},                       // no solver
		{"perceptron", "order=random&aseed=3", "conv-seed", "aseed = 3"},
		{"perceptron", "", "conv-loss", "no loss is minimised"},
		{"perceptron", "", "conv-labels", "(0 and 1 too) are classes 0…9"},
		{"perceptron", "stop=epochs", "conv-stop", "after all 1000 epochs"},
		{"perceptron", "variant=margin&gamma=0.5", "conv-loss", "max(0, 0.5 − y(⟨w, x⟩ + b))"},
		{"svm-hard", "", "conv-stop", "not separable"},
		{"logistic", "lambda=0.2", "conv-loss", "λ = 0.2, n = 40"},
		{"logistic", "", "conv-labels", "y ∈ {−1, +1}"},
		{"softmax", "", "conv-labels", "classes 0…2"},
		{"lasso", "alpha=0.5&n=30", "conv-loss", "α = 0.5, n = 30"},
		{"ridge", "lambda=0.01", "conv-bias", "regularised with w"},
		{"kernel-pegasos", "", "conv-bias", "none"},
		{"gd", "objective=least-squares&batch=2&seed=5", "conv-seed", "seed = 5"},
	}
	for _, tt := range tests {
		d := c.Demo(tt.demo)
		q := tt.query
		if d.Secondary {
			q += "&demo=" + d.ID
		}
		s := demotest.MustParse(t, d, q)
		r, err := demotest.Execute(d, s)
		if err != nil {
			t.Fatal(err)
		}
		got := byID(d.ConventionLines(s, len(r.Points)))[tt.id]
		if tt.want == "" && got != "" {
			t.Errorf("%s?%s: %s = %q, want none", tt.demo, tt.query, tt.id, got)
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s?%s: %s = %q, want it to contain %q", tt.demo, tt.query, tt.id, got, tt.want)
		}
	}
}

// TestExplainLinks: every demo names the lesson section that defines its
// step, that section exists in its lesson's prose, and its view carries
// the link (to the section on the lesson page, to the lesson elsewhere)
// and an explanation to show with it.
func TestExplainLinks(t *testing.T) {
	t.Parallel()
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range c.Demos {
		t.Run(d.ID, func(t *testing.T) {
			id := d.Explain.Section
			if id == "" {
				t.Fatal("declares no Explain.Section")
			}
			secs, err := demo.Contents(c.ProseFS(d.Lesson), d.Lesson)
			if err != nil {
				t.Fatal(err)
			}
			title := ""
			for _, s := range secs {
				if s.ID == id {
					title = s.Title
				}
			}
			if title == "" {
				t.Fatalf("Explain.Section %q is no section of lesson %s", id, d.Lesson)
			}
			r, err := demotest.Execute(d, d.Default())
			if err != nil {
				t.Fatal(err)
			}
			for page, href := range map[string]string{d.LessonPath(): "#" + id, d.PresentPath(): d.LessonPath() + "#" + id} {
				v, err := demo.NewView(r, page)
				if err != nil {
					t.Fatal(err)
				}
				if v.Explain.Href != href || v.Explain.Title != title {
					t.Errorf("on %s: link %+v, want %s titled %q", page, v.Explain, href, title)
				}
				if v.Panel.Examined == "" && v.Panel.Start == "" {
					t.Errorf("on %s: no explanation (Examined or Start) to link", page)
				}
			}
		})
	}
}
