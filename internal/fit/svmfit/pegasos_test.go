package svmfit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/fit/fitreq"
)

func fitPegasosJSON(t testing.TB, body string) (*PegasosResponse, error) {
	return fitAs[*PegasosResponse](t, body)
}

const pegasosSet = `{"algorithm":"pegasos","x":[[0,0],[2,0],[0,1],[2,1],[1,3]],"y":[-1,1,-1,1,1]`

// pegasosReference is 001's procedure written out again from the notes:
// θ₁ = 0; W_t = θ_t/(2λt); i uniform from rand.NewPCG(seed, 0); θ += yᵢX̃ᵢ
// when yᵢ W_t·X̃ᵢ < 1; the answer is the average of W_1…W_T.
func pegasosReference(x [][]float64, y []float64, lambda float64, T int, seed uint64) (avg []float64) {
	d := len(x[0]) + 1
	theta, sum := make([]float64, d), make([]float64, d)
	r := rand.New(rand.NewPCG(seed, 0))
	for t := 1; t <= T; t++ {
		w := make([]float64, d)
		for k := range w {
			w[k] = theta[k] / (2 * lambda * float64(t))
		}
		i := r.IntN(len(x))
		xi := append(append([]float64(nil), x[i]...), 1)
		var m float64
		for k := range w {
			m += float64(w[k] * xi[k])
		}
		if y[i]*m < 1 {
			for k := range theta {
				theta[k] += y[i] * xi[k]
			}
		}
		for k := range sum {
			sum[k] += w[k]
		}
	}
	for k := range sum {
		sum[k] /= float64(T)
	}
	return sum
}

func TestPegasosReference(t *testing.T) {
	x := [][]float64{{0, 0}, {2, 0}, {0, 1}, {2, 1}, {1, 3}}
	y := []float64{-1, 1, -1, 1, 1}
	for _, c := range []struct {
		lambda float64
		T      int
		seed   uint64
	}{{0.01, 2000, 1}, {0.1, 37, 5}, {1, 1, 0}} {
		body := pegasosSet + fmt.Sprintf(`,"params":{"lambda":%v,"T":%d,"seed":%d},"predict":[[1,1]]}`, c.lambda, c.T, c.seed)
		r, err := fitPegasosJSON(t, body)
		if err != nil {
			t.Fatal(err)
		}
		want := pegasosReference(x, y, c.lambda, c.T, c.seed)
		got := append(append([]float64(nil), r.W...), r.B)
		for k := range want {
			if !near(got[k], want[k], 1e-12) {
				t.Errorf("λ %v T %d seed %d: (w, b) = %v, want %v", c.lambda, c.T, c.seed, got, want)
				break
			}
		}
		// The objective λ‖θ‖² + mean hinge of the answer, and its score.
		var hinge float64
		for i, xi := range x {
			hinge += math.Max(0, 1-y[i]*(got[0]*xi[0]+got[1]*xi[1]+got[2]))
		}
		obj := c.lambda*(got[0]*got[0]+got[1]*got[1]+got[2]*got[2]) + hinge/5
		if !near(r.Objective, obj, 1e-12) || !near(r.Scores[0], got[0]+got[1]+got[2], 1e-12) || r.Iterations != c.T {
			t.Errorf("objective %v (want %v), scores %v, iterations %d", r.Objective, obj, r.Scores, r.Iterations)
		}
	}
	// Defaults are λ = 0.01, T = 2000, seed 1.
	a, _ := fitPegasosJSON(t, pegasosSet+`}`)
	b, _ := fitPegasosJSON(t, pegasosSet+`,"params":{"lambda":0.01,"T":2000,"seed":1}}`)
	if a == nil || b == nil || fmt.Sprint(a.W, a.B) != fmt.Sprint(b.W, b.B) || a.Iterations != 2000 {
		t.Errorf("defaults %+v differ from explicit λ 0.01, T 2000, seed 1: %+v", a, b)
	}
}

// TestPegasosTrace: iterates k, 2k, … and T, at most 1000 of them (fewer
// when d is large), the last one the answer.
func TestPegasosTrace(t *testing.T) {
	for _, c := range []struct{ T, d, every, entries int }{
		{1, 2, 1, 1}, {999, 2, 1, 999}, {1000, 2, 1, 1000}, {1001, 2, 2, 501}, {2000, 2, 2, 1000}, {12345, 2, 13, 950}, {10000, 1000, 21, 477},
	} {
		body := `{"algorithm":"pegasos","x":[[` + rows("1", c.d) + `],[` + rows("0", c.d) + `]],"y":[1,-1],"trace":true,"params":{"T":` + fmt.Sprint(c.T) + `}}`
		r, err := fitPegasosJSON(t, body)
		if err != nil {
			t.Fatal(err)
		}
		n := len(r.Trace)
		if r.TraceEvery != c.every || n != c.entries || r.Trace[n-1].T != c.T {
			t.Errorf("T %d d %d: every %d, %d entries ending at %d; want every %d, %d entries ending at T", c.T, c.d, r.TraceEvery, n, r.Trace[n-1].T, c.every, c.entries)
			continue
		}
		for k, st := range r.Trace[:n-1] {
			if st.T != (k+1)*c.every {
				t.Fatalf("trace[%d].t = %d, want %d", k, st.T, (k+1)*c.every)
			}
		}
		if last := r.Trace[n-1]; fmt.Sprint(last.AvgW, last.AvgB) != fmt.Sprint(r.W, r.B) || len(last.W) != c.d {
			t.Errorf("last entry's average %v %v, answer %v %v", last.AvgW, last.AvgB, r.W, r.B)
		}
		if numbers := n * (2*c.d + 4); numbers > fitreq.MaxTraceNumbers {
			t.Errorf("T %d d %d: trace of %d numbers", c.T, c.d, numbers)
		}
	}
	r, _ := fitPegasosJSON(t, pegasosSet+`}`)
	if b, _ := json.Marshal(r); strings.Contains(string(b), "trace") {
		t.Errorf("trace without trace: true: %s", b)
	}
}

