package lessons

import (
	"bytes"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/goldentest"
)

// TestDemoGoldens draws the main figure and the extra figures of the
// demos of the regression, gradient descent and nearest-neighbour
// lessons at fixed states and compares them byte for byte with
// testdata/<demo>_<case>_golden.svg (make golden rewrites them). The
// render package's goldens cover each plotter; these cover how a demo
// composes them: its view, title, legend and layers.
func TestDemoGoldens(t *testing.T) {
	for _, c := range []struct {
		name string
		spec Spec
		q    string
	}{
		{"interpolation_degree9", InterpolationSpec(), "degree=9"},
		{"ridge_lambda", RidgeSpec(), "eps=0.01&lambda=0.01"},
		{"reg-losses_default", RegLossesSpec(), ""},
		{"ls-gd_step20", LSGDSpec(), "step=20"},
		{"bias-variance_fits20", BiasVarianceSpec(), "fits=20"},
		{"logistic_separable", LogisticSpec(), "data=separable&n=30&step=50"},
		{"softmax_step100", SoftmaxSpec(), "n=30&step=100&q1=1&q2=1"},
		{"gd_quadratic", GDSpec(), "step=15"},
		{"gd_doublewell", GDSpec(), "objective=double-well&step=30"},
		{"loss-gallery_default", LossGallerySpec(), ""},
		{"bayes_default", BayesSpec(), "n=60"},
		{"knn_k5", KNNSpec(), "n=60"},
		{"curse_default", CurseSpec(), "n=200"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runSVM(t, c.spec, c.q)
			var b bytes.Buffer
			if _, err := r.Plot(&b, false, r.PlotOptions()); err != nil {
				t.Fatal(err)
			}
			goldentest.Check(t, c.name, b.Bytes())
			for _, name := range c.spec.Panels {
				var p bytes.Buffer
				if _, err := r.WriteFigure(&p, name, false); err != nil {
					t.Fatal(err)
				}
				goldentest.Check(t, c.name+"_"+strings.ReplaceAll(name, "/", "-"), p.Bytes())
			}
		})
	}
}
