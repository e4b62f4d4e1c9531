package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/margin-edu/margin/internal/fit"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// postFit posts body to /api/v1/fit and decodes the JSON answer into
// out, failing unless the status is want.
func postFit(t *testing.T, h http.Handler, body string, want int, out any) {
	t.Helper()
	rec := do(t, h, http.MethodPost, "/api/v1/fit", strings.NewReader(body), map[string]string{"Content-Type": "application/json"})
	if rec.Code != want {
		t.Fatalf("POST %.80s… = %d %.300s, want %d", body, rec.Code, rec.Body, want)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want JSON", ct)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
		t.Fatalf("answer is not JSON: %v: %.200s", err, rec.Body)
	}
}

type svmAnswer struct {
	Algorithm       string
	Alpha           []float64
	B               float64
	W               []float64
	Support         []int
	SupportKind     []string `json:"support_kind"`
	DualObjective   float64  `json:"dual_objective"`
	PrimalObjective *float64 `json:"primal_objective"`
	Margin          *float64
	Iterations      int
	MaxIter         int `json:"max_iter"`
	Status          string
	Scores          []float64
	Trace           []map[string]float64
}

func TestFitSVMTwoPoints(t *testing.T) {
	h := newTestServer(t)
	var got svmAnswer
	postFit(t, h, `{"algorithm":"svm","x":[[0,0],[2,0]],"y":[-1,1],"predict":[[1,0],[3,0]]}`, http.StatusOK, &got)
	if fmt.Sprint(got.W, got.B, got.Alpha, got.Support, got.SupportKind, got.Scores) != "[1 0] -1 [0.5 0.5] [0 1] [margin margin] [0 2]" ||
		got.Margin == nil || *got.Margin != 1 || got.PrimalObjective == nil || *got.PrimalObjective != 0.5 ||
		got.DualObjective != -0.5 || got.Status != "converged" || got.Algorithm != "svm" {
		t.Errorf("two points = %+v", got)
	}
}

func TestFitSVMSupportKinds(t *testing.T) {
	h := newTestServer(t)
	var got svmAnswer
	// Worked in internal/fit's TestSupportKinds: w = 20/21, b = −13/7.
	postFit(t, h, `{"algorithm":"svm","x":[[-1],[3],[1.4],[0.6],[0.9],[-3],[5]],"y":[-1,1,-1,1,-1,-1,1],"params":{"C":1}}`, http.StatusOK, &got)
	if fmt.Sprint(got.Support, got.SupportKind) != "[1 2 3 4] [margin inside misclassified margin]" || got.Alpha[2] != 1 || got.Alpha[0] != 0 {
		t.Errorf("support = %v %v, α = %v", got.Support, got.SupportKind, got.Alpha)
	}
}

func TestFitSVMKernel(t *testing.T) {
	h := newTestServer(t)
	var got svmAnswer
	postFit(t, h, `{"algorithm":"svm","x":[[0,0],[1,1],[0,1],[1,0]],"y":[-1,-1,1,1],"params":{"kernel":"rbf","gamma":2,"C":10},"predict":[[0,1],[1,1]]}`, http.StatusOK, &got)
	// XOR: no line separates it, the Gaussian kernel does.
	if got.W != nil || got.Margin != nil || got.PrimalObjective != nil || len(got.Scores) != 2 || got.Scores[0] <= 0 || got.Scores[1] >= 0 || len(got.Support) != 4 {
		t.Errorf("rbf XOR = %+v", got)
	}
}

func TestFitSVMTrace(t *testing.T) {
	h := newTestServer(t)
	var got svmAnswer
	postFit(t, h, `{"algorithm":"svm","x":[[-1],[3],[1.4],[0.6],[0.9],[-3],[5]],"y":[-1,1,-1,1,-1,-1,1],"trace":true}`, http.StatusOK, &got)
	if len(got.Trace) != got.Iterations || got.Iterations < 2 {
		t.Fatalf("trace has %d steps for %d iterations", len(got.Trace), got.Iterations)
	}
	for k, st := range got.Trace {
		if len(st) != 8 || st["t"] != float64(k+1) {
			t.Fatalf("trace[%d] = %v, want the 8 fields t, i, j, alpha_i, alpha_j, b, dual_objective, gap", k, st)
		}
	}
	if last := got.Trace[len(got.Trace)-1]; last["b"] != got.B || last["dual_objective"] != got.DualObjective {
		t.Errorf("last step %v, answer b = %v, D = %v", last, got.B, got.DualObjective)
	}
}

