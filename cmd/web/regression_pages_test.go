package main

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestRegressionLessonPage checks the linear regression lesson as a
// student gets it: five demos with their plots and figures, step controls
// only on gradient descent, and no id twice on the page.
func TestRegressionLessonPage(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, "/lessons/linear-regression")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /lessons/linear-regression = %d: %.300s", rec.Code, rec.Body)
	}
	doc := parse(t, rec)
	noDuplicateIDs(t, doc)
	for _, d := range []struct {
		id      string
		panels  []string
		static  bool
		counter string
	}{
		{"interpolation", []string{"degree"}, true, "train-mse"},
		{"ridge", []string{"norm"}, true, "w-ls"},
		{"reg-losses", []string{"losses"}, true, "n"},
		{"ls-gd", nil, false, "L"},
		{"bias-variance", []string{"lambda", "degree"}, true, "variance"},
	} {
		p := doc.Find("#panel-" + d.id)
		if p.Length() != 1 {
			t.Errorf("no demo panel #panel-%s", d.id)
			continue
		}
		if p.Find(`[data-testid="plot"] svg`).Length() != 1 {
			t.Errorf("%s: no plot", d.id)
		}
		if got := p.Find(`[data-testid="next"]`).Length() == 0; got != d.static {
			t.Errorf("%s: step controls shown = %v, want %v", d.id, !got, !d.static)
		}
		for _, name := range d.panels {
			if p.Find(`[data-testid="panel-`+name+`"] svg`).Length() != 1 {
				t.Errorf("%s: no %s figure", d.id, name)
			}
		}
		if strings.TrimSpace(p.Find(`[data-testid="`+d.counter+`"]`).Text()) == "" {
			t.Errorf("%s: counter %s is empty", d.id, d.counter)
		}
	}
	if got := doc.Find(`#panel-ridge [data-testid="formula"]`).Text(); got != "−20" {
		t.Errorf("ridge demo at ε = 0.1: −2/ε printed %q, want −20", got)
	}
}

// TestLSGDSteps steps gradient descent on least squares: the objective
// falls every step, and the plot URL draws the iterate's line.
func TestLSGDSteps(t *testing.T) {
	h := newTestServer(t)
	prev := 1e300
	for k := 1; k <= 5; k++ {
		doc := parse(t, get(t, h, "/present/ls-gd?step="+strconv.Itoa(k)))
		if got := doc.Find(`[data-testid="step"]`).Text(); got != strconv.Itoa(k) {
			t.Errorf("step %d: counter %q", k, got)
		}
		j, err := strconv.ParseFloat(strings.Replace(doc.Find(`[data-testid="objective"]`).Text(), "−", "-", 1), 64)
		if err != nil || j >= prev {
			t.Errorf("step %d: J %q after %v; with η < 2/L it falls every step", k, doc.Find(`[data-testid="objective"]`).Text(), prev)
		}
		prev = j
	}
	rec := get(t, h, "/plots/ls-gd.svg?step=7")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "iteration 7") {
		t.Errorf("plot at step 7: %d %.200s", rec.Code, rec.Body)
	}
}

// TestRegressionBadQueries: out-of-range or malformed values are 400s that
// name the key, never a 500.
func TestRegressionBadQueries(t *testing.T) {
	h := newTestServer(t)
	for _, c := range []struct{ url, key string }{
		{"/lessons/linear-regression?degree=21", "degree"},
		{"/lessons/linear-regression?lambda=-1", "lambda"},
		{"/lessons/linear-regression?demo=ridge&eps=0", "eps"},
		{"/lessons/linear-regression?demo=ridge&eps=NaN", "eps"},
		{"/lessons/linear-regression?demo=reg-losses&delta=0", "delta"},
		{"/lessons/linear-regression?demo=bias-variance&fits=100000", "fits"},
		{"/plots/ls-gd.svg?eta=1e9", "eta"},
		{"/plots/interpolation.svg?data=custom&add=1,2,3", "add"},
	} {
		rec := get(t, h, c.url)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), c.key) {
			t.Errorf("%s = %d, want 400 naming %s: %.300s", c.url, rec.Code, c.key, rec.Body)
		}
	}
	// Every value is allowed, but custom points have no true curve: 422,
	// saying what to change.
	if rec := get(t, h, "/plots/bias-variance.svg?data=custom&add=0,1~1,0"); rec.Code != http.StatusUnprocessableEntity ||
		!strings.Contains(rec.Body.String(), "choose a built-in data set") {
		t.Errorf("bias-variance on custom points = %d, want 422 naming the built-in sets: %.300s", rec.Code, rec.Body)
	}
}

