package svmfit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

func fitSVMJSON(t testing.TB, body string) (*SVMResponse, error) { return fitAs[*SVMResponse](t, body) }

// fitAs decodes body and runs the fit as fit.Run does (run), and returns
// the answer as the algorithm's response type R.
func fitAs[R any](t testing.TB, body string) (R, error) {
	t.Helper()
	var zero R
	req, err := fitreq.Decode(strings.NewReader(body))
	if err != nil {
		return zero, err
	}
	resp, err := run(context.Background(), req)
	if err != nil {
		return zero, err
	}
	return resp.(R), nil
}

// run is fit.Run for this package's algorithms: the same checks, in the
// same order, before the same fitter. (fit's tests cannot be imported
// here: fit imports this package.)
func run(ctx context.Context, req fitreq.Request) (any, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if err := fitreq.SignLabels(req.Y); err != nil {
		return nil, err
	}
	switch req.Algorithm {
	case "svm":
		return SVM(ctx, req)
	case "pegasos":
		return Pegasos(ctx, req)
	case "kernel-pegasos":
		return KernelPegasos(ctx, req)
	}
	return nil, fmt.Errorf("svmfit: %q is not one of this package's algorithms", req.Algorithm)
}

// rows is n copies of row, comma-separated.
func rows(row string, n int) string {
	return strings.TrimSuffix(strings.Repeat(row+",", n), ",")
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

const twoPoints = `{"algorithm":"svm","x":[[0,0],[2,0]],"y":[-1,1]`

// TestSVMTwoPoints is the notes' smallest example: the boundary x₁ = 1
// halfway between the points, margin 1, both points support vectors.
func TestSVMTwoPoints(t *testing.T) {
	for _, params := range []string{`{}`, `{"hard":true}`, `{"C":10,"tol":1e-3}`} {
		r, err := fitSVMJSON(t, twoPoints+`,"params":`+params+`,"predict":[[1,5],[3,0]]}`)
		if err != nil {
			t.Fatalf("%s: %v", params, err)
		}
		got := fmt.Sprint(r.W, r.B, r.Alpha, *r.Margin, *r.PrimalObjective, r.DualObjective, r.Support, r.SupportKind, r.Scores, " ", r.Status)
		if want := "[1 0] -1 [0.5 0.5] 1 0.5 -0.5 [0 1] [margin margin] [0 2] converged"; got != want {
			t.Errorf("%s: fit = %s, want %s", params, got, want)
		}
	}
}

// supportSet is points on a line with C = 1, worked by hand and checked
// with LIBSVM (svm-train -t 0 -c 1 gives the same α and ρ = 13/7): w =
// 20/21, b = −13/7, so the boundary is x = 1.95 and the margin 1.05. x = 3
// (+1) and x = 0.9 (−1) are on the margin with α = 36.8/44.1; x = 1.4 (−1)
// is inside it on its own side (yf = 0.52) and x = 0.6 (+1) misclassified
// (yf = −1.29), both at α = C; the outer points have α = 0.
const supportSet = `{"algorithm":"svm","x":[[-1],[3],[1.4],[0.6],[0.9],[-3],[5]],"y":[-1,1,-1,1,-1,-1,1],"params":{"C":1}}`

func TestSupportKinds(t *testing.T) {
	r, err := fitSVMJSON(t, supportSet)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(r.Support, r.SupportKind), "[1 2 3 4] [margin inside misclassified margin]"; got != want {
		t.Errorf("support, kinds = %s, want %s", got, want)
	}
	wantAlpha := []float64{0, 36.8 / 44.1, 1, 1, 36.8 / 44.1, 0, 0}
	for i, a := range r.Alpha {
		if !near(a, wantAlpha[i], 1e-9) {
			t.Errorf("α[%d] = %v, want %v", i, a, wantAlpha[i])
		}
	}
	if !near(r.W[0], 20.0/21, 1e-9) || !near(r.B, -13.0/7, 1e-9) || !near(*r.Margin, 1.05, 1e-9) {
		t.Errorf("w = %v, b = %v, margin = %v; want 20/21, −13/7, 1.05", r.W, r.B, *r.Margin)
	}
	// The primal ½w² + C·Σ hinge (hinges 1.52 and 2.29 of the points at C)
	// equals −D(α) at the optimum.
	if !near(*r.PrimalObjective, -r.DualObjective, 1e-9) {
		t.Errorf("primal %v, dual %v: not strongly dual", *r.PrimalObjective, r.DualObjective)
	}
	// The kinds agree with svm's own Kind, which fit re-implements.
	for _, body := range []string{supportSet, worstBody("rbf", 400, 2, `"kernel":"rbf","gamma":0.5,"C":3`, false)} {
		req, _ := fitreq.Decode(strings.NewReader(body))
		var sp svmParams
		json.Unmarshal(req.Params, &sp)
		p, _ := sp.params()
		p.MaxIter = 100000
		y, _ := fitreq.BothClasses(req.Y)
		pr, _, _ := svm.New(req.X, y, p)
		s, _ := pr.Solve(context.Background())
		sv := pr.Support(s)
		got := supportKinds(pr, s, p, sv)
		for k, i := range sv {
			if want := pr.Kind(s, i).String(); got[k] != want {
				t.Errorf("point %d: kind %q, svm.Kind %q", i, got[k], want)
			}
		}
	}
}

// TestSVMKernels: rbf, poly and laplace fits converge to a feasible α
// (0 ≤ αᵢ ≤ C, Σαᵢyᵢ = 0) and answer no w, margin or primal objective.
func TestSVMKernels(t *testing.T) {
	for _, k := range []string{`"kernel":"rbf","gamma":0.5`, `"kernel":"poly","degree":3,"gamma":0.02,"coef0":1`, `"kernel":"laplace","gamma":2`} {
		body := worstBody("k", 60, 2, k+`,"C":2,"tol":1e-6`, false)
		body = strings.TrimSuffix(body, "}") + `,"predict":[[0,0],[1,-1]]}`
		r, err := fitSVMJSON(t, body)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if r.W != nil || r.Margin != nil || r.PrimalObjective != nil || r.Status != "converged" || r.DualObjective >= 0 {
			t.Errorf("%s: w %v, margin %v, primal %v, status %s, dual %v", k, r.W, r.Margin, r.PrimalObjective, r.Status, r.DualObjective)
		}
		var sumAY float64
		for i, a := range r.Alpha {
			if a < 0 || a > 2 {
				t.Errorf("%s: α[%d] = %v outside [0, C]", k, i, a)
			}
			sumAY += a * []float64{1, -1}[i%2]
		}
		if math.Abs(sumAY) > 1e-9 {
			t.Errorf("%s: Σαᵢyᵢ = %v, want 0", k, sumAY)
		}
	}
}

func TestSVMErrors(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"unknown param", twoPoints + `,"params":{"lambda":1}}`, "known parameters: C"},
		{"C zero", twoPoints + `,"params":{"C":0}}`, "params.C is 0"},
		{"C negative", twoPoints + `,"params":{"C":-1}}`, "params.C"},
		{"C huge", twoPoints + `,"params":{"C":1e300}}`, "at most 1e+12"},
		{"C not a number", twoPoints + `,"params":{"C":"big"}}`, "params"},
		{"gamma", twoPoints + `,"params":{"kernel":"rbf","gamma":0}}`, "params.gamma"},
		{"tol", twoPoints + `,"params":{"tol":-1e-3}}`, "params.tol"},
		{"kernel", twoPoints + `,"params":{"kernel":"sigmoid"}}`, `"linear", "poly", "rbf" or "laplace"`},
		{"degree", twoPoints + `,"params":{"kernel":"poly","degree":11}}`, "1 to 10"},
		{"degree fraction", twoPoints + `,"params":{"kernel":"poly","degree":2.5}}`, "params"},
		{"coef0", twoPoints + `,"params":{"kernel":"poly","coef0":-1}}`, "params.coef0"},
		{"max_iter", twoPoints + `,"params":{"max_iter":0}}`, "params.max_iter"},
		{"max_iter big", twoPoints + `,"params":{"max_iter":10000001}}`, "1 to 10000000"},
		{"hard with bad C", twoPoints + `,"params":{"hard":true,"C":-1}}`, "params.C"},
		{"one class", `{"algorithm":"svm","x":[[0],[1]],"y":[1,1]}`, "both classes"},
		{"label", `{"algorithm":"svm","x":[[0],[1]],"y":[1,2]}`, "-1 or +1"},
		{"NaN", `{"algorithm":"svm","x":[[NaN],[1]],"y":[1,-1]}`, "not the JSON"},
		{"max_iter over work", worstBody("w", 10000, 2, `"kernel":"rbf","max_iter":100000`, false), "lower params.max_iter to at most"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fitSVMJSON(t, tt.body)
			if !errors.Is(err, fitreq.ErrBadRequest) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want a bad request mentioning %q", err, tt.want)
			}
		})
	}
}

