package fit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/margin-edu/margin/internal/fit/budget"
)

func gramJSON(t testing.TB, body string) (*GramResponse, error) {
	t.Helper()
	req, err := DecodeGram(strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	return Gram(context.Background(), req)
}

// TestGramRBF: (0,0), (1,0), (0,2) are 1, 4 and 5 apart squared, so with
// γ = 1 the off-diagonal entries are e⁻¹, e⁻⁴ and e⁻⁵, exactly.
func TestGramRBF(t *testing.T) {
	r, err := gramJSON(t, `{"kernel":"rbf","gamma":1,"x":[[0,0],[1,0],[0,2]]}`)
	if err != nil {
		t.Fatal(err)
	}
	e := math.Exp
	want := [][]float64{{1, e(-1), e(-4)}, {e(-1), 1, e(-5)}, {e(-4), e(-5), 1}}
	if fmt.Sprint(r.K) != fmt.Sprint(want) {
		t.Errorf("K = %v, want %v", r.K, want)
	}
	if len(r.Eigenvalues) != 3 || !slices.IsSorted(r.Eigenvalues) || !r.PSD || r.Eigenvalues[0] <= 0 {
		t.Errorf("eigenvalues %v, psd %v; want 3 ascending positive values", r.Eigenvalues, r.PSD)
	}
	if sum := r.Eigenvalues[0] + r.Eigenvalues[1] + r.Eigenvalues[2]; !near(sum, 3, 1e-12) {
		t.Errorf("Σλ = %v, want trace 3", sum)
	}
}

func TestGramKinds(t *testing.T) {
	tests := []struct {
		body string
		K    string
		eig  []float64
		psd  bool
	}{
		// The defaults: linear.
		{`{"x":[[1,0],[0,2]]}`, "[[1 0] [0 4]]", []float64{1, 4}, true},
		// poly with gamma 1, degree 2, coef0 1: (1 + x·z)².
		{`{"kernel":"poly","x":[[1],[-1]]}`, "[[4 0] [0 4]]", []float64{4, 4}, true},
		// tanh(x·z − 1) on 1 and −1: [[0, tanh −2], [tanh −2, 0]], λ = ±tanh 2.
		{`{"kernel":"sigmoid","gamma":1,"coef0":-1,"x":[[1],[-1]]}`, fmt.Sprint([][]float64{{0, math.Tanh(-2)}, {math.Tanh(-2), 0}}),
			[]float64{math.Tanh(-2), math.Tanh(2)}, false},
		// −‖x − z‖² on (0,0) and (3,4).
		{`{"kernel":"neg-sqdist","x":[[0,0],[3,4]]}`, "[[0 -25] [-25 0]]", []float64{-25, 25}, false},
		// poly with a negative coef0, degree 1: x·z − 1 at 0 is −1.
		{`{"kernel":"poly","degree":1,"coef0":-1,"x":[[0]]}`, "[[-1]]", []float64{-1}, false},
		// One point: its k(x, x).
		{`{"kernel":"laplace","gamma":3,"x":[[5,5,5]]}`, "[[1]]", []float64{1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			r, err := gramJSON(t, tt.body)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(r.K) != tt.K || r.PSD != tt.psd || len(r.Eigenvalues) != len(tt.eig) {
				t.Fatalf("K = %v, psd %v, eigenvalues %v; want %s, %v, %v", r.K, r.PSD, r.Eigenvalues, tt.K, tt.psd, tt.eig)
			}
			for i, want := range tt.eig {
				if !near(r.Eigenvalues[i], want, 1e-12) {
					t.Errorf("eigenvalues = %v, want %v", r.Eigenvalues, tt.eig)
				}
			}
		})
	}
}

func TestGramErrors(t *testing.T) {
	wide := `{"x":[[` + rows("1", MaxD+1) + `]]}`
	tall := `{"x":[` + rows("[1]", MaxGramN+1) + `]}`
	big := `{"kernel":"` + strings.Repeat("a", MaxBody) + `","x":[[1]]}`
	tests := []struct {
		name, body string
		want       []string
	}{
		{"not JSON", `{"x":[[1]]`, []string{"not the JSON object", `"kernel"`}},
		{"unknown field", `{"x":[[1]],"y":[1]}`, []string{`"y"`, "not the JSON object"}},
		{"trailing data", `{"x":[[1]]} {}`, []string{"after the JSON object"}},
		{"NaN", `{"x":[[NaN]]}`, []string{"not the JSON object"}},
		{"1e999", `{"x":[[1e999]]}`, []string{"1e999"}},
		{"null number", `{"x":[[1,null]]}`, []string{`"x[0][1]" is null`}},
		{"string number", `{"x":[["1"]]}`, []string{`"x[0][0]" is the string "1"`, "give a number"}},
		{"underflow", `{"x":[[1e-999]]}`, []string{`"x[0][0]" is 1e-999`, "underflows to 0"}},
		{"overflow", `{"x":[[2,-1e999]]}`, []string{`"x[0][1]" is -1e999`, "largest float64"}},
		{"null x", `{"x":null}`, []string{`"x" is null`}},
		{"null gamma", `{"gamma":null,"x":[[1]]}`, []string{`"gamma" is null`}},
		{"duplicate", `{"x":[[1]],"x":[[2]]}`, []string{`field "x" twice`}},
		{"case", `{"X":[[1]]}`, []string{`unknown field "X"`, `did you mean "x"`}},
		{"empty x", `{"x":[]}`, []string{`"x" is empty`, "1 to 1000 rows"}},
		{"missing x", `{"kernel":"rbf"}`, []string{`"x" is empty or missing`}},
		{"empty row", `{"x":[[]]}`, []string{"0 features", "1 to 1000"}},
		{"null row", `{"x":[[1],null]}`, []string{`"x[1]" is null`}},
		{"ragged", `{"x":[[1,2],[3]]}`, []string{`"x[1]" has 1 features`, "same length"}},
		{"too wide", wide, []string{`"x[0]" has more than 1000 features`}},
		{"too many rows", tall, []string{"more than 1000 rows", "at most 1000"}},
		{"body", big, []string{"larger than 4194304 bytes"}},
		{"kernel", `{"kernel":"tanh","x":[[1]]}`, []string{`"kernel" is "tanh"`, `"sigmoid"`, `"neg-sqdist"`}},
		{"gamma", `{"kernel":"rbf","gamma":0,"x":[[1]]}`, []string{`"gamma" is 0`, "> 0"}},
		{"gamma huge", `{"gamma":1e13,"x":[[1]]}`, []string{`"gamma"`, "1e+12"}},
		{"degree", `{"kernel":"poly","degree":11,"x":[[1]]}`, []string{`"degree" is 11`, "1 to 10"}},
		{"degree float", `{"kernel":"poly","degree":2.5,"x":[[1]]}`, []string{`"degree" is 2.5`, "an integer from 1 to 10"}},
		{"coef0", `{"kernel":"poly","coef0":-1e13,"x":[[1]]}`, []string{`"coef0"`, "-1e+12"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := gramJSON(t, tt.body)
			if !errors.Is(err, ErrBadRequest) {
				t.Fatalf("error = %v, want a bad request", err)
			}
			if len(err.Error()) > 600 {
				t.Errorf("error is %d bytes", len(err.Error()))
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error = %q, want it to mention %q", err, w)
				}
			}
		})
	}
}

