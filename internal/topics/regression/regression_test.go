package regression

import (
	"bytes"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// vandermondeMSE fits a degree-p polynomial with an intercept by an
// independent route, gonum's QR least squares on the Vandermonde matrix
// [1 x … xᵖ], and returns its training MSE.
func vandermondeMSE(t *testing.T, xs, ys []float64, p int) float64 {
	t.Helper()
	n := len(xs)
	a := mat.NewDense(n, p+1, nil)
	for i, x := range xs {
		for j := 0; j <= p; j++ {
			a.Set(i, j, math.Pow(x, float64(j)))
		}
	}
	var qr mat.QR
	qr.Factorize(a)
	var c mat.Dense
	if err := qr.SolveTo(&c, false, mat.NewDense(n, 1, append([]float64(nil), ys...))); err != nil {
		t.Fatal(err)
	}
	var fit mat.Dense
	fit.Mul(a, &c)
	var s float64
	for i := range ys {
		r := fit.At(i, 0) - ys[i]
		s += r * r
	}
	return s / float64(n)
}

// TestInterpolationDemo: the training MSE the demo prints is the one an
// independent least-squares solve gives; at degree n − 1 the polynomial
// passes through every point (Thm 1.3.2) and the panel says so, and the
// held-out error is then far above the training error.
func TestInterpolationDemo(t *testing.T) {
	r := demotest.Run(t, InterpolationSpec(), "degree=3")
	_, xs, ys := graphXY(r.Points)
	if got, want := demotest.ParseSig(t, demotest.Counter(r.Panel(), "train-mse")), vandermondeMSE(t, xs, ys, 3); math.Abs(got-want) > 1e-3*want {
		t.Errorf("degree 3: training MSE printed %v, QR gives %v", got, want)
	}
	if demotest.Note(r.Panel(), "interpolates") != nil {
		t.Error("degree 3 of 10 points claims to interpolate")
	}
	r = demotest.Run(t, InterpolationSpec(), "degree=9")
	p := r.Panel()
	if n := demotest.Note(p, "interpolates"); n == nil {
		t.Fatal("degree 9 on 10 points: no interpolation note")
	}
	train, test := demotest.ParseSig(t, demotest.Counter(p, "train-mse")), demotest.ParseSig(t, demotest.Counter(p, "test-mse"))
	if train > 1e-12 || test < 100*train || test < 0.1 {
		t.Errorf("degree 9 on 10 points: training MSE %v, held-out %v; want ≈ 0 and large", train, test)
	}
}

// TestInterpolationSweep: the degree chart's training error never rises
// with the degree (nested least-squares models) and reaches round-off at
// n − 1.
func TestInterpolationSweep(t *testing.T) {
	r := demotest.Run(t, InterpolationSpec(), "n=8")
	_, xs, ys := graphXY(r.Points)
	hx, hy, _ := heldOutCurve(demotest.MustParse(t, mustDemo(t, InterpolationSpec()), "n=8"))
	c, err := degreeSweep(t.Context(), nil, xs, ys, hx, hy, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	tr := c.Series[0].Y
	for p := 1; p < len(tr); p++ {
		if tr[p] > tr[p-1]*(1+1e-6)+1e-12 {
			t.Errorf("training MSE rises from degree %d (%v) to %d (%v)", p-1, tr[p-1], p, tr[p])
		}
	}
	if tr[7] != mseFloor {
		t.Errorf("degree 7 on 8 points: training MSE %v, want the floor %v", tr[7], mseFloor)
	}
}

// TestRidgeDemo: the notes' example gives w = (−2/ε, 1), and ridge equals
// its closed form (XᵀX + nλI)⁻¹Xᵀy solved apart, and its augmented-data
// least squares (Remark 1.3.6).
func TestRidgeDemo(t *testing.T) {
	for _, eps := range []float64{1, 1e-3, 1e-6} {
		x, y := epsProblem(eps)
		m, err := linreg.Fit(x, y, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(m.W[0]+2/eps) > 1e-9*2/eps || math.Abs(m.W[1]-1) > 1e-9 {
			t.Errorf("ε = %g: w = %v, want (%g, 1)", eps, m.W, -2/eps)
		}
	}
	const eps, lambda = 1e-3, 0.05
	x, y := epsProblem(eps)
	a := mat.NewDense(2, 2, []float64{0, 1, eps, 1})
	var ata mat.Dense
	ata.Mul(a.T(), a)
	for i := 0; i < 2; i++ {
		ata.Set(i, i, ata.At(i, i)+2*lambda)
	}
	var aty, want mat.Dense
	aty.Mul(a.T(), mat.NewDense(2, 1, y))
	if err := want.Solve(&ata, &aty); err != nil {
		t.Fatal(err)
	}
	r := demotest.Run(t, RidgeSpec(), "eps=0.001&lambda=0.05")
	p := r.Panel()
	m, _ := linreg.Fit(x, y, lambda, false)
	for i := range 2 {
		if math.Abs(m.W[i]-want.At(i, 0)) > 1e-9 {
			t.Errorf("ridge w[%d] = %v, closed form %v", i, m.W[i], want.At(i, 0))
		}
	}
	if demotest.Counter(p, "w-ridge") != textfmt.Vec(m.W) || demotest.Note(p, "augment") == nil || demotest.Note(p, "ridge") == nil {
		t.Errorf("panel: ridge w %q (want %q), notes %v", demotest.Counter(p, "w-ridge"), textfmt.Vec(m.W), p.Notes)
	}
	if demotest.Counter(p, "formula") != demotest.Counter(p, "w-ls")[1:len(textfmt.Sig(-2/eps))+1] {
		t.Errorf("panel: −2/ε = %s but least squares w = %s", demotest.Counter(p, "formula"), demotest.Counter(p, "w-ls"))
	}
	if rows := p.Tables[0].Rows; demotest.ParseSig(t, rows[1][3]) < 2*lambda {
		t.Errorf("σ₂² + nλ = %s, below nλ = %v", rows[1][3], 2*lambda)
	}
}

// TestRegLossesDemo: the squared loss's line is least squares, and
// moving the outlier further moves it much more than the absolute
// loss's line.
func TestRegLossesDemo(t *testing.T) {
	slopes := func(q string) []float64 {
		r := demotest.Run(t, RegLossesSpec(), q)
		_, xs, ys := graphXY(r.Points)
		fits := regLosses(r.State)
		out := make([]float64, len(fits))
		for i, f := range fits {
			w, _, err := linreg.FitLine(xs, ys, f.loss, f.param)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = w
		}
		m, _ := linreg.Fit(linreg.PolyRows(xs, 1), ys, 0, true)
		if math.Abs(out[0]-m.W[0]) > 1e-7 {
			t.Errorf("%s: squared-loss slope %v, least squares %v", q, out[0], m.W[0])
		}
		if rows := r.Panel().Tables[0].Rows; len(rows) != 4 || rows[0][1] != textfmt.Sig(out[0]) {
			t.Errorf("%s: panel rows %v", q, rows)
		}
		return out
	}
	near, far := slopes("oy=1"), slopes("oy=-6")
	dSq, dAbs := math.Abs(far[0]-near[0]), math.Abs(far[1]-near[1])
	if !(dSq > 0.5 && dAbs < dSq/5) {
		t.Errorf("moving the outlier from y = 1 to −6 moves the squared slope by %v and the absolute one by %v", dSq, dAbs)
	}
}

// TestOutlierIndex: the ringed point follows removals.
func TestOutlierIndex(t *testing.T) {
	d := mustDemo(t, RegLossesSpec())
	for q, want := range map[string]int{"": 20, "del=0,3": 18, "del=20": -1, "n=5&del=1": 4, "data=custom&add=0,0": -1} {
		if got := outlierIndex(demotest.MustParse(t, d, q)); got != want {
			t.Errorf("%q: outlier index %d, want %d", q, got, want)
		}
	}
}

// TestLSGDDemo: gradient descent reaches the normal equation's answer
// with a safe step, and a step above 2/L stops as diverged with finite
// numbers on screen.
func TestLSGDDemo(t *testing.T) {
	r := demotest.Run(t, LSGDSpec(), "step=end")
	p := r.Panel()
	if !r.Done || demotest.ParseSig(t, demotest.Counter(p, "distance")) > 1e-6 {
		t.Errorf("η = 0.25 to the end: done %v, ‖θ − θ*‖ = %s", r.Done, demotest.Counter(p, "distance"))
	}
	L := demotest.ParseSig(t, demotest.Counter(p, "L"))
	r = demotest.Run(t, LSGDSpec(), "eta="+textfmt.Sig(2.2/L)+"&step=end")
	p = r.Panel()
	if p.Status != "diverged" || demotest.Note(p, "diverged") == nil || strings.Contains(demotest.Counter(p, "objective"), "NaN") {
		t.Errorf("η = 2.2/L: status %q, objective %s", p.Status, demotest.Counter(p, "objective"))
	}
	var b bytes.Buffer
	if _, err := r.Plot(&b, false, r.PlotOptions()); err != nil || bytes.Contains(b.Bytes(), []byte("NaN")) {
		t.Errorf("diverged plot: %v", err)
	}
	h := demotest.Run(t, LSGDSpec(), "step=50").History
	if h == nil || len(h.Series) != 2 || h.Series[0].Y[len(h.Series[0].Y)-1] >= h.Series[0].Y[0] {
		t.Errorf("history after 50 steps: %+v", h)
	}
}

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

// TestGraphDataKit: graph demos write points as x,y in URLs and CSV and
// take a click's (x, y) as an observation.
func TestGraphDataKit(t *testing.T) {
	d := mustDemo(t, InterpolationSpec())
	s := demotest.MustParse(t, d, "data=custom&add=0.5,1.25~-1,2")
	if len(s.Add) != 2 || s.Add[0] != (demo.Point{0.5, 0, 1.25}) {
		t.Fatalf("add = %v", s.Add)
	}
	if q := s.Encode(demo.ForPage); !strings.Contains(q, "add=0.5%2C1.25~-1%2C2") && !strings.Contains(q, "add=0.5,1.25~-1,2") {
		t.Errorf("encoded %q", q)
	}
	if _, probs := d.Parse(url.Values{"data": {"custom"}, "add": {"0.5,0,1.25"}}); probs["add"] == "" {
		t.Error("three fields accepted for graph data")
	}
	var b strings.Builder
	if err := d.WriteCSV(&b, s.Add); err != nil || b.String() != "x,y\n0.5,1.25\n-1,2\n" {
		t.Errorf("CSV %q, %v", b.String(), err)
	}
	pts, err := d.ParseCSV(strings.NewReader(b.String()))
	if err != nil || len(pts) != 2 || pts[1] != (demo.Point{-1, 0, 2}) {
		t.Errorf("CSV round trip %v, %v", pts, err)
	}
	e, _, ok, probs := d.SplitEdit(url.Values{"op": {"add"}, "px": {"0.25"}, "pl": {"-0.7504"}})
	if !ok || len(probs) > 0 {
		t.Fatalf("edit: %v", probs)
	}
	c, err := s.Apply(e)
	if err != nil || c.Add[2] != (demo.Point{0.25, 0, -0.75}) {
		t.Errorf("click (0.25, −0.7504) added %v, %v", c.Add, err)
	}
	run, err := demotest.Execute(d, c)
	if err != nil {
		t.Fatal(err)
	}
	v, err := demo.NewView(run, d.PresentPath())
	if err != nil || v.Click != "graph" || !strings.Contains(v.FrameJSON, "[0.25,0,-0.75]") && !strings.Contains(v.FrameJSON, "[0.25,-0.75,-0.75]") {
		t.Errorf("view: click %q, frame %s, %v", v.Click, v.FrameJSON, err)
	}
}

// TestRegressionDeterministic: every figure of every regression demo
// draws the same bytes twice.
func TestRegressionDeterministic(t *testing.T) {
	for _, spec := range []demo.Spec{InterpolationSpec(), RidgeSpec(), RegLossesSpec(), LSGDSpec(), BiasVarianceSpec()} {
		var a, b bytes.Buffer
		for _, buf := range []*bytes.Buffer{&a, &b} {
			r := demotest.Run(t, spec, "")
			if _, err := r.Plot(buf, false, r.PlotOptions()); err != nil {
				t.Fatalf("%s: %v", spec.ID, err)
			}
			for _, name := range spec.Panels {
				if _, err := r.WriteFigure(buf, name, false); err != nil {
					t.Fatalf("%s %s: %v", spec.ID, name, err)
				}
			}
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) || bytes.Contains(a.Bytes(), []byte("NaN")) {
			t.Errorf("%s: figures differ between two runs or hold NaN", spec.ID)
		}
	}
}

func mustDemo(t *testing.T, spec demo.Spec) *demo.Demo {
	t.Helper()
	d, err := demo.NewDemo(spec)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestHorner: Horner's rule gives the model's own prediction.
func TestHorner(t *testing.T) {
	m := linreg.Model{W: []float64{0.5, -2, 0, 3}, B: 1.25}
	for _, x := range []float64{-1.5, -0.3, 0, 0.7, 2} {
		if got, want := horner(m, x), m.Predict(linreg.Poly(x, 4)); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("x = %v: Horner %v, Predict %v", x, got, want)
		}
	}
}

// etaVs2L reads "η = a is above|below 2/L = b" from a note.
var etaVs2L = regexp.MustCompile(`η = (\S+) is (above|below) 2/L = ([^\s:,]+)`)

// TestLSGDNotesAgreeWithTheirNumbers: whatever η, the note's "above" or
// "below" holds between the numbers it prints (η = 1 against 2/L =
// 0.99999985 used to read "1 is above 1"), and so do the counters; the
// printed L is the Hessian's largest eigenvalue computed apart.
func TestLSGDNotesAgreeWithTheirNumbers(t *testing.T) {
	for _, q := range []string{"step=50", "eta=0.999&step=50", "eta=1&step=50", "eta=1.0000001&step=3", "eta=1.05&step=50",
		"eta=1.05&step=end", "eta=2.2&step=end", "eta=0.5&lambda=0.1&step=3", "eta=1&lambda=0.5&step=3"} {
		r := demotest.Run(t, LSGDSpec(), q)
		p := r.Panel()
		var text string
		for _, n := range p.Notes {
			text += n.Text
		}
		m := etaVs2L.FindStringSubmatch(text)
		if m == nil {
			t.Errorf("%s: no comparison of η with 2/L in %q", q, text)
			continue
		}
		eta, twoL := demotest.ParseSig(t, m[1]), demotest.ParseSig(t, m[3])
		if (m[2] == "above") != (eta > twoL) || eta == twoL {
			t.Errorf("%s: the note says η = %s is %s 2/L = %s", q, m[1], m[2], m[3])
		}
		if c := demotest.ParseSig(t, demotest.Counter(p, "two-over-L")); (c < eta) != (m[2] == "above") || m[3] != demotest.Counter(p, "two-over-L") {
			t.Errorf("%s: counter 2/L = %s, note 2/L = %s, η = %s", q, demotest.Counter(p, "two-over-L"), m[3], m[1])
		}
		// L from the Hessian (2/n)Σ(xᵢ, 1)ᵀ(xᵢ, 1) + 2λ·diag(1, 0), by its
		// closed-form largest eigenvalue.
		_, xs, _ := graphXY(r.Points)
		var a, b, c float64
		for _, x := range xs {
			a, b, c = a+x*x, b+x, c+1
		}
		n, lambda := float64(len(xs)), lsgdLambda.Get(r.State)
		a, b, c = 2*a/n+2*lambda, 2*b/n, 2*c/n
		L := (a+c)/2 + math.Sqrt((a-c)*(a-c)/4+b*b)
		if got := demotest.ParseSig(t, demotest.Counter(p, "L")); math.Abs(got-L) > 1e-3*L {
			t.Errorf("%s: L printed %v, the 2×2 Hessian's largest eigenvalue is %v", q, got, L)
		}
		if strings.Contains(q, "eta=1&step=50") {
			if L <= 2 || demotest.Counter(p, "L") == "2" {
				t.Errorf("η = 1: L = %v printed %q; it is a little above 2, and must print so", L, demotest.Counter(p, "L"))
			}
		}
	}
}

// TestLSGDStopsAtTheCap: a diverging run is stopped by the cap on J, and
// the note says so with the cap and the numbers, not that the floats
// overflowed; huge weights print in significant figures.
func TestLSGDStopsAtTheCap(t *testing.T) {
	r := demotest.Run(t, LSGDSpec(), "eta=1.05&step=end")
	p := r.Panel()
	n := demotest.Note(p, "diverged")
	if n == nil || p.Status != "diverged" {
		t.Fatalf("η = 1.05 to the end: status %q, notes %v", p.Status, p.Notes)
	}
	if strings.Contains(n.Text, "float can hold") || !strings.Contains(n.Text, "cap of 10¹⁰⁰") ||
		!strings.Contains(n.Text, "stopped at iteration "+demotest.Counter(p, "step")) || !strings.Contains(n.Text, "J = "+demotest.Counter(p, "objective")) {
		t.Errorf("diverged note: %q", n.Text)
	}
	if j := demotest.ParseSig(t, demotest.Counter(p, "objective")); j > 1e100 || j < 1e98 {
		t.Errorf("stopped at J = %v; want just under the cap 10¹⁰⁰", j)
	}
	for _, f := range p.Model[0].Facts {
		if len([]rune(f.Value)) > 12 {
			t.Errorf("%s = %s: a huge weight should print in significant figures", f.Sym, f.Value)
		}
		demotest.ParseSig(t, f.Value)
	}
	var b bytes.Buffer
	if _, err := r.Plot(&b, false, r.PlotOptions()); err != nil || !bytes.Contains(b.Bytes(), []byte("cap of 10¹⁰⁰")) {
		t.Errorf("diverged plot says nothing of the cap: %v", err)
	}
}

// TestRidgeConditionNote: the note calls the columns of X nearly
// dependent only when σ₁/σ₂, computed apart from the SVD of the 2×2
// matrix, is large, and says X is well conditioned otherwise (at ε = 1,
// σ₁/σ₂ = 2.618, it used to call them nearly dependent too).
func TestRidgeConditionNote(t *testing.T) {
	for _, c := range []struct {
		q    string
		near bool
	}{{"eps=1", false}, {"eps=0.5", false}, {"eps=1&lambda=1", false}, {"", true}, {"eps=0.01&lambda=0.01", true}, {"eps=0.000001", true}} {
		p := demotest.Run(t, RidgeSpec(), c.q).Panel()
		n := demotest.Note(p, "condition")
		if n == nil {
			t.Fatalf("%q: no condition note", c.q)
		}
		// σ₁² and σ₂² are the eigenvalues of XXᵀ = [[ε², ε], [ε, 2]].
		eps := ridgeEps.Get(demotest.MustParse(t, mustDemo(t, RidgeSpec()), c.q))
		tr, det := eps*eps+2, eps*eps
		s1 := (tr + math.Sqrt(tr*tr-4*det)) / 2
		ratio := math.Sqrt(s1 / (det / s1))
		if got := demotest.ParseSig(t, strings.TrimRight(strings.Fields(n.Text)[2], ":,")); math.Abs(got-ratio) > 1e-3*ratio {
			t.Errorf("%q: note prints σ₁/σ₂ = %v, the eigenvalues of XXᵀ give %v", c.q, got, ratio)
		}
		if said := strings.Contains(n.Text, "nearly dependent") && !strings.Contains(n.Text, "not nearly dependent"); said != c.near || (ratio >= illConditioned) != c.near {
			t.Errorf("%q: σ₁/σ₂ = %.4g, note %q", c.q, ratio, n.Text)
		}
	}
}

// TestRidgeNormBound: ridge's ‖w‖ stays under ‖y‖/(2√(nλ)) at every ε,
// and at ε = 0.2, λ = 0.01 the counter shows it just under, 4.9997, not
// "5", the bound itself.
func TestRidgeNormBound(t *testing.T) {
	for _, eps := range []string{"1", "0.2", "0.1", "0.01", "0.000001"} {
		p := demotest.Run(t, RidgeSpec(), "lambda=0.01&eps="+eps).Panel()
		norm, n := demotest.ParseSig(t, demotest.Counter(p, "norm-ridge")), demotest.Note(p, "bound")
		if n == nil || norm > 5 || !strings.Contains(n.Text, "= 5,") {
			t.Errorf("ε = %s: ‖w‖ = %v, note %v", eps, norm, n)
		}
	}
	if got := demotest.Counter(demotest.Run(t, RidgeSpec(), "eps=0.2&lambda=0.01").Panel(), "norm-ridge"); got != "4.9997" {
		t.Errorf("ε = 0.2, λ = 0.01: ‖w‖ printed %q, want 4.9997", got)
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

// TestRegLossesChartWords: the loss chart writes the residual as the
// prose does, r = y − f(x), and reports the ε-insensitive loss's band of
// minimisers as the interval [−ε, ε], not one sample of it.
func TestRegLossesChartWords(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"", "ε-insensitive, ε = 0.2: 2.8 at r = ±3, lowest, 0, on the whole interval −0.2 ≤ r ≤ 0.2"},
		{"epsilon=1", "on the whole interval −1 ≤ r ≤ 1"},
		{"epsilon=0", "ε-insensitive, ε = 0: 3 at r = ±3, lowest, 0, at r = 0."},
	} {
		r := demotest.Run(t, RegLossesSpec(), c.q)
		var b bytes.Buffer
		if _, err := r.WriteFigure(&b, "losses", false); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		if !strings.Contains(s, c.want) || !strings.Contains(s, "r = y − f(x)") || strings.Contains(s, "f(x) − y") {
			t.Errorf("%q: chart says %.600s", c.q, s[strings.Index(s, "<title>"):])
		}
	}
	if cap := demotest.Run(t, RegLossesSpec(), "").Panel().Tables[0].Caption; !strings.Contains(cap, "ℓ(yᵢ − w·xᵢ − b)") {
		t.Errorf("table caption %q", cap)
	}
}

// TestRegressionFloorsAndNames: a sweep that draws values at the 10⁻⁶
// floor says so in its title, and only then; a fit with λ > 0 is called
// ridge, not least squares, in the interpolation figure.
func TestRegressionFloorsAndNames(t *testing.T) {
	for _, c := range []struct {
		spec   demo.Spec
		q, fig string
		floor  bool
	}{
		{InterpolationSpec(), "", "degree", true}, {InterpolationSpec(), "n=30", "degree", false},
		{BiasVarianceSpec(), "", "degree", true}, {BiasVarianceSpec(), "", "lambda", false},
	} {
		r := demotest.Run(t, c.spec, c.q)
		var b bytes.Buffer
		if _, err := r.WriteFigure(&b, c.fig, false); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		drawn := strings.Contains(s, "1·10⁻⁶ at")
		said := strings.Contains(s, "values below 10⁻⁶ are drawn at 10⁻⁶")
		if said != c.floor || drawn != c.floor {
			t.Errorf("%s %q %s: floor drawn %v, said %v, want %v", c.spec.ID, c.q, c.fig, drawn, said, c.floor)
		}
	}
	for _, c := range []struct{ q, want, not string }{
		{"degree=9", "10 points, least squares", "ridge"},
		{"degree=9&lambda=0.001", "10 points, ridge regression (λ = 0.001)", "least squares"},
	} {
		r := demotest.Run(t, InterpolationSpec(), c.q)
		var b bytes.Buffer
		if _, err := r.Plot(&b, false, r.PlotOptions()); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		if !strings.Contains(s, c.want) || strings.Contains(s, c.not) {
			t.Errorf("%s: plot title and desc %.400s", c.q, s[strings.Index(s, "<title>"):])
		}
	}
}

// TestLSGDExactlyTwoOverL: a step of exactly 2/L is neither above nor
// below it, and the note says the run bounces for ever.
func TestLSGDExactlyTwoOverL(t *testing.T) {
	d := mustDemo(t, LSGDSpec())
	r := demotest.Run(t, LSGDSpec(), "")
	_, xs, ys := graphXY(r.Points)
	g, _, err := linreg.NewGD(linreg.PolyRows(xs, 1), ys, 0, 0.25, true)
	if err != nil {
		t.Fatal(err)
	}
	eta := strconv.FormatFloat(2/g.L(), 'g', -1, 64)
	s := demotest.MustParse(t, d, "eta="+eta).AtStep(20)
	if lsgdEta.Get(s) != 2/g.L() {
		t.Skipf("η = %s does not parse back to 2/L exactly", eta)
	}
	run, err := demotest.Execute(d, s)
	if err != nil {
		t.Fatal(err)
	}
	p := run.Panel()
	if n := demotest.Note(p, "edge"); n == nil || !strings.Contains(n.Text, "exactly 2/L") || demotest.Note(p, "rate") != nil || demotest.Note(p, "too-large") != nil {
		t.Errorf("η = 2/L: notes %v", p.Notes)
	}
}
