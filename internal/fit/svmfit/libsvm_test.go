package svmfit

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// This file holds the svm benchmarks: side by side with LIBSVM (make
// bench-svm) and the worst requests the limits allow.

// TestBenchAgainstLIBSVM times Margin's "svm" answer against Debian's
// svm-train on the same data (svm.NoisyData), C = 1, gamma = 1 and
// tolerance 1e-6, and fails when the two dual objectives differ by more
// than 1e-6 relative. It runs only with MARGIN_BENCH_SVM=1 (make
// bench-svm) and skips when svm-train is not installed, so make test
// never needs LIBSVM.
//
// Times are wall times, best of three: svm-train's includes starting the
// process and parsing its file; Margin's includes decoding the JSON
// request and encoding the answer (fit.Decode, fit.Run, json.Marshal).
func TestBenchAgainstLIBSVM(t *testing.T) {
	if os.Getenv("MARGIN_BENCH_SVM") == "" {
		t.Skip("set MARGIN_BENCH_SVM=1 to compare with LIBSVM (make bench-svm)")
	}
	train, err := exec.LookPath("svm-train")
	if err != nil {
		t.Skip("svm-train not installed (Debian: apt-get install libsvm-tools)")
	}
	dir := t.TempDir()
	const seed = 1
	fmt.Printf("\n%6s  %-6s  %9s  %9s  %6s  %16s  %16s  %8s  %11s  %11s\n",
		"n", "kernel", "LIBSVM s", "Margin s", "ratio", "LIBSVM dual", "Margin dual", "rel diff", "LIBSVM iter", "Margin iter")
	for _, n := range []int{1000, 5000} {
		x, y := svm.NoisyData(n, seed)
		file := filepath.Join(dir, fmt.Sprintf("noisy%d.svm", n))
		if err := writeLIBSVM(file, x, y); err != nil {
			t.Fatal(err)
		}
		for _, k := range []struct {
			name string
			flag string
		}{{"linear", "0"}, {"rbf", "2"}} {
			args := []string{"-t", k.flag, "-c", "1", "-g", "1", "-e", "1e-6", file, file + ".model"}
			var libTime time.Duration
			var libObj float64
			var libIter string
			for r := range 3 {
				start := time.Now()
				out, err := exec.Command(train, args...).CombinedOutput()
				el := time.Since(start)
				if err != nil {
					t.Fatalf("svm-train %v: %v\n%s", args, err, out)
				}
				if libObj, err = parseObj(out); err != nil {
					t.Fatal(err)
				}
				if m := iterRE.FindSubmatch(out); m != nil {
					libIter = string(m[1])
				}
				if r == 0 || el < libTime {
					libTime = el
				}
			}
			body := svmBody(x, y, fmt.Sprintf(`{"C":1,"kernel":%q,"gamma":1,"tol":1e-6}`, k.name))
			var ourTime time.Duration
			var resp *SVMResponse
			for r := range 3 {
				start := time.Now()
				req, err := fitreq.Decode(strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				out, err := run(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := json.Marshal(out); err != nil {
					t.Fatal(err)
				}
				el := time.Since(start)
				resp = out.(*SVMResponse)
				if r == 0 || el < ourTime {
					ourTime = el
				}
			}
			rel := math.Abs(resp.DualObjective-libObj) / math.Max(math.Abs(libObj), 1e-300)
			fmt.Printf("%6d  %-6s  %9.3f  %9.3f  %6.2f  %16.6f  %16.6f  %8.1e  %11s  %11d\n",
				n, k.name, libTime.Seconds(), ourTime.Seconds(), ourTime.Seconds()/libTime.Seconds(),
				libObj, resp.DualObjective, rel, libIter, resp.Iterations)
			if resp.Status != "converged" {
				t.Errorf("n = %d %s: status %q after %d iterations, want converged", n, k.name, resp.Status, resp.Iterations)
			}
			// svm-train prints obj with 6 decimals; allow for that rounding.
			if rel > 1e-6 && math.Abs(resp.DualObjective-libObj) > 5e-7 {
				t.Errorf("n = %d %s: dual objective %v, LIBSVM %v: relative difference %.2g > 1e-6",
					n, k.name, resp.DualObjective, libObj, rel)
			}
		}
	}
}

// writeLIBSVM writes x, y in LIBSVM's sparse text format, every number
// with enough digits to read back exactly.
func writeLIBSVM(path string, x [][]float64, y []int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for i, row := range x {
		fmt.Fprintf(w, "%+d", y[i])
		for j, v := range row {
			fmt.Fprintf(w, " %d:%s", j+1, strconv.FormatFloat(v, 'g', -1, 64))
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

var (
	objRE  = regexp.MustCompile(`obj = (-?[0-9.eE+-]+),`)
	iterRE = regexp.MustCompile(`#iter = ([0-9]+)`)
)

// parseObj reads the dual objective from svm-train's output.
func parseObj(out []byte) (float64, error) {
	m := objRE.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("no \"obj = \" in svm-train's output:\n%s", out)
	}
	return strconv.ParseFloat(string(m[1]), 64)
}

// svmBody is an "svm" request for x, y with the given params object.
func svmBody(x [][]float64, y []int, params string) string {
	yf := make([]float64, len(y))
	for i, v := range y {
		yf[i] = float64(v)
	}
	b, err := json.Marshal(fitreq.Request{Algorithm: "svm", Params: json.RawMessage(params), X: x, Y: yf})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// svmWorstBodies are the most expensive requests the limits allow, found
// by timing shapes at their default (largest) max_iter with a tolerance
// SMO never meets: many rows (the per-point work), the columns missing
// the cache (n > 5000), the full cache, wide rows, a full trace, many
// predict rows with a kernel, and the hard margin's separability test.
func svmWorstBodies() map[string]string {
	const never = `"C":1000,"tol":1e-300`
	b := map[string]string{
		"linear-10000x1":    worstBody("a", 10000, 1, never, false),
		"rbf-10000x2":       worstBody("b", 10000, 2, never+`,"kernel":"rbf","gamma":0.1`, false),
		"poly-10000x2":      worstBody("c", 10000, 2, never+`,"kernel":"poly","degree":10,"gamma":0.01`, false),
		"linear-5000x2":     worstBody("d", 5000, 2, never, false),
		"rbf-5000x2":        worstBody("e", 5000, 2, never+`,"kernel":"rbf","gamma":0.1`, false),
		"laplace-2000x1000": worstBody("f", 2000, 1000, never+`,"kernel":"laplace","gamma":0.001`, false),
		"rbf-trace-1000x2":  worstBody("g", 1000, 2, never+`,"kernel":"rbf","max_iter":125000`, true),
	}
	// Predict rows cost n kernel values each: 5000 rows on 5000 points.
	p := worstBody("h", 5000, 2, never+`,"kernel":"rbf","gamma":0.1`, false)
	b["rbf-predict-5000"] = strings.TrimSuffix(p, "}") + `,"predict":[` + rows(`[1,2]`, 5000) + `]}`
	// Separable data for the hard margin (standard normal features to two
	// decimals, but the first, ±(1…2)), at the most features the linear program's model
	// allows, and the polynomial kernel's largest feature space in 2-D
	// (66 monomials). The separable case is the linear program's slow one.
	var req fitreq.Request
	for name, h := range map[string]string{
		"hard-linear-10000x50":   worstBody("i", 10000, 50, `"hard":true`, false),
		"hard-poly-4000x2-deg10": worstBody("i", 4000, 2, `"hard":true,"kernel":"poly","degree":10,"gamma":0.1`, false),
	} {
		json.Unmarshal([]byte(h), &req)
		r := rand.New(rand.NewPCG(3, 4))
		for i, x := range req.X {
			for j := range x {
				x[j] = math.Round(r.NormFloat64()*100) / 100
			}
			x[0] = req.Y[i] * math.Round(100+100*r.Float64()) / 100
		}
		hb, _ := json.Marshal(req)
		b[name] = string(hb)
	}
	// Subnormal numbers (below 2.2e-308) are slow on x86. Two clusters
	// 26.8 apart make every kernel value across them exp(−718), subnormal,
	// and every gradient update multiplies by them; products of
	// coordinates near 1e-155 are subnormal too.
	r := rand.New(rand.NewPCG(9, 9))
	req = fitreq.Request{Algorithm: "svm", Params: json.RawMessage(`{` + never + `,"kernel":"rbf","gamma":1}`)}
	for i := range fitreq.MaxN {
		req.X = append(req.X, []float64{float64(i%2)*26.8 + r.Float64()*0.01, r.Float64() * 0.01})
		req.Y = append(req.Y, float64(1-2*r.IntN(2)))
	}
	sb, _ := json.Marshal(req)
	b["rbf-subnormal-10000x2"] = string(sb)
	json.Unmarshal([]byte(worstBody("j", 10000, 2, never, false)), &req)
	for _, x := range req.X {
		x[0], x[1] = 1e-154+x[0]*1e-155, 1e-154+x[1]*1e-155
	}
	sb, _ = json.Marshal(req)
	b["linear-subnormal-10000x2"] = string(sb)
	return b
}

// BenchmarkSVMWorst times svmWorstBodies from body to encoded answer
// (without HTTP); its numbers are in the README.
func BenchmarkSVMWorst(b *testing.B) {
	for name, body := range svmWorstBodies() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := fitSVMJSON(b, body)
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

// TestSVMWorstAllowed: every worst-case body is a request the limits
// allow (else the benchmark times a 400).
func TestSVMWorstAllowed(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	for name, body := range svmWorstBodies() {
		req, err := fitreq.Decode(strings.NewReader(body))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var sp svmParams
		json.Unmarshal(req.Params, &sp)
		p, err := sp.params()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cost := newSVMCost(p, len(req.X), len(req.X[0]), len(req.Predict))
		if most := cost.most(); most < 1 || p.MaxIter > most {
			t.Errorf("%s: most %d, max_iter %d: refused", name, most, p.MaxIter)
		}
	}
}

// TestWorstCPU prints the CPU time of every worst-case body, one run
// each, with MARGIN_WORST_CPU=1: on a machine shared with other jobs the
// benchmarks' wall times mostly measure the others, CPU time the fit.
func TestWorstCPU(t *testing.T) {
	if os.Getenv("MARGIN_WORST_CPU") == "" {
		t.Skip("set MARGIN_WORST_CPU=1")
	}
	all := map[string]string{}
	for name, body := range svmWorstBodies() {
		all["svm/"+name] = body
	}
	for name, body := range pegasosWorstBodies() {
		all["pegasos/"+name] = body
	}
	names := slices.Sorted(maps.Keys(all))
	for _, name := range names {
		var before, after syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &before)
		start := time.Now()
		req, err := fitreq.Decode(strings.NewReader(all[name]))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		resp, err := run(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out, _ := json.Marshal(resp)
		wall := time.Since(start)
		syscall.Getrusage(syscall.RUSAGE_SELF, &after)
		cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
		extra := ""
		if r, ok := resp.(*SVMResponse); ok {
			extra = fmt.Sprintf("%d iterations, %s", r.Iterations, r.Status)
		} else {
			extra = fmt.Sprintf("T = %d", resp.(*PegasosResponse).Iterations)
		}
		fmt.Printf("%-34s cpu %6.3f s  wall %6.3f s  body %5.2f MB  answer %5.2f MB  %s\n",
			name, cpu.Seconds(), wall.Seconds(), float64(len(all[name]))/1e6, float64(len(out))/1e6, extra)
		runtime.GC()
	}
}
