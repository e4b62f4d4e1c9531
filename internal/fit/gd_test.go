package fit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/gd"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

func fitGDJSON(t testing.TB, body string) (*GDResponse, error) { return fitAs[*GDResponse](t, body) }

// gdDirect runs the package's stepper to its end and returns every state.
func gdDirect(t *testing.T, m algos.Method[gd.State], init func([]float64) (gd.State, error), x0 []float64) []gd.State {
	t.Helper()
	s, err := init(x0)
	if err != nil {
		t.Fatal(err)
	}
	states := []gd.State{s}
	for !m.Status(s).Done() {
		s = m.Step(s)
		states = append(states, s)
	}
	return states
}

// gdCheckTrace compares a response with the states of a direct run.
func gdCheckTrace(t *testing.T, name string, r *GDResponse, states []gd.State) {
	t.Helper()
	last := states[len(states)-1]
	if !slices.Equal(r.X, last.X) || r.F != last.F || r.GradNorm != last.GradNorm || r.Iterations != last.K || r.F0 != states[0].F {
		t.Errorf("%s: answer x=%v f=%v k=%d, direct run x=%v f=%v k=%d", name, r.X, r.F, r.Iterations, last.X, last.F, last.K)
	}
	if len(r.Trace) != len(states)-1 {
		t.Fatalf("%s: trace has %d entries, want %d", name, len(r.Trace), len(states)-1)
	}
	for i, st := range r.Trace {
		s := states[i+1]
		if st.K != s.K || !slices.Equal(st.X, s.X) || st.F != s.F || st.GradNorm != s.GradNorm || st.Eta != s.Eta {
			t.Fatalf("%s: trace[%d] = %+v, direct state %+v", name, i, st, s)
		}
	}
}

const gdQuad = `{"algorithm":"gd","params":{"objective":"quadratic","A":[[3,1],[1,2]],"c":[1,-1]`

func TestGDQuadratic(t *testing.T) {
	q, err := gd.NewQuadratic([][]float64{{3, 1}, {1, 2}}, []float64{1, -1})
	if err != nil {
		t.Fatal(err)
	}
	L := (5 + math.Sqrt(5)) / 2 // the larger root of λ² − 5λ + 5
	for _, c := range []struct {
		params string
		g      *gd.GD
	}{
		{`}}`, &gd.GD{F: q, Eta: 1 / q.L(), Iters: 100}},
		{`,"eta":0.3,"iters":40,"x0":[2,-5]}}`, &gd.GD{F: q, Eta: 0.3, Iters: 40}},
		{`,"eta":0.5,"iters":30,"schedule":"exp-decay","decay":0.9}}`, &gd.GD{F: q, Eta: 0.5, Iters: 30, Schedule: gd.Schedule{Kind: gd.ExpDecay, Decay: 0.9}}},
		{`,"eta":0.5,"iters":30,"schedule":"warmup-linear","warmup":10}}`, &gd.GD{F: q, Eta: 0.5, Iters: 30, Schedule: gd.Schedule{Kind: gd.WarmupLinear, Warmup: 10}}},
		{`,"method":"newton","iters":3}}`, &gd.GD{F: q, Method: gd.Newton, Iters: 3}},
		{`,"iters":1000,"tol":1e-9}}`, &gd.GD{F: q, Eta: 1 / q.L(), Iters: 1000, Tol: 1e-9}},
	} {
		r, err := fitGDJSON(t, gdQuad+c.params)
		if err != nil {
			t.Fatalf("%s: %v", c.params, err)
		}
		x0 := []float64{0, 0}
		if strings.Contains(c.params, "x0") {
			x0 = []float64{2, -5}
		}
		gdCheckTrace(t, c.params, r, gdDirect(t, c.g, c.g.Init, x0))
		if math.Abs(r.L-L) > 1e-14 || r.Objective != "quadratic" || r.Method != c.g.Method.String() || r.TraceEvery != 1 {
			t.Errorf("%s: L = %v (want %v), objective %q, method %q, trace_every %d", c.params, r.L, L, r.Objective, r.Method, r.TraceEvery)
		}
	}
	// Newton lands on x* = A⁻¹c = (3, −5)/5 in one step; tol stops GD early.
	r, _ := fitGDJSON(t, gdQuad+`,"method":"newton","iters":1}}`)
	if math.Abs(r.X[0]-0.6) > 1e-15 || math.Abs(r.X[1]+0.8) > 1e-15 || r.Eta != 0 || r.Trace[0].Eta != 1 {
		t.Errorf("one Newton step: x = %v (eta %v), want (0.6, −0.8)", r.X, r.Eta)
	}
	r, _ = fitGDJSON(t, gdQuad+`,"iters":1000,"tol":1e-9}}`)
	if r.Status != "converged" || r.Iterations >= 1000 || r.GradNorm >= 1e-9 {
		t.Errorf("tol 1e-9: %s after %d iterations with ‖∇f‖ = %v", r.Status, r.Iterations, r.GradNorm)
	}
}

