package knn

import (
	"bytes"
	"html"
	"regexp"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestOneIsSingular: a count of one takes the singular everywhere the
// demos write a count (issue 27 §4: "1 points"), on states with one
// point, one neighbour and too few points.
func TestOneIsSingular(t *testing.T) {
	tests := []struct {
		spec demo.Spec
		q    string
	}{
		{KNNSpec(), "add=0.5,0.5,1&data=custom&k=1"},
		{KNNSpec(), "add=0.5,0.5,1&data=custom&k=3"},
		{KNNSpec(), "add=0.5,0.5,1~0.2,0.1,-1&data=custom&k=1"},
		{KNNSpec(), "k=1"},
		{KNNSpec(), ""},
		{BayesSpec(), ""},
		{CurseSpec(), ""},
	}
	for _, tt := range tests {
		r := demotest.Run(t, tt.spec, tt.q)
		for _, s := range stateWords(t, r) {
			if m := singularPlural.FindString(s); m != "" {
				t.Errorf("%s?%s: %q says %q", tt.spec.ID, tt.q, s, m)
			}
		}
	}
}

// singularPlural catches a count of one with a plural noun ("1 points",
// "after 1 steps"), in any text a state shows.
var singularPlural = regexp.MustCompile(`(^|[^0-9.,−+])1 (points|steps|mistakes|updates|epochs|classifiers|neighbours|queries|iterations|errors|classes|dimensions|violations)\b`)

// stateWords is every text run r shows: its panel and the <title>,
// <desc> and <text> of each of its figures.
func stateWords(t *testing.T, r *demo.Run) []string {
	t.Helper()
	p := r.Panel()
	out := []string{p.Status, p.Start, p.Examined}
	out = append(out, p.Lines...)
	for _, c := range p.Counters {
		out = append(out, c.Label+": "+c.Value)
	}
	for _, m := range p.Model {
		out = append(out, m.Prefix, m.Extra)
	}
	for _, n := range p.Notes {
		out = append(out, n.Text, n.Fine)
	}
	for _, tb := range p.Tables {
		out = append(out, tb.Caption, tb.More)
	}
	for _, name := range append([]string{demo.PlotFigure, demo.HistoryFigure}, r.State.Demo().Panels...) {
		var b bytes.Buffer
		if ok, err := r.WriteFigure(&b, name, false); err != nil {
			t.Errorf("%s: figure %s: %v", r.State.URL("/"), name, err)
		} else if ok {
			for _, m := range svgWords.FindAllStringSubmatch(b.String(), -1) {
				out = append(out, html.UnescapeString(m[1]))
			}
		}
	}
	return out
}

var svgWords = regexp.MustCompile(`(?s)<(?:title|desc|text)[^>]*>([^<]*)</(?:title|desc|text)>`)
