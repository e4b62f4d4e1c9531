package main

import (
	"html"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestSVMLessonPages checks both SVM lessons as a student gets them: the
// prose, each demo with its plot, α and KKT bars or loss chart, history,
// and no id twice on a page that inlines several figures.
func TestSVMLessonPages(t *testing.T) {
	h := newTestServer(t)
	tests := []struct {
		path    string
		demos   []string
		panels  []string
		section string
	}{
		{"/lessons/hard-margin-svm", []string{"svm-hard"}, []string{"alpha", "kkt"}, "smo"},
		{"/lessons/soft-margin-svm", []string{"svm-soft", "svm-sgd"}, []string{"alpha", "kkt", "losses"}, "three-kinds"},
	}
	for _, tt := range tests {
		rec := get(t, h, tt.path)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s = %d: %.300s", tt.path, rec.Code, rec.Body)
		}
		doc := parse(t, rec)
		noDuplicateIDs(t, doc)
		if doc.Find("#"+tt.section).Length() != 1 {
			t.Errorf("%s: no prose section #%s", tt.path, tt.section)
		}
		for _, id := range tt.demos {
			p := doc.Find("#panel-" + id)
			if p.Length() != 1 {
				t.Errorf("%s: no demo panel #panel-%s", tt.path, id)
				continue
			}
			if p.Find(`[data-testid="plot"] svg`).Length() != 1 || p.Find(`[data-testid="history"] svg`).Length() != 1 {
				t.Errorf("%s: demo %s lacks its plot or history", tt.path, id)
			}
		}
		for _, name := range tt.panels {
			if doc.Find(`[data-testid="panel-`+name+`"] svg`).Length() != 1 {
				t.Errorf("%s: no %s figure", tt.path, name)
			}
		}
		if doc.Find(`input.log-slider`).Length() == 0 && tt.path == "/lessons/soft-margin-svm" {
			t.Errorf("%s: C has no log slider", tt.path)
		}
	}
}

// TestSVMHardInfeasiblePage checks XOR on the hard-margin demo: the
// status, the alert and its link to the soft margin with the same data.
func TestSVMHardInfeasiblePage(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, "/present/svm-hard?data=xor")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET = %d", rec.Code)
	}
	doc := parse(t, rec)
	if got := strings.TrimSpace(doc.Find(`[data-testid="status"]`).Text()); got != "infeasible" {
		t.Errorf("status %q, want infeasible", got)
	}
	a := doc.Find(`[data-testid="infeasible"] a`)
	if href, _ := a.Attr("href"); href != "/lessons/soft-margin-svm?data=xor" {
		t.Errorf("link %q, want the soft margin on xor", href)
	}
	if soft := get(t, h, "/lessons/soft-margin-svm?data=xor"); soft.Code != http.StatusOK {
		t.Errorf("the link's target = %d", soft.Code)
	}
}

// TestSVMSteps checks stepping through the URL: each step shows the pair
// it optimised, the step counter follows, and D(α) never rises.
func TestSVMSteps(t *testing.T) {
	h := newTestServer(t)
	prev := 0.0
	for k := 1; k <= 6; k++ {
		rec := get(t, h, "/present/svm-soft?step="+strconv.Itoa(k))
		if rec.Code != http.StatusOK {
			t.Fatalf("step %d = %d", k, rec.Code)
		}
		doc := parse(t, rec)
		if got := doc.Find(`[data-testid="step"]`).Text(); got != strconv.Itoa(k) {
			t.Errorf("step %d: counter %q", k, got)
		}
		if !strings.Contains(doc.Find(`.examined`).Text(), "optimises the pair") {
			t.Errorf("step %d: the panel does not name the pair", k)
		}
		d, err := strconv.ParseFloat(strings.Replace(doc.Find(`[data-testid="dual"]`).Text(), "−", "-", 1), 64)
		if err != nil {
			t.Fatalf("step %d: D(α) %q: %v", k, doc.Find(`[data-testid="dual"]`).Text(), err)
		}
		if d > prev+1e-12 {
			t.Errorf("step %d: D(α) rose from %v to %v; SMO decreases it every step", k, prev, d)
		}
		prev = d
	}
}

// TestSVMBadQueries checks that each new parameter refuses bad values
// with a 400 that names it.
func TestSVMBadQueries(t *testing.T) {
	h := newTestServer(t)
	for _, target := range []string{
		"/lessons/soft-margin-svm?C=0", "/lessons/soft-margin-svm?C=NaN", "/lessons/soft-margin-svm?C=1e9",
		"/lessons/soft-margin-svm?C=-Inf", "/plots/svm-soft.svg?tol=5", "/lessons/hard-margin-svm?C=1",
		"/lessons/hard-margin-svm?compare=svm", "/plots/svm-sgd.svg?T=0", "/plots/svm-sgd.svg?T=20001",
		"/plots/svm-sgd.svg?lambda=-1", "/plots/svm-sgd.svg?method=newton", "/plots/svm-sgd.svg?method=subgradient&eta=0",
	} {
		rec := get(t, h, target)
		key := target[strings.Index(target, "?")+1 : strings.Index(target, "=")]
		if strings.Contains(target, "method=subgradient&") {
			key = "eta"
		}
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), key) {
			t.Errorf("GET %s = %d, want 400 naming %s: %.200s", target, rec.Code, key, rec.Body)
		}
	}
}

