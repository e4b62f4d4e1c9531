package regression

import (
	"regexp"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// pageText is everything a page of r says in words: the panel, the
// figures' titles and descriptions, and the model box.
func pageText(t *testing.T, spec demo.Spec, r *demo.Run) string {
	t.Helper()
	p := r.Panel()
	parts := []string{p.Status, p.Start, p.Examined}
	parts = append(parts, p.Lines...)
	for _, n := range p.Notes {
		parts = append(parts, n.Text)
	}
	for _, c := range p.Counters {
		parts = append(parts, c.Label+" "+c.Value)
	}
	title, desc := demotest.FigureText(t, r, demo.PlotFigure)
	parts = append(parts, title, desc)
	for _, l := range mustDemo(t, spec).ConventionLines(r.State, len(r.Points)) {
		parts = append(parts, l.Text)
	}
	return strings.Join(parts, "\n")
}

// TestOneIsSingular: a count of one takes the singular (issue 27 §4:
// "1 points", "after 1 steps"), at step 1 and on one point.
func TestOneIsSingular(t *testing.T) {
	plural1 := regexp.MustCompile(`(^|[^0-9.,·⁰-⁹])1 (points|steps|iterations|observations|parameters|refits|inputs)\b`)
	for _, c := range []struct {
		spec demo.Spec
		q    string
	}{
		{LSGDSpec(), "step=1"},
		{LassoSpec(), "step=1"},
		{InterpolationSpec(), "add=0.5,1&data=custom&degree=0"},
		{InterpolationSpec(), "add=0.5,1~0.5,2&data=custom&degree=0"},
		{RegLossesSpec(), "add=0.5,1&data=custom"},
	} {
		r := demotest.Run(t, c.spec, c.q)
		if m := plural1.FindString(pageText(t, c.spec, r)); m != "" {
			t.Errorf("%s?%s: %q", c.spec.ID, c.q, m)
		}
	}
}
