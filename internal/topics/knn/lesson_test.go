package knn

import (
	"bytes"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// Tests over the lesson's three demos: deterministic figures, bad values,
// and the log scale the charts name.

// TestKNNFiguresDeterministic: the same URL draws the same bytes, twice
// in one process and through separate runs (the sweep memo included).
func TestKNNFiguresDeterministic(t *testing.T) {
	for _, c := range []struct {
		spec  demo.Spec
		q     url.Values
		figs  []string
		label string
	}{
		{BayesSpec(), url.Values{"prior": {"0.3"}}, []string{demo.PlotFigure}, "bayes"},
		{KNNSpec(), url.Values{"k": {"7"}}, []string{demo.PlotFigure, "k"}, "knn"},
		{CurseSpec(), url.Values{"n": {"50"}}, []string{demo.PlotFigure}, "curse"},
	} {
		for _, fig := range c.figs {
			var out [2][]byte
			for i := range out {
				r := runKNNDemo(t, c.spec, c.q)
				var b bytes.Buffer
				if ok, err := r.WriteFigure(&b, fig, false); !ok || err != nil {
					t.Fatalf("%s figure %q: ok %v, %v", c.label, fig, ok, err)
				}
				out[i] = b.Bytes()
			}
			if !bytes.Equal(out[0], out[1]) || !bytes.Contains(out[0], []byte("<svg")) {
				t.Errorf("%s figure %q: two runs drew different SVGs (or none)", c.label, fig)
			}
		}
	}
}

// TestKNNBayesBadParams: each bad value is a problem naming its key.
func TestKNNBayesBadParams(t *testing.T) {
	for _, c := range []struct {
		spec demo.Spec
		q    url.Values
		key  string
	}{
		{KNNSpec(), url.Values{"k": {"0"}}, "k"},
		{KNNSpec(), url.Values{"k": {"41"}, "n": {"40"}}, "k"},
		{KNNSpec(), url.Values{"metric": {"foo"}}, "metric"},
		{KNNSpec(), url.Values{"sigma": {"0"}}, "sigma"},
		{BayesSpec(), url.Values{"sigma": {"0"}}, "sigma"},
		{BayesSpec(), url.Values{"prior": {"1"}}, "prior"},
		{BayesSpec(), url.Values{"prior": {"0"}}, "prior"},
		{BayesSpec(), url.Values{"delta": {"-1"}}, "delta"},
		{CurseSpec(), url.Values{"n": {"1"}}, "n"},
		{CurseSpec(), url.Values{"n": {strconv.Itoa(MaxCurseN + 1)}}, "n"},
	} {
		d, err := demo.NewDemo(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		s, probs := d.Parse(c.q)
		if len(probs) == 0 {
			_, err := demotest.Execute(d, s)
			if !errors.As(err, &probs) {
				t.Errorf("%s %v: no problem (Execute: %v)", d.ID, c.q, err)
				continue
			}
		}
		if probs[c.key] == "" {
			t.Errorf("%s %v: problems %v do not name %s", d.ID, c.q, probs, c.key)
		}
	}
}

// TestKNNChartsNameLogScaleOnce: the error-against-k chart and the curse
// chart say once that their x axis is logarithmic (Curves says it; an
// axis label that said it too made the description read "(log scale)
// (log scale)"), the k chart names its points by k, and a sweep of one
// k, drawn on a linear axis, does not claim a log scale at all.
func TestKNNChartsNameLogScaleOnce(t *testing.T) {
	for _, c := range []struct {
		spec       demo.Spec
		q          url.Values
		name, want string
		logs       int
	}{
		{KNNSpec(), url.Values{}, "k", "at k = 1", 1},
		{KNNSpec(), url.Values{"data": {"custom"}, "add": {"0,0,1"}, "k": {"1"}}, "k", "A line chart of error against k.", 0},
		{CurseSpec(), url.Values{}, demo.PlotFigure, "against dimension D (log scale).", 1},
	} {
		_, desc := demotest.FigureText(t, runKNNDemo(t, c.spec, c.q), c.name)
		if n := strings.Count(desc, "log scale"); n != c.logs || !strings.Contains(desc, c.want) {
			t.Errorf("%s %v: description names the log scale %d times (want %d), want %q: %s", c.spec.ID, c.q, n, c.logs, c.want, desc)
		}
	}
}