// TestSVMFigures checks the standalone figures of the SVM demos: each is
// an SVG (or PNG) of that state with its text alternative.
func TestSVMFigures(t *testing.T) {
	h := newTestServer(t)
	for _, tt := range []struct{ target, ctype, want string }{
		{"/plots/svm-hard.svg?step=3", "image/svg+xml", "<desc>"},
		{"/plots/svm-hard-alpha.svg?step=3", "image/svg+xml", "pair optimised"},
		{"/plots/svm-soft-kkt.svg?C=0.01&step=4", "image/svg+xml", "KKT violation"},
		{"/plots/svm-soft-history.svg?step=4", "image/svg+xml", "duality gap"},
		{"/plots/svm-sgd-losses.svg?step=4", "image/svg+xml", "hinge"},
		{"/plots/svm-sgd-history.svg?step=4", "image/svg+xml", "exact optimum"},
		{"/plots/svm-soft.png?step=4", "image/png", "\x89PNG"},
	} {
		rec := get(t, h, tt.target)
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), tt.ctype) || !strings.Contains(rec.Body.String(), tt.want) {
			t.Errorf("GET %s = %d %s, want %s containing %q", tt.target, rec.Code, rec.Header().Get("Content-Type"), tt.ctype, tt.want)
		}
	}
}

// TestSVMIssue16Words checks the states issue 16 found contradicting
// themselves, as a student gets them: the presenter view and the plots.
func TestSVMIssue16Words(t *testing.T) {
	h := newTestServer(t)
	page := func(target string) *goquery.Document {
		t.Helper()
		rec := get(t, h, target)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s = %d: %.300s", target, rec.Code, rec.Body)
		}
		return parse(t, rec)
	}
	body := func(target string) string {
		t.Helper()
		rec := get(t, h, target)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s = %d: %.300s", target, rec.Code, rec.Body)
		}
		return html.UnescapeString(rec.Body.String())
	}

	// OR after step 2 misclassifies a point: its 2/‖w‖ is a band width,
	// not a margin, and the error counts the wrong prediction.
	doc := page("/present/svm-hard?data=or&step=2")
	if text := doc.Text(); strings.Contains(text, "margin 2/‖w‖") {
		t.Error("/present/svm-hard?data=or&step=2 calls 2/‖w‖ the margin")
	}
	if got := strings.TrimSpace(doc.Find(`[data-testid="band"]`).Text()); got != "2" {
		t.Errorf("band width %q, want 2 (w = (0, 1))", got)
	}
	if got := strings.TrimSpace(doc.Find(`[data-testid="error"]`).Text()); got != "25.0 %" {
		t.Errorf("training error %q, want 25.0 %% (x₂ = (1, 0) on the wrong side of x₂ = ½)", got)
	}

	// XOR's soft margin is solved at step 2 with w = 0: no "yet", and b
	// is said not to be unique.
	if svg := body("/plots/svm-soft.svg?data=xor&step=2"); strings.Contains(svg, "yet") || !strings.Contains(svg, "predicted −1") ||
		!strings.Contains(svg, "every b from −1 to 1 is optimal") {
		t.Errorf("/plots/svm-soft.svg?data=xor&step=2 describes a converged run as unfinished or not what it predicts:\n%.2000s", svg)
	}
	doc = page("/present/svm-soft?data=xor&step=2")
	if n := doc.Find(`[data-testid="bias-range"]`).Text(); !strings.Contains(n, "every b from −1 to 1") {
		t.Errorf("XOR soft margin: bias note %q, want every b from −1 to 1", n)
	}
	if got := strings.TrimSpace(doc.Find(`[data-testid="error"]`).Text()); got != "50.0 %" {
		t.Errorf("XOR soft margin: training error %q, want 50.0 %% (sgn(0) = −1 gets the two −1 points right)", got)
	}
	if !strings.Contains(doc.Text(), "sgn(0) = −1") {
		t.Error("XOR soft margin: the page does not state the prediction rule")
	}

	// SGD iterates have no support vectors.
	if svg := body("/plots/svm-sgd.svg?step=2000"); strings.Contains(svg, "support vector") || strings.Contains(svg, "yet") {
		t.Errorf("/plots/svm-sgd.svg?step=2000 counts support vectors of an SGD iterate:\n%.2000s", svg)
	}

	// A run the demo stopped at its last step is not running.
	doc = page("/present/svm-soft?C=1000&step=20000")
	if got := strings.TrimSpace(doc.Find(`[data-testid="status"]`).Text()); got != "step limit reached" {
		t.Errorf("C = 1000 at step 20000: status %q, want step limit reached", got)
	}

	// A negative m − M is not printed on a log panel as if it were there.
	if svg := body("/plots/svm-soft-history.svg?C=0.001&step=20"); strings.Contains(svg, "gap −") || !strings.Contains(svg, "off the log axis") {
		t.Errorf("/plots/svm-soft-history.svg?C=0.001&step=20 labels a negative value on a log panel:\n%.1500s", svg)
	}
	if svg := body("/plots/svm-hard-history.svg?step=304"); !strings.Contains(svg, "duality gap") || !strings.Contains(svg, "KKT violation m − M") {
		t.Error("/plots/svm-hard-history.svg does not name the duality gap and the KKT violation apart")
	}
}
