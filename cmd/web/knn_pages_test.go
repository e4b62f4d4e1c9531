package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestKNNBayesLessonPage checks the nearest-neighbours lesson as a
// student gets it: all three demos, each with its plot and counters, and
// no id twice on the page.
func TestKNNBayesLessonPage(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, "/lessons/knn-bayes")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /lessons/knn-bayes = %d: %.300s", rec.Code, rec.Body)
	}
	doc := parse(t, rec)
	noDuplicateIDs(t, doc)
	for id, counters := range map[string][]string{
		"bayes": {"bayes-error", "sample-error", "closed-form", "bayes-quadrature", "bayes-closed"},
		"knn":   {"k", "training-error", "heldout", "bayes-error", "gap"},
		"curse": {"n", "ratio-low", "ratio-high", "curse-rows"},
	} {
		p := doc.Find("#panel-" + id)
		if p.Length() != 1 {
			t.Errorf("no demo panel #panel-%s", id)
			continue
		}
		if p.Find(`[data-testid="plot"] svg`).Length() != 1 {
			t.Errorf("%s: no plot", id)
		}
		if p.Find(`a[data-action="next"]`).Length() != 0 {
			t.Errorf("%s: a static demo shows step controls", id)
		}
		for _, c := range counters {
			if p.Find(`[data-testid="`+c+`"]`).Length() != 1 {
				t.Errorf("%s: no %s", id, c)
			}
		}
	}
	// Δ = 2, σ = 1, π = ½: the Bayes error is Φ(−1) = 15.87 %.
	for _, sel := range []string{`#panel-bayes [data-testid="bayes-error"]`, `#panel-bayes [data-testid="closed-form"]`, `#panel-knn [data-testid="bayes-error"]`} {
		if got := doc.Find(sel).Text(); got != "15.87 %" {
			t.Errorf("%s = %q, want Φ(−1) = 15.87 %%", sel, got)
		}
	}
	if !strings.HasPrefix(doc.Find(`#panel-bayes [data-testid="bayes-quadrature"]`).Text(), "0.1586552539314") {
		t.Errorf("quadrature value %q, want Φ(−1) = 0.158655253931457…", doc.Find(`#panel-bayes [data-testid="bayes-quadrature"]`).Text())
	}
	if doc.Find(`#panel-knn [data-testid="k"] svg, #panel-knn svg`).Length() < 2 {
		t.Error("knn: no error-against-k figure beside the plot")
	}
}

// TestKNNMemorisingPage: at k = 1 the page says the training error is 0.
func TestKNNMemorisingPage(t *testing.T) {
	h := newTestServer(t)
	doc := parse(t, get(t, h, "/present/knn?k=1"))
	if got := doc.Find(`[data-testid="training-error"]`).Text(); got != "0.00 %" {
		t.Errorf("k = 1: training error %q, want 0.00 %%", got)
	}
	if !strings.Contains(doc.Find(`[data-testid="memorise"]`).Text(), "memorises") {
		t.Error("k = 1: no note on the memorising classifier")
	}
}

// TestKNNBayesPlots: every figure is an SVG with a title and a
// description, and the PNG of the data plots is a PNG.
func TestKNNBayesPlots(t *testing.T) {
	h := newTestServer(t)
	for _, target := range []string{
		"/plots/bayes.svg", "/plots/bayes.svg?delta=3&prior=0.2&sigma=0.8",
		"/plots/knn.svg", "/plots/knn.svg?k=15&metric=manhattan", "/plots/knn.svg?data=moons&k=3",
		"/plots/knn-k.svg", "/plots/knn-k.svg?data=circles",
		"/plots/curse.svg", "/plots/curse.svg?n=40&seed=2",
	} {
		rec := get(t, h, target)
		body := rec.Body.String()
		if rec.Code != http.StatusOK || !strings.Contains(body, "<svg") || !strings.Contains(body, "<title>") {
			t.Errorf("GET %s = %d, %.200s", target, rec.Code, body)
		}
	}
	for _, target := range []string{"/plots/bayes.png", "/plots/knn.png?k=9"} {
		rec := get(t, h, target)
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Body.String(), "\x89PNG") {
			t.Errorf("GET %s = %d, not a PNG", target, rec.Code)
		}
	}
}

// TestKNNBayesBadQueries: a bad value is a 400 that names its key.
func TestKNNBayesBadQueries(t *testing.T) {
	h := newTestServer(t)
	for _, c := range []struct{ target, key string }{
		{"/plots/knn.svg?k=0", "k"},
		{"/plots/knn.svg?k=201", "k"},
		{"/plots/knn.svg?metric=foo", "metric"},
		{"/plots/knn-k.svg?sigma=0", "sigma"},
		{"/plots/bayes.svg?prior=1", "prior"},
		{"/plots/bayes.svg?sigma=0", "sigma"},
		{"/plots/curse.svg?n=1", "n"},
		{"/lessons/knn-bayes?demo=knn&k=0", "k"},
	} {
		rec := get(t, h, c.target)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), c.key+": ") {
			t.Errorf("GET %s = %d %.200q, want 400 naming %s", c.target, rec.Code, rec.Body.String(), c.key)
		}
	}
}

// BenchmarkKNNRegionsSVG is the kNN region plot at n = 500, the most
// points a demo takes: 14 641 grid queries through PredictAll, the
// Bayes boundary and the points.
func BenchmarkKNNRegionsSVG(b *testing.B) {
	benchGet(b, "/plots/knn.svg?n=500", nil)
}

// BenchmarkKNNPage is the whole demo page at n = 500, its k sweep (memoised
// after the first request) included.
func BenchmarkKNNPage(b *testing.B) {
	benchGet(b, "/present/knn?n=500", nil)
}