// TestWriteJSON: WriteJSON's bytes are json.Encoder's, on every kind of
// float64 encoding/json formats differently.
func TestWriteJSON(t *testing.T) {
	edge := []float64{0, math.Copysign(0, -1), 1, -1.5, 1e-6, 9.99e-7, 1e-7, -1e-10, 1e20, 1e21, -1.2345e300,
		5e-324, -2.2e-308, 0.1, 1.0 / 3, 123456789, 1e-100, math.MaxFloat64, math.SmallestNonzeroFloat64}
	r := rand.New(rand.NewPCG(1, 1))
	for range 200 {
		edge = append(edge, math.Float64frombits(r.Uint64()&^(0x7ff<<52)|uint64(r.IntN(2046)+1)<<52))
	}
	for _, resp := range []*GramResponse{
		{K: [][]float64{edge[:7], edge[7:14]}, Eigenvalues: edge, PSD: true},
		{K: [][]float64{{1}}, Eigenvalues: []float64{1}},
		{},
	} {
		var want, got bytes.Buffer
		json.NewEncoder(&want).Encode(resp)
		if err := resp.WriteJSON(&got); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("WriteJSON = %.300s\nencoding/json = %.300s", got.String(), want.String())
		}
	}
}

func TestGramOverflow(t *testing.T) {
	_, err := gramJSON(t, `{"kernel":"poly","degree":10,"x":[[1e40],[1]]}`)
	if !errors.Is(err, ErrUnprocessable) || !strings.Contains(err.Error(), "overflowed") || !strings.Contains(err.Error(), "degree") {
		t.Errorf("poly of 1e40: %v, want ErrUnprocessable", err)
	}
}

// TestGramLimits: n = MaxGramN = 1000 rows of MaxD features is allowed
// (about 1 s), one row more is not: n = 2000 took 3.6–5 s.
func TestGramLimits(t *testing.T) {
	for _, c := range []struct {
		n, d int
		ok   bool
	}{{1000, 1000, true}, {1001, 1, false}, {2000, 2, false}, {1, MaxD, true}} {
		req := GramRequest{X: make([][]float64, c.n)}
		for i := range req.X {
			req.X[i] = make([]float64, c.d)
		}
		if err := req.validX(); (err == nil) != c.ok {
			t.Errorf("%d rows of %d: %v, want allowed %v", c.n, c.d, err, c.ok)
		}
	}
}

