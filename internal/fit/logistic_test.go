package fit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func lrRun[T any](t testing.TB, body string) (T, error) {
	t.Helper()
	var zero T
	req, err := Decode(strings.NewReader(body))
	if err != nil {
		return zero, err
	}
	resp, err := Run(context.Background(), req)
	if err != nil {
		return zero, err
	}
	r, ok := resp.(T)
	if !ok {
		t.Fatalf("answer is %T", resp)
	}
	return r, nil
}

func fitLogisticJSON(t testing.TB, body string) (*LogisticResponse, error) {
	t.Helper()
	return lrRun[*LogisticResponse](t, body)
}

// body encodes a request.
func lrBody(t testing.TB, algorithm string, x [][]float64, y []float64, params string, predict [][]float64, trace bool) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"algorithm": algorithm, "x": x, "y": y, "predict": predict, "trace": trace, "params": json.RawMessage(params)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noisyBlobs returns n overlapping 2-class points in d dimensions,
// labels ±1.
func lrBlobs(seed uint64, n, d int, shift float64) ([][]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		y[i] = float64(2*(i%2) - 1)
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = r.NormFloat64() + shift*y[i]
		}
	}
	return x, y
}

// logisticJ is J(w, b) written out again from the definition.
func lrJ(x [][]float64, y []float64, lambda float64, w []float64, b float64) float64 {
	var loss, sq float64
	for i, row := range x {
		f := b
		for j, v := range row {
			f += w[j] * v
		}
		loss += math.Log1p(math.Exp(-y[i] * f))
	}
	for _, v := range w {
		sq += v * v
	}
	return loss/float64(len(x)) + lambda/2*sq
}

// TestLogisticMLE is the hand-worked maximum likelihood answer of one 0/1
// feature with λ = 0 (b = logit p₀, w + b = logit p₁, the class
// frequencies), with labels given as 0/1 and as ±1.
func TestLogisticMLE(t *testing.T) {
	x := [][]float64{{0}, {0}, {0}, {0}, {1}, {1}, {1}, {1}, {1}}
	logit := func(q float64) float64 { return math.Log(q / (1 - q)) }
	for _, y := range [][]float64{{1, 1, 1, 0, 1, 0, 0, 0, 0}, {1, 1, 1, -1, 1, -1, -1, -1, -1}} {
		r, err := fitLogisticJSON(t, lrBody(t, "logistic-regression", x, y, `{"lambda":0}`, [][]float64{{0}, {1}}, false))
		if err != nil {
			t.Fatal(err)
		}
		if !near(r.B, logit(0.75), 1e-9) || !near(r.W[0], logit(0.2)-logit(0.75), 1e-9) {
			t.Errorf("y %v: (w, b) = (%v, %v), want (%v, %v)", y, r.W, r.B, logit(0.2)-logit(0.75), logit(0.75))
		}
		if !near(r.Proba[0], 0.75, 1e-9) || !near(r.Proba[1], 0.2, 1e-9) || r.GradNorm >= 1e-10 || r.Status != "converged" {
			t.Errorf("proba %v, grad_norm %v, status %q; want [0.75 0.2], < 1e-10, converged", r.Proba, r.GradNorm, r.Status)
		}
	}
}

// TestLogisticLabelConventions: 0/1 and −1/+1 labels give the same answer
// bit for bit, for every solver.
func TestLogisticLabelConventions(t *testing.T) {
	x, y := lrBlobs(1, 40, 3, 0.5)
	y01 := make([]float64, len(y))
	for i, v := range y {
		y01[i] = (v + 1) / 2
	}
	for _, params := range []string{`{}`, `{"solver":"gd","iters":50}`, `{"solver":"newton","iters":3}`} {
		a, err := fitLogisticJSON(t, lrBody(t, "logistic-regression", x, y, params, x[:5], true))
		if err != nil {
			t.Fatal(err)
		}
		b, err := fitLogisticJSON(t, lrBody(t, "logistic-regression", x, y01, params, x[:5], true))
		if err != nil {
			t.Fatal(err)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("%s: ±1 and 0/1 labels differ:\n%s\n%s", params, ja, jb)
		}
	}
}

