package fit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/linreg"
)

// linRegBody returns a request on x, y with the given params JSON.
func linRegBody(x [][]float64, y []float64, params string, extra string) string {
	xs, _ := json.Marshal(x)
	ys, _ := json.Marshal(y)
	return fmt.Sprintf(`{"algorithm":"linear-regression","x":%s,"y":%s,"params":%s%s}`, xs, ys, params, extra)
}

func runLinReg(t *testing.T, body string) (*LinearRegressionResponse, error) {
	t.Helper()
	r, _, err := answerBody(body)
	return r, err
}

func regressionData(n, d int, seed uint64) ([][]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 3))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = r.NormFloat64()
			y[i] += float64(j+1) * x[i][j]
		}
		y[i] += 2 + 0.1*r.NormFloat64()
	}
	return x, y
}

// TestLinearRegressionMatchesFit: the API's answer is linreg.Fit's, bit
// for bit, with its objective and scores.
func TestLinearRegressionMatchesFit(t *testing.T) {
	x, y := regressionData(30, 4, 1)
	predict := `,"predict":[[1,0,0,0],[0.5,-1,2,0]]`
	for _, tc := range []struct {
		params    string
		lambda    float64
		intercept bool
	}{
		{`{}`, 0, true},
		{`null`, 0, true},
		{`{"lambda":0.3}`, 0.3, true},
		{`{"lambda":0.3,"fit_intercept":false,"solver":"exact"}`, 0.3, false},
	} {
		r, err := runLinReg(t, linRegBody(x, y, tc.params, predict))
		if err != nil {
			t.Fatalf("%s: %v", tc.params, err)
		}
		m, err := linreg.Fit(x, y, tc.lambda, tc.intercept)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.W, m.W) || r.B != m.B || r.Objective != linreg.Objective(x, y, m, tc.lambda) || r.Solver != "exact" || r.Algorithm != "linear-regression" {
			t.Errorf("%s: w %v b %v objective %v solver %q; want linreg.Fit's %v, %v, %v, exact", tc.params, r.W, r.B, r.Objective, r.Solver, m.W, m.B, linreg.Objective(x, y, m, tc.lambda))
		}
		if want := m.Predict([]float64{0.5, -1, 2, 0}); len(r.Scores) != 2 || r.Scores[1] != want {
			t.Errorf("%s: scores %v, want [_, %v]", tc.params, r.Scores, want)
		}
		if !tc.intercept && r.B != 0 {
			t.Errorf("fit_intercept false: b = %v, want 0", r.B)
		}
	}
}

// TestLinearRegressionJSON: the answer's shape, with "scores": [] when
// nothing is to be predicted and no gd fields for the exact solver.
func TestLinearRegressionJSON(t *testing.T) {
	// y = 2x + 1 exactly: w = 2, b = 1, objective 0.
	r, err := runLinReg(t, `{"algorithm":"linear-regression","x":[[0],[1],[2]],"y":[1,3,5]}`)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(r)
	if math.Abs(r.W[0]-2) > 1e-14 || math.Abs(r.B-1) > 1e-14 || r.Objective > 1e-28 {
		t.Errorf("line through (0,1), (1,3), (2,5): %s", out)
	}
	has := map[string]bool{`"algorithm":"linear-regression"`: true, `"scores":[]`: true, `"objective":`: true, `"iterations"`: false, `"trace"`: false, `"eta"`: false}
	for key, want := range has {
		if strings.Contains(string(out), key) != want {
			t.Errorf("exact answer %s: contains %s is %v, want %v", out, key, !want, want)
		}
	}
}

func TestLinearRegressionBadRequests(t *testing.T) {
	x, y := regressionData(5, 2, 2)
	for _, tc := range []struct {
		params string
		want   string
	}{
		{`{"lambda":-1}`, "params.lambda"},
		{`{"lambda":1e13}`, "params.lambda"},
		{`{"solver":"foo"}`, "params.solver"},
		{`{"solver":"gd","eta":0}`, "params.eta"},
		{`{"solver":"gd","eta":-2}`, "params.eta"},
		{`{"solver":"gd","iters":0}`, "params.iters"},
		{`{"solver":"gd","iters":100001}`, "params.iters"},
		{`{"eta":0.1}`, "params.eta"},
		{`{"iters":10}`, "params.iters"},
		{`{"alpha":1}`, "alpha"},
		{`{"fit_intercept":"yes"}`, "fit_intercept"},
	} {
		_, err := runLinReg(t, linRegBody(x, y, tc.params, ""))
		if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("params %s: error %v; want a bad request naming %s", tc.params, err, tc.want)
		}
	}
	_, err := runLinReg(t, linRegBody(x, y, `{"alpha":1}`, ""))
	if err == nil || !strings.Contains(err.Error(), "known parameters: lambda") {
		t.Errorf("unknown param: %v; want the known ones listed", err)
	}
}

