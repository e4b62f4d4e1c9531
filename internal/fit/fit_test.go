package fit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/perceptron"
)

func fitJSON(t *testing.T, body string) (*PerceptronResponse, error) {
	return fitAs[*PerceptronResponse](t, body)
}

// fitAs decodes body and runs the fit, as the server does, and returns
// the answer as the algorithm's response type R.
func fitAs[R any](t testing.TB, body string) (R, error) {
	t.Helper()
	var zero R
	req, err := Decode(strings.NewReader(body))
	if err != nil {
		return zero, err
	}
	resp, err := Run(context.Background(), req)
	if err != nil {
		return zero, err
	}
	return resp.(R), nil
}

// near reports whether a is within tol of b, relative to max(1, |b|).
func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

const orBody = `{"algorithm":"perceptron","x":[[0,0],[1,0],[0,1],[1,1]],"y":[-1,1,1,1]`

func TestPerceptronOR(t *testing.T) {
	r, err := fitJSON(t, orBody+`,"predict":[[0,0],[2,2]],"trace":true}`)
	if err != nil {
		t.Fatal(err)
	}
	// Worked by hand in the notes' Algorithm 1: 9 mistakes in 6 epochs.
	if fmt.Sprint(r.W, r.B) != "[2 2] -1" || r.Iterations != 24 || r.Mistakes != 9 || r.Epochs != 6 || !r.Converged || r.Cycled {
		t.Errorf("OR fit = %+v", r)
	}
	if fmt.Sprint(r.Scores) != "[-1 7]" {
		t.Errorf("scores = %v, want [-1 7]", r.Scores)
	}
	if len(r.Trace) != 24 || r.Trace[0].I != 0 || !r.Trace[0].Mistake || r.Trace[0].B != -1 || r.Trace[23].T != 24 {
		t.Errorf("trace = %+v", r.Trace[:2])
	}
	if fmt.Sprint(r.Trace[9].W, r.Trace[9].B) != "[2 1] 0" {
		t.Errorf("trace[9] = %+v, want w=[2 1] b=0 after t=10", r.Trace[9])
	}
}

func TestPerceptronParams(t *testing.T) {
	xor := `{"algorithm":"perceptron","x":[[0,0],[1,0],[0,1],[1,1]],"y":[-1,1,1,-1]`
	r, err := fitJSON(t, xor+`}`)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Cycled || r.Converged || r.Iterations != 4 || r.Epochs != 1 {
		t.Errorf("XOR = %+v, want cycled after 4 iterations", r)
	}
	r, err = fitJSON(t, xor+`,"params":{"max_epochs":3,"eta":0.5,"order":"random","seed":7}}`)
	if err != nil {
		t.Fatal(err)
	}
	if r.Converged || r.Epochs > 3 {
		t.Errorf("XOR random = %+v", r)
	}
	// η scales every iterate when starting from 0: same mistakes, w·η.
	r, err = fitJSON(t, orBody+`,"params":{"eta":0.5}}`)
	if err != nil || fmt.Sprint(r.W, r.B, r.Mistakes) != "[1 1] -0.5 9" {
		t.Errorf("OR η=0.5 = %+v, %v", r, err)
	}
	r, err = fitJSON(t, orBody+`,"params":{"average":true}}`)
	if err != nil || !r.Converged || r.W[0] == 2 {
		t.Errorf("averaged OR = %+v, %v; want averaged weights, not the last ones", r, err)
	}
	r, err = fitJSON(t, orBody+`,"params":{"margin":1}}`)
	if err != nil || !r.Converged {
		t.Fatalf("margin OR = %+v, %v", r, err)
	}
	for i, x := range [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
		y := []float64{-1, 1, 1, 1}[i]
		if m := y * (r.W[0]*x[0] + r.W[1]*x[1] + r.B); m <= 1 {
			t.Errorf("margin perceptron left point %d at margin %v ≤ 1", i, m)
		}
	}
}