// TestLogisticSolversAgree: exact, newton and gd (η = 1/L) reach the
// same (w, b); the objective is J at (w, b); proba is σ(score).
func TestLogisticSolversAgree(t *testing.T) {
	x, y := lrBlobs(2, 60, 2, 0.6)
	const lambda = 0.05
	exact, err := fitLogisticJSON(t, lrBody(t, "logistic-regression", x, y, fmt.Sprintf(`{"lambda":%v}`, lambda), x[:4], false))
	if err != nil {
		t.Fatal(err)
	}
	if want := lrJ(x, y, lambda, exact.W, exact.B); !near(exact.Objective, want, 1e-12) {
		t.Errorf("objective %v, J(w, b) = %v", exact.Objective, want)
	}
	for i, s := range exact.Scores {
		if want := 1 / (1 + math.Exp(-s)); !near(exact.Proba[i], want, 1e-15) {
			t.Errorf("proba[%d] = %v, σ(%v) = %v", i, exact.Proba[i], s, want)
		}
	}
	for _, params := range []string{`{"solver":"newton","lambda":0.05}`, `{"solver":"gd","iters":5000,"lambda":0.05}`} {
		r, err := fitLogisticJSON(t, lrBody(t, "logistic-regression", x, y, params, nil, false))
		if err != nil {
			t.Fatal(err)
		}
		diff := math.Abs(r.B - exact.B)
		for j := range r.W {
			diff = math.Max(diff, math.Abs(r.W[j]-exact.W[j]))
		}
		if diff > 1e-6 || r.Status != "converged" && r.Status != "iteration_limit" {
			t.Errorf("%s: (w, b) = (%v, %v), %v from exact; status %q", params, r.W, r.B, diff, r.Status)
		}
	}
}

func TestLogisticNoMinimiser(t *testing.T) {
	x := [][]float64{{0, 0}, {1, 0}, {1, 1}, {2, 0}} // quasi-separable: two points on x₁ = 1
	y := []float64{-1, -1, 1, 1}
	for _, params := range []string{`{"lambda":0}`, `{"lambda":0,"solver":"gd"}`, `{"lambda":0,"solver":"newton"}`} {
		_, err := fitLogisticJSON(t, lrBody(t, "logistic-regression", x, y, params, nil, false))
		if !errors.Is(err, ErrUnprocessable) || !strings.Contains(err.Error(), "no minimiser") || !strings.Contains(err.Error(), "lambda > 0") {
			t.Errorf("%s: %v; want 422 saying there is no minimiser and to give lambda > 0", params, err)
		}
	}
	// The same data with λ > 0 have a finite minimiser.
	r, err := fitLogisticJSON(t, lrBody(t, "logistic-regression", x, y, `{"lambda":1e-6}`, nil, false))
	if err != nil || r.GradNorm >= 1e-10 {
		t.Errorf("λ = 1e-6: %+v, %v", r, err)
	}
}