func TestPegasosErrors(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"lambda zero", pegasosSet + `,"params":{"lambda":0}}`, "params.lambda"},
		{"lambda negative", pegasosSet + `,"params":{"lambda":-1}}`, "params.lambda"},
		{"lambda huge", pegasosSet + `,"params":{"lambda":1e13}}`, "at most 1e+12"},
		{"T zero", pegasosSet + `,"params":{"T":0}}`, "params.T"},
		{"T big", pegasosSet + `,"params":{"T":10000001}}`, "1 to 10000000"},
		{"T fraction", pegasosSet + `,"params":{"T":1.5}}`, "params"},
		{"unknown", pegasosSet + `,"params":{"eta":1}}`, "known parameters: lambda"},
		{"one class", `{"algorithm":"pegasos","x":[[0]],"y":[1]}`, "both classes"},
		{"work", `{"algorithm":"pegasos","x":[[` + rows("1", 1000) + `],[` + rows("0", 1000) + `]],"y":[1,-1],"params":{"T":1000000}}`, "lower params.T to at most"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fitPegasosJSON(t, tt.body)
			if !errors.Is(err, fitreq.ErrBadRequest) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want a bad request mentioning %q", err, tt.want)
			}
		})
	}
	_, err := fitPegasosJSON(t, `{"algorithm":"pegasos","x":[[1e300],[0]],"y":[1,-1],"params":{"lambda":1e-12}}`)
	if !errors.Is(err, fitreq.ErrUnprocessable) || !strings.Contains(err.Error(), "lambda") {
		t.Errorf("overflowing iterates: %v, want fitreq.ErrUnprocessable naming lambda", err)
	}
}

// TestPegasosWorkLimit: T = MaxPegasosT fits 1-D data at the row limit.
func TestPegasosWorkLimit(t *testing.T) {
	if work, _ := pegasosWork(MaxPegasosT, fitreq.MaxN, 1, 0); work > MaxPegasosWork {
		t.Errorf("T = %d on %d 1-D rows costs %.3g > %.3g", MaxPegasosT, fitreq.MaxN, work, float64(MaxPegasosWork))
	}
	_, most := pegasosWork(1, 2, 1000, 0)
	if w, _ := pegasosWork(most, 2, 1000, 0); w > MaxPegasosWork {
		t.Errorf("T = most = %d costs %.4g", most, w)
	}
	body := `{"algorithm":"pegasos","x":[[` + rows("1", 1000) + `],[` + rows("0", 1000) + `]],"y":[1,-1],"params":{"T":%d}}`
	if _, err := fitPegasosJSON(t, fmt.Sprintf(body, most+1)); !errors.Is(err, fitreq.ErrBadRequest) || !strings.Contains(err.Error(), fmt.Sprint(most)) {
		t.Errorf("T = most+1: %v", err)
	}
}

// pegasosWorstBodies are the most expensive pegasos requests the limits
// allow: the most iterations on narrow rows, and on the widest rows with
// the trace, each on numbers whose products are subnormal as well.
func pegasosWorstBodies() map[string]string {
	bodies := map[string]string{}
	for _, c := range []struct {
		name  string
		n, d  int
		x     string
		trace bool
	}{
		{"10000x1", fitreq.MaxN, 1, "9", false},
		{"10000x1-subnormal", fitreq.MaxN, 1, "1e-160", false},
		{"2000x1000-trace", 2000, 1000, "9", true},
		{"500x1000-trace-subnormal", 500, 1000, "1e-160", true},
	} {
		_, most := pegasosWork(1, c.n, c.d, 0)
		row := `[` + rows(c.x, c.d) + `],[` + rows("0", c.d) + `]`
		bodies[c.name] = fmt.Sprintf(`{"algorithm":"pegasos","x":[%s],"y":[%s],"params":{"T":%d,"lambda":1e-4},"trace":%v}`,
			rows(row, c.n/2), rows("1,-1", c.n/2), min(most, MaxPegasosT), c.trace)
	}
	return bodies
}

// BenchmarkPegasosWorst times pegasosWorstBodies from body to encoded
// answer; its numbers are in the README.
func BenchmarkPegasosWorst(b *testing.B) {
	for name, body := range pegasosWorstBodies() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := fitPegasosJSON(b, body)
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
