package svmfit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

func fitKernelPegasosJSON(t testing.TB, body string) (*KernelPegasosResponse, error) {
	return fitAs[*KernelPegasosResponse](t, body)
}

// kpSet is XOR plus a point: no line through the origin separates it,
// the kernels do.
const kpSet = `{"algorithm":"kernel-pegasos","x":[[0,0],[1,1],[0,1],[1,0],[0.5,2]],"y":[-1,-1,1,1,1]`

// kernelPegasosReference is 001's kernelized procedure written out again
// from the notes: β = 0; α⁽ᵗ⁾ = β/(2λt); j uniform from
// rand.NewPCG(seed, 0); βⱼ += yⱼ when yⱼ Σᵢ αᵢK(xᵢ, xⱼ) < 1; the answer
// is the average of α⁽¹⁾…α⁽ᵀ⁾.
func kernelPegasosReference(k func(a, b []float64) float64, x [][]float64, y []float64, lambda float64, T int, seed uint64) []float64 {
	n := len(x)
	beta, sum := make([]float64, n), make([]float64, n)
	r := rand.New(rand.NewPCG(seed, 0))
	for t := 1; t <= T; t++ {
		alpha := make([]float64, n)
		for i := range alpha {
			alpha[i] = beta[i] / (2 * lambda * float64(t))
		}
		j := r.IntN(n)
		var m float64
		for i := range x {
			m += alpha[i] * k(x[i], x[j])
		}
		if y[j]*m < 1 {
			beta[j] += y[j]
		}
		for i := range sum {
			sum[i] += alpha[i]
		}
	}
	for i := range sum {
		sum[i] /= float64(T)
	}
	return sum
}

func TestKernelPegasosReference(t *testing.T) {
	x := [][]float64{{0, 0}, {1, 1}, {0, 1}, {1, 0}, {0.5, 2}}
	y := []float64{-1, -1, 1, 1, 1}
	sq := func(a, b []float64) float64 { return (a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) }
	dot := func(a, b []float64) float64 { return a[0]*b[0] + a[1]*b[1] }
	tests := []struct {
		params string
		k      func(a, b []float64) float64
		lambda float64
		T      int
		seed   uint64
	}{
		{`"kernel":"rbf","gamma":2,"lambda":0.01,"T":3000,"seed":4`, func(a, b []float64) float64 { return math.Exp(-2 * sq(a, b)) }, 0.01, 3000, 4},
		{`"kernel":"poly","gamma":1,"coef0":1,"degree":2,"lambda":0.1,"T":57,"seed":0`, func(a, b []float64) float64 { return math.Pow(1+dot(a, b), 2) }, 0.1, 57, 0},
		{`"kernel":"laplace","gamma":0.5,"lambda":1,"T":1,"seed":9`, func(a, b []float64) float64 { return math.Exp(-0.5 * math.Sqrt(sq(a, b))) }, 1, 1, 9},
		{`"T":500`, dot, 0.01, 500, 1}, // the defaults: linear, λ 0.01, seed 1
	}
	for _, tt := range tests {
		t.Run(tt.params, func(t *testing.T) {
			r, err := fitKernelPegasosJSON(t, kpSet+`,"params":{`+tt.params+`},"predict":[[0,1],[2,2]]}`)
			if err != nil {
				t.Fatal(err)
			}
			want := kernelPegasosReference(tt.k, x, y, tt.lambda, tt.T, tt.seed)
			for i := range want {
				if !near(r.Alpha[i], want[i], 1e-12) {
					t.Fatalf("alpha = %v, want %v", r.Alpha, want)
				}
			}
			// λ ᾱᵀKᾱ + mean hinge, and f(x) = Σ ᾱᵢK(xᵢ, x) with no bias.
			var quad, hinge float64
			for i := range x {
				var ka float64
				for j := range x {
					ka += want[j] * tt.k(x[j], x[i])
				}
				quad += want[i] * ka
				hinge += math.Max(0, 1-y[i]*ka)
			}
			if obj := tt.lambda*quad + hinge/5; !near(r.Objective, obj, 1e-12) {
				t.Errorf("objective %v, want %v", r.Objective, obj)
			}
			for p, z := range [][]float64{{0, 1}, {2, 2}} {
				var f float64
				for i := range x {
					f += want[i] * tt.k(x[i], z)
				}
				if !near(r.Scores[p], f, 1e-12) {
					t.Errorf("scores[%d] = %v, want %v", p, r.Scores[p], f)
				}
			}
			if r.Iterations != tt.T || r.Algorithm != "kernel-pegasos" {
				t.Errorf("iterations %d, algorithm %q", r.Iterations, r.Algorithm)
			}
		})
	}
}