func TestLogisticTrace(t *testing.T) {
	x, y := lrBlobs(3, 30, 2, 0.5)
	for _, row := range x {
		row[1] *= 30 // ill-conditioned, so that gd runs all its steps
	}
	r, err := fitLogisticJSON(t, lrBody(t, "logistic-regression", x, y, `{"solver":"gd","iters":2500,"lambda":1e-4}`, nil, true))
	if err != nil {
		t.Fatal(err)
	}
	if r.TraceEvery != 3 || len(r.Trace) > maxLogisticTrace || r.Trace[0].T != 0 || r.Trace[1].T != 3 {
		t.Fatalf("trace_every %d, %d entries starting at t = %d, %d", r.TraceEvery, len(r.Trace), r.Trace[0].T, r.Trace[1].T)
	}
	last := r.Trace[len(r.Trace)-1]
	if last.T != r.Iterations || r.Iterations != 2500 || last.B != r.B || last.Objective != r.Objective {
		t.Errorf("last trace entry %+v, answer b %v objective %v at t = %d", last, r.B, r.Objective, r.Iterations)
	}
	for k := 1; k < len(r.Trace); k++ {
		if r.Trace[k].Objective > r.Trace[k-1].Objective*(1+1e-15) {
			t.Errorf("objective rose at t = %d", r.Trace[k].T)
		}
	}
	n, err := fitLogisticJSON(t, lrBody(t, "logistic-regression", x, y, `{}`, nil, true))
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Trace) != n.Iterations+1 || n.Trace[len(n.Trace)-1].GradNorm >= 1e-10 {
		t.Errorf("exact trace has %d entries for %d iterations", len(n.Trace), n.Iterations)
	}
}

func TestLogisticBadRequests(t *testing.T) {
	x2 := `"x":[[0],[1],[2]]`
	for _, tc := range []struct{ name, body, want string }{
		{"mixed labels", `{"algorithm":"logistic-regression",` + x2 + `,"y":[0,1,-1]}`, `"y[2]" is -1 but "y[0]" is 0`},
		{"label 2", `{"algorithm":"logistic-regression",` + x2 + `,"y":[1,2,-1]}`, `"y[1]" is 2`},
		{"one class", `{"algorithm":"logistic-regression",` + x2 + `,"y":[1,1,1]}`, `both classes`},
		{"one class 0", `{"algorithm":"logistic-regression",` + x2 + `,"y":[0,0,0]}`, `both classes`},
		{"lambda < 0", `{"algorithm":"logistic-regression",` + x2 + `,"y":[1,-1,1],"params":{"lambda":-1}}`, `params.lambda is -1`},
		{"lambda NaN", `{"algorithm":"logistic-regression",` + x2 + `,"y":[1,-1,1],"params":{"lambda":"NaN"}}`, `known parameters: lambda`},
		{"unknown param", `{"algorithm":"logistic-regression",` + x2 + `,"y":[1,-1,1],"params":{"C":1}}`, `known parameters: lambda (≥ 0`},
		{"solver", `{"algorithm":"logistic-regression",` + x2 + `,"y":[1,-1,1],"params":{"solver":"lbfgs"}}`, `params.solver is "lbfgs"`},
		{"eta for newton", `{"algorithm":"logistic-regression",` + x2 + `,"y":[1,-1,1],"params":{"solver":"newton","eta":1}}`, `gd" only`},
		{"eta 0", `{"algorithm":"logistic-regression",` + x2 + `,"y":[1,-1,1],"params":{"solver":"gd","eta":0}}`, `params.eta is 0`},
		{"iters exact", `{"algorithm":"logistic-regression",` + x2 + `,"y":[1,-1,1],"params":{"iters":5}}`, `"exact" iterates`},
		{"iters 0", `{"algorithm":"logistic-regression",` + x2 + `,"y":[1,-1,1],"params":{"solver":"gd","iters":0}}`, `params.iters is 0`},
	} {
		_, err := fitLogisticJSON(t, tc.body)
		if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want a bad request containing %q", tc.name, err, tc.want)
		}
	}
}

