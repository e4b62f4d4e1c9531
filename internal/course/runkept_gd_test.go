package course

import (
	"context"
	"net/url"
	"strconv"
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
}

// stepThroughGD are the states BenchmarkStepThroughGD steps through: gd
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

// BenchmarkStepThroughGD is BenchmarkStepThrough for the gradient descent
// demos at their largest n, in states whose runs last: a student stepping
// from+1 … from+200 (each step a page) of a run the cache holds to step
// from, for from = 0 and 1800:
// `go test -run '^$' -bench StepThroughGD -benchtime 3x ./internal/course/`.
func BenchmarkStepThroughGD(b *testing.B) {
	c, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range stepThroughGD {
		d := c.Demo(bc.id)
		v, _ := url.ParseQuery(bc.q)
		s, probs := d.Parse(v)
		if len(probs) > 0 {
			b.Fatal(probs)
		}
		for _, from := range []int{0, 1800} {
			b.Run(bc.id+"/"+bc.q+"/from="+strconv.Itoa(from), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					c.Cache.Reset()
					if _, err := d.ExecuteFigure(context.Background(), s.AtStep(from), ""); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					for k := from + 1; k <= from+200; k++ {
						if _, err := d.ExecuteFigure(context.Background(), s.AtStep(k), ""); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
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
