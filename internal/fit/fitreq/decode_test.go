package fitreq

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const okBody = `{"algorithm":"svm","x":[[0],[1]],"y":[-1,1]`

// TestDecodeStrict: encoding/json read null as 0, matched names without
// regard to case, let the last of two equal names win and read 1e-999 as
// 0. Each of these is a 400 naming the field.
func TestDecodeStrict(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"null in x", `{"x":[[0],[null]],"y":[1,1]}`, []string{`"x[1][0]" is null`, "finite number"}},
		{"null in y", `{"x":[[0],[1]],"y":[1,null]}`, []string{`"y[1]" is null`}},
		{"null in predict", okBody + `,"predict":[[2],[3,null]]}`, []string{`"predict[1][1]" is null`}},
		{"null row", `{"x":[null]}`, []string{`"x[0]" is null`}},
		{"null parameter", okBody + `,"params":{"C":null}}`, []string{`"params.C" is null`, "leave the parameter out"}},
		{"null nested", okBody + `,"params":{"a":[1,null]}}`, []string{`"params.a[1]" is null`}},
		{"duplicate field", `{"algorithm":"svm","algorithm":"knn"}`, []string{`field "algorithm" twice`}},
		{"duplicate parameter", okBody + `,"params":{"C":5,"C":1}}`, []string{`"params" has "C" twice`}},
		{"field case", `{"ALGORITHM":"svm"}`, []string{`unknown field "ALGORITHM"`, `did you mean "algorithm"`}},
		{"x case", `{"algorithm":"svm","X":[[1]]}`, []string{`unknown field "X"`, `did you mean "x"`}},
		{"underflow", `{"x":[[1e-999]]}`, []string{`"x[0][0]" is 1e-999`, "underflows to 0"}},
		{"underflow y", `{"y":[-0.5e-400]}`, []string{`"y[0]" is -0.5e-400`, "underflows"}},
		{"overflow", `{"x":[[1],[1E999]]}`, []string{`"x[1][0]" is 1E999`, "largest float64"}},
		{"parameter overflow", okBody + `,"params":{"C":1e999}}`, []string{`"params.C" is 1e999`}},
		{"parameter underflow", okBody + `,"params":{"tol":1e-999}}`, []string{`"params.tol" is 1e-999`, "underflows"}},
		{"string in x", `{"x":[["1"]]}`, []string{`"x[0][0]" is the string "1"`}},
		{"nested row", `{"x":[[[1]]]}`, []string{`"x[0][0]" is an array`}},
		{"trace", `{"trace":1}`, []string{`"trace" is 1`, "true or false"}},
		{"params array", `{"params":[1]}`, []string{`"params" is an array`, "object"}},
		{"not an object", `[1]`, []string{"not the JSON object", "an array"}},
		{"empty", ``, []string{"not the JSON object", "ends early"}},
		{"cut", `{"x":[[1],`, []string{"not the JSON object"}},
		{"trailing", `{}{}`, []string{"after the JSON object"}},
		{"many params", okBody + `,"params":{` + entries(MaxParamEntries+1) + `}}`, []string{`more than 64 entries`}},
		{"deep params", okBody + `,"params":{"a":` + strings.Repeat("[", 20) + strings.Repeat("]", 20) + `}}`, []string{"nests more than 8 levels"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(strings.NewReader(tt.body))
			if !errors.Is(err, ErrBadRequest) {
				t.Fatalf("Decode = %v, want a bad request", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error = %q, want it to mention %q", err, w)
				}
			}
		})
	}
}

func entries(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprintf(`"p%d":%d`, i, i)
	}
	return strings.Join(s, ",")
}