// TestLinearRegressionGD: gd reaches the exact answer, its trace has one
// entry per iteration (t = 1, 2, …) until it converges, and thins to
// every k-th iterate plus the last when iters is large.
func TestLinearRegressionGD(t *testing.T) {
	x, y := regressionData(40, 3, 3)
	exact, err := runLinReg(t, linRegBody(x, y, `{"lambda":0.01}`, ""))
	if err != nil {
		t.Fatal(err)
	}
	r, err := runLinReg(t, linRegBody(x, y, `{"lambda":0.01,"solver":"gd","iters":5000}`, `,"trace":true`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Solver != "gd" || r.Status != "converged" || r.Iterations == nil || *r.Iterations >= 5000 {
		t.Fatalf("gd: solver %q status %q iterations %v; want converged before 5000", r.Solver, r.Status, r.Iterations)
	}
	for j := range r.W {
		if math.Abs(r.W[j]-exact.W[j]) > 1e-8*(1+math.Abs(exact.W[j])) {
			t.Errorf("gd w = %v, exact %v", r.W, exact.W)
		}
	}
	if math.Abs(r.B-exact.B) > 1e-8*(1+math.Abs(exact.B)) || math.Abs(r.Eta-1/r.L) > 1e-15/r.L {
		t.Errorf("gd b = %v (exact %v), eta %v with L %v; want eta = 1/L", r.B, exact.B, r.Eta, r.L)
	}
	// iters 5000 thins the trace to every 5th iterate; the converged run
	// ends early and records its last one too.
	k := *r.Iterations
	want := k / 5
	if k%5 != 0 {
		want++
	}
	if len(r.Trace) != want || r.TraceEvery != 5 || r.Trace[0].T != 5 || r.Trace[len(r.Trace)-1].T != k {
		t.Fatalf("trace has %d entries (t = %d … %d) for %d iterations, trace_every %d; want %d, t = 5, 10, … and %d", len(r.Trace), r.Trace[0].T, r.Trace[len(r.Trace)-1].T, k, r.TraceEvery, want, k)
	}
	r, err = runLinReg(t, linRegBody(x, y, `{"lambda":0.01,"solver":"gd","iters":20}`, `,"trace":true`))
	if err != nil || len(r.Trace) != 20 || r.TraceEvery != 1 || r.Trace[19].T != 20 || len(r.Trace[0].W) != 3 {
		t.Fatalf("20 iterations with trace: %d entries, trace_every %d (%v); want t = 1 … 20", len(r.Trace), r.TraceEvery, err)
	}
	// A slow run: η far below 1/L does not converge in 3000 steps.
	r, err = runLinReg(t, linRegBody(x, y, `{"solver":"gd","eta":1e-5,"iters":3000,"fit_intercept":false}`, `,"trace":true`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "iteration_limit" || *r.Iterations != 3000 || r.TraceEvery != 3 || len(r.Trace) != 1000 {
		t.Fatalf("slow gd: status %q, %d iterations, trace_every %d, %d entries; want the limit, 3000, 3, 1000", r.Status, *r.Iterations, r.TraceEvery, len(r.Trace))
	}
	for i, st := range r.Trace {
		if st.T != 3*(i+1) || len(st.W) != 3 || st.B != 0 {
			t.Fatalf("trace[%d] = t %d, w %v, b %v; want t = %d, 3 weights, b = 0", i, st.T, st.W, st.B, 3*(i+1))
		}
		if i > 0 && st.Objective > r.Trace[i-1].Objective {
			t.Fatalf("objective rose from %v to %v at t = %d", r.Trace[i-1].Objective, st.Objective, st.T)
		}
	}
	if last := r.Trace[len(r.Trace)-1]; last.Objective != r.Objective || last.W[0] != r.W[0] {
		t.Errorf("last trace entry %+v is not the answer (objective %v)", last, r.Objective)
	}
	// Without trace: no trace fields.
	r, err = runLinReg(t, linRegBody(x, y, `{"solver":"gd","iters":10}`, ""))
	if err != nil || r.Trace != nil || r.TraceEvery != 0 || *r.Iterations != 10 {
		t.Errorf("gd without trace: %+v, %v", r, err)
	}
}

func TestLinearRegressionDiverges(t *testing.T) {
	x, y := regressionData(20, 2, 4)
	r, err := runLinReg(t, linRegBody(x, y, `{"solver":"gd"}`, ""))
	if err != nil {
		t.Fatal(err)
	}
	_, err = runLinReg(t, linRegBody(x, y, fmt.Sprintf(`{"solver":"gd","eta":%v,"iters":100000}`, 2.1/r.L), ""))
	if !errors.Is(err, ErrUnprocessable) || !strings.Contains(err.Error(), "diverged") || !strings.Contains(err.Error(), fmt.Sprintf("2/L = %g", 2/r.L)) {
		t.Errorf("eta = 2.1/L: %v; want a 422 saying it diverged and naming 2/L = %g", err, 2/r.L)
	}
}

func TestLinearRegressionUnprocessable(t *testing.T) {
	// w = y/x = 1e300/1e-300 overflows.
	_, err := runLinReg(t, `{"algorithm":"linear-regression","x":[[1e-300],[2e-300]],"y":[1e300,2e300],"params":{"fit_intercept":false}}`)
	if !errors.Is(err, ErrUnprocessable) || !strings.Contains(err.Error(), "w[0] is about 1e+600") || !strings.Contains(err.Error(), "multiply that column by a large factor") {
		t.Errorf("overflowing weights: %v; want a 422 naming w[0] ≈ 1e+600 and saying to scale x up", err)
	}
	// y ≈ 1e308 with x far from 0: the intercept b = ȳ − x̄·w is beyond
	// float64.
	_, err = runLinReg(t, `{"algorithm":"linear-regression","x":[[1e10],[9999999999]],"y":[1e308,-1e308]}`)
	if !errors.Is(err, ErrUnprocessable) || !strings.Contains(err.Error(), "divide y") {
		t.Errorf("intercept beyond float64: %v; want a 422 saying to divide y", err)
	}
	// Residuals of about 1e250 square beyond float64: the objective is.
	_, err = runLinReg(t, `{"algorithm":"linear-regression","x":[[1],[2],[3]],"y":[1e250,3e250,2e250]}`)
	if !errors.Is(err, ErrUnprocessable) || !strings.Contains(err.Error(), "divide y") {
		t.Errorf("objective beyond float64: %v; want a 422 saying to divide y", err)
	}
	// The objective at 0 is the mean of y² ≈ 1e600.
	_, err = runLinReg(t, `{"algorithm":"linear-regression","x":[[1],[2]],"y":[1e300,-1e300],"params":{"solver":"gd"}}`)
	if !errors.Is(err, ErrUnprocessable) {
		t.Errorf("gd on y ≈ 1e300: %v; want a 422", err)
	}
}

// TestLinearRegressionMinNorm: a duplicated column gets two equal
// weights, the minimum-norm split (what LinearRegression answers).
func TestLinearRegressionMinNorm(t *testing.T) {
	x, y := regressionData(15, 2, 5)
	for i := range x {
		x[i] = append(x[i], x[i][0])
	}
	r, err := runLinReg(t, linRegBody(x, y, `{}`, ""))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.W[0]-r.W[2]) > 1e-10*math.Abs(r.W[0]) || math.Abs(r.W[0]+r.W[2]-1) > 0.1 {
		t.Errorf("w = %v; want w₀ = w₂ ≈ ½ (the true weight 1 split between the twins)", r.W)
	}
}

func TestLinearRegressionContext(t *testing.T) {
	x, y := regressionData(50, 2, 8)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, params := range []string{`{}`, `{"solver":"gd"}`} {
		req := Request{Algorithm: "linear-regression", X: x, Y: y, Params: json.RawMessage(params)}
		if _, err := Run(ctx, req); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: %v; want context.Canceled", params, err)
		}
	}
}

// TestLinearRegressionCrosscheck serves tools/crosscheck/linreg.py: with
// MARGIN_LINREG_CROSSCHECK set to a directory, it answers every
// request*.json there into answer*.json (or error*.txt).
func TestLinearRegressionCrosscheck(t *testing.T) {
	dir := os.Getenv("MARGIN_LINREG_CROSSCHECK")
	if dir == "" {
		t.Skip("set MARGIN_LINREG_CROSSCHECK to a directory of request*.json")
	}
	files, err := filepath.Glob(filepath.Join(dir, "request*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no request*.json in %s (%v)", dir, err)
	}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "request"), ".json")
		name, out := "answer"+base+".json", []byte(nil)
		if _, out, err = answerBody(string(body)); err != nil {
			name, out = "error"+base+".txt", []byte(err.Error())
		}
		if err := os.WriteFile(filepath.Join(dir, name), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLinearRegressionScaled: data whose squares leave float64's range
// still get their finite answer (issue 28 §4: x ≈ 1e-200 was a 422 that
// said to make x smaller). Each answer is checked against the closed form
// of one feature: w = Sxy/(Sxx + nλ), b = ȳ − x̄w, computed in a scale
// where it is exact.
func TestLinearRegressionScaled(t *testing.T) {
	tests := []struct {
		name    string
		x, y    []float64
		lambda  float64
		scale   float64 // x·scale and y are ordinary
		yscale  float64
		predict float64
	}{
		{"x ≈ 1e-200", []float64{1e-200, 2e-200}, []float64{1, 2}, 0, 1e200, 1, 3e-200},
		{"x ≈ 1e-200, three rows", []float64{1e-200, 2e-200, 4e-200}, []float64{1, 2, 3.5}, 0, 1e200, 1, 3e-200},
		{"x ≈ 1e200, y ≈ 1e-200", []float64{1e200, 3e200, 2e200}, []float64{1e-200, 2e-200, 2e-200}, 0, 1e-200, 1e200, 2e200},
		{"y ≈ 1e250 on a line", []float64{1, 2, 4}, []float64{1e250, 2e250, 4e250}, 0, 1, 1e-250, 3},
		{"ridge, x ≈ 1e-200", []float64{1e-200, 2e-200}, []float64{1, 2}, 1e-3, 1e200, 1, 3e-200},
		{"ridge, x ≈ 1e150", []float64{1e150, 2e150, 4e150}, []float64{1, 2, 3}, 1e-3, 1e-150, 1, 3e150},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := make([][]float64, len(tt.x))
			for i, v := range tt.x {
				x[i] = []float64{v}
			}
			body := linRegBody(x, tt.y, fmt.Sprintf(`{"lambda":%v}`, tt.lambda), fmt.Sprintf(`,"predict":[[%v]]`, tt.predict))
			r, err := runLinReg(t, body)
			if err != nil {
				t.Fatal(err)
			}
			// The closed form in the ordinary scale: x' = x·scale, y' = y·yscale
			// (λ' = λ·scale², w = w'·scale/yscale, b = b'/yscale).
			n := float64(len(tt.x))
			var xbar, ybar float64
			for i := range tt.x {
				xbar += tt.x[i] * tt.scale / n
				ybar += tt.y[i] * tt.yscale / n
			}
			var sxx, sxy, sse float64
			for i := range tt.x {
				dx, dy := tt.x[i]*tt.scale-xbar, tt.y[i]*tt.yscale-ybar
				sxx, sxy = sxx+dx*dx, sxy+dx*dy
			}
			w := sxy / (sxx + n*tt.lambda*tt.scale*tt.scale) // in the scaled units λ is λ·scale²
			b := ybar - xbar*w
			for i := range tt.x {
				r := w*tt.x[i]*tt.scale + b - tt.y[i]*tt.yscale
				sse += r * r
			}
			wantW, wantB := w*tt.scale/tt.yscale, b/tt.yscale
			wantScore := (w*tt.predict*tt.scale + b) / tt.yscale
			near := func(got, want float64) bool {
				return math.Abs(got-want) <= 1e-9*math.Abs(want)+1e-12*math.Abs(wantB)+1e-300
			}
			if len(r.W) != 1 || !near(r.W[0], wantW) || !near(r.B, wantB) || !near(r.Scores[0], wantScore) {
				t.Errorf("w %v, b %v, score %v; want w %v, b %v, score %v", r.W, r.B, r.Scores, wantW, wantB, wantScore)
			}
			if tt.lambda == 0 {
				wantObj := sse / n / (tt.yscale * tt.yscale)
				if math.IsNaN(r.Objective) || math.Abs(r.Objective-wantObj) > 1e-9*math.Max(wantObj, math.Abs(ybar*ybar/(tt.yscale*tt.yscale))) {
					t.Errorf("objective %v, want %v", r.Objective, wantObj)
				}
			}
		})
	}
}