func TestSVMUnprocessable(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"hard inseparable", `{"algorithm":"svm","x":[[0],[1],[2]],"y":[-1,1,-1],"params":{"hard":true}}`, "not linearly separable"},
		{"hard rbf duplicate", `{"algorithm":"svm","x":[[0],[0]],"y":[-1,1],"params":{"hard":true,"kernel":"rbf"}}`, "feature space"},
		{"kernel overflow", `{"algorithm":"svm","x":[[1e200],[0]],"y":[-1,1]}`, "scale the data"},
		{"score overflow", `{"algorithm":"svm","x":[[0],[0.002]],"y":[-1,1],"predict":[[1],[1e308]],"params":{"hard":true}}`, "predict[1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fitSVMJSON(t, tt.body)
			if !errors.Is(err, fitreq.ErrUnprocessable) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want fitreq.ErrUnprocessable mentioning %q", err, tt.want)
			}
		})
	}
	_, err := fitSVMJSON(t, `{"algorithm":"svm","x":[[0],[1],[2]],"y":[-1,1,-1],"params":{"hard":true}}`)
	if err == nil || !strings.Contains(err.Error(), "params.C") || !strings.Contains(err.Error(), "soft margin") {
		t.Errorf("hard inseparable: %v, want the soft margin with C as the remedy", err)
	}
}

