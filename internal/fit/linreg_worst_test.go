package fit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLinearRegressionLimits: the work limit refuses, before any work,
// a request it cannot afford, naming the limit and what to send instead.
func TestLinearRegressionLimits(t *testing.T) {
	exact := linRegSetup{}
	if w, _ := linRegWork(exact, 750, 750, 0); w <= MaxLinRegWork {
		t.Fatalf("a 750×750 exact solve is within the limit (%.3g); the test needs one that is not", w)
	}
	x, y := regressionData(750, 750, 6)
	req := Request{Algorithm: "linear-regression", X: x, Y: y}
	start := time.Now()
	_, err := Run(context.Background(), req)
	if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), "1.5e+09") || !strings.Contains(err.Error(), "at most") {
		t.Errorf("750×750: %v; want a bad request naming the limit", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Logf("the refusal took %v (it should come before any work)", time.Since(start))
	}
	req.Params = json.RawMessage(`{"solver":"gd","iters":100000}`)
	x, y = regressionData(2000, 10, 7)
	req.X, req.Y = x, y
	_, err = Run(context.Background(), req)
	if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), "lower params.iters to at most") {
		t.Errorf("gd 2000×10 with 100000 iterations: %v; want a bad request naming the most iterations", err)
	}
}

// linRegWorstBodies are the largest requests the limits allow, found from
// the cost model along its boundary within the 4 MiB body (at most about
// 2·10⁶ one-digit numbers): the exact solver on the largest square
// design, tall (3300 rows) and wide (1000 features) ones, and the row
// limit; gd with the most iterations at the row limit with one feature,
// on 2000×600 and, with a trace, on 10000×200 (η tiny, so that it runs
// every iteration).
func linRegWorstBodies() map[string]string {
	body := func(n, d int, params string, trace bool) string {
		r := rand.New(rand.NewPCG(uint64(n), uint64(d)))
		x, y := make([][]int, n), make([]int, n)
		for i := range x {
			x[i], y[i] = make([]int, d), r.IntN(10)
			for j := range x[i] {
				x[i][j] = r.IntN(10)
			}
		}
		xs, _ := json.Marshal(x)
		ys, _ := json.Marshal(y)
		return fmt.Sprintf(`{"algorithm":"linear-regression","x":%s,"y":%s,"params":%s,"trace":%v}`, xs, ys, params, trace)
	}
	exact := func(n, d int) bool { w, _ := linRegWork(linRegSetup{}, n, d, 0); return w <= MaxLinRegWork }
	gd := func(n, d int) string {
		_, most := linRegWork(linRegSetup{gd: true, intercept: true, iters: 1}, n, d, 0)
		return fmt.Sprintf(`{"solver":"gd","eta":1e-9,"iters":%d}`, min(most, MaxLinRegIters))
	}
	sq := sort.Search(MaxD+1, func(k int) bool { return !exact(k, k) }) - 1
	tall := min(sort.Search(MaxD+1, func(d int) bool { return !exact(3300, d) })-1, 2000000/3300)
	wide := sort.Search(MaxD+1, func(n int) bool { return !exact(n, MaxD) }) - 1
	return map[string]string{
		"exact-square":       body(sq, sq, `{}`, false),
		"exact-tall":         body(3300, tall, `{}`, false),
		"exact-wide":         body(wide, MaxD, `{"lambda":0.01}`, false),
		"exact-rows":         body(MaxN, 200, `{"fit_intercept":false}`, false),
		"gd-rows":            body(MaxN, 1, gd(MaxN, 1), false),
		"gd-2000x600":        body(2000, 600, gd(2000, 600), false),
		"gd-10000x200-trace": body(MaxN, 200, gd(MaxN, 200), true),
	}
}

// answerBody decodes, fits and encodes one request, as the server does
// without HTTP.
func answerBody(body string) (*LinearRegressionResponse, []byte, error) {
	req, err := Decode(strings.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	resp, err := Run(context.Background(), req)
	if err != nil {
		return nil, nil, err
	}
	out, err := json.Marshal(resp)
	return resp.(*LinearRegressionResponse), out, err
}

// BenchmarkLinearRegressionWorst times linRegWorstBodies from body to
// encoded answer.
func BenchmarkLinearRegressionWorst(b *testing.B) {
	for name, body := range linRegWorstBodies() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := answerBody(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestLinearRegressionWorstCPU prints each worst request's CPU time,
// with MARGIN_WORST_CPU=1 (run it with GOMAXPROCS=1).
func TestLinearRegressionWorstCPU(t *testing.T) {
	if os.Getenv("MARGIN_WORST_CPU") == "" {
		t.Skip("set MARGIN_WORST_CPU=1")
	}
	for name, body := range linRegWorstBodies() {
		var before, after syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &before)
		start := time.Now()
		r, out, err := answerBody(body)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		wall := time.Since(start)
		syscall.Getrusage(syscall.RUSAGE_SELF, &after)
		cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
		iters := 0
		if r.Iterations != nil {
			iters = *r.Iterations
		}
		fmt.Printf("%-20s d=%-4d cpu %6.3f s  wall %6.3f s  body %5.2f MB  answer %5.2f MB  iterations %d\n",
			name, len(r.W), cpu.Seconds(), wall.Seconds(), float64(len(body))/1e6, float64(len(out))/1e6, iters)
	}
}
