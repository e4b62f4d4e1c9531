package svm

import (
	"context"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// Points of one class have no run to ask about: every predictor says so
// with no question and no error, as Compute draws them without a run.
func TestPredictOneClass(t *testing.T) {
	pts := []demo.Point{{X1: 0, X2: 0, Y: 1}, {X1: 1, X2: 0, Y: 1}, {X1: 0, X2: 1, Y: 1}}
	for _, spec := range []demo.Spec{SVMSpec(true), SVMSpec(false), KernelSVMSpec(), SGDSpec(), KernelPegasosSpec()} {
		d, err := demo.NewDemo(spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, step := range []int{0, 3, demo.MaxStep} {
			q, err := spec.Predict(context.Background(), demo.Input{State: d.Default(), Points: pts, Step: step})
			if q != nil || err != nil {
				t.Errorf("%s step %d on one class: %v, %v; want no question", spec.ID, step, q, err)
			}
		}
	}
}