const gdData = `"x":[[0,1],[1,0.5],[2,2],[3,1],[4,3],[1,2]],"y":[%s]`

func TestGDData(t *testing.T) {
	x := [][]float64{{0, 1}, {1, 0.5}, {2, 2}, {3, 1}, {4, 3}, {1, 2}}
	yReal := []float64{1, 2.5, 2, 4, 5.5, 1}
	yPM := []float64{-1, 1, -1, 1, 1, -1}
	ls, _ := gd.NewLeastSquares(x, yReal, 0)
	ridge, _ := gd.NewLeastSquares(x, yReal, 0.3)
	lg, _ := gd.NewLogistic(x, yPM, 0.01)
	lg0, _ := gd.NewLogistic(x, yPM, 0)
	sgdLS := &gd.SGD{F: ls, Eta: 0.02, Batch: 2, Seed: 7, Iters: 50}
	sgdLg := &gd.SGD{F: lg, Eta: 0.5, Batch: 1, Seed: 1, Iters: 60, Schedule: gd.Schedule{Kind: gd.ExpDecay, Decay: gd.DefaultDecay}}
	for _, c := range []struct {
		name, y, params string
		m               algos.Method[gd.State]
		init            func([]float64) (gd.State, error)
	}{
		{"least squares", "1,2.5,2,4,5.5,1", `"objective":"least-squares","eta":0.02,"iters":50`, &gd.GD{F: ls, Eta: 0.02, Iters: 50}, nil},
		{"ridge default eta", "1,2.5,2,4,5.5,1", `"objective":"least-squares","lambda":0.3`, &gd.GD{F: ridge, Eta: 1 / ridge.L(), Iters: 100}, nil},
		{"logistic ±1", "-1,1,-1,1,1,-1", `"objective":"logistic","eta":0.5,"iters":80`, &gd.GD{F: lg, Eta: 0.5, Iters: 80}, nil},
		{"logistic 0/1", "0,1,0,1,1,0", `"objective":"logistic","eta":0.5,"iters":80`, &gd.GD{F: lg, Eta: 0.5, Iters: 80}, nil},
		{"logistic newton", "0,1,0,1,1,0", `"objective":"logistic","method":"newton","iters":6`, &gd.GD{F: lg, Method: gd.Newton, Iters: 6}, nil},
		{"logistic λ=0", "0,1,0,1,1,0", `"objective":"logistic","lambda":0,"eta":2,"iters":30`, &gd.GD{F: lg0, Eta: 2, Iters: 30}, nil},
		{"mini-batch", "1,2.5,2,4,5.5,1", `"objective":"least-squares","eta":0.02,"iters":50,"batch":2,"seed":7`, sgdLS, sgdLS.Init},
		{"sgd", "-1,1,-1,1,1,-1", `"objective":"logistic","eta":0.5,"iters":60,"batch":1,"schedule":"exp-decay"`, sgdLg, sgdLg.Init},
	} {
		body := fmt.Sprintf(`{"algorithm":"gd",`+gdData+`,"params":{%s}}`, c.y, c.params)
		r, err := fitGDJSON(t, body)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		init := c.init
		if init == nil {
			init = c.m.(*gd.GD).Init
		}
		gdCheckTrace(t, c.name, r, gdDirect(t, c.m, init, []float64{0, 0, 0}))
	}
}