func TestBadRequests(t *testing.T) {
	big := `{"algorithm":"perceptron","x":[` + strings.Repeat(`[1],`, MaxN) + `[1]],"y":[` + strings.Repeat(`1,`, MaxN) + `1]}`
	wide := `{"algorithm":"perceptron","x":[[` + strings.Repeat(`1,`, MaxD) + `1]],"y":[1]}`
	tests := []struct{ name, body, want string }{
		{"not json", `{`, "not the JSON object"},
		{"trailing", orBody + `}{}`, "after the JSON object"},
		{"unknown field", orBody + `,"foo":1}`, "foo"},
		{"unknown algorithm", `{"algorithm":"naive-bayes","x":[[1]],"y":[1]}`, `unknown algorithm "naive-bayes"`},
		{"missing algorithm", `{"x":[[1]],"y":[1]}`, "algorithm"},
		{"unknown param", orBody + `,"params":{"rate":1}}`, "rate"},
		{"empty x", `{"algorithm":"perceptron","x":[],"y":[]}`, `"x" is empty`},
		{"ragged", `{"algorithm":"perceptron","x":[[1,2],[1]],"y":[1,-1]}`, "same length"},
		{"empty row", `{"algorithm":"perceptron","x":[[]],"y":[1]}`, "features"},
		{"y length", `{"algorithm":"perceptron","x":[[1]],"y":[1,1]}`, "one label per row"},
		{"label", `{"algorithm":"perceptron","x":[[1]],"y":[0]}`, "-1 or +1"},
		{"NaN", `{"algorithm":"perceptron","x":[[NaN]],"y":[1]}`, "not the JSON"},
		{"huge number", `{"algorithm":"perceptron","x":[[1e999]],"y":[1]}`, `"x[0][0]" is 1e999, which is beyond the largest float64`},
		{"predict ragged", orBody + `,"predict":[[1]]}`, "predict[0]"},
		{"eta", orBody + `,"params":{"eta":0}}`, "eta"},
		{"eta negative", orBody + `,"params":{"eta":-1}}`, "eta"},
		{"margin", orBody + `,"params":{"margin":-0.5}}`, "margin"},
		{"epochs", orBody + `,"params":{"max_epochs":0}}`, "max_epochs"},
		{"epochs big", orBody + fmt.Sprintf(`,"params":{"max_epochs":%d}}`, MaxEpochs+1), "max_epochs"},
		{"order", orBody + `,"params":{"order":"sorted"}}`, "order"},
		{"seed type", orBody + `,"params":{"seed":1.5}}`, "params"},
		{"n", big, "rows"},
		{"d", wide, "features"},
		{"body", `{"algorithm":"perceptron",` + strings.Repeat(` `, MaxBody) + `"x":[[0]],"y":[1]}`, "4 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fitJSON(t, tt.body)
			if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want a bad request mentioning %q", err, tt.want)
			}
		})
	}
}

// TestTraceLimit: a trace of more than MaxTraceNumbers numbers is refused
// with a message that says how to get a result, not truncated silently.
func TestTraceLimit(t *testing.T) {
	var x, y []string
	for i := range 2000 { // labels unrelated to the points: never separable
		x = append(x, fmt.Sprintf("[%v,%v]", math.Sin(float64(i)), math.Cos(float64(3*i))))
		y = append(y, []string{"1", "-1"}[(i*7/3)%2])
	}
	body := `{"algorithm":"perceptron","x":[` + strings.Join(x, ",") + `],"y":[` + strings.Join(y, ",") +
		`],"params":{"max_epochs":200,"eta":0.1},"trace":true}`
	_, err := fitJSON(t, body)
	// 2000 points·200 epochs·(d+2 = 4) numbers = 1.6 million > 1 million.
	if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), "trace") {
		t.Errorf("error = %v, want a bad request about the trace length", err)
	}
	if _, err := fitJSON(t, strings.Replace(body, `"trace":true`, `"trace":false`, 1)); err != nil {
		t.Errorf("the same fit without a trace failed: %v", err)
	}
}