func TestFitSVMIterationLimit(t *testing.T) {
	h := newTestServer(t)
	var got svmAnswer
	postFit(t, h, `{"algorithm":"svm","x":[[-1],[3],[1.4],[0.6],[0.9],[-3],[5]],"y":[-1,1,-1,1,-1,-1,1],"params":{"max_iter":1}}`, http.StatusOK, &got)
	if got.Status != "iteration_limit" || got.Iterations != 1 || got.MaxIter != 1 {
		t.Errorf("max_iter 1 = %+v", got)
	}
}

func TestFitSVMErrors(t *testing.T) {
	h := newTestServer(t)
	const two = `{"algorithm":"svm","x":[[0,0],[2,0]],"y":[-1,1]`
	tests := []struct {
		name, body string
		status     int
		want       []string
	}{
		{"hard inseparable", `{"algorithm":"svm","x":[[0],[1],[2]],"y":[-1,1,-1],"params":{"hard":true}}`, 422, []string{"not linearly separable", "soft margin", "params.C"}},
		{"unknown param", two + `,"params":{"gama":1}}`, 400, []string{"gama", "known parameters", "kernel", "max_iter"}},
		{"C", two + `,"params":{"C":0}}`, 400, []string{"params.C"}},
		{"C huge", two + `,"params":{"C":1e200}}`, 400, []string{"at most 1e+12"}},
		{"C infinite", two + `,"params":{"C":1e999}}`, 400, []string{`"params.C" is 1e999`, "finite number"}},
		// Strict decoding (issue 18 §1.5; more in fitreq's tests).
		{"C and c", two + `,"params":{"C":5,"c":0.001}}`, 400, []string{`unknown field "c"`, `did you mean "C"`}},
		{"C null", two + `,"params":{"C":null}}`, 400, []string{`"params.C" is null`}},
		{"ALGORITHM", `{"ALGORITHM":"svm","X":[[0],[1]],"y":[-1,1]}`, 400, []string{`unknown field "ALGORITHM"`}},
		{"null in y", `{"algorithm":"svm","x":[[0],[1]],"y":[-1,null]}`, 400, []string{`"y[1]" is null`}},
		{"x underflow", `{"algorithm":"svm","x":[[0],[1e-999]],"y":[-1,1]}`, 400, []string{`"x[1][0]" is 1e-999`, "underflows to 0"}},
		{"gamma", two + `,"params":{"kernel":"rbf","gamma":-1}}`, 400, []string{"params.gamma"}},
		{"tol", two + `,"params":{"tol":0}}`, 400, []string{"params.tol"}},
		{"kernel", two + `,"params":{"kernel":"sigmoid"}}`, 400, []string{"rbf"}},
		{"degree", two + `,"params":{"kernel":"poly","degree":0}}`, 400, []string{"1 to 10"}},
		{"max_iter", two + `,"params":{"max_iter":-5}}`, 400, []string{"max_iter"}},
		{"label", `{"algorithm":"svm","x":[[0],[1]],"y":[-1,0]}`, 400, []string{"-1 or +1"}},
		{"one class", `{"algorithm":"svm","x":[[0],[1]],"y":[-1,-1]}`, 400, []string{"both classes"}},
		{"ragged", `{"algorithm":"svm","x":[[0],[1,2]],"y":[-1,1]}`, 400, []string{"same length"}},
		{"unknown algorithm", `{"algorithm":"svc","x":[[0],[1]],"y":[-1,1]}`, 400, []string{"svm", "pegasos"}},
		{"pegasos lambda", `{"algorithm":"pegasos","x":[[0],[1]],"y":[-1,1],"params":{"lambda":0}}`, 400, []string{"params.lambda"}},
		{"pegasos T", `{"algorithm":"pegasos","x":[[0],[1]],"y":[-1,1],"params":{"T":0}}`, 400, []string{"params.T"}},
		{"pegasos unknown", `{"algorithm":"pegasos","x":[[0],[1]],"y":[-1,1],"params":{"C":1}}`, 400, []string{"lambda", "seed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e struct{ Error string }
			postFit(t, h, tt.body, tt.status, &e)
			for _, w := range tt.want {
				if !strings.Contains(e.Error, w) {
					t.Errorf("error = %q, want it to mention %q", e.Error, w)
				}
			}
		})
	}
}

// TestFitSVMWorkLimit: over the work limit is a 400 that names the
// largest max_iter allowed.
func TestFitSVMWorkLimit(t *testing.T) {
	h := newTestServer(t)
	var x, y []string
	for i := range 10000 {
		x = append(x, fmt.Sprintf("[%d,%d]", i%7, i%11))
		y = append(y, []string{"1", "-1"}[i%2])
	}
	body := `{"algorithm":"svm","x":[` + strings.Join(x, ",") + `],"y":[` + strings.Join(y, ",") + `],"params":{"kernel":"rbf","max_iter":10000000}}`
	var e struct{ Error string }
	postFit(t, h, body, http.StatusBadRequest, &e)
	if !strings.Contains(e.Error, "lower params.max_iter to at most") {
		t.Errorf("error = %q", e.Error)
	}
}

