package main

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestKernelLessonPage checks the kernels lesson as a student gets it:
// four demos, each with its plot and figures, the static ones without
// step controls, and no id twice on the page.
func TestKernelLessonPage(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, "/lessons/kernels")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /lessons/kernels = %d: %.300s", rec.Code, rec.Body)
	}
	doc := parse(t, rec)
	noDuplicateIDs(t, doc)
	for _, d := range []struct {
		id      string
		panels  []string
		static  bool
		history bool
	}{
		{"kernel-map", []string{"lift"}, true, false},
		{"kernel-gram", []string{"gram", "eigen"}, true, false},
		{"kernel-svm", []string{"alpha", "kkt", "gamma"}, false, true},
		{"kernel-pegasos", nil, false, true},
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
		if got := p.Find(`[data-testid="history"] svg`).Length() == 1; got != d.history {
			t.Errorf("%s: history shown = %v, want %v", d.id, got, d.history)
		}
		for _, name := range d.panels {
			if p.Find(`[data-testid="panel-`+name+`"] svg`).Length() != 1 {
				t.Errorf("%s: no %s figure", d.id, name)
			}
		}
	}
	if got := doc.Find(`#panel-kernel-map [data-testid="kernel"]`).Text(); got != "4" {
		t.Errorf("kernel check (⟨x, z⟩ + 1)² on the default points = %q, want 4", got)
	}
}

// TestKernelSVMSteps steps the kernel SVM: the dual falls every step and
// the figure shades f with its contour lines.
func TestKernelSVMSteps(t *testing.T) {
	h := newTestServer(t)
	prev := 0.0
	for k := 1; k <= 5; k++ {
		rec := get(t, h, "/present/kernel-svm?step="+strconv.Itoa(k))
		if rec.Code != http.StatusOK {
			t.Fatalf("step %d = %d", k, rec.Code)
		}
		doc := parse(t, rec)
		if got := doc.Find(`[data-testid="step"]`).Text(); got != strconv.Itoa(k) {
			t.Errorf("step %d: counter %q", k, got)
		}
		d, err := strconv.ParseFloat(strings.Replace(doc.Find(`[data-testid="dual"]`).Text(), "−", "-", 1), 64)
		if err != nil || d > prev+1e-12 {
			t.Errorf("step %d: D(α) %q after %v; SMO decreases it every step", k, doc.Find(`[data-testid="dual"]`).Text(), prev)
		}
		prev = d
	}
	rec := get(t, h, "/plots/kernel-svm.svg?step=end")
	if rec.Code == http.StatusMovedPermanently || rec.Code == http.StatusFound || rec.Code == http.StatusSeeOther {
		rec = get(t, h, rec.Header().Get("Location"))
	}
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "<image") || !strings.Contains(rec.Body.String(), "Gaussian") {
		t.Errorf("kernel SVM figure = %d, want a raster field and the kernel named: %.300s", rec.Code, rec.Body)
	}
}

// TestKernelBadQueries: each kernel parameter refuses bad values with a
// 400 that names it.
func TestKernelBadQueries(t *testing.T) {
	h := newTestServer(t)
	for _, target := range []string{
		"/plots/kernel-svm.svg?gamma=0", "/plots/kernel-svm.svg?gamma=NaN", "/plots/kernel-svm.svg?gamma=1e9",
		"/plots/kernel-svm.svg?kernel=sigmoid", "/plots/kernel-svm.svg?kernel=poly&degree=11",
		"/plots/kernel-svm.svg?kernel=poly&coef0=-1", "/plots/kernel-svm.svg?noise=2",
		"/plots/kernel-gram.svg?step=2", "/plots/kernel-gram.svg?kernel=tanh", "/plots/kernel-map.svg?x1=Inf",
		"/plots/kernel-map.svg?azim=500", "/plots/kernel-pegasos.svg?lambda=0", "/plots/kernel-pegasos.svg?T=20001",
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

// TestKernelFigures checks the standalone figures of the kernel demos.
func TestKernelFigures(t *testing.T) {
	h := newTestServer(t)
	for _, tt := range []struct{ target, ctype, want string }{
		{"/plots/kernel-map-lift.svg?azim=-60", "image/svg+xml", "<desc>"},
		{"/plots/kernel-gram-gram.svg?kernel=neg-sqdist", "image/svg+xml", "<image"},
		{"/plots/kernel-gram-eigen.svg?coef0=-1&kernel=sigmoid", "image/svg+xml", "negative"},
		{"/plots/kernel-svm-gamma.svg", "image/svg+xml", "held-out"},
		{"/plots/kernel-pegasos-history.svg?step=50", "image/svg+xml", "exact optimum"},
		{"/plots/kernel-pegasos.png?step=50", "image/png", "\x89PNG"},
	} {
		rec := get(t, h, tt.target)
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), tt.ctype) || !strings.Contains(rec.Body.String(), tt.want) {
			t.Errorf("GET %s = %d %s, want %s containing %q: %.200s", tt.target, rec.Code, rec.Header().Get("Content-Type"), tt.ctype, tt.want, rec.Body)
		}
	}
}