// TestKernelPegasosDefaults: no params is λ 0.01, T 2000, seed 1, the
// linear kernel; gamma 1, degree 2, coef0 1 for poly. Two runs agree
// bit for bit.
func TestKernelPegasosDefaults(t *testing.T) {
	for _, c := range []struct{ implicit, explicit string }{
		{`{}`, `{"lambda":0.01,"T":2000,"seed":1,"kernel":"linear"}`},
		{`{"kernel":"poly"}`, `{"kernel":"poly","gamma":1,"degree":2,"coef0":1}`},
		{`{"kernel":"rbf"}`, `{"kernel":"rbf","gamma":1}`},
	} {
		a, err := fitKernelPegasosJSON(t, kpSet+`,"params":`+c.implicit+`}`)
		if err != nil {
			t.Fatal(err)
		}
		b, err := fitKernelPegasosJSON(t, kpSet+`,"params":`+c.explicit+`}`)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Alpha, b.Alpha) || a.Objective != b.Objective || a.Iterations != 2000 || a.Kernel != b.Kernel {
			t.Errorf("%s = %+v, %s = %+v", c.implicit, a, c.explicit, b)
		}
	}
}

// TestKernelPegasosXOR: the RBF kernel separates XOR, which no line
// through the origin does.
func TestKernelPegasosXOR(t *testing.T) {
	r, err := fitKernelPegasosJSON(t, `{"algorithm":"kernel-pegasos","x":[[0,0],[1,1],[0,1],[1,0]],"y":[-1,-1,1,1],"params":{"kernel":"rbf","gamma":2,"T":5000},"predict":[[0,0],[1,1],[0,1],[1,0]]}`)
	if err != nil {
		t.Fatal(err)
	}
	if r.Scores[0] >= 0 || r.Scores[1] >= 0 || r.Scores[2] <= 0 || r.Scores[3] <= 0 || r.Kernel != "rbf" {
		t.Errorf("rbf on XOR: scores %v", r.Scores)
	}
}

func TestKernelPegasosErrors(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"sigmoid", kpSet + `,"params":{"kernel":"sigmoid"}}`, []string{"params.kernel", "not a kernel", "negative eigenvalues", "rbf"}},
		{"neg-sqdist", kpSet + `,"params":{"kernel":"neg-sqdist"}}`, []string{"not a kernel"}},
		{"unknown kernel", kpSet + `,"params":{"kernel":"tanh"}}`, []string{"params.kernel", `"laplace"`}},
		{"gamma", kpSet + `,"params":{"kernel":"rbf","gamma":0}}`, []string{"params.gamma", "> 0"}},
		{"coef0", kpSet + `,"params":{"kernel":"poly","coef0":-1}}`, []string{"params.coef0", "≥ 0"}},
		{"degree", kpSet + `,"params":{"kernel":"poly","degree":11}}`, []string{"params.degree", "1 to 10"}},
		{"lambda", kpSet + `,"params":{"lambda":-1}}`, []string{"params.lambda"}},
		{"T", kpSet + `,"params":{"T":0}}`, []string{"params.T", "1 to 10000000"}},
		{"unknown param", kpSet + `,"params":{"C":1}}`, []string{"known parameters", "lambda", "kernel", "coef0"}},
		{"labels", `{"algorithm":"kernel-pegasos","x":[[0],[1]],"y":[0,1]}`, []string{"-1 or +1"}},
		{"one class", `{"algorithm":"kernel-pegasos","x":[[0],[1]],"y":[1,1]}`, []string{"both classes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fitKernelPegasosJSON(t, tt.body)
			if !errors.Is(err, fitreq.ErrBadRequest) {
				t.Fatalf("error = %v, want a bad request", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error = %q, want it to mention %q", err, w)
				}
			}
		})
	}
	// "svm" refuses the non-kernels the same way.
	if _, err := fitSVMJSON(t, twoPoints+`,"params":{"kernel":"neg-sqdist"}}`); !errors.Is(err, fitreq.ErrBadRequest) || !strings.Contains(err.Error(), "not a kernel") {
		t.Errorf("svm with neg-sqdist: %v", err)
	}
}

func TestKernelPegasosOverflow(t *testing.T) {
	_, err := fitKernelPegasosJSON(t, `{"algorithm":"kernel-pegasos","x":[[1e200],[0]],"y":[1,-1],"params":{"kernel":"poly","degree":3}}`)
	if !errors.Is(err, fitreq.ErrUnprocessable) {
		t.Errorf("poly of 1e200: %v, want fitreq.ErrUnprocessable", err)
	}
	_, err = fitKernelPegasosJSON(t, `{"algorithm":"kernel-pegasos","x":[[1],[0]],"y":[1,-1],"predict":[[1e308]],"params":{"kernel":"poly","degree":3,"lambda":1e-12}}`)
	if !errors.Is(err, fitreq.ErrUnprocessable) || !strings.Contains(err.Error(), "predict[0]") {
		t.Errorf("score overflow: %v, want fitreq.ErrUnprocessable naming predict[0]", err)
	}
}

