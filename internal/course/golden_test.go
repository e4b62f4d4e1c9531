package course

import (
	"bytes"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/goldentest"
	"github.com/margin-edu/margin/internal/topics/gd"
	"github.com/margin-edu/margin/internal/topics/knn"
	"github.com/margin-edu/margin/internal/topics/logistic"
	"github.com/margin-edu/margin/internal/topics/regression"
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
		spec demo.Spec
		q    string
	}{
		{"interpolation_degree9", regression.InterpolationSpec(), "degree=9"},
		{"ridge_lambda", regression.RidgeSpec(), "eps=0.01&lambda=0.01"},
		{"reg-losses_default", regression.RegLossesSpec(), ""},
		{"ls-gd_step20", regression.LSGDSpec(), "step=20"},
		{"bias-variance_fits20", regression.BiasVarianceSpec(), "fits=20"},
		{"logistic_separable", logistic.LogisticSpec(), "data=separable&n=30&step=50"},
		{"softmax_step100", logistic.SoftmaxSpec(), "n=30&step=100&q1=1&q2=1"},
		{"gd_quadratic", gd.GDSpec(), "step=15"},
		{"gd_doublewell", gd.GDSpec(), "objective=double-well&step=30"},
		{"loss-gallery_default", gd.LossGallerySpec(), ""},
		{"bayes_default", knn.BayesSpec(), "n=60"},
		{"knn_k5", knn.KNNSpec(), "n=60"},
		{"curse_default", knn.CurseSpec(), "n=200"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := demotest.Run(t, c.spec, c.q)
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
