package knn

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// runKNNDemo executes spec's demo at the query q.
func runKNNDemo(t *testing.T, spec demo.Spec, q url.Values) *demo.Run {
	t.Helper()
	d, err := demo.NewDemo(spec)
	if err != nil {
		t.Fatal(err)
	}
	s, probs := d.Parse(q)
	if len(probs) > 0 {
		t.Fatalf("Parse(%v): %v", q, probs)
	}
	r, err := demotest.Execute(d, s)
	if err != nil {
		t.Fatalf("Execute(%v): %v", q, err)
	}
	return r
}

// knnFact finds the model fact with testID in p.
func knnFact(t *testing.T, p demo.Panel, testID string) string {
	t.Helper()
	for _, m := range p.Model {
		for _, f := range m.Facts {
			if f.TestID == testID {
				return f.Value
			}
		}
	}
	t.Fatalf("panel has no fact %q: %+v", testID, p.Model)
	return ""
}

// TestBayesErrorMatchesClosedForm: for π = ½ the Bayes error the panel
// prints, "v ± e", is within e plus the rounding of its last printed
// digit of Φ(−Δ/2σ), computed here from erfc (not distuv, which the
// panel's own closed form uses).
func TestBayesErrorMatchesClosedForm(t *testing.T) {
	for _, c := range []struct{ delta, sigma string }{
		{"2", "1"}, {"0.5", "1"}, {"4", "0.5"}, {"3", "2"}, {"8", "0.7"}, {"0", "1"}, {"1.3", "4"},
	} {
		p := runKNNDemo(t, BayesSpec(), url.Values{"delta": {c.delta}, "sigma": {c.sigma}}).Panel()
		printed := knnFact(t, p, "bayes-quadrature")
		vs, es, ok := strings.Cut(printed, " ± ")
		if !ok {
			t.Fatalf("Δ = %s, σ = %s: Bayes error %q is not \"value ± bound\"", c.delta, c.sigma, printed)
		}
		v, err1 := strconv.ParseFloat(vs, 64)
		e, _, ok2 := demotest.ProseNumber(es)
		if err1 != nil || !ok2 || e <= 0 || e > 1e-10 {
			t.Fatalf("Δ = %s, σ = %s: cannot read %q (bound must be in (0, 1e-10])", c.delta, c.sigma, printed)
		}
		_, frac, _ := strings.Cut(vs, ".")
		acc := e + 0.5*math.Pow(10, -float64(len(frac)))
		d, _ := strconv.ParseFloat(c.delta, 64)
		s, _ := strconv.ParseFloat(c.sigma, 64)
		want := 0.5 * math.Erfc(d/(2*s)/math.Sqrt2)
		if math.Abs(v-want) > acc {
			t.Errorf("Δ = %s, σ = %s: Bayes error %s, want Φ(−Δ/2σ) = %.17g within %g", c.delta, c.sigma, printed, want, acc)
		}
		closed, err := strconv.ParseFloat(knnFact(t, p, "bayes-closed"), 64)
		if err != nil || math.Abs(closed-want) > acc {
			t.Errorf("Δ = %s, σ = %s: printed closed form %q, want %.17g", c.delta, c.sigma, knnFact(t, p, "bayes-closed"), want)
		}
	}
}

// TestBayesAsymmetricHasNoClosedForm: with π ≠ ½ the panel drops the
// closed form, and a larger prior for the farther class lowers the error
// below the symmetric one (the Bayes classifier can lean on the prior).
func TestBayesAsymmetricHasNoClosedForm(t *testing.T) {
	p := runKNNDemo(t, BayesSpec(), url.Values{"prior": {"0.8"}}).Panel()
	for _, m := range p.Model {
		for _, f := range m.Facts {
			if f.TestID == "bayes-closed" {
				t.Errorf("π = 0.8 shows the closed form %q, which holds only for π = ½", f.Value)
			}
		}
	}
	v, _ := strconv.ParseFloat(strings.Split(knnFact(t, p, "bayes-quadrature"), " ")[0], 64)
	if sym := 0.5 * math.Erfc(1/math.Sqrt2); !(v < sym) || !(v > 0) {
		t.Errorf("π = 0.8: Bayes error %g, want in (0, %g)", v, sym)
	}
}

// TestBayesBoundary: the panel says where the Bayes boundary lies, and
// there the mixture's own log-odds vanish (at any x₂), so η = ½; with
// π = 0.8 it is −log 4/2 from the centre line, towards class −1; with
// Δ = 0 there is none to give.
func TestBayesBoundary(t *testing.T) {
	for _, q := range []url.Values{{"prior": {"0.8"}}, {}, {"prior": {"0.3"}, "delta": {"3"}, "sigma": {"1.5"}}} {
		r := runKNNDemo(t, BayesSpec(), q)
		x1, err := strconv.ParseFloat(strings.ReplaceAll(knnFact(t, r.Panel(), "bayes-boundary"), "−", "-"), 64)
		if err != nil {
			t.Fatal(err)
		}
		m, err := mixtureOf(r.State)
		if err != nil {
			t.Fatal(err)
		}
		// The printed value has 4 significant digits; the log-odds change
		// by Δ/σ² per unit of x₁.
		slope := delta.Get(r.State) / (sigma.Get(r.State) * sigma.Get(r.State))
		for _, x2 := range []float64{-2, 0, 3} {
			if l := m.LogOdds([]float64{x1, x2}); math.Abs(l) > slope*5e-4*math.Max(1, math.Abs(x1)) {
				t.Errorf("%v: boundary x₁ = %v, but the log-odds there are %v", q, x1, l)
			}
		}
	}
	if got := knnFact(t, runKNNDemo(t, BayesSpec(), url.Values{"prior": {"0.8"}}).Panel(), "bayes-boundary"); got != textfmt.Sig(-math.Log(4)/2) {
		t.Errorf("π = 0.8: boundary %s, want −log 4/2 = %s", got, textfmt.Sig(-math.Log(4)/2))
	}
	for _, m := range runKNNDemo(t, BayesSpec(), url.Values{"delta": {"0"}}).Panel().Model {
		for _, f := range m.Facts {
			if f.TestID == "bayes-boundary" {
				t.Errorf("Δ = 0 gives a boundary %q", f.Value)
			}
		}
	}
}

func TestBayesErrorText(t *testing.T) {
	for _, c := range []struct {
		risk, bound float64
		value, acc  string
	}{
		{0.15865525393145707, 1e-14, "0.15865525393146", "1·10⁻¹⁴"},
		{0.15865525393145707, 1.2e-14, "0.15865525393146", "2·10⁻¹⁴"},
		{0.1, 9.5e-13, "0.100000000000", "1·10⁻¹²"},
		{0.25, 0.01, "0.2500", "1·10⁻²"},
		{0.25, 0, "0.250000000000000", "0"},
	} {
		v, a := BayesErrorText(c.risk, c.bound)
		if v != c.value || a != c.acc {
			t.Errorf("BayesErrorText(%v, %v) = %q, %q, want %q, %q", c.risk, c.bound, v, a, c.value, c.acc)
		}
	}
}
