package main

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestGDLessonPage: the gradient descent lesson shows both demos, the
// stepping one with its counters, plot and history, the gallery with its
// table, and no id twice.
func TestGDLessonPage(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, "/lessons/gradient-descent")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /lessons/gradient-descent = %d: %.300s", rec.Code, rec.Body)
	}
	doc := parse(t, rec)
	noDuplicateIDs(t, doc)
	p := doc.Find("#panel-gd")
	if p.Length() != 1 {
		t.Fatal("no #panel-gd")
	}
	for _, c := range []string{"step", "objective", "grad", "L", "one-over-L", "two-over-L", "t"} {
		if p.Find(`[data-testid="`+c+`"]`).Length() != 1 {
			t.Errorf("gd: no counter %s", c)
		}
	}
	if got := p.Find(`[data-testid="L"]`).Text(); got != "10" {
		t.Errorf("L of the default quadratic = %q, want κ = 10", got)
	}
	if c, _ := p.Find(`figure.plot`).Attr("data-click"); c != "start" {
		t.Errorf("gd plot data-click = %q, want start", c)
	}
	g := doc.Find("#panel-loss-gallery")
	if g.Length() != 1 || g.Find(`[data-testid="losses"] tbody tr`).Length() != 5 || g.Find(`a[data-action="next"]`).Length() != 0 {
		t.Error("loss gallery: want a static panel with five table rows")
	}
}

// TestGDStepping follows the next links in the presenter view: each
// advances k by one.
func TestGDStepping(t *testing.T) {
	h := newTestServer(t)
	target := "/present/gd?objective=least-squares&step=3"
	for k := 3; k <= 5; k++ {
		doc := parse(t, follow(t, h, target))
		if got := doc.Find(`[data-testid="step"]`).Text(); got != strconv.Itoa(k) {
			t.Errorf("%s: counter %q, want %d", target, got, k)
		}
		href, ok := doc.Find(`a[data-action="next"]`).Attr("href")
		if !ok || !strings.Contains(href, "step="+strconv.Itoa(k+1)) {
			t.Fatalf("step %d: next link %q", k, href)
		}
		target = href
	}
	rec := get(t, h, "/present/gd?kappa=10&t=0.21&step=end") // redirects to the last step
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("step=end = %d, want a redirect", rec.Code)
	}
	doc := parse(t, get(t, h, rec.Header().Get("Location")))
	if doc.Find(`[data-testid="diverged"]`).Length() != 1 || strings.Contains(doc.Text(), "NaN") {
		t.Error("a diverging run should end with the diverged note and no NaN")
	}
}

// TestGDFigures: the plot has its contours, path and title; the history
// its bound; the gallery its losses.
func TestGDFigures(t *testing.T) {
	h := newTestServer(t)
	for _, tt := range []struct {
		target string
		want   []string
	}{
		{"/plots/gd.svg?step=10", []string{"contours of f", "stroke:#808080", "step 10 · f = ", "t = 0.1", "<desc>Contours of the quadratic"}},
		{"/plots/gd.svg?objective=double-well&step=3", []string{"saddle", "double well"}},
		{"/plots/gd-history.svg?step=10", []string{"f(x⁽ᵏ⁾) − f*", "‖x⁽⁰⁾ − x*‖²/(2tk)"}},
		{"/plots/loss-gallery.svg", []string{"hinge", "logistic"}},
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
	if n := strings.Count(get(t, h, "/plots/gd.svg?step=10").Body.String(), "stroke:#808080"); n < 5 {
		t.Errorf("%d grey contour lines, want the 8 levels", n)
	}
}

// TestGDBadQueries: bad values are 400s that name their key.
func TestGDBadQueries(t *testing.T) {
	h := newTestServer(t)
	for _, tt := range []struct{ target, key string }{
		{"/plots/gd.svg?kappa=1000", "kappa"}, {"/plots/gd.svg?t=-1", "t"}, {"/plots/gd.svg?objective=rosenbrock", "objective"},
		{"/lessons/gradient-descent?x0=NaN", "x0"}, {"/plots/gd.svg?schedule=warmup-linear&warmup=300&iters=100", "warmup"},
		{"/plots/loss-gallery.svg?losses=cubic", "losses"},
	} {
		rec := get(t, h, tt.target)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), tt.key) {
			t.Errorf("GET %s = %d, want 400 naming %s: %.200s", tt.target, rec.Code, tt.key, rec.Body)
		}
	}
}

