package fit

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/perceptron"
)

// threeBlobs are three separable clusters, classes 0, 1 and 2.
var threeBlobs = struct {
	x [][]float64
	y []int
}{
	x: [][]float64{{0, 0}, {0.5, 0.2}, {4, 0}, {4.5, 0.3}, {0, 4}, {0.3, 4.4}},
	y: []int{0, 0, 1, 1, 2, 2},
}

// TestPerceptronMulticlass is issue 18's item 10: the multiclass
// perceptron of the lesson's pages, labels 0/1/2 with params.multi "ova"
// or "ovo", was a 400 in the API. Its models are the perceptron
// package's, one per task, and the predicted labels its Predict.
func TestPerceptronMulticlass(t *testing.T) {
	x := strings.ReplaceAll(fmt.Sprint(threeBlobs.x), " ", ",")
	y := strings.ReplaceAll(fmt.Sprint(threeBlobs.y), " ", ",")
	for _, c := range []struct {
		multi string
		m     perceptron.Multiclass
	}{{"", perceptron.OneVsAll}, {"ova", perceptron.OneVsAll}, {"ovo", perceptron.OneVsOne}} {
		params := `{}`
		if c.multi != "" {
			params = `{"multi":"` + c.multi + `"}`
		}
		r, err := fitAs[*MulticlassPerceptronResponse](t, `{"algorithm":"perceptron","x":`+x+`,"y":`+y+`,"params":`+params+`,"predict":[[0.1,0.1],[5,0],[0,5]]}`)
		if err != nil {
			t.Fatalf("multi %q: %v", c.multi, err)
		}
		p := perceptron.DefaultParams()
		p.Multiclass = c.m
		pr, s, err := perceptron.Run(perceptron.Data{X: threeBlobs.x, Y: threeBlobs.y}, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Models) != len(pr.Tasks) || r.Status != s.Status.Code() || r.Mistakes != s.Mistakes || !slices.Equal(r.Classes, []int{0, 1, 2}) {
			t.Fatalf("multi %q: %d models, status %s, %d mistakes; want %d, %s, %d", c.multi, len(r.Models), r.Status, r.Mistakes, len(pr.Tasks), s.Status.Code(), s.Mistakes)
		}
		for k, m := range r.Models {
			w, b := pr.Classifier(s, k)
			if !slices.Equal(m.W, w) || m.B != b || m.Pos != pr.Tasks[k].Pos || (m.Neg == nil) != pr.Tasks[k].Rest {
				t.Errorf("multi %q model %d = %+v, want task %+v with w %v, b %v", c.multi, k, m, pr.Tasks[k], w, b)
			}
		}
		if !slices.Equal(r.Labels, []int{0, 1, 2}) || r.Status != "converged" {
			t.Errorf("multi %q: labels %v, status %s; want [0 1 2], converged", c.multi, r.Labels, r.Status)
		}
	}
	for _, c := range []struct{ body, want string }{
		{`"y":[0,1.5,2],"params":{}`, `"y[1]" is 1.5`},
		{`"y":[0,10,2],"params":{}`, "classes 0 to 9"},
		{`"y":[2,2,2],"params":{}`, "one class only"},
		{`"y":[0,1,2],"params":{"multi":"all"}`, "params.multi"},
		{`"y":[0,1,2],"params":{},"trace":true`, "two-class"},
	} {
		_, err := fitAs[any](t, `{"algorithm":"perceptron","x":[[0],[1],[2]],`+c.body+`}`)
		if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a 400 containing %q", c.body, err, c.want)
		}
	}
}
