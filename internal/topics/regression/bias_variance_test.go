package regression

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestBiasVarianceDemo: a line fitted to a line has no bias and little
// variance; a degree-10 polynomial on 15 points has far more variance;
// custom data, with no true curve, is a clear error.
func TestBiasVarianceDemo(t *testing.T) {
	p1 := demotest.Run(t, BiasVarianceSpec(), "data=line&degree=1").Panel()
	p10 := demotest.Run(t, BiasVarianceSpec(), "data=line&degree=10").Panel()
	if b := demotest.ParseSig(t, demotest.Counter(p1, "bias2")); b > 1e-3 {
		t.Errorf("degree 1 on a line: bias² %v; the mean of 50 refits should sit on the line", b)
	}
	if v1, v10 := demotest.ParseSig(t, demotest.Counter(p1, "variance")), demotest.ParseSig(t, demotest.Counter(p10, "variance")); v10 < 5*v1 {
		t.Errorf("variance at degree 1 %v, at degree 10 %v: want far more", v1, v10)
	}
	d := mustDemo(t, BiasVarianceSpec())
	if _, err := demotest.Execute(d, demotest.MustParse(t, d, "data=custom&add=0,0~0.5,1~1,0")); err == nil || !strings.Contains(err.Error(), "built-in") {
		t.Errorf("custom data: %v", err)
	}
	// The mean of many refits approaches E[θ̂] (the panel's shrinkage note).
	r := demotest.Run(t, BiasVarianceSpec(), "data=line&degree=1&lambda=0.1&fits=200")
	if n := demotest.Note(r.Panel(), "shrinkage"); n == nil || !strings.Contains(n.Text, "within") {
		t.Error("no shrinkage note")
	}
}

// TestBiasVarianceLikelihood: only λ = 0 (or degree 0, where λ has no
// weight to act on) is called the maximum-likelihood fit; a ridge fit is
// named as such, not the MLE, and its MAP prior variance is σ²/(nλ).
func TestBiasVarianceLikelihood(t *testing.T) {
	for _, c := range []struct {
		q     string
		mle   bool
		prior float64
	}{{"data=line", true, 0}, {"data=line&lambda=0.1", false, 0.09 / (15 * 0.1)}, {"degree=9&lambda=0.001", false, 0.09 / (15 * 0.001)},
		{"degree=0&lambda=0.1", true, 0}, {"lambda=0.1&noise=0", false, 0}} {
		e := demotest.Run(t, BiasVarianceSpec(), c.q).Panel().Examined
		if got := strings.Contains(e, "that is the maximum-likelihood fit"); got != c.mle || strings.Contains(e, "not the maximum-likelihood") == c.mle {
			t.Errorf("%s: %q", c.q, e)
		}
		if c.prior > 0 {
			m := regexp.MustCompile(`N\(0, σ²/\(nλ\)\) = N\(0, ([^)]+)\)`).FindStringSubmatch(e)
			if m == nil || math.Abs(demotest.ParseSig(t, m[1])-c.prior) > 1e-3*c.prior {
				t.Errorf("%s: prior variance %v, want σ²/(nλ) = %v: %q", c.q, m, c.prior, e)
			}
		}
	}
}

// TestBiasVarianceShrinkage: with the intercept free, the panel's
// shrinkage formula on the centred features gives E[θ̂]'s weights, and
// 003's matrix form, which penalises the intercept too, gives another
// fit, so the note's "the notes differ here" is not idle.
func TestBiasVarianceShrinkage(t *testing.T) {
	for _, q := range []string{"data=line&lambda=0.1", "data=cubic&lambda=0.01", "degree=5&lambda=0.001"} {
		r := demotest.Run(t, BiasVarianceSpec(), q)
		p := r.Panel()
		n := demotest.Note(p, "shrinkage")
		m := regexp.MustCompile(`gives (\([^)]*\)), E\[θ̂\]'s weights`).FindStringSubmatch(n.Text)
		exp := p.Model[1].Facts[0].Value // (w…, b)
		if m == nil || !strings.HasPrefix(exp, strings.TrimSuffix(m[1], ")")+", ") {
			t.Errorf("%s: formula gives %v, E[θ̂] = %s: %q", q, m, exp, n.Text)
		}
		if !strings.Contains(n.Text, "centred") || !strings.Contains(n.Text, "penalises the intercept too") {
			t.Errorf("%s: the note does not say the formula needs centred features: %q", q, n.Text)
		}
		// 003's (I − λ'(X̃ᵀX̃ + λ'I)⁻¹)θ* with λ' = nλ, the points as rows
		// of X̃ = [φ(xᵢ) 1] and θ* = the noiseless least-squares fit.
		st := r.State
		deg, lambda := bvDegree.Get(st), ridgeLambda.Get(st)
		_, xs, _ := graphXY(r.Points)
		f, _ := curveTruth(st)
		fx := make([]float64, len(xs))
		for i, x := range xs {
			fx[i] = f(x)
		}
		star, err := linreg.Fit(linreg.PolyRows(xs, deg), fx, 0, true)
		if err != nil {
			t.Fatal(err)
		}
		k := deg + 1
		a := mat.NewDense(len(xs), k, nil)
		for i, row := range linreg.PolyRows(xs, deg) {
			copy(a.RawRowView(i), row)
			a.Set(i, deg, 1)
		}
		var ata mat.Dense
		ata.Mul(a.T(), a)
		theta := mat.NewVecDense(k, append(append([]float64{}, star.W...), star.B))
		var rhs, out mat.VecDense
		rhs.MulVec(&ata, theta)
		for j := range k {
			ata.Set(j, j, ata.At(j, j)+float64(len(xs))*lambda)
		}
		if err := out.SolveVec(&ata, &rhs); err != nil {
			t.Fatal(err)
		}
		bv, err := linreg.ResampleFits(xs, f, curveNoise.Get(st), 2, deg, lambda, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		var d float64
		for j := range deg {
			d = math.Max(d, math.Abs(out.AtVec(j)-bv.Expected.W[j]))
		}
		// Far above round-off (10⁻¹⁴); large where the intercept is
		// (0.3 on the line), small where f is nearly odd.
		if d < 1e-6 {
			t.Errorf("%s: 003's matrix form (intercept penalised) gives the demo's E[w] to %v; the note says they differ", q, d)
		}
	}
}
