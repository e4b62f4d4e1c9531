package course

import (
	"bytes"
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// stateTexts is everything a state says in words: its panel (status,
// counters, the step, the model, notes, tables) and the title, desc and
// text of every figure it draws.
type stateTexts struct {
	status string
	panel  []string
	figs   []string
}

func (st stateTexts) all() []string {
	return append(append([]string{st.status}, st.panel...), st.figs...)
}

var svgWords = regexp.MustCompile(`(?s)<(?:title|desc|text)[^>]*>([^<]*)</(?:title|desc|text)>`)

// textsOf runs s and collects its words, as a page and the plot URLs show them.
func textsOf(t *testing.T, r *demo.Run) stateTexts {
	t.Helper()
	p := r.Panel()
	st := stateTexts{status: p.Status}
	add := func(s ...string) {
		for _, x := range s {
			if x != "" {
				st.panel = append(st.panel, x)
			}
		}
	}
	// The page shows Start only when no step is written out.
	if p.Examined == "" {
		add(p.Start)
	}
	add(p.Examined)
	add(p.Lines...)
	for _, c := range p.Counters {
		add(c.Label + ": " + c.Value)
	}
	for _, m := range p.Model {
		add(m.Prefix, m.Extra)
		for _, f := range m.Facts {
			add(f.Sym + " = " + f.Value)
		}
	}
	for _, n := range p.Notes {
		add(n.Text, n.Fine)
	}
	for _, tb := range p.Tables {
		add(tb.Caption, tb.More)
	}
	figure := func(name string) {
		var b bytes.Buffer
		if ok, err := r.WriteFigure(&b, name, false); err != nil {
			t.Errorf("%s figure %q: %v", r.State.URL("/"), name, err)
		} else if ok {
			for _, m := range svgWords.FindAllStringSubmatch(b.String(), -1) {
				if s := strings.TrimSpace(html.UnescapeString(m[1])); s != "" {
					st.figs = append(st.figs, s)
				}
			}
		}
	}
	figure(demo.PlotFigure)
	figure("history")
	for _, name := range r.State.Demo().Panels {
		figure(name)
	}
	return st
}

// safeTexts is textsOf that reports a panic as the state's failure.
func safeTexts(t *testing.T, r *demo.Run) (st stateTexts, ok bool) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s: panic: %v", r.State.URL(r.State.Demo().PresentPath()), p)
			ok = false
		}
	}()
	return textsOf(t, r), true
}

// captionGrid is a demo's states worth reading: the default, and for each
// built-in data set step 0, step 1, the middle of the run and its end,
// plus queries that reach each other way a run stops.
func captionGrid(t *testing.T, d *demo.Demo) []demo.State {
	t.Helper()
	var out []demo.State
	add := func(raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			t.Fatal(err)
		}
		s, probs := d.Parse(q)
		if len(probs) > 0 {
			t.Fatalf("%s: grid state %q: %v", d.ID, raw, probs)
		}
		out = append(out, s)
	}
	add("")
	sets := []string{""}
	if d.HasPoints() {
		sets = nil
		for _, o := range d.Data.Sets {
			sets = append(sets, "data="+o.Value)
		}
	}
	for _, set := range sets {
		if d.Static {
			add(set)
			continue
		}
		end, err := demotest.Execute(d, demotest.MustParse(t, d, set+"&step=end"))
		if err != nil {
			t.Fatalf("%s?%s&step=end: %v", d.ID, set, err)
		}
		last := end.State.Step
		for _, k := range []int{0, 1, last / 2, last} {
			add(set + "&step=" + strconv.Itoa(k))
		}
	}
	for _, raw := range stopQueries[d.ID] {
		add(raw)
	}
	return out
}

// stopQueries reach the ways a run stops that the data sets alone do
// not, and states that once printed wrong.
var stopQueries = map[string][]string{
	"perceptron": {"data=xor&step=end", "data=xor&stop=epochs&epochs=3&step=end"},
	"svm-soft":   {"C=1000&step=20000", "C=0.001&step=end", "data=xor&step=end"},
	"svm-sgd":    {"step=2000"},
	"gd":         {"t=0.2&step=500", "t=0.21&step=20", "method=newton&objective=logistic&step=500"},
	"ls-gd":      {"eta=1&step=50", "eta=1.05&step=end"},
	"logistic":   {"data=separable&step=20000"},
	"reg-losses": {"epsilon=1"}, // a negative intercept: "+ −" once
	"ridge":      {"eps=1", "lambda=0.1"},
}

var (
	yetWord      = regexp.MustCompile(`(?i)\byet\b`)
	runningWord  = regexp.MustCompile(`(?i)\brunning\b`)
	eNotation    = regexp.MustCompile(`\d[eE][+-]?\d`)
	hyphenMinus  = regexp.MustCompile(`(^|[\s(=,\[])-\d`)
	negativeZero = regexp.MustCompile(`−0(?:[^.,0-9]|$)|−0\.0*(?:[^0-9]|$)`)
	// A static demo may discuss classifiers (the Bayes classifier, a kNN
	// vote) but never describes a trained model it does not have.
	noModel = regexp.MustCompile(`(?i)no classifier yet|w = 0, b = 0|\bsupport vectors?\b|\bSVM \(`)
)

// TestCaptionsAgreeWithState renders every demo's words over a grid of
// states and holds them to their state: a run that stopped never says
// "yet" or "running", a static demo never describes a classifier it does
// not have, and every number is printed by the one rule (no e-notation,
// no hyphen for a minus, no −0, no NaN).
func TestCaptionsAgreeWithState(t *testing.T) {
	t.Parallel() // one of the course-wide loops: they share the two cores
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range c.Demos {
		t.Run(d.ID, func(t *testing.T) {
			for _, s := range captionGrid(t, d) {
				r, err := demotest.Execute(d, s)
				if err != nil {
					t.Errorf("%s: %v", s.URL(d.PresentPath()), err)
					continue
				}
				where := r.State.URL(d.PresentPath())
				st, ok := safeTexts(t, r)
				if !ok {
					continue
				}
				// A run the demo stops showing at MaxStep has stopped too, as
				// far as its reader can tell.
				if r.Done || d.Static || r.AtLimit() {
					for _, x := range st.all() {
						if yetWord.MatchString(x) {
							t.Errorf("%s: the run has stopped, but it says %q", where, x)
						}
					}
					if runningWord.MatchString(st.status) {
						t.Errorf("%s: the run has stopped, but its status is %q", where, st.status)
					}
				}
				if d.Static {
					for _, x := range st.all() {
						if noModel.MatchString(x) {
							t.Errorf("%s: a static demo has no trained model, but it says %q", where, x)
						}
					}
				}
				for _, x := range st.all() {
					switch {
					case eNotation.MatchString(x):
						t.Errorf("%s: e-notation in %q", where, x)
					case hyphenMinus.MatchString(x):
						t.Errorf("%s: a hyphen for a minus in %q", where, x)
					case negativeZero.MatchString(x):
						t.Errorf("%s: −0 in %q", where, x)
					case strings.Contains(x, "+ −") || strings.Contains(x, "− −"):
						t.Errorf("%s: a sign written twice in %q", where, x)
					case strings.Contains(x, "NaN"):
						t.Errorf("%s: NaN in %q", where, x)
					}
				}
			}
		})
	}
}
