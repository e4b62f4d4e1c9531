package fit

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// largest returns the largest k in [1, hi] for which ok(k), by bisection
// (ok is monotone), or 0.
func lrLargest(hi int, ok func(int) bool) int {
	lo := 0
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

func lrAllowed(n, d int, params string) bool {
	var lp logisticParams
	if err := json.Unmarshal([]byte(params), &lp); err != nil {
		panic(err)
	}
	set, err := lp.setup()
	if err != nil {
		panic(err)
	}
	_, err = newLogisticCost(n, d, MaxPredict, set).plan(set)
	return err == nil
}

// benchData returns n rows of d features: Gaussian blobs shifted by
// shift (separable for a large one), each number times scale (1e-160
// makes the Hessian's products subnormal, slow on x86), and labels in
// c classes (±1 when c = 0).
func lrBenchData(n, d, c int, shift, scale float64) ([][]float64, []float64) {
	r := rand.New(rand.NewPCG(uint64(n), uint64(d)))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		k := i % max(c, 2)
		y[i] = float64(k)
		if c == 0 {
			y[i] = float64(2*k - 1)
		}
		x[i] = make([]float64, d)
		for j := range x[i] {
			// Integers keep the body short: a request holds at most
			// about a million of them.
			v := math.Round(3 * (r.NormFloat64() + shift*float64(2*k-1)*float64(1-j%2)))
			x[i][j] = v * scale
		}
	}
	return x, y
}

// logisticWorstBodies are the most expensive shapes the limits allow, for
// each solver, on overlapping, separable and subnormal data.
func logisticWorstBodies(tb testing.TB) map[string]string {
	bodies := map[string]string{}
	add := func(name, params string, n, d, c int, shift, scale float64) {
		if d < 1 {
			return // no shape of n rows is allowed
		}
		x, y := lrBenchData(n, d, c, shift, scale)
		alg := "logistic-regression"
		if c > 0 {
			alg = "softmax-regression"
		}
		for m := 1000; ; m /= 2 { // as many predict rows as fit in the body
			b := lrBody(tb, alg, x, y, params, x[:min(m, n)], false)
			if len(b) <= MaxBody {
				bodies[name] = b
				return
			}
			if m == 0 {
				tb.Logf("%s: x alone is over %d bytes; skipped", name, MaxBody)
				return
			}
		}
	}
	// The body holds at most about MaxBody/5 short integers.
	bodyD := func(n int) int { return min(MaxD, MaxBody/(5*n)-1) }
	for _, n := range []int{MaxN, 1000, 300} {
		for _, c := range []struct{ kind, params string }{
			{"exact", `{"lambda":1e-9}`}, {"lambda0", `{"lambda":0}`}, {"gd-default-eta", `{"solver":"gd","iters":1}`},
		} {
			d := lrLargest(bodyD(n), func(d int) bool { return lrAllowed(n, d, c.params) })
			add(fmt.Sprintf("%s-n%d-d%d-separable", c.kind, n, d), c.params, n, d, 0, 3, 1)
			add(fmt.Sprintf("%s-n%d-d%d-overlap", c.kind, n, d), c.params, n, d, 0, 0.05, 1)
		}
		gd := func(iters int) string {
			return fmt.Sprintf(`{"solver":"gd","eta":0.001,"lambda":1e-9,"iters":%d}`, iters)
		}
		for _, d := range []int{1, bodyD(n)} {
			it := lrLargest(MaxLogisticIters, func(k int) bool { return lrAllowed(n, d, gd(k)) })
			add(fmt.Sprintf("gd-n%d-d%d-iters%d", n, d, it), gd(it), n, d, 0, 0.3, 1)
		}
		for _, c := range []int{2, 3, 10} {
			d := lrLargest(bodyD(n), func(d int) bool {
				_, err := newSoftmaxCost(n, d, c, MaxPredict).plan(n, d, c)
				return err == nil
			})
			add(fmt.Sprintf("softmax-c%d-n%d-d%d-separable", c, n, d), `{"lambda":1e-9}`, n, d, c, 3, 1)
			add(fmt.Sprintf("softmax-c%d-n%d-d%d-overlap", c, n, d), `{"lambda":1e-9}`, n, d, c, 0.05, 1)
		}
	}
	return bodies
}

func lrBenchBodies(b *testing.B, prefix func(string) bool) {
	bodies := logisticWorstBodies(b)
	names := make([]string, 0, len(bodies))
	for name := range bodies {
		if prefix(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		b.Run(name, func(b *testing.B) {
			cpu0 := lrCPUTime()
			for b.Loop() {
				req, err := Decode(strings.NewReader(bodies[name]))
				if err != nil {
					b.Fatal(err)
				}
				resp, err := Run(context.Background(), req)
				if err != nil {
					b.Log(err) // a refusal by the meter is a bounded answer too
				}
				if _, err := json.Marshal(resp); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(lrCPUTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// cpuTime is the process's user and system CPU time in nanoseconds: on a
// shared machine it measures the work better than the wall clock.
func lrCPUTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkLogisticWorst times the most expensive logistic-regression
// requests the limits allow, from body to encoded answer.
func BenchmarkLogisticWorst(b *testing.B) {
	lrBenchBodies(b, func(name string) bool { return !strings.HasPrefix(name, "softmax") })
}

// BenchmarkSoftmaxWorst does the same for softmax-regression.
func BenchmarkSoftmaxWorst(b *testing.B) {
	lrBenchBodies(b, func(name string) bool { return strings.HasPrefix(name, "softmax") })
}