func TestGDThinTrace(t *testing.T) {
	r, err := fitGDJSON(t, gdQuad+`,"eta":0.1,"iters":25000}}`)
	if err != nil {
		t.Fatal(err)
	}
	// 10000 entries at most: every third iteration, and the last.
	if r.TraceEvery != 3 || len(r.Trace) != 8334 || r.Trace[len(r.Trace)-1].K != 25000 {
		t.Fatalf("trace_every %d, %d entries, last k %d; want 3, 8334, 25000", r.TraceEvery, len(r.Trace), r.Trace[len(r.Trace)-1].K)
	}
	for i, s := range r.Trace[:len(r.Trace)-1] {
		if s.K != 3*(i+1) {
			t.Fatalf("trace[%d].k = %d, want %d", i, s.K, 3*(i+1))
		}
	}
	// Wide data (one row of 200 features, d = 201): MaxTraceNumbers/(d+4)
	// = 4878 entries at most, so every second iteration of 5000.
	row := strings.TrimSuffix(strings.Repeat("0.01,", 200), ",")
	r, err = fitGDJSON(t, `{"algorithm":"gd","x":[[`+row+`]],"y":[1],"params":{"objective":"least-squares","iters":5000}}`)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.Trace) * (201 + 4); n > MaxTraceNumbers || r.TraceEvery != 2 || len(r.Trace) != 2500 {
		t.Errorf("d = 201: trace of %d entries (every %d) holds %d numbers; want 2500 entries within %d", len(r.Trace), r.TraceEvery, n, MaxTraceNumbers)
	}
}

func TestGDDiverges(t *testing.T) {
	L := (5 + math.Sqrt(5)) / 2
	_, err := fitGDJSON(t, gdQuad+fmt.Sprintf(`,"eta":%v,"iters":100000}}`, 2.05/L))
	if !errors.Is(err, ErrUnprocessable) || !strings.Contains(err.Error(), "diverged") || !strings.Contains(err.Error(), fmt.Sprintf("2/L = %.4g", 2/L)) {
		t.Errorf("η = 2.05/L: %v; want a 422 naming 2/L", err)
	}
	_, err = fitGDJSON(t, `{"algorithm":"gd","params":{"objective":"quadratic","A":[[1,0],[0,-1]],"x0":[1,1],"eta":0.1,"iters":100000}}`)
	if !errors.Is(err, ErrUnprocessable) || !strings.Contains(err.Error(), "negative eigenvalue") {
		t.Errorf("indefinite A: %v; want a 422 naming the negative eigenvalue", err)
	}
	_, err = fitGDJSON(t, `{"algorithm":"gd","x":[[1]],"y":[1e300],"params":{"objective":"least-squares"}}`)
	if !errors.Is(err, ErrUnprocessable) {
		t.Errorf("y = 1e300: %v; want a 422", err)
	}
}

func TestGDBadRequests(t *testing.T) {
	data := `"x":[[1],[2]],"y":[1,-1]`
	for _, c := range []struct{ body, want string }{
		{`"params":{}`, "params.objective is missing"},
		{`"params":{"objective":"cubic"}`, `params.objective is "cubic"`},
		{`"params":{"objective":"quadratic"}`, "params.A is missing"},
		{`"params":{"objective":"quadratic","A":[[1,2]]}`, "params.A[0] has 2 entries"},
		{`"params":{"objective":"quadratic","A":[[1,2],[3,1]]}`, "params.A is not symmetric"},
		{`"params":{"objective":"quadratic","A":[[1e300]]}`, "params.A[0][0]"},
		{`"params":{"objective":"quadratic","A":[[1]],"c":[1,2]}`, "params.c has 2"},
		{`"params":{"objective":"quadratic","A":[[1]],"x0":[1,2]}`, "params.x0 has 2"},
		{`"params":{"objective":"quadratic","A":[[1]],"x0":[-1e13]}`, "params.x0[0]"},
		{`"params":{"objective":"quadratic","A":[[1]],"lambda":1}`, "params.lambda"},
		{`"params":{"objective":"quadratic","A":[[1]],"eta":0}`, "params.eta is 0"},
		{`"params":{"objective":"quadratic","A":[[1]],"eta":-1}`, "params.eta is -1"},
		{`"params":{"objective":"quadratic","A":[[1]],"iters":0}`, "params.iters is 0"},
		{`"params":{"objective":"quadratic","A":[[1]],"iters":1000001}`, "params.iters is 1000001"},
		{`"params":{"objective":"quadratic","A":[[1]],"schedule":"cosine"}`, "params.schedule"},
		{`"params":{"objective":"quadratic","A":[[1]],"schedule":"exp-decay","decay":0}`, "params.decay is 0"},
		{`"params":{"objective":"quadratic","A":[[1]],"schedule":"exp-decay","decay":1.5}`, "params.decay is 1.5"},
		{`"params":{"objective":"quadratic","A":[[1]],"decay":0.5}`, "params.decay applies only"},
		{`"params":{"objective":"quadratic","A":[[1]],"schedule":"warmup-linear","warmup":101}`, "params.warmup is 101"},
		{`"params":{"objective":"quadratic","A":[[1]],"method":"adam"}`, "params.method"},
		{`"params":{"objective":"quadratic","A":[[1]],"method":"newton","eta":1}`, `apply only to method "gd"`},
		{`"params":{"objective":"quadratic","A":[[1]],"tol":-1}`, "params.tol"},
		{`"params":{"objective":"quadratic","A":[[1]],"momentum":0.9}`, "known parameters"},
		{`"params":{"objective":"quadratic","A":[[-1]]}`, "params.eta has no default"},
		{`"x":[[1]],"params":{"objective":"quadratic","A":[[1]]}`, `do not apply to objective "quadratic"`},
		{`"params":{"objective":"least-squares"}`, `"x" is empty`},
		{data + `,"params":{"objective":"least-squares","A":[[1]]}`, "params.A and params.c"},
		{data + `,"params":{"objective":"least-squares","lambda":-1}`, "params.lambda is -1"},
		{data + `,"params":{"objective":"least-squares","batch":3}`, "params.batch is 3"},
		{data + `,"params":{"objective":"least-squares","batch":0}`, "params.batch is 0"},
		{data + `,"params":{"objective":"least-squares","x0":[1]}`, "params.x0 has 1"},
		{data + `,"predict":[[1]],"params":{"objective":"least-squares"}`, `"predict" does not apply`},
		{`"x":[[1],[2]],"y":[1,2],"params":{"objective":"logistic"}`, `"y[1]" is 2`},
		{`"x":[[1],[2]],"y":[0,-1],"params":{"objective":"logistic"}`, `"y[1]" is -1`},
	} {
		_, err := fitGDJSON(t, `{"algorithm":"gd",`+c.body+`}`)
		if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want a bad request mentioning %q", c.body, err, c.want)
		}
	}
}

