package main

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"
)

type gramAnswer struct {
	K           [][]float64
	Eigenvalues []float64
	PSD         bool
	Error       string
}

// postGram posts body to /api/v1/gram and decodes the JSON answer,
// failing unless the status is want.
func postGram(t *testing.T, h http.Handler, body string, want int) gramAnswer {
	t.Helper()
	rec := do(t, h, http.MethodPost, "/api/v1/gram", strings.NewReader(body), map[string]string{"Content-Type": "application/json"})
	if rec.Code != want {
		t.Fatalf("POST %.80s… = %d %.300s, want %d", body, rec.Code, rec.Body, want)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want JSON", ct)
	}
	var got gramAnswer
	dec := json.NewDecoder(rec.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("answer is not the JSON expected: %v: %.200s", err, rec.Body)
	}
	return got
}

// TestGramRBF: (0,0), (1,0) and (0,2) are 1, 4 and 5 apart squared, so
// with γ = 1 the matrix is exactly [[1, e⁻¹, e⁻⁴], [e⁻¹, 1, e⁻⁵],
// [e⁻⁴, e⁻⁵, 1]], positive definite, its eigenvalues summing to 3.
func TestGramRBF(t *testing.T) {
	h := newTestServer(t)
	got := postGram(t, h, `{"kernel":"rbf","gamma":1,"x":[[0,0],[1,0],[0,2]]}`, http.StatusOK)
	e := math.Exp
	want := [][]float64{{1, e(-1), e(-4)}, {e(-1), 1, e(-5)}, {e(-4), e(-5), 1}}
	for i := range want {
		if !slices.Equal(got.K[i], want[i]) {
			t.Fatalf("K = %v, want %v", got.K, want)
		}
	}
	ev := got.Eigenvalues
	if len(ev) != 3 || !slices.IsSorted(ev) || ev[0] <= 0 || !got.PSD || math.Abs(ev[0]+ev[1]+ev[2]-3) > 1e-12 {
		t.Errorf("eigenvalues %v, psd %v; want 3 ascending positive values summing to 3", ev, got.PSD)
	}
}

// TestGramSigmoid: tanh(x·z − 1) on the points 1 and −1 is
// [[0, tanh −2], [tanh −2, 0]]: every k(x, x) is 0, yet the eigenvalues
// are ±tanh 2, so it is not a kernel.
func TestGramSigmoid(t *testing.T) {
	h := newTestServer(t)
	got := postGram(t, h, `{"kernel":"sigmoid","gamma":1,"coef0":-1,"x":[[1],[-1]]}`, http.StatusOK)
	b := math.Tanh(-2)
	if fmt.Sprint(got.K) != fmt.Sprint([][]float64{{0, b}, {b, 0}}) || got.PSD ||
		len(got.Eigenvalues) != 2 || math.Abs(got.Eigenvalues[0]-b) > 1e-15 || math.Abs(got.Eigenvalues[1]+b) > 1e-15 {
		t.Errorf("sigmoid = %+v, want K [[0 %v] [%v 0]], eigenvalues ±%v, psd false", got, b, b, -b)
	}
}

func TestGramKinds(t *testing.T) {
	h := newTestServer(t)
	for _, c := range []struct {
		body string
		K    string
		psd  bool
	}{
		{`{"x":[[1,2]]}`, "[[5]]", true}, // one point, linear by default
		{`{"kernel":"neg-sqdist","x":[[0,0],[3,4]]}`, "[[0 -25] [-25 0]]", false},
		{`{"kernel":"poly","degree":1,"coef0":-1,"x":[[0]]}`, "[[-1]]", false},
		{`{"kernel":"poly","x":[[1],[-1]]}`, "[[4 0] [0 4]]", true},
		{`{"kernel":"laplace","gamma":2,"x":[[0],[1]]}`, fmt.Sprint([][]float64{{1, math.Exp(-2)}, {math.Exp(-2), 1}}), true},
	} {
		got := postGram(t, h, c.body, http.StatusOK)
		if fmt.Sprint(got.K) != c.K || got.PSD != c.psd || len(got.Eigenvalues) != len(got.K) {
			t.Errorf("%s = %+v, want K %s, psd %v", c.body, got, c.K, c.psd)
		}
	}
}

func TestGramBadBodies(t *testing.T) {
	h := newTestServer(t)
	tests := []struct {
		name, body string
		status     int
		want       []string
	}{
		{"not JSON", `kernel=rbf`, 400, []string{"not the JSON object", `"x"`}},
		{"unknown field", `{"x":[[1]],"y":[1]}`, 400, []string{`"y"`}},
		{"trailing data", `{"x":[[1]]}{"x":[[2]]}`, 400, []string{"after the JSON object"}},
		{"NaN", `{"x":[[NaN]]}`, 400, []string{"invalid character"}},
		{"Infinity", `{"x":[[1e999]]}`, 400, []string{"1e999"}},
		{"null", `{"x":[[0,null]]}`, 400, []string{`"x[0][1]" is null`}},
		{"empty x", `{"x":[]}`, 400, []string{`"x" is empty`}},
		{"no x", `{"kernel":"rbf","gamma":2}`, 400, []string{`"x" is empty or missing`}},
		{"ragged", `{"x":[[1,2],[3]]}`, 400, []string{`"x[1]" has 1 features`, "same length"}},
		{"no features", `{"x":[[],[]]}`, 400, []string{"0 features"}},
		{"kernel", `{"kernel":"cosine","x":[[1]]}`, 400, []string{`"kernel" is "cosine"`, `"neg-sqdist"`}},
		{"gamma", `{"kernel":"rbf","gamma":-1,"x":[[1]]}`, 400, []string{`"gamma" is -1`, "> 0"}},
		{"degree", `{"kernel":"poly","degree":0,"x":[[1]]}`, 400, []string{`"degree" is 0`, "1 to 10"}},
		{"coef0", `{"kernel":"sigmoid","coef0":1e300,"x":[[1]]}`, 400, []string{`"coef0"`}},
		// n = 2000 took 3.6–5 s and answered 82 MB (issue 18 §1.4).
		{"rows", `{"x":[` + strings.TrimSuffix(strings.Repeat("[1],", 2000), ",") + `]}`, 400, []string{"more than 1000 rows", "at most 1000"}},
		{"x twice", `{"x":[[1]],"x":[[2]]}`, 400, []string{`field "x" twice`}},
		{"overflow", `{"kernel":"poly","degree":10,"x":[[1e40]]}`, 422, []string{"overflowed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := postGram(t, h, tt.body, tt.status)
			for _, w := range tt.want {
				if !strings.Contains(got.Error, w) {
					t.Errorf("error = %q, want it to mention %q", got.Error, w)
				}
			}
		})
	}
}

// TestGramBodyLimit: a body over 4 MiB is a 413 naming the limit, as for
// the fit API.
func TestGramBodyLimit(t *testing.T) {
	h := newTestServer(t)
	body := `{"kernel":"` + strings.Repeat("a", 4300000) + `","x":[[1]]}`
	got := postGram(t, h, body, http.StatusRequestEntityTooLarge)
	if !strings.Contains(got.Error, "4 MiB") {
		t.Errorf("error = %q", got.Error)
	}
}
