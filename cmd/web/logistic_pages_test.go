package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLogisticLessonPage checks the logistic regression lesson as a
// student gets it: both demos, each with its plot, history, step controls
// and counters, and no id twice on the page.
func TestLogisticLessonPage(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, "/lessons/logistic-regression")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /lessons/logistic-regression = %d: %.300s", rec.Code, rec.Body)
	}
	doc := parse(t, rec)
	noDuplicateIDs(t, doc)
	for id, counters := range map[string][]string{
		"logistic": {"step", "objective", "grad", "wnorm", "error", "heldout", "confidence", "optimum"},
		"softmax":  {"step", "objective", "grad", "error", "probe-class", "optimum"},
	} {
		p := doc.Find("#panel-" + id)
		if p.Length() != 1 {
			t.Errorf("no demo panel #panel-%s", id)
			continue
		}
		for _, sel := range []string{`[data-testid="plot"] svg`, `[data-testid="history"] svg`, `a[data-action="next"]`} {
			if p.Find(sel).Length() != 1 {
				t.Errorf("%s: no %s", id, sel)
			}
		}
		for _, c := range counters {
			if p.Find(`[data-testid="`+c+`"]`).Length() != 1 {
				t.Errorf("%s: no counter %s", id, c)
			}
		}
	}
	if got := doc.Find(`#panel-logistic [data-testid="objective"]`).Text(); got != "0.6931" {
		t.Errorf("logistic J at w = 0 = %q, want log 2 = 0.6931", got)
	}
	if doc.Find(`#panel-softmax [data-testid="probe"] tbody tr`).Length() != 3 {
		t.Error("softmax: the probe table should list three classes")
	}
}

// TestLogisticStepping follows the next links: each advances k by one,
// and on separable data with λ = 0 the note says ‖w‖ keeps growing.
func TestLogisticStepping(t *testing.T) {
	h := newTestServer(t)
	target := "/present/logistic?data=separable&step=20"
	for k := 20; k <= 23; k++ {
		rec := get(t, h, target)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s = %d", target, rec.Code)
		}
		doc := parse(t, rec)
		if got := doc.Find(`[data-testid="step"]`).Text(); got != strconv.Itoa(k) {
			t.Errorf("%s: counter %q, want %d", target, got, k)
		}
		if n := doc.Find(`[data-testid="no-minimiser"]`); !strings.Contains(n.Text(), "growing") {
			t.Errorf("step %d: no note that ‖w‖ keeps growing: %q", k, n.Text())
		}
		href, ok := doc.Find(`a[data-action="next"]`).Attr("href")
		if !ok || !strings.Contains(href, "step="+strconv.Itoa(k+1)) {
			t.Fatalf("step %d: next link %q", k, href)
		}
		target = href
	}
	doc := parse(t, get(t, h, "/present/logistic?data=separable&lambda=0.1&step=20"))
	if doc.Find(`[data-testid="no-minimiser"]`).Length() != 0 || !strings.Contains(doc.Find(`[data-testid="minimiser"]`).Text(), "‖w*‖") {
		t.Error("λ > 0: the panel should give the finite ‖w*‖ and no growth warning")
	}
}

// TestLogisticFigures checks the standalone figures: probability contours
// with their labels, the softmax regions and probe, the histories.
func TestLogisticFigures(t *testing.T) {
	h := newTestServer(t)
	for _, tt := range []struct {
		target string
		want   []string
	}{
		{"/plots/logistic.svg?step=10", []string{"<image", "boundary P = 0.5", ">0.9<", "step 10 · J = "}},
		{"/plots/logistic.svg?step=0", []string{"P = ½ everywhere"}},
		{"/plots/softmax.svg?step=50&q1=1&q2=2", []string{"<desc>", "each region tinted", "probe q", "step 50 · J = "}},
		{"/plots/logistic-history.svg?step=50", []string{"J − J*", "‖w*‖"}},
		{"/plots/logistic-history.svg?data=separable&step=50", []string{"J (log scale)", "no minimiser"}},
		{"/plots/softmax-history.svg?step=50", []string{"exact optimum"}},
	} {
		rec := follow(t, h, tt.target)
		body := rec.Body.String()
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "image/svg+xml") {
			t.Errorf("GET %s = %d %s: %.200s", tt.target, rec.Code, rec.Header().Get("Content-Type"), body)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s: no %q", tt.target, w)
			}
		}
	}
	if a, b := get(t, h, "/plots/softmax.svg?step=7").Body.String(), get(t, h, "/plots/softmax.svg?step=7").Body.String(); a != b {
		t.Error("the same softmax URL drew different bytes")
	}
	if rec := follow(t, h, "/plots/logistic.png?step=5&w=400&h=400"); rec.Code != http.StatusOK || !strings.HasPrefix(rec.Body.String(), "\x89PNG") {
		t.Errorf("logistic PNG = %d", rec.Code)
	}
}

