package svm

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestStaticDemoHasNoSteps: a step other than 0 is a problem, not a
// silently different URL for the same state.
func TestStaticDemoHasNoSteps(t *testing.T) {
	d, err := demo.NewDemo(KernelGramSpec())
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []string{"1", "end"} {
		_, probs := d.Parse(url.Values{"step": {step}})
		if !strings.Contains(probs["step"], "no steps") {
			t.Errorf("step=%s: problems %v, want one saying the demo has no steps", step, probs)
		}
	}
	if _, probs := d.Parse(url.Values{"step": {"0"}}); len(probs) > 0 {
		t.Errorf("step=0: %v", probs)
	}
}

// TestGramDemoMercer: the four kernels pass on the default points, the
// two functions that are not kernels fail with a negative eigenvalue.
func TestGramDemoMercer(t *testing.T) {
	for q, psd := range map[string]bool{
		"": true, "kernel=linear": true, "kernel=poly&degree=3": true, "kernel=laplace&gamma=5": true,
		"kernel=sigmoid&coef0=-1": false, "kernel=neg-sqdist": false, "kernel=poly&coef0=-1&degree=3": false,
	} {
		p := demotest.Run(t, KernelGramSpec(), q).Panel()
		if got := demotest.Note(p, "psd") != nil; got != psd {
			t.Errorf("%q: PSD note %v, want %v (smallest eigenvalue %s)", q, got, psd, demotest.Counter(p, "min-eig"))
		}
		if !psd && (demotest.Note(p, "not-psd") == nil || !strings.HasPrefix(demotest.Counter(p, "min-eig"), "−")) {
			t.Errorf("%q: no negative eigenvalue reported (smallest %s)", q, demotest.Counter(p, "min-eig"))
		}
	}
}

// TestKernelGramPlotSaysWhatItShows: the Gram demo's plot is its points;
// its title and description name the points and the kernel, and no model
// (there is none in this demo).
func TestKernelGramPlotSaysWhatItShows(t *testing.T) {
	for _, q := range []string{"", "data=xor", "kernel=sigmoid&coef0=-1", "n=12&data=moons"} {
		r := demotest.Run(t, KernelGramSpec(), q)
		title, desc := demotest.FigureText(t, r, demo.PlotFigure)
		words := title + " " + desc
		for _, bad := range []string{"SVM", "classifier", "support vector", "w = 0", "b = 0", "yet", "margin", "C = "} {
			if strings.Contains(words, bad) {
				t.Errorf("%q: the plot mentions %q: %s", q, bad, words)
			}
		}
		pos := 0
		for _, p := range r.Points {
			if p.Y > 0 {
				pos++
			}
		}
		n := len(r.Points)
		for _, want := range []string{"Gram matrix", strconv.Itoa(n) + " points", fmt.Sprintf("%d with y = +1, %d with y = −1", pos, n-pos),
			kernelFormula(kernelOf(r.State))} {
			if !strings.Contains(words, want) {
				t.Errorf("%q: the plot does not say %q: %s", q, want, words)
			}
		}
	}
}