func TestGramContext(t *testing.T) {
	req, err := DecodeGram(strings.NewReader(`{"kernel":"rbf","x":[[0],[1]]}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Gram(ctx, req); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// gramWorstBodies are the costliest Gram requests the limits allow: the
// most rows (whose eigenvalues dominate), and the most n²·d at n = 1000
// with each kind, on one-digit numbers (to fit the body limit) and on
// numbers whose differences square to subnormals.
func gramWorstBodies() map[string]string {
	r := rand.New(rand.NewPCG(7, 8))
	body := func(kernel string, n, d int, x func() float64) string {
		var req map[string]any
		json.Unmarshal([]byte(kernel), &req)
		rows := make([][]float64, n)
		for i := range rows {
			rows[i] = make([]float64, d)
			for j := range rows[i] {
				rows[i][j] = x()
			}
		}
		req["x"] = rows
		b, _ := json.Marshal(req)
		return string(b)
	}
	normal := func() float64 { return math.Round(r.NormFloat64()*100) / 100 }
	digit := func() float64 { return float64(r.IntN(10)) }
	subnormal := func() float64 { return float64(r.IntN(2)) * 1e-160 }
	b := map[string]string{
		"rbf-1000x2":                body(`{"kernel":"rbf"}`, 1000, 2, normal),
		"rbf-1000x1000":             body(`{"kernel":"rbf","gamma":0.001}`, 1000, 1000, digit),
		"laplace-1000x1000":         body(`{"kernel":"laplace","gamma":0.001}`, 1000, 1000, digit),
		"sigmoid-1000x1000":         body(`{"kernel":"sigmoid","gamma":0.001}`, 1000, 1000, digit),
		"poly-1000x1000":            body(`{"kernel":"poly","gamma":0.001,"degree":10}`, 1000, 1000, digit),
		"neg-sqdist-1000x850-subn.": body(`{"kernel":"neg-sqdist"}`, 1000, 850, subnormal),
	}
	return b
}

// BenchmarkGramWorst times gramWorstBodies from body to encoded answer
// (without HTTP); its numbers are in the README.
func BenchmarkGramWorst(b *testing.B) {
	for _, name := range slices.Sorted(maps.Keys(gramWorstBodies())) {
		body := gramWorstBodies()[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := gramJSON(b, body)
				if err != nil {
					b.Fatal(err)
				}
				if err := r.WriteJSON(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// TestGramWorstCPU prints the CPU time of every worst-case Gram body,
// split into its phases, with MARGIN_WORST_CPU=1.
func TestGramWorstCPU(t *testing.T) {
	if os.Getenv("MARGIN_WORST_CPU") == "" {
		t.Skip("set MARGIN_WORST_CPU=1")
	}
	all := gramWorstBodies()
	cpu := func() time.Duration {
		var u syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &u)
		return time.Duration(u.Utime.Nano() + u.Stime.Nano())
	}
	for _, name := range slices.Sorted(maps.Keys(all)) {
		runtime.GC()
		c0, start := cpu(), time.Now()
		req, err := DecodeGram(strings.NewReader(all[name]))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c1 := cpu()
		r, err := Gram(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c2 := cpu()
		var out countWriter // as to a socket: nothing kept
		r.WriteJSON(&out)
		c3, wall := cpu(), time.Since(start)
		fmt.Printf("%-26s cpu %6.3f s (decode %5.3f, gram+eig %5.3f, encode %5.3f)  wall %6.3f s  body %5.2f MB  answer %6.2f MB  psd %v\n",
			name, (c3 - c0).Seconds(), (c1 - c0).Seconds(), (c2 - c1).Seconds(), (c3 - c2).Seconds(), wall.Seconds(),
			float64(len(all[name]))/1e6, float64(out)/1e6, r.PSD)
	}
}

// TestGramCPUBudget: the Gram matrix looks at its CPU budget every few
// milliseconds of work, not once it is built (issue 28: 10–14 s of
// subnormal products before the first look), and a spent budget is an
// error a server answers with 503 (context.DeadlineExceeded); a
// cancelled context stops it the same way.
func TestGramCPUBudget(t *testing.T) {
	defer func(was time.Duration) { gramMatrixCPU = was }(gramMatrixCPU)
	gramMatrixCPU = 2 * time.Millisecond
	r := rand.New(rand.NewPCG(28, 4))
	x := make([][]float64, MaxGramN)
	for i := range x {
		x[i] = make([]float64, 100)
		for j := range x[i] {
			x[i][j] = r.NormFloat64()
		}
	}
	kind := "rbf"
	start := cpu(t)
	_, err := Gram(context.Background(), GramRequest{Kernel: &kind, X: x})
	used := cpu(t) - start
	if !budget.IsSpent(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v; want the spent CPU budget", err)
	}
	if !raceDetector && used > 100*time.Millisecond {
		t.Errorf("%.3f s of CPU with a 2 ms budget; the matrix alone is about 0.1 s", used.Seconds())
	}
	gramMatrixCPU = time.Hour
	ctx := &leavingCtx{Context: context.Background(), looks: 2}
	if _, err := Gram(ctx, GramRequest{Kernel: &kind, X: x}); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "computing the matrix") {
		t.Fatalf("err = %v after cancel; want context.Canceled while computing the matrix", err)
	}
}

// leavingCtx is a context whose client leaves after looks calls of Err:
// a cancellation at a known point of the work, whatever the machine's
// speed.
type leavingCtx struct {
	context.Context
	looks int
}

func (c *leavingCtx) Err() error {
	if c.looks--; c.looks < 0 {
		return context.Canceled
	}
	return nil
}
