package lessons

import (
	"bytes"
	"net/url"
	"strings"
	"testing"
)

// figureSVG draws r's figure (the main plot for "").
func figureSVG(t *testing.T, r *Run, fig string) string {
	t.Helper()
	var b bytes.Buffer
	if ok, err := r.WriteFigure(&b, fig, false); !ok || err != nil {
		t.Fatalf("figure %q: ok %v, %v", fig, ok, err)
	}
	return b.String()
}

// TestBayesFlatMixture: at Δ = 0 the classes share their mean; the
// description says so (not "means (±0, 0)"), says there is no boundary,
// and the legend lists no boundary or level line, since none is drawn.
// Every answer is a tie there, and h* says −1.
func TestBayesFlatMixture(t *testing.T) {
	r := runKNNDemo(t, BayesSpec(), url.Values{"delta": {"0"}})
	svg := figureSVG(t, r, "")
	for _, bad := range []string{"±0", "boundary η = 0.5", "η = 0.1, 0.2"} {
		if strings.Contains(svg, bad) {
			t.Errorf("Δ = 0: the figure has %q", bad)
		}
	}
	for _, want := range []string{"both means at (0, 0)", "no boundary", "h* says −1 everywhere"} {
		if !strings.Contains(svg, want) {
			t.Errorf("Δ = 0: the figure lacks %q", want)
		}
	}
	// With Δ > 0 both the boundary and its legend entry are there.
	svg = figureSVG(t, runKNNDemo(t, BayesSpec(), nil), "")
	for _, want := range []string{"boundary η = 0.5", "means (±1, 0)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("Δ = 2: the figure lacks %q", want)
		}
	}
}

// TestTieRuleStated: h* and kNN break ties the same way, towards −1, and
// both panels say so.
func TestTieRuleStated(t *testing.T) {
	b := runKNNDemo(t, BayesSpec(), url.Values{"delta": {"0"}})
	m, err := mixtureOf(b.State)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.BayesClassifier([]float64{0.3, -1}); got != -1 {
		t.Errorf("h* at η = ½: %d, want −1", got)
	}
	if s := b.Panel().Start; !strings.Contains(s, "η(x) = P(y = +1 | x) > ½, else −1") || !strings.Contains(s, "Margin says −1 there") {
		t.Errorf("bayes panel: %q", s)
	}
	k := runKNNDemo(t, KNNSpec(), url.Values{"k": {"4"}})
	if s := k.Panel().Start; !strings.Contains(s, "a tied vote goes to −1") || !strings.Contains(s, "η = ½") {
		t.Errorf("knn panel: %q", s)
	}
}
