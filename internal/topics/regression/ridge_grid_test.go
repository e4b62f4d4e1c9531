package regression

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo/demotest"
)

var ridgeNumberRes = map[string]*regexp.Regexp{
	"ridge":   regexp.MustCompile(`With λ = (\S+) the smallest eigenvalue of XXᵀ \+ nλI is at least nλ = (\S+), its condition number is (\S+) instead of XXᵀ's (\S+), and`),
	"bound":   regexp.MustCompile(`‖w‖ = (\S+): whatever ε, ridge keeps ‖w‖ at most ‖y‖/\(2√\(nλ\)\) = ([^,]+),`),
	"augment": regexp.MustCompile(`gives w = \((\S+), ([^)]+)\), the ridge answer to within ([^.]+(?:\.\d+)?(?:·10\S+)?)\.$`),
	"cond":    regexp.MustCompile(`σ₁/σ₂ = ([^\s:,]+)[:,].* σ₂² = (\S+)(?:,| and)`),
	"digits":  regexp.MustCompile(`which costs about (\S+) digits`),
}

// TestRidgeNumbersSecondRoute: every number of the ridge demo's counters,
// table and notes, recomputed in closed form for the two padded points
// x₁ = (0, 1), x₂ = (ε, 1), y = (1, −1): least squares w = (−2/ε, 1), ridge
// from the 2×2 system (XXᵀ + nλI)w = Xy, σᵢ² the eigenvalues of
// XXᵀ = [[ε², ε], [ε, 2]] (issue 27 §5).
func TestRidgeNumbersSecondRoute(t *testing.T) {
	for _, q := range []string{"", "eps=1", "eps=0.01", "eps=0.000001", "eps=0.01&lambda=0.01", "eps=0.2&lambda=0.01", "lambda=0.01", "eps=1&lambda=1", "eps=0.5&lambda=0.0001"} {
		r := demotest.Run(t, RidgeSpec(), q)
		p := r.Panel()
		eps, lambda := ridgeEps.Get(r.State), ridgeBoth.Get(r.State)
		a, b, c := eps*eps+2*lambda, eps, 2+2*lambda // XXᵀ + nλI, n = 2
		rhs1, rhs2 := -eps, 0.0                      // Xy = (0·1 + ε·(−1), 1 − 1)
		det := a*c - b*b
		rw := [2]float64{(c*rhs1 - b*rhs2) / det, (a*rhs2 - b*rhs1) / det}
		tr, d := eps*eps+2, eps*eps
		s1 := (tr + math.Sqrt(tr*tr-4*d)) / 2
		s2 := d / s1
		check := func(what, printed string, want float64) {
			t.Helper()
			if !closeTo(t, printed, want) {
				t.Errorf("%s: %s printed %s, the closed form gives %v", q, what, printed, want)
			}
		}
		vec := func(s string) []string { return strings.Split(strings.Trim(s, "()"), ", ") }
		ls := vec(demotest.Counter(p, "w-ls"))
		check("w₁ (least squares)", ls[0], -2/eps)
		check("w₂ (least squares)", ls[1], 1)
		check("−2/ε", demotest.Counter(p, "formula"), -2/eps)
		check("‖w‖ (λ = 0)", demotest.Counter(p, "norm-ls"), math.Hypot(2/eps, 1))
		rg := vec(demotest.Counter(p, "w-ridge"))
		if lambda > 0 {
			check("ridge w₁", rg[0], rw[0])
			check("ridge w₂", rg[1], rw[1])
			check("‖w‖ ridge", demotest.Counter(p, "norm-ridge"), math.Hypot(rw[0], rw[1]))
		}
		tb := p.Tables[0]
		for i, s := range []float64{s1, s2} {
			check("σ", tb.Rows[i][1], math.Sqrt(s))
			check("σ²", tb.Rows[i][2], s)
			check("σ² + nλ", tb.Rows[i][3], s+2*lambda)
		}
		var notes string
		for _, n := range p.Notes {
			notes += n.Text + "\n"
		}
		m := ridgeNumberRes["cond"].FindStringSubmatch(demotest.Note(p, "condition").Text)
		if m == nil {
			t.Fatalf("%s: condition note %q", q, demotest.Note(p, "condition").Text)
		}
		ratio := math.Sqrt(s1 / s2)
		check("σ₁/σ₂", m[1], ratio)
		check("σ₂²", m[2], s2)
		if m := ridgeNumberRes["digits"].FindStringSubmatch(notes); m != nil {
			check("digits", m[1], math.Round(10*math.Log10(s1/s2))/10)
		}
		if lambda == 0 {
			continue
		}
		m = ridgeNumberRes["ridge"].FindStringSubmatch(notes)
		mb := ridgeNumberRes["bound"].FindStringSubmatch(notes)
		ma := ridgeNumberRes["augment"].FindStringSubmatch(demotest.Note(p, "augment").Text)
		if m == nil || mb == nil || ma == nil {
			t.Fatalf("%s: notes %q", q, notes)
		}
		check("λ", m[1], lambda)
		check("nλ", m[2], 2*lambda)
		check("ridge condition number", m[3], (s1+2*lambda)/(s2+2*lambda))
		check("XXᵀ's condition number", m[4], s1/s2)
		check("‖w‖", mb[1], math.Hypot(rw[0], rw[1]))
		check("bound", mb[2], math.Sqrt2/(2*math.Sqrt(2*lambda)))
		check("augmented w₁", ma[1], rw[0])
		check("augmented w₂", ma[2], rw[1])
		if diff := demotest.ParseSig(t, ma[3]); diff > 1e-9*(1+math.Hypot(rw[0], rw[1])) {
			t.Errorf("%s: the augmented solve is %v from ridge", q, diff)
		}
	}
}