// TestKernelPegasosTrace: iterates k, 2k, … and T, at most 1000 of them
// and fewer for many rows (2n+4 numbers each), the last one the answer.
func TestKernelPegasosTrace(t *testing.T) {
	for _, c := range []struct{ T, n, every, entries int }{
		{1, 2, 1, 1}, {1000, 2, 1, 1000}, {1001, 2, 2, 501}, {12345, 4, 13, 950}, {100, 5000, 2, 50}, // 1e6/(2·5000+4) = 99 entries at most
	} {
		x := rows(`[1],[0]`, c.n/2)
		body := fmt.Sprintf(`{"algorithm":"kernel-pegasos","x":[%s],"y":[%s],"trace":true,"params":{"T":%d,"kernel":"rbf"}}`, x, rows("1,-1", c.n/2), c.T)
		r, err := fitKernelPegasosJSON(t, body)
		if err != nil {
			t.Fatal(err)
		}
		n := len(r.Trace)
		if r.TraceEvery != c.every || n != c.entries || r.Trace[n-1].T != c.T {
			t.Errorf("T %d n %d: every %d, %d entries; want every %d, %d entries", c.T, c.n, r.TraceEvery, n, c.every, c.entries)
			continue
		}
		if last := r.Trace[n-1]; !slices.Equal(last.Avg, r.Alpha) || len(last.Alpha) != c.n {
			t.Errorf("last trace entry's average %v, answer %v", last.Avg, r.Alpha)
		}
	}
}

// TestKernelPegasosWorkLimit: T over the limit is a 400 naming the most
// allowed, which is itself allowed; rows too costly for one iteration
// are a 400 saying to send fewer.
func TestKernelPegasosWorkLimit(t *testing.T) {
	cost := newKernelPegasosCost(svm.Kernel{Kind: svm.RBF, Gamma: 1}, 4000, 1, 0)
	most := cost.most()
	if most < 1 || cost.work(most) > MaxKernelPegasosWork || cost.work(most+1) <= MaxKernelPegasosWork {
		t.Fatalf("most = %d: work %.4g, next %.4g", most, cost.work(most), cost.work(most+1))
	}
	body := `{"algorithm":"kernel-pegasos","x":[` + rows(`[1],[0]`, 2000) + `],"y":[` + rows("1,-1", 2000) + `],"params":{"kernel":"rbf","T":%d}}`
	_, err := fitKernelPegasosJSON(t, fmt.Sprintf(body, most+1))
	if !errors.Is(err, fitreq.ErrBadRequest) || !strings.Contains(err.Error(), fmt.Sprintf("lower params.T to at most %d", most)) {
		t.Errorf("T = most+1: %v", err)
	}
	if !testing.Short() {
		if _, err := fitKernelPegasosJSON(t, fmt.Sprintf(body, most)); err != nil {
			t.Errorf("T = most = %d: %v", most, err)
		}
	}
	// 1000 rows of 1000 features: the Gram matrix alone is over the limit.
	wide := `{"algorithm":"kernel-pegasos","x":[` + rows(`[`+rows("1", 1000)+`],[`+rows("0", 1000)+`]`, 500) + `],"y":[` + rows("1,-1", 500) + `],"params":{"T":1}}`
	if _, err := fitKernelPegasosJSON(t, wide); !errors.Is(err, fitreq.ErrBadRequest) || !strings.Contains(err.Error(), "send fewer rows") {
		t.Errorf("1000×1000: %v", err)
	}
	// Every body the worst-case benchmark times is allowed.
	for name, body := range kernelPegasosWorstBodies() {
		req, err := fitreq.Decode(strings.NewReader(body))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var kpp kernelPegasosParams
		json.Unmarshal(req.Params, &kpp)
		p, err := kpp.params()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c := newKernelPegasosCost(p.Kernel, len(req.X), len(req.X[0]), len(req.Predict)); c.work(p.T) > MaxKernelPegasosWork || c.most() != p.T {
			t.Errorf("%s: T %d, most %d", name, p.T, c.most())
		}
	}
}

func TestKernelPegasosContext(t *testing.T) {
	req, err := fitreq.Decode(strings.NewReader(kernelPegasosWorstBodies()["rbf-10000x1"]))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := run(ctx, req); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: %v, want context.Canceled", err)
	}
	// Live at the first look, over from the second: the run must look
	// again once it has started (how soon is a matter for benchmarks).
	if _, err := run(&endsAfterLooks{Context: context.Background(), live: 1}, req); !errors.Is(err, context.Canceled) {
		t.Errorf("ended mid-run: %v, want context.Canceled", err)
	}
}