// TestLogisticLimits: requests past the work limit are refused before any
// work, naming what to lower; the largest allowed stay allowed.
func TestLogisticLimits(t *testing.T) {
	for _, tc := range []struct {
		n, d   int
		params string
		want   string
	}{
		{MaxN, MaxD, `{}`, "send fewer rows or features"},
		{MaxN, 200, `{"lambda":0}`, "linear program"},
		{MaxN, MaxD, `{"solver":"gd"}`, "give params.eta"},
		{MaxN, 100, `{"solver":"gd","eta":1,"iters":1000000}`, "lower params.iters to at most"},
		{MaxN, 100, `{"solver":"newton","iters":1000}`, "lower params.iters to at most"},
	} {
		set, err := logisticParams{}.setup()
		if err != nil {
			t.Fatal(err)
		}
		var lp logisticParams
		if err := json.Unmarshal([]byte(tc.params), &lp); err != nil {
			t.Fatal(err)
		}
		if set, err = lp.setup(); err != nil {
			t.Fatal(err)
		}
		_, err = newLogisticCost(tc.n, tc.d, 0, set).plan(set)
		if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("n %d d %d %s: %v; want a bad request containing %q", tc.n, tc.d, tc.params, err, tc.want)
		}
	}
	// 2-D data at the row limit fit every solver's defaults.
	for _, params := range []string{`{}`, `{"lambda":0}`, `{"solver":"gd"}`, `{"solver":"newton"}`} {
		var lp logisticParams
		json.Unmarshal([]byte(params), &lp)
		set, _ := lp.setup()
		if _, err := newLogisticCost(MaxN, 2, MaxPredict, set).plan(set); err != nil {
			t.Errorf("%s on %d 2-D rows: %v", params, MaxN, err)
		}
	}
}

func TestLogisticOverflow(t *testing.T) {
	x, y := lrBlobs(4, 20, 2, 0.5)
	_, err := fitLogisticJSON(t, lrBody(t, "logistic-regression", x, y, `{"solver":"gd","eta":1e12,"lambda":1}`, nil, false))
	if !errors.Is(err, ErrUnprocessable) || !strings.Contains(err.Error(), "lower params.eta") {
		t.Errorf("η = 1e300: %v; want 422 saying to lower eta", err)
	}
	_, err = fitLogisticJSON(t, lrBody(t, "logistic-regression", x, y, `{}`, [][]float64{{1e308, 1e308}}, false))
	if !errors.Is(err, ErrUnprocessable) && err != nil {
		t.Errorf("predict at 1e308: %v", err)
	}
}

func TestLogisticContext(t *testing.T) {
	x, y := lrBlobs(5, 20, 2, 0.5)
	req, err := Decode(strings.NewReader(lrBody(t, "logistic-regression", x, y, `{}`, nil, false)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, req); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: %v", err)
	}
}

func TestLogisticDeterministic(t *testing.T) {
	x, y := lrBlobs(6, 50, 3, 0.3)
	b := lrBody(t, "logistic-regression", x, y, `{"solver":"gd","iters":300}`, x, true)
	a1, _ := fitLogisticJSON(t, b)
	a2, _ := fitLogisticJSON(t, b)
	j1, _ := json.Marshal(a1)
	j2, _ := json.Marshal(a2)
	if string(j1) != string(j2) {
		t.Error("two runs of the same request differ")
	}
}

// TestLogisticCrosscheck answers the requests tools/crosscheck/logistic.py
// writes (request*.json in $MARGIN_LOGISTIC_CROSSCHECK) with
// answer*.json, {"answer": …} or {"error": …}, for the script to compare
// with scikit-learn. It is skipped unless the variable is set.
func TestLogisticCrosscheck(t *testing.T) {
	dir := os.Getenv("MARGIN_LOGISTIC_CROSSCHECK")
	if dir == "" {
		t.Skip("set MARGIN_LOGISTIC_CROSSCHECK to a directory of request*.json; tools/crosscheck/logistic.py does")
	}
	files, err := filepath.Glob(filepath.Join(dir, "request*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no request*.json in %s (%v)", dir, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]any{}
		req, err := Decode(bytes.NewReader(data))
		if err == nil {
			out["answer"], err = Run(context.Background(), req)
		}
		if err != nil {
			out["error"] = err.Error()
		}
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.Replace(filepath.Base(f), "request", "answer", 1)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