type pegasosAnswer struct {
	W          []float64
	B          float64
	Objective  float64
	Iterations int
	Scores     []float64
	TraceEvery int `json:"trace_every"`
	Trace      []struct {
		T    int
		W    []float64
		B    float64
		AvgW []float64 `json:"avg_w"`
		AvgB float64   `json:"avg_b"`
	}
}

func TestFitPegasos(t *testing.T) {
	h := newTestServer(t)
	var got pegasosAnswer
	postFit(t, h, `{"algorithm":"pegasos","x":[[0,0],[2,0],[0,1],[2,1]],"y":[-1,1,-1,1],"params":{"lambda":0.01,"T":12345,"seed":3},"predict":[[0,0],[2,0]],"trace":true}`, http.StatusOK, &got)
	n := len(got.Trace)
	if n == 0 || n > 1000 || got.Trace[n-1].T != 12345 || got.TraceEvery != 13 || got.Trace[0].T != 13 || got.Iterations != 12345 {
		t.Fatalf("trace: %d entries every %d, first t %d, last t %d", n, got.TraceEvery, got.Trace[0].T, got.Trace[n-1].T)
	}
	last := got.Trace[n-1]
	if fmt.Sprint(last.AvgW, last.AvgB) != fmt.Sprint(got.W, got.B) {
		t.Errorf("last trace entry's average %v %v, answer %v %v", last.AvgW, last.AvgB, got.W, got.B)
	}
	if len(got.Scores) != 2 || got.Scores[0] >= 0 || got.Scores[1] <= 0 || got.W[0] <= 0 || got.Objective <= 0 {
		t.Errorf("pegasos = w %v b %v objective %v scores %v", got.W, got.B, got.Objective, got.Scores)
	}
}

// TestFitAPI: the perceptron through the fit API, and bad bodies are 400s
// naming what is wrong.
func TestFitAPI(t *testing.T) {
	h := newTestServer(t)
	body := `{"algorithm":"perceptron","x":[[0,0],[1,0],[0,1],[1,1]],"y":[-1,1,1,1],"predict":[[1,1]]}`
	rec := do(t, h, http.MethodPost, "/api/v1/fit", strings.NewReader(body), map[string]string{"Content-Type": "application/json"})
	var got struct {
		W         []float64
		B         float64
		Converged bool
		Scores    []float64
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); rec.Code != http.StatusOK || err != nil {
		t.Fatalf("fit = %d %s", rec.Code, rec.Body)
	}
	if !got.Converged || got.B != -1 || len(got.Scores) != 1 || got.Scores[0] != 3 {
		t.Errorf("fit = %+v", got)
	}
	bad := []struct{ body, want string }{
		{`{`, "JSON"},
		{`{"algorithm":"perceptron","x":[[1,2],[3]],"y":[1,-1]}`, "same length"},
		{`{"algorithm":"naive-bayes","x":[[1]],"y":[1]}`, "unknown algorithm"},
	}
	for _, tt := range bad {
		rec := do(t, h, http.MethodPost, "/api/v1/fit", strings.NewReader(tt.body), nil)
		var e struct{ Error string }
		json.Unmarshal(rec.Body.Bytes(), &e)
		if rec.Code != http.StatusBadRequest || !strings.Contains(e.Error, tt.want) {
			t.Errorf("fit %.40q = %d %q, want 400 mentioning %q", tt.body, rec.Code, e.Error, tt.want)
		}
	}
	// Past the API's 4 MiB (fit.MaxBody, the figure docs/api.md gives) the
	// answer is 413, naming that limit, not the server's wider one.
	for _, n := range []int{fit.MaxBody + 1, 6 << 20} {
		rec = do(t, h, http.MethodPost, "/api/v1/fit", strings.NewReader(strings.Repeat(" ", n)), nil)
		if want := `{"error":"the request body is larger than 4 MiB"}`; rec.Code != http.StatusRequestEntityTooLarge || strings.TrimSpace(rec.Body.String()) != want {
			t.Errorf("fit of %d bytes = %d %.100s, want 413 %s", n, rec.Code, rec.Body, want)
		}
	}
}