// TestSVMTrace: one entry per SMO step, t = 1…T, ending at the answer.
func TestSVMTrace(t *testing.T) {
	body := worstBody("trace", 40, 2, `"C":1,"tol":1e-6`, true)
	r, err := fitSVMJSON(t, body)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Trace) != r.Iterations || r.Iterations == 0 || r.Status != "converged" {
		t.Fatalf("trace has %d steps, iterations %d, status %s", len(r.Trace), r.Iterations, r.Status)
	}
	for k, st := range r.Trace {
		if st.T != k+1 || st.I == st.J || st.I < 0 || st.J < 0 || st.I >= 40 || st.J >= 40 {
			t.Fatalf("trace[%d] = %+v", k, st)
		}
	}
	last := r.Trace[len(r.Trace)-1]
	if last.B != r.B || last.DualObjective != r.DualObjective || last.Gap != r.Gap || last.Gap > 1e-6 ||
		last.AlphaI != r.Alpha[last.I] || last.AlphaJ != r.Alpha[last.J] {
		t.Errorf("last step %+v, answer b %v dual %v gap %v", last, r.B, r.DualObjective, r.Gap)
	}
	if r.Trace[0].DualObjective < last.DualObjective {
		t.Errorf("D(α) rose from %v to %v", r.Trace[0].DualObjective, last.DualObjective)
	}
	// Without a trace the shrinking solver finds the same optimum.
	plain, err := fitSVMJSON(t, strings.Replace(body, `"trace":true`, `"trace":false`, 1))
	if err != nil || !near(plain.DualObjective, r.DualObjective, 1e-6) || plain.Trace != nil {
		t.Errorf("without trace: %+v, %v", plain, err)
	}
	// Over the trace limit: a 400 naming it.
	_, err = fitSVMJSON(t, worstBody("long", 30, 2, `"C":1000,"tol":1e-300,"max_iter":200000`, true))
	if !errors.Is(err, fitreq.ErrBadRequest) || !strings.Contains(err.Error(), "125000 steps") {
		t.Errorf("a 200000-step trace: %v, want a bad request naming the limit", err)
	}
}

