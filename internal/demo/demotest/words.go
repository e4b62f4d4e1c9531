package demotest

import (
	"bytes"
	"html"
	"regexp"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// OnePlural catches a count of one with a plural noun ("1 points",
// "after 1 steps") in a text a state shows.
var OnePlural = regexp.MustCompile(`(^|[^0-9.,−+])1 (points|steps|mistakes|updates|epochs|classifiers|neighbours|queries|iterations|errors|classes|dimensions|violations)\b`)

// figureWords is the text of a figure's <title>, <desc> and <text>.
var figureWords = regexp.MustCompile(`(?s)<(?:title|desc|text)[^>]*>([^<]*)</(?:title|desc|text)>`)

// StateWords is every text run r shows: its panel (status, lines,
// counters, model box, notes, table captions) and the <title>, <desc> and
// <text> of each of its figures.
func StateWords(t *testing.T, r *demo.Run) []string {
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
			for _, m := range figureWords.FindAllStringSubmatch(b.String(), -1) {
				out = append(out, html.UnescapeString(m[1]))
			}
		}
	}
	return out
}