// follow gets target, following redirects to the canonical URL.
func follow(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	rec := get(t, h, target)
	for i := 0; i < 3 && rec.Code == http.StatusMovedPermanently; i++ {
		rec = get(t, h, rec.Header().Get("Location"))
	}
	return rec
}

// TestLogisticBadQueries: bad values are 400s that name their key.
func TestLogisticBadQueries(t *testing.T) {
	h := newTestServer(t)
	for _, target := range []string{
		"/plots/logistic.svg?lambda=-1", "/plots/logistic.svg?method=foo", "/plots/logistic.svg?eta=0",
		"/lessons/logistic-regression?lambda=11", "/plots/softmax.svg?q1=NaN", "/plots/softmax.svg?lambda=0",
		"/lessons/logistic-regression?demo=softmax&q2=-20",
	} {
		rec := get(t, h, target)
		q := target[strings.Index(target, "?")+1:]
		keys := strings.Split(q, "&")
		key := keys[len(keys)-1][:strings.Index(keys[len(keys)-1], "=")]
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), key) {
			t.Errorf("GET %s = %d, want 400 naming %s: %.200s", target, rec.Code, key, rec.Body)
		}
	}
}

// The targets, on one core, after the first view: a logistic page
// (n = 200, step 1000, gradient descent) well under 10 ms, its SVG under
// 5 ms and 100 KB. Separable data, so the run does not stop early.
const logisticBenchState = "data=separable&n=200&step=1000"

func BenchmarkLogisticPage(b *testing.B) {
	benchGet(b, "/lessons/logistic-regression?"+logisticBenchState, nil)
}

func BenchmarkLogisticSVG(b *testing.B) {
	benchGet(b, "/plots/logistic.svg?"+logisticBenchState, nil)
}

func BenchmarkSoftmaxPage(b *testing.B) {
	benchGet(b, "/lessons/logistic-regression?demo=softmax&n=200&step=1000", nil)
}

// TestFitLogisticHugeFeatures: features whose squares overflow float64
// once made a Newton step loop for ever (the Hessian's diagonal was +Inf,
// and the Cholesky shift δ ≤ +Inf never stopped growing), pinning a core
// past the fit timeout. They are refused at once with a 422 that says to
// rescale.
func TestFitLogisticHugeFeatures(t *testing.T) {
	h := newTestServer(t)
	for _, body := range []string{
		`{"algorithm":"logistic-regression","x":[[1e155],[-1e155]],"y":[-1,1]}`,
		`{"algorithm":"softmax-regression","x":[[1e308],[-1e308]],"y":[0,1]}`,
		`{"algorithm":"logistic-regression","x":[[1e300,1],[-1e300,2],[3,1e-300]],"y":[-1,1,1],"params":{"solver":"gd"}}`,
		`{"algorithm":"softmax-regression","x":[[1e160,0],[0,1e160],[1,1]],"y":[0,1,2]}`,
	} {
		done := make(chan struct{})
		var rec *httptest.ResponseRecorder
		go func() {
			defer close(done)
			rec = do(t, h, http.MethodPost, "/api/v1/fit", strings.NewReader(body), map[string]string{"Content-Type": "application/json"})
		}()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Fatalf("POST %s: no answer within 2 s", body)
		}
		var got struct{ Error string }
		if err := json.Unmarshal(rec.Body.Bytes(), &got); rec.Code != http.StatusUnprocessableEntity || err != nil ||
			!strings.Contains(got.Error, "scale") {
			t.Errorf("POST %s = %d %.300s, want 422 saying to scale the features", body, rec.Code, rec.Body)
		}
	}
}