// endsAfterLooks is a context whose Err is nil for its first live looks
// and context.Canceled after.
type endsAfterLooks struct {
	context.Context
	live  int32
	looks atomic.Int32
}

func (c *endsAfterLooks) Err() error {
	if c.looks.Add(1) > c.live {
		return context.Canceled
	}
	return nil
}

// kernelPegasosWorstBodies are the most expensive kernel-pegasos requests
// the limits allow, each at its largest T, with λ = 10 so that every
// iteration violates the margin and β fills up as fast as sampling
// allows: the most rows that keep the Gram matrix, and one more row, 2-D;
// the most rows, 1-D; the widest rows (1000 features, a 4 MB body) with
// the costliest kernel, with and without the Gram matrix; rows whose
// products are subnormal (slower); the most predict rows; and a trace.
func kernelPegasosWorstBodies() map[string]string {
	bodies := map[string]string{}
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		name    string
		n, d, m int
		kernel  string
		scale   float64
		trace   bool
	}{
		{"rbf-1000x2", 1000, 2, 0, `"rbf"`, 1, false},
		{"rbf-1001x2", 1001, 2, 0, `"rbf"`, 1, false},
		{"rbf-10000x1", fitreq.MaxN, 1, 0, `"rbf"`, 1, false},
		{"laplace-1000x550", 1000, 550, 0, `"laplace","gamma":0.001`, 1, false},
		{"laplace-2000x1000", 2000, 1000, 0, `"laplace","gamma":0.001`, 1, false},
		{"linear-1001x500-subnormal", 1001, 500, 0, `"linear"`, 1e-160, false},
		{"linear-1000x2-subnormal", 1000, 2, 0, `"linear"`, 1e-160, false},
		{"laplace-1000x550-subnormal", 1000, 550, 0, `"laplace","gamma":0.001`, 1e-160, false},
		{"poly-10000x1-predict", fitreq.MaxN, 1, fitreq.MaxPredict, `"poly","degree":10`, 1, false},
		{"rbf-10000x1-trace", fitreq.MaxN, 1, 0, `"rbf"`, 1, true},
	} {
		req := fitreq.Request{Algorithm: "kernel-pegasos", X: make([][]float64, c.n), Y: make([]float64, c.n), Predict: make([][]float64, c.m), Trace: c.trace}
		for i := range req.X {
			req.X[i] = make([]float64, c.d)
			for j := range req.X[i] {
				switch {
				case c.scale != 1: // 0 or 1e-160, to fit the body limit
					req.X[i][j] = float64(r.IntN(2)) * c.scale
				case c.d >= 100: // one digit, to fit the body limit
					req.X[i][j] = float64(r.IntN(10))
				default:
					req.X[i][j] = math.Round(r.NormFloat64()*100) / 100
				}
			}
			req.Y[i] = float64(1 - 2*(i%2))
		}
		for i := range req.Predict {
			req.Predict[i] = []float64{r.NormFloat64()}
		}
		var kpp kernelPegasosParams
		json.Unmarshal([]byte(`{"kernel":`+c.kernel+`}`), &kpp)
		p, _ := kpp.params()
		most := newKernelPegasosCost(p.Kernel, c.n, c.d, c.m).most()
		req.Params = json.RawMessage(fmt.Sprintf(`{"kernel":%s,"lambda":10,"T":%d}`, c.kernel, most))
		b, _ := json.Marshal(req)
		bodies[c.name] = string(b)
	}
	return bodies
}

// BenchmarkKernelPegasosWorst times kernelPegasosWorstBodies from body
// to encoded answer (without HTTP); its numbers are in the README.
func BenchmarkKernelPegasosWorst(b *testing.B) {
	for name, body := range kernelPegasosWorstBodies() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := fitKernelPegasosJSON(b, body)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestKernelPegasosWorstCPU prints the CPU time of every worst-case body,
// one run each, with MARGIN_WORST_CPU=1 (as TestWorstCPU does).
func TestKernelPegasosWorstCPU(t *testing.T) {
	if os.Getenv("MARGIN_WORST_CPU") == "" {
		t.Skip("set MARGIN_WORST_CPU=1")
	}
	all := kernelPegasosWorstBodies()
	for _, name := range slices.Sorted(maps.Keys(all)) {
		var before, after syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &before)
		start := time.Now()
		r, err := fitKernelPegasosJSON(t, all[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out, _ := json.Marshal(r)
		wall := time.Since(start)
		syscall.Getrusage(syscall.RUSAGE_SELF, &after)
		cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
		fmt.Printf("%-30s cpu %6.3f s  wall %6.3f s  body %5.2f MB  answer %5.2f MB  T = %d\n",
			name, cpu.Seconds(), wall.Seconds(), float64(len(all[name]))/1e6, float64(len(out))/1e6, r.Iterations)
		runtime.GC()
	}
}
