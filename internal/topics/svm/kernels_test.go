package svm

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
)

// datasetPointsFor draws a kernel demo's set by name.
func datasetPointsFor(name string, n int) ([][]float64, []float64, error) {
	d, err := demo.NewDemo(KernelSVMSpec())
	if err != nil {
		return nil, nil, err
	}
	s, probs := d.Parse(url.Values{"data": {name}, "n": {strconv.Itoa(n)}})
	if len(probs) > 0 {
		return nil, nil, probs
	}
	return pointset.Points(s)
}

// TestKernelErrorsAtZero: the course's rule sgn(0) = −1. Before any
// update f = 0 predicts −1 everywhere, so both kernel trainers' errors are
// the share of +1 points (training and held out), not 100 %; the rule is
// written beside the counters.
func TestKernelErrorsAtZero(t *testing.T) {
	for _, tc := range []struct {
		spec demo.Spec
		q    string
	}{
		{KernelPegasosSpec(), "step=0"}, {KernelPegasosSpec(), "step=0&data=moons&n=33"},
		{KernelSVMSpec(), "step=0"}, {KernelSVMSpec(), "step=0&data=checkerboard&n=41"},
	} {
		r := demotest.Run(t, tc.spec, tc.q)
		p := r.Panel()
		share := func(y []int) string {
			pos := 0
			for _, v := range y {
				if v > 0 {
					pos++
				}
			}
			return fmt.Sprintf("%.1f %%", 100*float64(pos)/float64(len(y)))
		}
		_, yf := demo.Columns(r.Points)
		if got, want := demotest.Counter(p, "error"), share(pointset.SignLabels(yf)); got != want {
			t.Errorf("%s %q: training error %s at f = 0, want the share of +1 points %s", tc.spec.ID, tc.q, got, want)
		}
		_, ty, _ := pointset.HeldOut(r.State)
		if got, want := demotest.Counter(p, "heldout"), share(ty); got != want {
			t.Errorf("%s %q: held-out error %s at f = 0, want %s", tc.spec.ID, tc.q, got, want)
		}
		if n := demotest.Note(p, "prediction-rule"); n == nil || !strings.Contains(n.Fine, "sgn(0) = −1") {
			t.Errorf("%s %q: no note stating sgn(0) = −1", tc.spec.ID, tc.q)
		}
	}
}