// TestDecodeAccepts: what strict decoding keeps: subnormal numbers, -0,
// exponents, a whole field null (as encoders write a nil slice: the same
// as leaving it out), and params passed on as they were sent.
func TestDecodeAccepts(t *testing.T) {
	req, err := Decode(strings.NewReader(`{"algorithm":"svm","x":[[5e-324,-0],[1E2,0e-999]],"y":[-1,1],"predict":null,"params":{"C":5,"kernel":"rbf","hard":false,"a":[{"b":1}]},"trace":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if req.X[0][0] != 5e-324 || req.X[1][0] != 100 || req.Predict != nil || !req.Trace || string(req.Params) != `{"C":5,"kernel":"rbf","hard":false,"a":[{"b":1}]}` {
		t.Errorf("Decode = %+v (params %s)", req, req.Params)
	}
}

// TestStrictParams: parameter names match exactly, so "c" is not "C"
// (encoding/json let {"C":5,"c":0.001} fit with C = 0.001).
func TestStrictParams(t *testing.T) {
	var p struct {
		C   *float64 `json:"C"`
		Tol *float64 `json:"tol"`
	}
	for raw, want := range map[string]string{
		`{"C":5,"c":0.001}`: `unknown field "c": names are case-sensitive, did you mean "C"?`,
		`{"TOL":1}`:         `unknown field "TOL"`,
		`{"C":5,"C":1}`:     `"params" has the field "C" twice`,
		`{"C":null}`:        `"params.C" is null`,
		`{"tol":1e-400}`:    `"params.tol" is 1e-400`,
	} {
		err := StrictParams([]byte(raw), &p, "C, tol")
		if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a bad request saying %q", raw, err, want)
		}
	}
	if err := StrictParams([]byte(`{"C":5,"tol":0.5}`), &p, "C, tol"); err != nil || *p.C != 5 || *p.Tol != 0.5 {
		t.Errorf("valid params: %v", err)
	}
}

// manyRows is the attack of issue 18 §1.3: a 4 MB body of 10⁶
// one-element rows, under MaxBody but 100 times MaxN.
func manyRows() []byte {
	var b bytes.Buffer
	b.WriteString(`{"algorithm":"perceptron","x":[[0]`)
	for range 1000000 - 1 {
		b.WriteString(`,[0]`)
	}
	b.WriteString(`],"y":[1]}`)
	return b.Bytes()
}

// TestDecodeManyRowsCheaply: the body is refused at row MaxN + 1, having
// allocated a few hundred KB (encoding/json built all 10⁶ rows first: 83
// MB allocated for one such body, measured here before the change).
func TestDecodeManyRowsCheaply(t *testing.T) {
	body := manyRows()
	if len(body) > MaxBody {
		t.Fatalf("body is %d bytes", len(body))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Decode(bytes.NewReader(body))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), `"x" has more than 10000 rows`) {
		t.Fatalf("Decode = %v, want the row limit", err)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("one 4 MB body of 10⁶ rows: %.2f MB allocated", float64(allocated)/1e6)
	if allocated > 4<<20 {
		t.Errorf("decoding allocated %d bytes, want under 4 MiB", allocated)
	}
}

// BenchmarkDecodeStorm decodes 50 copies of manyRows at once, as 50
// concurrent clients would send them, and reports the peak growth of the
// process's resident memory (VmRSS, sampled every millisecond) over its
// size before: issue 18's target is under 400 MB. Run it alone:
//
//	go test ./internal/fit/fitreq/ -run '^$' -bench DecodeStorm -benchtime 1x
func BenchmarkDecodeStorm(b *testing.B) {
	body := manyRows()
	runtime.GC()
	base := rss(b)
	var peak int64
	done := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		for {
			peak = max(peak, rss(b))
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	})
	b.ResetTimer()
	for range b.N {
		var wg sync.WaitGroup
		for range 50 {
			wg.Go(func() {
				if _, err := Decode(bytes.NewReader(body)); err == nil {
					b.Error("the body was accepted")
				}
			})
		}
		wg.Wait()
	}
	b.StopTimer()
	close(done)
	sampler.Wait()
	b.ReportMetric(float64(peak-base)/1e6, "peak-RSS-growth-MB")
}

// rss is the process's resident set size in bytes, from /proc.
func rss(b *testing.B) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	b.Skip("no VmRSS")
	return 0
}

// TestPlainRow: the fast path for rows reads what Vector reads, and
// leaves to it (ok false) every row Vector refuses.
func TestPlainRow(t *testing.T) {
	for raw, want := range map[string]string{
		`[]`: `[]`, ` [ 1 , -2.5e1,0.125E+2 ] `: `[1 -25 12.5]`, `[5e-324,0e-999,-0]`: `[5e-324 0 -0]`,
		`[1e-999]`: ``, `[1e999]`: ``, `[null]`: ``, `["1"]`: ``, `[[1]]`: ``, `[true]`: ``, `null`: ``,
		`[` + strings.Repeat("1,", MaxD-1) + `1]`: `ok`, `[` + strings.Repeat("1,", MaxD) + `1]`: ``,
	} {
		v, ok := plainRow([]byte(raw))
		switch {
		case want == "" && ok, want != "" && !ok:
			t.Errorf("plainRow(%.40s) = %v, %v; want ok %v", raw, v, ok, want != "")
		case ok && want != "ok" && fmt.Sprint(v) != want:
			t.Errorf("plainRow(%s) = %v, want %s", raw, v, want)
		}
	}
}