// followKernel GETs target and follows one canonical redirect, as a browser
// (and htmx's XHR) does.
func followKernel(t *testing.T, h http.Handler, target string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	rec := do(t, h, http.MethodGet, target, nil, header)
	if rec.Code == http.StatusMovedPermanently {
		rec = do(t, h, http.MethodGet, rec.Header().Get("Location"), nil, header)
	}
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s = %d: %.300s", target, rec.Code, rec.Body)
	}
	return rec
}

// TestKernelMapCheckAsPrinted: the presenter prints x = z = (10, 10) as
// (200 + 1)² = 40401 on both sides of the identity (it printed 40400).
func TestKernelMapCheckAsPrinted(t *testing.T) {
	h := newTestServer(t)
	doc := parse(t, followKernel(t, h, "/present/kernel-map?x1=10&x2=10&z1=10&z2=10", nil))
	text := doc.Text()
	for _, want := range []string{"⟨x, z⟩ = 10·10 + 10·10 = 200", "(200 + 1)² = 40401", "10000 + 10000 + 10000 + 10000 + 200 + 200 + 1 = 40401"} {
		if !strings.Contains(text, want) {
			t.Errorf("the presenter does not print %q", want)
		}
	}
	for _, id := range []string{"kernel", "features"} {
		if got := doc.Find(`[data-testid="` + id + `"]`).Text(); got != "40401" {
			t.Errorf("counter %s = %q, want 40401", id, got)
		}
	}
}

// TestKernelMapRotateAndTilt: the lesson's first demo has the rotate and
// tilt controls its prose names, and submitting its form with other
// angles (as htmx does on a change) turns the lifted points.
func TestKernelMapRotateAndTilt(t *testing.T) {
	h := newTestServer(t)
	doc := parse(t, followKernel(t, h, "/lessons/kernels", nil))
	lift := func(d *goquery.Document) string {
		s, err := d.Find(`#panel-kernel-map [data-testid="panel-lift"] svg`).Html()
		if err != nil || s == "" {
			t.Fatalf("no lifted figure: %v", err)
		}
		return s
	}
	before := lift(doc)
	form := doc.Find(`#panel-kernel-map form.param-form`)
	if form.Find(`input[name="azim"][type="number"]`).Length() != 1 || form.Find(`input[name="elev"][type="number"]`).Length() != 1 {
		t.Fatalf("the kernel-map form has no azim and elev inputs: %s", form.Text())
	}
	if label := form.Text(); !strings.Contains(label, "rotate") || !strings.Contains(label, "tilt") {
		t.Errorf("the form's labels do not say rotate and tilt: %q", label)
	}
	q := url.Values{}
	form.Find("input[name], select[name]").Each(func(_ int, s *goquery.Selection) {
		name, _ := s.Attr("name")
		v, _ := s.Attr("value")
		if s.Is("select") {
			v, _ = s.Find("option[selected]").Attr("value")
		}
		q.Add(name, v)
	})
	q.Set("azim", "-10")
	q.Set("elev", "0")
	action, _ := form.Attr("action")
	action, _, _ = strings.Cut(action, "#") // the demo's anchor stays in the browser
	after := parse(t, followKernel(t, h, action+"?"+q.Encode(), map[string]string{"HX-Request": "true"}))
	if lift(after) == before {
		t.Error("submitting azim = −10, elev = 0 left the lifted figure as it was")
	}
	if v, _ := after.Find(`input[name="azim"]`).Attr("value"); v != "-10" {
		t.Errorf("after the submit the azim control shows %q, want -10", v)
	}
}

// TestKernelFiguresSayWhatTheyShow: the Gram demo's plot names no model,
// the SGD iterate's no support-vector kinds, the γ sweep its log scale
// once; the trainers' errors at f = 0 follow sgn(0) = −1, beside the rule.
func TestKernelFiguresSayWhatTheyShow(t *testing.T) {
	h := newTestServer(t)
	desc := func(target string) string {
		doc := parse(t, followKernel(t, h, target, nil))
		return doc.Find("title").First().Text() + " " + doc.Find("desc").First().Text()
	}
	if d := desc("/plots/kernel-gram.svg"); strings.Contains(d, "SVM") || strings.Contains(d, "classifier") || !strings.Contains(d, "Gram matrix") {
		t.Errorf("/plots/kernel-gram.svg says %q", d)
	}
	if d := desc("/plots/kernel-pegasos.svg?step=2000"); strings.Contains(d, "on the margin") || !strings.Contains(d, "yᵢf(xᵢ) < 1") {
		t.Errorf("/plots/kernel-pegasos.svg?step=2000 says %q", d)
	}
	if d := desc("/plots/kernel-svm-gamma.svg?data=moons"); strings.Count(d, "log scale") != 1 {
		t.Errorf("/plots/kernel-svm-gamma.svg?data=moons says %q", d)
	}
	for _, target := range []string{"/present/kernel-pegasos", "/present/kernel-svm"} {
		doc := parse(t, followKernel(t, h, target, nil))
		if got := doc.Find(`[data-testid="error"]`).Text(); got != "50.0 %" {
			t.Errorf("%s: training error %q at f = 0 on 30 + 30 points, want 50.0 %%", target, got)
		}
		if !strings.Contains(doc.Find(`[data-testid="prediction-rule"]`).Text(), "sgn(0) = −1") {
			t.Errorf("%s: no note stating sgn(0) = −1", target)
		}
	}
}