func TestGDBudget(t *testing.T) {
	body := `{"algorithm":"gd","x":[` + rows("[1]", 1000) + `],"y":[` + rows("1", 1000) + `],"params":{"objective":"least-squares","iters":1000000}}`
	_, err := fitGDJSON(t, body)
	if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), "lower params.iters to at most") {
		t.Errorf("1000 rows, 1000000 iterations: %v; want a bad request naming the most iterations", err)
	}
	// The defaults fit at the largest quadratic, and so does the most the
	// message offers.
	pr := &gdProblem{name: "quadratic", d: MaxGDDim, iters: 100}
	work, most := gdWork(pr)
	if work > MaxGDWork {
		t.Errorf("defaults at d = %d cost %.3g > MaxGDWork", MaxGDDim, work)
	}
	pr.iters = most
	if work, _ := gdWork(pr); work > MaxGDWork || most < 100 {
		t.Errorf("iters = most = %d costs %.3g", most, work)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := Decode(strings.NewReader(gdQuad + `}}`))
	if _, err := Run(ctx, req); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v, want context.Canceled", err)
	}
}

// gdWorstBodies are the most expensive requests the limits allow, each at
// the most iterations gdWork lets through: the largest quadratic, on
// ordinary numbers and on ones whose products are subnormal (slow on
// every x86: a·x with x₀ = 1e-310, and 1e-160·1e-160 at the largest d
// whose A fits a body); Newton on the largest quadratic that allows a
// step, with an indefinite A (the eigendecomposition fallback); least
// squares and logistic regression on the widest data a body holds (2000
// rows of 999 one-digit features), by full gradient, by mini-batches of
// n − 1 and by Newton, and least squares on 1e-160 features; and a 2-D
// quadratic for a million iterations (per-step overhead, a full trace).
func gdWorstBodies() map[string]string {
	most := func(pr *gdProblem) int { _, m := gdWork(pr); return min(m, MaxGDIters) }
	matrix := func(d int, entry func(i, j int) string) string {
		a := make([]string, d)
		for i := range a {
			row := make([]string, d)
			for j := range row {
				row[j] = entry(i, j)
			}
			a[i] = "[" + strings.Join(row, ",") + "]"
		}
		return "[" + strings.Join(a, ",") + "]"
	}
	banded := func(sign bool) func(i, j int) string { // one digit each, so that d = 1000 fits a body
		return func(i, j int) string {
			switch {
			case i == j && sign && i%2 == 1:
				return fmt.Sprint(-3 - i%5)
			case i == j:
				return fmt.Sprint(3 + i%5)
			case i == j+1 || j == i+1:
				return "1"
			}
			return "0"
		}
	}
	quad := func(a string, d int, params string, m gd.Method) string {
		return fmt.Sprintf(`{"algorithm":"gd","params":{"objective":"quadratic","A":%s,%s"iters":%d}}`,
			a, params, most(&gdProblem{name: "quadratic", d: d, method: m}))
	}
	fill := func(d int, v string) string { return "[" + rows(v, d) + "]" }
	bodies := map[string]string{}
	d := MaxGDDim
	bodies["quadratic-1000"] = quad(matrix(d, banded(false)), d, `"eta":0.1,`, gd.Gradient)
	bodies["quadratic-1000-subnormal"] = quad(matrix(d, func(i, j int) string { return "1" }), d, `"eta":1e-6,"x0":`+fill(d, "1e-310")+",", gd.Gradient)
	bodies["quadratic-760-tiny"] = quad(matrix(760, func(i, j int) string { return "1e-160" }), 760, `"eta":1e-6,"x0":`+fill(760, "1e-160")+",", gd.Gradient)
	for d = MaxGDDim; most(&gdProblem{name: "quadratic", d: d, method: gd.Newton}) < 1; d -= 10 {
	}
	bodies[fmt.Sprintf("newton-indefinite-%d", d)] = quad(matrix(d, banded(true)), d, `"method":"newton",`, gd.Newton)
	data := func(name, obj string, n, p int, v string, batch int, m gd.Method) {
		// The first feature varies, so that the two classes overlap.
		x := "[" + rows("["+rows(v, p)+"]", n) + "]"
		x = strings.Replace(x, "["+v+",", "[2,", n/3)
		y := "[" + rows("1,-1", n/2) + "]"
		pr := &gdProblem{name: obj, n: n, d: p + 1, batch: batch, method: m, lambda: 0.01}
		params := `"eta":1e-4,"x0":` + fill(p+1, v) + ","
		switch {
		case m == gd.Newton:
			params = `"method":"newton",`
		case batch > 0:
			params += fmt.Sprintf(`"batch":%d,`, batch)
		}
		if it := most(pr); it >= 1 {
			bodies[name] = fmt.Sprintf(`{"algorithm":"gd","x":%s,"y":%s,"params":{"objective":%q,"lambda":0.01,%s"iters":%d}}`, x, y, obj, params, it)
		}
	}
	data("least-squares", "least-squares", 2000, 999, "1", 0, gd.Gradient)
	data("least-squares-batch", "least-squares", 2000, 999, "1", 1999, gd.Gradient)
	data("least-squares-tiny", "least-squares", 1000, 570, "1e-160", 0, gd.Gradient)
	data("logistic", "logistic", 2000, 999, "1", 0, gd.Gradient)
	data("logistic-batch", "logistic", 2000, 999, "1", 1999, gd.Gradient)
	for p := 999; ; p -= 20 { // the widest data that allow a Newton step
		if _, m := gdWork(&gdProblem{name: "logistic", n: 2000, d: p + 1, method: gd.Newton}); m >= 1 {
			data("logistic-newton", "logistic", 2000, p, "1", 0, gd.Newton)
			break
		}
	}
	bodies["quadratic-2d-1e6"] = gdQuad + `,"eta":0.1,"iters":1000000}}`
	return bodies
}

// BenchmarkGDWorst times the worst allowed requests from body to encoded
// answer (without HTTP); its numbers are in the report. cpu-ns/op is the
// process's CPU time, which other work on a busy machine inflates less
// than ns/op.
func BenchmarkGDWorst(b *testing.B) {
	for name, body := range gdWorstBodies() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var work float64 // gdWork's count, to compare with the CPU time
			if req, err := Decode(strings.NewReader(body)); err == nil {
				var pp gdParams
				if fitreq.StrictParams(req.Params, &pp, gdKnown) == nil {
					if pr, err := pp.problem(req); err == nil {
						work, _ = gdWork(pr)
					}
				}
			}
			start := gdCPUTime()
			defer func() {
				b.ReportMetric(float64(gdCPUTime()-start)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(work, "work/op")
			}()
			for b.Loop() {
				req, err := Decode(strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				resp, err := Run(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(resp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// gdCPUTime returns the process's user and system CPU time in nanoseconds.
func gdCPUTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
