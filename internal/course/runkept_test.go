package course

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// keptDemos are the demos that keep their runs between requests
// (demo.RunKept, or RunTracked on it), with states that exercise them:
// each is stepped through in several orders and compared with a cold
// cache. The perceptron's and gd's, ls-gd's and lasso's are added from
// runkept_perceptron_test.go and runkept_gd_test.go; TestEveryStepperKept
// checks that every stepping demo has some.
var keptDemos = map[string][]string{
	"svm-hard":       {"", "n=120&seed=3&compare=perceptron", "data=or", "data=noisy"},
	"svm-soft":       {"", "C=1000&n=200&tol=1e-06", "C=0.01&data=xor"},
	"kernel-svm":     {"", "kernel=poly&degree=3&C=10&n=150"},
	"svm-sgd":        {"", "method=subgradient&C=10&decay=constant&eta=0.01", "lambda=0.001&aseed=9&n=150"},
	"kernel-pegasos": {"", "kernel=poly&degree=3&lambda=0.001&n=150"},
	"logistic":       {"", "data=separable&n=60", "data=separable&method=newton&lambda=0.01"},
	"softmax":        {"", "n=90&q1=1&q2=-1"},
}

// stateBytes is everything a state's page shows: each figure's SVG and
// the side panel.
func stateBytes(t *testing.T, d *demo.Demo, s demo.State, figure string) string {
	t.Helper()
	r, err := d.ExecuteFigure(context.Background(), s, figure)
	if err != nil {
		t.Fatalf("%s %s: %v", d.ID, s.QueryAt(""), err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "step %d done %v\n", r.Step, r.Done)
	for _, name := range d.Figures() {
		if figure != "" && name != figure {
			continue
		}
		if _, err := r.WriteFigure(&b, name, false); err != nil {
			t.Fatalf("%s %s %s: %v", d.ID, s.QueryAt(""), name, err)
		}
	}
	if figure == "" && r.Panel != nil {
		fmt.Fprintf(&b, "%#v", r.Panel())
	}
	return b.String()
}

// TestKeptRunsAreReplays: for each demo that keeps its runs, a state's
// figures and panel are the same bytes whether the run was replayed from
// step 0 (a cold cache), stepped to one by one, reached in a random order
// or after the cache dropped the run.
func TestKeptRunsAreReplays(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for id, queries := range keptDemos {
		d := c.Demo(id)
		if d == nil {
			t.Fatalf("no demo %s", id)
		}
		t.Run(id, func(t *testing.T) { checkKeptDemo(t, c, d, queries) })
	}
}

// checkKeptDemo steps each of d's states in an order and compares.
func checkKeptDemo(t *testing.T, c *demo.Course, d *demo.Demo, queries []string) {
	id := d.ID
	for qi, q := range queries {
		v, err := url.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		s, probs := d.Parse(v)
		if len(probs) > 0 {
			t.Fatalf("%s?%s: %v", id, q, probs)
		}
		r := rand.New(rand.NewPCG(uint64(qi), 2))
		steps := []int{}
		for k := 0; k <= 12; k++ {
			steps = append(steps, k)
		}
		for range 8 {
			steps = append(steps, r.IntN(1200))
		}
		steps = append(steps, 7, 1999, 64, 65, 0, 3)
		cold := map[int]string{}
		for _, k := range steps {
			if _, ok := cold[k]; !ok {
				c.Cache.Reset()
				cold[k] = stateBytes(t, d, s.AtStep(k), "")
			}
		}
		c.Cache.Reset()
		for i, k := range steps {
			if i == len(steps)/2 {
				c.Cache.Reset() // the run is dropped halfway
			}
			fig := ""
			if i%5 == 4 {
				fig = demo.PlotFigure // a plot URL extends the run too
				if got, want := stateBytes(t, d, s.AtStep(k), fig), plotPart(t, d, s.AtStep(k)); got != want {
					t.Fatalf("%s?%s step %d: the plot differs from a replay's", id, q, k)
				}
				continue
			}
			if got := stateBytes(t, d, s.AtStep(k), fig); got != cold[k] {
				t.Fatalf("%s?%s step %d (request %d): the page differs from a replay's", id, q, k, i)
			}
		}
	}
}

// plotPart is the plot of s from a cold cache.
func plotPart(t *testing.T, d *demo.Demo, s demo.State) string {
	saved := d.Cache
	d.Cache = nil
	defer func() { d.Cache = saved }()
	return stateBytes(t, d, s, demo.PlotFigure)
}

// stepThroughCases are the states BenchmarkStepThrough steps through;
// runkept_perceptron_test.go and runkept_gd_test.go add theirs.
var stepThroughCases = []struct{ id, q string }{
	{"svm-hard", ""}, {"svm-soft", ""}, {"svm-soft", "n=500"}, {"kernel-svm", ""},
	{"svm-sgd", ""}, {"svm-sgd", "method=subgradient"}, {"svm-sgd", "n=500"},
	{"kernel-pegasos", ""}, {"kernel-pegasos", "n=500"},
}

// BenchmarkStepThrough is a student stepping one run from step 1 to 200,
// each step a page (every figure's data and the panel computed, nothing
// drawn), from a cache that holds the run's optimum and sweeps but not
// the run, for each of stepThroughCases:
// `go test -run '^$' -bench StepThrough -benchtime 3x ./internal/course/`.
// With MARGIN_STEP_FROM=1800 the student steps 1801…2000 of a run the
// cache holds to step 1800.
func BenchmarkStepThrough(b *testing.B) {
	from, _ := strconv.Atoi(os.Getenv("MARGIN_STEP_FROM"))
	c, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range stepThroughCases {
		d := c.Demo(bc.id)
		v, _ := url.ParseQuery(bc.q)
		s, probs := d.Parse(v)
		if len(probs) > 0 {
			b.Fatal(probs)
		}
		b.Run(bc.id+"/"+bc.q, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				c.Cache.Reset() // step `from` computes the optimum and sweeps
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

// TestKeptRunsConcurrent: requests for steps of one run at once (a hall
// stepping together; run with -race) each get the bytes of a replay.
func TestKeptRunsConcurrent(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"svm-soft", "kernel-pegasos"} {
		d := c.Demo(id)
		s, _ := d.Parse(url.Values{})
		steps := []int{3, 40, 41, 90, 7, 150}
		cold := map[int]string{}
		for _, k := range steps {
			c.Cache.Reset()
			cold[k] = stateBytes(t, d, s.AtStep(k), "")
		}
		c.Cache.Reset()
		var wg sync.WaitGroup
		got := make([]string, len(steps))
		for i, k := range steps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := d.ExecuteFigure(context.Background(), s.AtStep(k), "")
				if err != nil {
					t.Error(err)
					return
				}
				var b bytes.Buffer
				fmt.Fprintf(&b, "step %d done %v\n", r.Step, r.Done)
				for _, name := range d.Figures() {
					if _, err := r.WriteFigure(&b, name, false); err != nil {
						t.Error(err)
					}
				}
				fmt.Fprintf(&b, "%#v", r.Panel())
				got[i] = b.String()
			}()
		}
		wg.Wait()
		for i, k := range steps {
			if got[i] != cold[k] {
				t.Errorf("%s step %d: a concurrent request's page differs from a replay's", id, k)
			}
		}
	}
}

// BenchmarkKeptColdPlot is one plot URL deep in a run nobody has asked
// for (a homework state): what keeping the run costs over a replay that
// keeps nothing (every state's scalars are computed for the history a
// later page may show). The optimum and sweeps stay cached.
// MARGIN_COLD_PAGE=1 computes the whole page instead (the history too).
func BenchmarkKeptColdPlot(b *testing.B) {
	c, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ id, q string }{
		{"svm-soft", "n=500&C=1000&step=20000"}, {"svm-sgd", "n=500&T=20000&step=20000"},
		{"svm-sgd", "n=500&T=20000&method=subgradient&step=20000"}, {"kernel-pegasos", "n=500&T=20000&step=20000"},
	} {
		d := c.Demo(bc.id)
		v, _ := url.ParseQuery(bc.q)
		s, probs := d.Parse(v)
		if len(probs) > 0 {
			b.Fatal(probs)
		}
		figure := demo.PlotFigure
		if os.Getenv("MARGIN_COLD_PAGE") != "" {
			figure = "" // the whole page: the history's numbers of every state
		}
		b.Run(bc.id+"/"+bc.q, func(b *testing.B) {
			b.ReportAllocs()
			c.Cache.Reset()
			if _, err := d.ExecuteFigure(context.Background(), s.AtStep(0), ""); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				b.StopTimer()
				c.Cache.Reset()
				if _, err := d.ExecuteFigure(context.Background(), s.AtStep(0), ""); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := d.ExecuteFigure(context.Background(), s, figure); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestKeptRunsGIF: a GIF whose frames step a kept run once is the GIF
// whose frames each replay the run from 0 (no cache), byte for byte,
// whether the cache held the run or not.
func TestKeptRunsGIF(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for id, from := range map[string]int{"svm-soft": 20, "svm-sgd": 150, "kernel-pegasos": 150} {
		d := c.Demo(id)
		g, err := d.ParseGIF(url.Values{"from": {strconv.Itoa(from)}, "to": {strconv.Itoa(from + 7)}, "w": {"200"}, "h": {"200"}})
		if err != nil {
			t.Fatal(err)
		}
		draw := func() string {
			var b bytes.Buffer
			if _, err := d.WriteGIF(context.Background(), g, &b); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		saved := d.Cache
		d.Cache = nil
		replayed := draw()
		d.Cache = saved
		c.Cache.Reset()
		cold := draw()
		warm := draw()
		if cold != replayed || warm != replayed {
			t.Errorf("%s: the GIF from a kept run differs from the replayed one (cold %v, warm %v)", id, cold == replayed, warm == replayed)
		}
	}
}

// TestEveryStepperKept: every stepping demo keeps its runs, so each has
// states in keptDemos that TestKeptRunsAreReplays checks.
func TestEveryStepperKept(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range c.Demos {
		if d.Static {
			continue
		}
		n++
		if len(keptDemos[d.ID]) == 0 {
			t.Errorf("stepping demo %s has no states in keptDemos", d.ID)
		}
	}
	if n != len(keptDemos) {
		t.Errorf("%d stepping demos, %d in keptDemos", n, len(keptDemos))
	}
}