// BenchmarkGDContourSVG is the target: a contour plot at the
// default resolution under 15 ms and 150 KB (κ = 100 has the most
// contour line; step 200 a long path).
func BenchmarkGDContourSVG(b *testing.B) {
	benchGet(b, "/plots/gd.svg?kappa=100&step=200&t=0.01", nil)
}

func BenchmarkGDContourSVGDoubleWell(b *testing.B) {
	benchGet(b, "/plots/gd.svg?objective=double-well&step=100", nil)
}

// TestGDAsAStudentSeesIt (issue 16): each fix on the presenter view and
// the plots, as a student reaches it.
func TestGDAsAStudentSeesIt(t *testing.T) {
	h := newTestServer(t)
	// t = 2/L does not converge, and says so.
	doc := parse(t, follow(t, h, "/present/gd?step=500&t=0.2"))
	if edge := doc.Find(`[data-testid="edge"]`).Text(); !strings.Contains(edge, "does not converge") || !strings.Contains(edge, "0.4471") {
		t.Errorf("t = 2/L: edge note %q", edge)
	}
	if strings.Contains(doc.Text(), "still converges") {
		t.Error("t = 2/L: the page says the run still converges")
	}
	// Above 1/L the history leaves the bound out and says why.
	hist := get(t, h, "/plots/gd-history.svg?step=20&t=0.21").Body.String()
	if strings.Contains(hist, "‖x⁽⁰⁾ − x*‖²/(2tk)") || !strings.Contains(hist, "without Theorem 1.8.5") {
		t.Error("t = 0.21: the history draws Theorem 1.8.5's bound, or does not say it left it out")
	}
	// Newton's frozen run stops as stalled at step 10.
	rec := follow(t, h, "/present/gd?method=newton&objective=logistic&step=500")
	if rec.Code == http.StatusSeeOther {
		rec = get(t, h, rec.Header().Get("Location"))
	}
	doc = parse(t, rec)
	if st := doc.Find(`[data-testid="status"]`).Text(); st != "stalled" {
		t.Errorf("Newton, logistic: status %q, want stalled", st)
	}
	if n := doc.Find(`[data-testid="newton"]`).Text(); !strings.Contains(n, "stalled") || strings.Contains(n, "squares each step") {
		t.Errorf("Newton note %q", n)
	}
	// The history is named after the method.
	if hist := get(t, h, "/plots/gd-history.svg?method=newton&objective=double-well&step=3").Body.String(); !strings.Contains(hist, "<title>Newton&#39;s method: ") || strings.Contains(hist, "Gradient descent:") {
		t.Error("double well, Newton: the history is not titled Newton's method")
	}
	// The warm-up has a plateau control; a plateau past the end is a 400.
	if rec := get(t, h, "/plots/gd.svg?schedule=warmup-linear&warmup=20&hold=190&iters=200"); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "hold") {
		t.Errorf("hold past the end = %d %.200s", rec.Code, rec.Body)
	}
	// The loss gallery says what it draws.
	g := parse(t, get(t, h, "/lessons/gradient-descent")).Find("#panel-loss-gallery")
	if st := g.Find(`[data-testid="status"]`).Text(); st == "static" || !strings.Contains(st, "5 of 5") {
		t.Errorf("loss gallery status %q", st)
	}
	if u := strings.TrimSpace(g.Find(`[data-testid="update"]`).Text()); !strings.Contains(u, "hinge") {
		t.Errorf("loss gallery: the bordered box says %q", u)
	}
}