func TestSVMIterationLimit(t *testing.T) {
	r, err := fitSVMJSON(t, worstBody("lim", 100, 2, `"C":10,"max_iter":3`, false))
	if err != nil || r.Status != "iteration_limit" || r.Iterations != 3 || r.MaxIter != 3 {
		t.Errorf("max_iter 3 = %+v, %v; want status iteration_limit after 3", r, err)
	}
}

// TestSVMWorkLimit: an explicit max_iter may be the most the work limit
// allows in the worst case; one more is refused with a message naming it.
// Without max_iter the run is budgeted by its work (max_iter reads 10⁷).
func TestSVMWorkLimit(t *testing.T) {
	rbf := "rbf"
	p, _ := svmParams{Kernel: &rbf}.params()
	cost := newSVMCost(p, fitreq.MaxN, 2, 0)
	most := cost.most()
	if most < 1000 || cost.work(most) > MaxSVMWork || cost.work(most+1) <= MaxSVMWork {
		t.Fatalf("most = %d: work %.4g, and %.4g for one more", most, cost.work(most), cost.work(most+1))
	}
	// 10000 separable points, which SMO solves at once.
	var x, y []string
	for i := range fitreq.MaxN {
		x = append(x, fmt.Sprintf("[%d,0]", (1+i%5)*(1-2*(i%2))))
		y = append(y, fmt.Sprint(1-2*(i%2)))
	}
	body := `{"algorithm":"svm","x":[` + strings.Join(x, ",") + `],"y":[` + strings.Join(y, ",") + `],"params":{"kernel":"rbf","max_iter":%d}}`
	r, err := fitSVMJSON(t, fmt.Sprintf(body, most))
	if err != nil || r.Status != "converged" {
		t.Errorf("max_iter = most = %d: %+v, %v", most, r, err)
	}
	if r, err := fitSVMJSON(t, strings.Replace(body, `,"max_iter":%d`, "", 1)); err != nil || r.MaxIter != MaxIter || r.Status != "converged" {
		t.Errorf("default max_iter: %+v, %v; want %d, converged", r, err, MaxIter)
	}
	_, err = fitSVMJSON(t, fmt.Sprintf(body, most+1))
	if !errors.Is(err, fitreq.ErrBadRequest) || !strings.Contains(err.Error(), fmt.Sprintf("at most %d", most)) {
		t.Errorf("max_iter = most+1: %v", err)
	}
	// The bench-svm fits converge within their default max_iter.
	for _, k := range []string{"linear", "rbf"} {
		p, _ := svmParams{Kernel: &k}.params()
		if most := newSVMCost(p, 5000, 2, 0).most(); most < 20000 {
			t.Errorf("%s at n = 5000: default max_iter %d < 20000", k, most)
		}
	}
}

func TestSVMDeterministic(t *testing.T) {
	body := worstBody("det", 300, 3, `"kernel":"rbf","gamma":0.3,"C":5`, false)
	a, err1 := fitSVMJSON(t, body)
	b, err2 := fitSVMJSON(t, body)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if err1 != nil || err2 != nil || string(ja) != string(jb) {
		t.Errorf("two runs differ: %v %v", err1, err2)
	}
}

func TestSVMContext(t *testing.T) {
	req, _ := fitreq.Decode(strings.NewReader(worstBody("ctx", 5000, 2, `"kernel":"rbf","C":1000,"tol":1e-300`, false)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := run(ctx, req); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// worstBody is an "svm" request on n random rows of d digits 0…9 with
// random labels (never separable, so SMO has work to do), with params
// (inside the braces) and trace.
func worstBody(name string, n, d int, params string, trace bool) string {
	r := rand.New(rand.NewPCG(uint64(len(name)), uint64(n*d)))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = float64(r.IntN(10))
		}
		y[i] = []float64{1, -1}[i%2]
	}
	b, err := json.Marshal(fitreq.Request{Algorithm: "svm", Params: json.RawMessage(`{` + params + `}`), X: x, Y: y, Trace: trace})
	if err != nil {
		panic(err)
	}
	return string(b)
}
