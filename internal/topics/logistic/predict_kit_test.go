package logistic

import (
	"context"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// Points of one class have no run to ask about: both predictors say so
// with no question and no error.
func TestPredictOneClass(t *testing.T) {
	pts := []demo.Point{{X1: 0, X2: 0, Y: 1}, {X1: 1, X2: 0, Y: 1}, {X1: 0, X2: 1, Y: 1}}
	for _, spec := range []demo.Spec{LogisticSpec(), SoftmaxSpec()} {
		d, err := demo.NewDemo(spec)
		if err != nil {
			t.Fatal(err)
		}
		q, err := spec.Predict(context.Background(), demo.Input{State: d.Default(), Points: pts, Step: 2})
		if q != nil || err != nil {
			t.Errorf("%s on one class: %v, %v; want no question", spec.ID, q, err)
		}
	}
}