// TestRegressionClickAdds: an observation added by a click lands in the
// URL as x,y and in the CSV.
func TestRegressionClickAdds(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, "/lessons/linear-regression?op=add&px=0.5&pl=1.25")
	if rec.Code != http.StatusSeeOther && rec.Code != http.StatusFound && rec.Code != http.StatusMovedPermanently {
		t.Fatalf("click = %d: %.200s", rec.Code, rec.Body)
	}
	loc := rec.Header().Get("Location")
	if !strings.Contains(loc, "add=0.5%2C1.25") && !strings.Contains(loc, "add=0.5,1.25") {
		t.Fatalf("click redirects to %s", loc)
	}
	csv := get(t, h, strings.Replace(loc, "/lessons/linear-regression", "/demos/interpolation/data.csv", 1)).Body.String()
	if !strings.HasPrefix(csv, "x,y\n") || !strings.HasSuffix(csv, "0.5,1.25\n") {
		t.Errorf("CSV after the click: %q", csv)
	}
}

// TestRegressionCaptionsAsStudentsSeeThem: the issue 16 states, on the
// presenter page and the plot a student opens. Each caption agrees with
// the numbers beside it.
func TestRegressionCaptionsAsStudentsSeeThem(t *testing.T) {
	h := newTestServer(t)
	text := func(url string) string {
		t.Helper()
		rec := get(t, h, url)
		for rec.Code == http.StatusSeeOther || rec.Code == http.StatusFound || rec.Code == http.StatusMovedPermanently {
			rec = get(t, h, rec.Header().Get("Location"))
		}
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s = %d: %.300s", url, rec.Code, rec.Body)
		}
		if strings.HasSuffix(strings.SplitN(url, "?", 2)[0], ".svg") {
			return rec.Body.String()
		}
		return parse(t, rec).Text()
	}
	for _, c := range []struct {
		url       string
		want, not []string
	}{
		{"/present/ls-gd?eta=1&step=50", []string{"η = 1 is above 2/L = 0.9999998", "|1 − ηL| = 1.0000003"}, []string{"2/L = 1:"}},
		{"/present/ls-gd?eta=1.05&step=end", []string{"cap of 10¹⁰⁰", "stopped at iteration 1222", "4.88·10⁴⁶"},
			[]string{"float can hold", "48787046389980001349724341293429652009905029120"}},
		{"/plots/ls-gd.svg?eta=1.05&step=end", []string{"cap of 10¹⁰⁰", "y = 4.88·10⁴⁶·x − 9.81·10⁴⁹"}, []string{"+ −"}},
		{"/present/ridge?eps=1", []string{"σ₁/σ₂ = 2.618, below 10: X is well conditioned"}, []string{"are nearly dependent"}},
		{"/present/ridge?eps=0.01", []string{"σ₁/σ₂ = 200: the columns of X, the two points, are nearly dependent"}, nil},
		{"/present/ridge?eps=0.2&lambda=0.01", []string{"4.9997"}, nil},
		{"/present/bias-variance?data=line&lambda=0.1", []string{"not the maximum-likelihood fit", "MAP", "centred features", "penalises the intercept too"},
			[]string{"that is the maximum-likelihood fit"}},
		{"/plots/reg-losses-losses.svg", []string{"r = y − f(x)", "−0.2 ≤ r ≤ 0.2"}, []string{"f(x) − y", "−0.175"}},
		{"/plots/interpolation-degree.svg", []string{"values below 10⁻⁶ are drawn at 10⁻⁶"}, nil},
		{"/plots/interpolation.svg?degree=9&lambda=0.001", []string{"ridge regression (λ = 0.001)"}, []string{"least squares"}},
	} {
		s := text(c.url)
		for _, w := range c.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: no %q", c.url, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(s, n) {
				t.Errorf("%s: still says %q", c.url, n)
			}
		}
	}
}
