package course

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestCompareRowsEveryDemo: for each stepping demo and one non-default
// value of each b.<key> (every other option of a choice; the far end of
// a number's range), every row of the comparison at step 12 holds each
// run's own counter, as the run alone computes it, under its own label
// (demotest.CompareRows).
func TestCompareRowsEveryDemo(t *testing.T) {
	c := demotest.MustCourse(t, Default)
	seen, checked := map[string]bool{}, 0
	for _, l := range c.Lessons {
		for _, d := range c.LessonDemos(l.Slug) {
			if d.Static || seen[d.ID] {
				continue
			}
			seen[d.ID] = true
			for _, q := range bQueries(d) {
				p, ok := applying(d, &q)
				if !ok {
					t.Logf("%s?%s: no choice of run b's makes it apply", d.ID, q)
					continue
				}
				if _, err := d.ExecuteCompare(context.Background(), p); err != nil {
					var in *demo.InputError
					if errors.Is(err, demo.ErrUncomputable) || errors.As(err, &in) || errors.As(err, new(demo.Problems)) {
						t.Logf("%s?%s: refused: %v", d.ID, q, err) // an extreme value
						continue
					}
					t.Errorf("%s?%s: %v", d.ID, q, err)
					continue
				}
				demotest.CompareRows(t, d, q)
				checked++
			}
		}
	}
	// The comparisons issue 27 found showing run a's label over run b's
	// number.
	for _, x := range []struct{ id, q string }{
		{"perceptron", "b.variant=margin&step=44"},
		{"perceptron", "b.eta=0.5&b.variant=margin&step=12"},
		{"perceptron", "b.variant=averaged&step=13"},
		{"svm-sgd", "b.method=subgradient&step=2000"},
	} {
		demotest.CompareRows(t, c.Demo(x.id), x.q)
	}
	if checked < 40 {
		t.Errorf("only %d comparisons checked", checked)
	}
	t.Logf("%d comparisons checked", checked)
}

// applying parses the comparison *q, and when its b.<key> does not apply
// with the other parameters at their defaults, adds to *q the first
// option of another choice of run b's under which it does.
func applying(d *demo.Demo, q *string) (demo.Pair, bool) {
	parse := func(q string) (demo.Pair, bool) {
		v, _ := url.ParseQuery(q)
		p, probs := d.ParseCompare(v)
		return p, len(probs) == 0 && len(p.Differs()) > 0
	}
	if p, ok := parse(*q); ok {
		return p, true
	}
	for _, o := range d.Params() {
		if o.Group != demo.GroupAlgo || o.Kind != demo.KindChoice {
			continue
		}
		for _, opt := range o.Options {
			with := *q + "&" + demo.BPrefix + o.Key + "=" + url.QueryEscape(opt.Value)
			if p, ok := parse(with); ok && len(p.Differs()) > 1 {
				*q = with
				return p, true
			}
		}
	}
	return demo.Pair{}, false
}

// bQueries are comparison queries at step 12, each changing one
// algorithm parameter of run b to a value other than its default.
func bQueries(d *demo.Demo) []string {
	var out []string
	add := func(key, val string) { out = append(out, demo.BPrefix+key+"="+url.QueryEscape(val)+"&step=12") }
	for _, p := range d.Params() {
		if p.Group != demo.GroupAlgo || p.Hidden {
			continue
		}
		switch p.Kind {
		case demo.KindChoice:
			for _, o := range p.Options {
				if o.Value != p.Default {
					add(p.Key, o.Value)
				}
			}
		default:
			def, _ := strconv.ParseFloat(p.Default, 64)
			num := func(v float64) string {
				if p.Kind == demo.KindInt {
					v = float64(int(v))
				}
				return strconv.FormatFloat(v, 'f', -1, 64)
			}
			switch {
			case p.Max-def >= def-p.Min:
				add(p.Key, num(p.Max))
			case !p.OpenMin:
				add(p.Key, num(p.Min))
			default:
				add(p.Key, num((p.Min+def)/2))
			}
		}
	}
	return out
}