// TestFitLogisticHugeFeatures: features whose squares overflow float64
// once made a Newton step loop for ever (the Hessian's diagonal was +Inf,
// and the Cholesky shift δ ≤ +Inf never stopped growing), pinning a core
// past the fit timeout. They are refused at once with a 422 that says to
// rescale.
func TestFitLogisticHugeFeatures(t *testing.T) {
	h := newTestServer(t)
	for _, body := range []string{
		`{"algorithm":"logistic-regression","x":[[1e155],[-1e155]],"y":[-1,1]}`,
		`{"algorithm":"softmax-regression","x":[[1e308],[-1e308]],"y":[0,1]}`,
		`{"algorithm":"logistic-regression","x":[[1e300,1],[-1e300,2],[3,1e-300]],"y":[-1,1,1],"params":{"solver":"gd"}}`,
		`{"algorithm":"softmax-regression","x":[[1e160,0],[0,1e160],[1,1]],"y":[0,1,2]}`,
	} {
		done := make(chan struct{})
		var rec *httptest.ResponseRecorder
		go func() {
			defer close(done)
			rec = do(t, h, http.MethodPost, "/api/v1/fit", strings.NewReader(body), map[string]string{"Content-Type": "application/json"})
		}()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Fatalf("POST %s: no answer within 2 s", body)
		}
		var got struct{ Error string }
		if err := json.Unmarshal(rec.Body.Bytes(), &got); rec.Code != http.StatusUnprocessableEntity || err != nil ||
			!strings.Contains(got.Error, "scale") {
			t.Errorf("POST %s = %d %.300s, want 422 saying to scale the features", body, rec.Code, rec.Body)
		}
	}
}

// readDoc reads a file of docs/.
func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	// Lines are wrapped anywhere: compare with single spaces.
	return strings.Join(strings.Fields(string(b)), " ")
}

// TestDocsAgree holds three statements of the docs to the server
// (issue 28 §4): the gd quadratic's largest d in api.md is what the API
// accepts (a d × d A of that size is fitted, one row more refused); the
// plot ETags urls.md calls weak are weak; and urls.md's list of demos
// that ask questions is the course's.
func TestDocsAgree(t *testing.T) {
	h := newTestServer(t)
	api, urls := readDoc(t, "api.md"), readDoc(t, "urls.md")

	m := regexp.MustCompile("`A`, d × d symmetric, d ≤ (\\d+)").FindStringSubmatch(api)
	if m == nil {
		t.Fatal("api.md no longer gives the quadratic's d ≤ N; update this test")
	}
	d, _ := strconv.Atoi(m[1])
	if d != min(fit.MaxGDDim, fitreq.MaxParamEntries) {
		t.Errorf("api.md: the quadratic's d ≤ %d, but the code allows %d (MaxGDDim %d, params arrays of at most %d)", d, min(fit.MaxGDDim, fitreq.MaxParamEntries), fit.MaxGDDim, fitreq.MaxParamEntries)
	}
	identity := func(d int) string {
		rows := make([]string, d)
		for i := range rows {
			r := slices.Repeat([]string{"0"}, d)
			r[i] = "2"
			rows[i] = "[" + strings.Join(r, ",") + "]"
		}
		return `{"algorithm":"gd","params":{"objective":"quadratic","A":[` + strings.Join(rows, ",") + `]}}`
	}
	postFit(t, h, identity(d), http.StatusOK, new(map[string]any))
	postFit(t, h, identity(d+1), http.StatusBadRequest, new(map[string]any))

	if !strings.Contains(urls, "a weak `ETag`") || strings.Contains(urls, "strong `ETag`") {
		t.Error("urls.md should call the plot ETags weak, and nothing strong")
	}
	rec := get(t, h, "/plots/perceptron.svg")
	if etag := rec.Header().Get("ETag"); rec.Code != http.StatusOK || !strings.HasPrefix(etag, `W/"`) {
		t.Errorf("GET /plots/perceptron.svg = %d, ETag %q; want a weak one, as urls.md says", rec.Code, etag)
	}

	m = regexp.MustCompile("`Spec.Predict`: all (\\d+), the perceptron, ([^)]*)\\)").FindStringSubmatch(urls)
	if m == nil {
		t.Fatal("urls.md no longer lists the demos that ask questions; update this test")
	}
	listed := []string{"perceptron"}
	for _, f := range strings.FieldsFunc(strings.ReplaceAll(m[2], " and ", ","), func(r rune) bool { return r == ',' }) {
		listed = append(listed, strings.Trim(strings.TrimSpace(f), "`"))
	}
	var asks []string
	for _, dm := range testCourse(t).Demos {
		if dm.Predict != nil {
			asks = append(asks, dm.ID)
		}
	}
	slices.Sort(listed)
	slices.Sort(asks)
	if n, _ := strconv.Atoi(m[1]); n != len(asks) || !slices.Equal(listed, asks) {
		t.Errorf("urls.md says all %s ask questions: %v; the course's demos with a Predictor are %v", m[1], listed, asks)
	}
}