// TestBiasVarianceNumbersSecondRoute: the bias-variance counters add up
// (expected test MSE = bias² + variance + σ², σ² from the noise σ), and
// at λ = 0 E[θ̂] is the least-squares fit of the noiseless labels, by
// gonum's QR on the Vandermonde matrix [1 x … xᵖ] (issue 27 §5).
func TestBiasVarianceNumbersSecondRoute(t *testing.T) {
	for _, q := range []string{"", "degree=1", "degree=9", "data=line", "data=cubic&degree=5", "degree=3&noise=0.5&fits=10"} {
		r := demotest.Run(t, BiasVarianceSpec(), q)
		p := r.Panel()
		get := func(id string) float64 { return demotest.ParseSig(t, demotest.Counter(p, id)) }
		sigma := curveNoise.Get(r.State)
		if !closeTo(t, demotest.Counter(p, "noise"), sigma*sigma) {
			t.Errorf("%s: noise σ² printed %s, σ = %v", q, demotest.Counter(p, "noise"), sigma)
		}
		if sum := get("bias2") + get("variance") + get("noise"); math.Abs(sum-get("expected")) > 1e-3*sum+1e-4 {
			t.Errorf("%s: expected %v, bias² + variance + σ² = %v", q, get("expected"), sum)
		}
		_, xs, _ := graphXY(r.Points)
		f, _ := curveTruth(r.State)
		fx := make([]float64, len(xs))
		for i, x := range xs {
			fx[i] = f(x)
		}
		deg := bvDegree.Get(r.State)
		coef := vandermondeCoef(t, xs, fx, deg) // b, w₁, …, wₚ
		exp := strings.Split(strings.Trim(factValue(p, "expected-theta"), "()"), ", ")
		for i := 1; i <= deg; i++ {
			if !closeTo(t, exp[i-1], coef[i]) {
				t.Errorf("%s: E[θ̂] weight %d printed %s, QR gives %v", q, i, exp[i-1], coef[i])
			}
		}
		if !closeTo(t, exp[deg], coef[0]) {
			t.Errorf("%s: E[θ̂] intercept printed %s, QR gives %v", q, exp[deg], coef[0])
		}
	}
}
