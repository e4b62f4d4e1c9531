package course

import (
	"context"
	"net/url"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// The gradient descent demos keep their runs too: gd (a quadratic, the
// least-squares loss by SGD with a seeded batch, Newton's method on the
// double well, a diverging step), ls-gd (another λ and η, and an η past
// 2/L that diverges) and lasso (another α on correlated features, whose
// run is long).
func init() {
	keptDemos["gd"] = []string{"", "objective=least-squares&batch=2&seed=4&t=0.05", "objective=double-well&method=newton",
		"kappa=100&t=0.01", "t=0.5", "objective=logistic&schedule=exp-decay&decay=0.98"}
	keptDemos["ls-gd"] = []string{"", "lambda=0.5&eta=0.05&n=60", "eta=2"}
	keptDemos["lasso"] = []string{"", "alpha=0.001&corr=0.95&n=5&seed=21", "alpha=0.1&corr=0.9&n=200"}
	for _, bc := range stepThroughGD {
		stepThroughCases = append(stepThroughCases, struct{ id, q string }{bc.id, bc.q})
	}
}

// stepThroughGD are the states BenchmarkStepThrough steps through for them: gd
// (no n) and ls-gd at n = 200 run past step 2000; lasso at n = 200 stops
// near step 500 whatever its α and ρ (coordinate descent on two features
// converges linearly), so the n = 5 state with seed 21, which runs 9224
// steps, is the one stepped near step 1800.
var stepThroughGD = []struct {
	id, q string
	lasts bool // still running at step 2000
}{
	{"gd", "kappa=100&t=0.01", true}, {"gd", "objective=least-squares&batch=2&t=0.01", true},
	{"ls-gd", "n=200&eta=0.01", true},
	{"lasso", "n=200&alpha=0.001&corr=0.95", false}, {"lasso", "n=5&alpha=0.001&corr=0.95&seed=21", true},
}

// TestStepThroughGDRunsLast: the benchmark's states that should last are
// still running at step 2000, so it measures stepping, not a stopped run.
func TestStepThroughGDRunsLast(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, bc := range stepThroughGD {
		d := c.Demo(bc.id)
		v, _ := url.ParseQuery(bc.q)
		s, _ := d.Parse(v)
		r, err := d.ExecuteFigure(context.Background(), s.AtStep(2000), demo.PlotFigure)
		if err != nil {
			t.Fatal(err)
		}
		if bc.lasts && (r.Step != 2000 || r.Done) {
			t.Errorf("%s?%s: the run stops at step %d, before 2000", bc.id, bc.q, r.Step)
		}
	}
}
