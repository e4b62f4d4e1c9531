package fit

import (
	"errors"
	"strings"
	"testing"
)

// TestPerceptronScoreOverflow: a score that overflows float64 is a 422
// naming the row and the feature (issue 28 §4: x [[1,2],[3,1.8e308]] ran
// to its iteration limit, each score ±Inf and w finite, and answered 200).
func TestPerceptronScoreOverflow(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"the issue's", `{"algorithm":"perceptron","x":[[1,2],[3,1.7976931348623157e308]],"y":[1,-1]}`,
			[]string{"at step 2", "row x[1]", "-Inf", "the term w[1]·x[1][1] is beyond float64's range (x[1][1] = 1.8e+308)", "divide feature 1"}},
		{"a sum of finite terms", `{"algorithm":"perceptron","x":[[1e154,1e154],[1e154,1.5e154]],"y":[1,-1]}`,
			[]string{"at step 2", "row x[1]", "the sum of its terms is, each finite; its largest coordinate is x[1][1] = 1.5e+154", "divide feature 1"}},
		{"averaged, random order", `{"algorithm":"perceptron","x":[[1,2],[3,1.7976931348623157e308]],"y":[1,-1],"params":{"average":true,"order":"random"}}`,
			[]string{"row x[", "overflowed float64"}},
		{"multiclass", `{"algorithm":"perceptron","x":[[1,2],[3,1.7976931348623157e308],[0,-1]],"y":[0,1,2]}`,
			[]string{"row x[1]", "feature 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fitAs[any](t, tt.body)
			if !errors.Is(err, ErrUnprocessable) {
				t.Fatalf("err = %v, want a 422", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %q, want it to mention %q", err, w)
				}
			}
		})
	}
	// Large numbers whose scores stay finite are fitted as before.
	if _, err := fitAs[any](t, `{"algorithm":"perceptron","x":[[1e150,0],[-1e150,0]],"y":[1,-1]}`); err != nil {
		t.Errorf("x ≈ ±1e150 with finite scores: %v, want a fit", err)
	}
}