func TestResponseJSON(t *testing.T) {
	r, err := fitJSON(t, orBody+`}`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, k := range []string{"w", "b", "iterations", "mistakes", "epochs", "converged", "cycled", "scores"} {
		if _, ok := m[k]; !ok {
			t.Errorf("response lacks %q: %s", k, b)
		}
	}
	if _, ok := m["trace"]; ok {
		t.Errorf("trace present without trace: true")
	}
	if s, ok := m["scores"].([]any); !ok || len(s) != 0 {
		t.Errorf("scores = %v, want []", m["scores"])
	}
}

// TestRunSVMTrainers: Run hands "svm", "pegasos" and "kernel-pegasos" to
// package svmfit (whose own tests cover them), after its shared checks:
// a label that is not ±1 is refused before the trainer sees it.
func TestRunSVMTrainers(t *testing.T) {
	for _, tt := range []struct{ algorithm, want string }{
		{"svm", "*svmfit.SVMResponse"},
		{"pegasos", "*svmfit.PegasosResponse"},
		{"kernel-pegasos", "*svmfit.KernelPegasosResponse"},
	} {
		body := fmt.Sprintf(`{"algorithm":%q,"x":[[0,0],[2,0]],"y":[-1,1]}`, tt.algorithm)
		req, err := Decode(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := Run(context.Background(), req)
		if got := fmt.Sprintf("%T", resp); err != nil || got != tt.want {
			t.Errorf("Run(%s) = %s, %v; want %s", tt.algorithm, got, err, tt.want)
		}
		req.Y = []float64{0, 1}
		if _, err := Run(context.Background(), req); !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), "labels must be -1 or +1") {
			t.Errorf("Run(%s) with a label 0: %v, want a bad request naming the labels", tt.algorithm, err)
		}
	}
}

// TestStatusEnum is issue 18's item 10: every fitter spells its status
// from one snake_case enum, the one cmd/web/openapi.json declares and
// docs/api.md tables (it was "iteration limit" for four algorithms,
// "iteration_limit" for svm, and an undocumented "cycle detected").
func TestStatusEnum(t *testing.T) {
	spec, err := os.ReadFile("../../cmd/web/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Enum []string `json:"enum"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(spec, &doc); err != nil {
		t.Fatal(err)
	}
	enum := doc.Components.Schemas["Status"].Enum
	api, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range enum {
		if !strings.Contains(string(api), "| `"+s+"` |") {
			t.Errorf("docs/api.md has no row for status %q", s)
		}
	}
	xor := `"x":[[0,0],[1,1],[0,1],[1,0]],"y":[-1,-1,1,1]`
	cases := []struct{ body, want string }{
		{orBody + `}`, "converged"},
		{`{"algorithm":"perceptron",` + xor + `}`, "cycle_detected"},
		{`{"algorithm":"perceptron",` + xor + `,"params":{"max_epochs":5,"fixed_epochs":true}}`, "iteration_limit"},
		{`{"algorithm":"svm",` + xor + `,"params":{"max_iter":1}}`, "iteration_limit"},
		{`{"algorithm":"linear-regression","x":[[0],[1],[2]],"y":[1,3,6],"params":{"solver":"gd","eta":1e-5,"iters":3}}`, "iteration_limit"},
		{`{"algorithm":"logistic-regression","x":[[0],[1],[2],[3]],"y":[-1,1,-1,1],"params":{"solver":"gd","iters":2}}`, "iteration_limit"},
		{gdQuad + `,"iters":2}}`, "iteration_limit"},
	}
	snake := regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)
	for _, c := range cases {
		r, err := fitAs[any](t, c.body)
		if err != nil {
			t.Errorf("%s: %v", c.body, err)
			continue
		}
		b, _ := json.Marshal(r)
		var got struct{ Status string }
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if got.Status != c.want || !snake.MatchString(got.Status) || !slices.Contains(enum, got.Status) {
			t.Errorf("%s: status %q, want %q from the enum %v", c.body, got.Status, c.want, enum)
		}
	}
}

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
