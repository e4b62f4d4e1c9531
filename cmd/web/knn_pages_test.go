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
// points a demo takes: 161 × 161 grid queries through PredictAll and the
// margin at the nodes beside the border, the Bayes boundary and the
// points.
func BenchmarkKNNRegionsSVG(b *testing.B) {
	benchGet(b, "/plots/knn.svg?n=500", nil)
}

// BenchmarkKNNPage is the whole demo page at n = 500, its k sweep (memoised
// after the first request) included.
func BenchmarkKNNPage(b *testing.B) {
	benchGet(b, "/present/knn?n=500", nil)
}

// TestKNNRiskAsAStudentSeesIt (issue 16): on the mixture the page shows
// the classifier's true risk, never below the Bayes error, the k chart
// runs to k = n, the Bayes plot at Δ = 0 has no "±0" and lists no
// boundary, and both panels state the tie rule.
func TestKNNRiskAsAStudentSeesIt(t *testing.T) {
	h := newTestServer(t)
	doc := parse(t, get(t, h, "/present/knn?k=101"))
	risk := doc.Find(`[data-testid="heldout"]`).Text()
	if risk != "16.48 %" || !strings.Contains(doc.Text(), "risk R(h), by quadrature") {
		t.Errorf("k = 101: risk %q, want the quadrature's 16.48 %% (the 1000 held-out points said 14.5 %%)", risk)
	}
	if note := doc.Find(`[data-testid="bayes-ref"]`).Text(); !strings.Contains(note, "above it") {
		t.Errorf("bayes-ref note %q", note)
	}
	if !strings.Contains(doc.Find(`[data-testid="update"]`).Text(), "a tied vote goes to −1") {
		t.Error("knn: the tie rule is not stated")
	}
	chart := get(t, h, "/plots/knn-k.svg").Body.String()
	if !strings.Contains(chart, "risk R(h)") || !strings.Contains(chart, "200") {
		t.Errorf("k chart: no risk curve to k = n = 200: %.300s", chart)
	}
	bayes := get(t, h, "/plots/bayes.svg?delta=0").Body.String()
	if strings.Contains(bayes, "±0") || strings.Contains(bayes, "boundary η = 0.5") || !strings.Contains(bayes, "both means at (0, 0)") {
		t.Error("Δ = 0: the Bayes figure should say both means are at (0, 0) and list no boundary")
	}
	if !strings.Contains(parse(t, get(t, h, "/present/bayes")).Find(`[data-testid="update"]`).Text(), "Margin says −1 there") {
		t.Error("bayes: the tie rule at η = ½ is not stated")
	}
	curse := parse(t, get(t, h, "/present/curse"))
	if !strings.Contains(curse.Text(), "spread of all distances") {
		t.Error("curse: no spread column")
	}
}
