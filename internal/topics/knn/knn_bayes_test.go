package knn

import (
	"bytes"
	"errors"
	"math"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/knn"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
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

// TestKNNMemorisesAtK1: on distinct points, k = 1 gets every training
// point right, while on the overlapping mixture it errs on fresh points.
func TestKNNMemorisesAtK1(t *testing.T) {
	for _, set := range []string{"mixture", "moons", "circles", "noisy"} {
		r := runKNNDemo(t, KNNSpec(), url.Values{"data": {set}, "k": {"1"}})
		x, _ := demo.Columns(r.Points)
		if !knnDistinct(x) {
			t.Fatalf("%s: the sample has repeated points; the test needs distinct ones", set)
		}
		if got := demotest.Counter(r.Panel(), "training-error"); got != "0.00 %" {
			t.Errorf("%s, k = 1: training error %s, want 0.00 %%", set, got)
		}
		if got := demotest.Counter(r.Panel(), "heldout"); set == "mixture" && (got == "0.00 %" || got == "—") {
			t.Errorf("%s, k = 1: held-out error %s, want a positive error", set, got)
		}
	}
}

func knnDistinct(x [][]float64) bool {
	seen := map[[2]float64]bool{}
	for _, p := range x {
		k := [2]float64{p[0], p[1]}
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// bruteKNN is the notes' kNN written out: sort every training point by
// (distance, index), take the first k, majority vote, a tie to −1.
func bruteKNN(x [][]float64, y []int, k int, manhattan bool, q []float64) int {
	idx := make([]int, len(x))
	dist := make([]float64, len(x))
	for i, p := range x {
		idx[i] = i
		a, b := p[0]-q[0], p[1]-q[1]
		if manhattan {
			dist[i] = math.Abs(a) + math.Abs(b)
		} else {
			dist[i] = a*a + b*b
		}
	}
	sort.SliceStable(idx, func(i, j int) bool { return dist[idx[i]] < dist[idx[j]] })
	vote := 0
	for _, i := range idx[:k] {
		vote += y[i]
	}
	if vote > 0 {
		return 1
	}
	return -1
}

// TestKNNRegionGridAgreesWithPredict: the sign of the Field's batch Grid
// (the margin whose zero set is the border) is at every node what Predict
// and a brute-force vote give there, even k (ties to −1) included; the
// nodes are the sample points' coordinates, so many sit on or near the
// data.
func TestKNNRegionGridAgreesWithPredict(t *testing.T) {
	for _, q := range []url.Values{
		{"k": {"5"}}, {"k": {"1"}, "metric": {"manhattan"}}, {"k": {"25"}, "data": {"moons"}, "n": {"120"}},
		{"k": {"4"}}, {"k": {"1"}}, {"k": {"16"}, "metric": {"manhattan"}},
	} {
		r := runKNNDemo(t, KNNSpec(), q)
		kr := knnOf(t, r)
		f, err := kr.regions()
		if err != nil {
			t.Fatal(err)
		}
		var xs, ys []float64
		for i, p := range kr.x {
			if i%7 == 0 {
				xs, ys = append(xs, p[0]), append(ys, p[1])
			}
		}
		z := make([]float64, len(xs)*len(ys))
		f.Grid(xs, ys, z)
		for j, b := range ys {
			for i, a := range xs {
				p, err := kr.c.Predict([]float64{a, b})
				if err != nil {
					t.Fatal(err)
				}
				want := bruteKNN(kr.x, kr.y, kr.c.K, q.Get("metric") == "manhattan", []float64{a, b})
				got := z[j*len(xs)+i]
				sign := -1
				if got > 0 {
					sign = 1
				}
				if sign != kr.classes[p] || sign != want || (f.F(a, b) > 0) != (got > 0) {
					t.Fatalf("%v at (%g, %g): grid %g (sign %d), Predict %d, F %g, brute force %d", q, a, b, got, sign, kr.classes[p], f.F(a, b), want)
				}
			}
		}
	}
}

// knnOf is the kNN demo's run behind r, for its internals.
func knnOf(t *testing.T, r *demo.Run) *knnRun {
	t.Helper()
	kr, err := newKNNRun(t.Context(), demo.Input{State: r.State, Points: r.Points})
	if err != nil || kr.c == nil {
		t.Fatalf("newKNNRun: %v (classifier %v)", err, kr)
	}
	return kr
}

// TestKNNSweep: the sweep's k are odd and rising, and end at n; its
// training error at k = 1 is 0 on distinct points; each value is what a
// fresh brute-force vote gives.
func TestKNNSweep(t *testing.T) {
	r := runKNNDemo(t, KNNSpec(), url.Values{"n": {"60"}})
	x, yf := demo.Columns(r.Points)
	y := pointset.SignLabels(yf)
	tx, ty := x[:20], y[:20]
	sw, err := computeSweep(x, y, tx, ty, true, knn.Euclidean)
	if err != nil {
		t.Fatal(err)
	}
	if sw.ks[0] != 1 || sw.train[0] != 0 {
		t.Fatalf("sweep starts at k = %d with training error %g, want k = 1 and 0", sw.ks[0], sw.train[0])
	}
	for i, k := range sw.ks {
		last := i == len(sw.ks)-1
		if (k%2 != 1 && !last) || (last && k != 60) || (i > 0 && k <= sw.ks[i-1]) {
			t.Fatalf("sweep k = %v: want odd, rising, ending at n = 60", sw.ks)
		}
		wrong := 0
		for j, p := range x {
			if bruteKNN(x, y, k, false, p) != y[j] {
				wrong++
			}
		}
		if want := float64(wrong) / float64(len(x)); sw.train[i] != want {
			t.Errorf("k = %d: training error %g, brute force %g", k, sw.train[i], want)
		}
	}
	if got := sweepKs(1); !slices.Equal(got, []int{1}) {
		t.Errorf("sweepKs(1) = %v, want [1]", got)
	}
}

// TestKNNFiguresDeterministic: the same URL draws the same bytes, twice
// in one process and through separate runs (the sweep memo included).
func TestKNNFiguresDeterministic(t *testing.T) {
	for _, c := range []struct {
		spec  demo.Spec
		q     url.Values
		figs  []string
		label string
	}{
		{BayesSpec(), url.Values{"prior": {"0.3"}}, []string{demo.PlotFigure}, "bayes"},
		{KNNSpec(), url.Values{"k": {"7"}}, []string{demo.PlotFigure, "k"}, "knn"},
		{CurseSpec(), url.Values{"n": {"50"}}, []string{demo.PlotFigure}, "curse"},
	} {
		for _, fig := range c.figs {
			var out [2][]byte
			for i := range out {
				r := runKNNDemo(t, c.spec, c.q)
				var b bytes.Buffer
				if ok, err := r.WriteFigure(&b, fig, false); !ok || err != nil {
					t.Fatalf("%s figure %q: ok %v, %v", c.label, fig, ok, err)
				}
				out[i] = b.Bytes()
			}
			if !bytes.Equal(out[0], out[1]) || !bytes.Contains(out[0], []byte("<svg")) {
				t.Errorf("%s figure %q: two runs drew different SVGs (or none)", c.label, fig)
			}
		}
	}
}

// TestKNNBayesBadParams: each bad value is a problem naming its key.
func TestKNNBayesBadParams(t *testing.T) {
	for _, c := range []struct {
		spec demo.Spec
		q    url.Values
		key  string
	}{
		{KNNSpec(), url.Values{"k": {"0"}}, "k"},
		{KNNSpec(), url.Values{"k": {"41"}, "n": {"40"}}, "k"},
		{KNNSpec(), url.Values{"metric": {"foo"}}, "metric"},
		{KNNSpec(), url.Values{"sigma": {"0"}}, "sigma"},
		{BayesSpec(), url.Values{"sigma": {"0"}}, "sigma"},
		{BayesSpec(), url.Values{"prior": {"1"}}, "prior"},
		{BayesSpec(), url.Values{"prior": {"0"}}, "prior"},
		{BayesSpec(), url.Values{"delta": {"-1"}}, "delta"},
		{CurseSpec(), url.Values{"n": {"1"}}, "n"},
		{CurseSpec(), url.Values{"n": {strconv.Itoa(MaxCurseN + 1)}}, "n"},
	} {
		d, err := demo.NewDemo(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		s, probs := d.Parse(c.q)
		if len(probs) == 0 {
			_, err := demotest.Execute(d, s)
			if !errors.As(err, &probs) {
				t.Errorf("%s %v: no problem (Execute: %v)", d.ID, c.q, err)
				continue
			}
		}
		if probs[c.key] == "" {
			t.Errorf("%s %v: problems %v do not name %s", d.ID, c.q, probs, c.key)
		}
	}
}

// TestKNNTooFewPoints: custom data with fewer points than k draw the
// points and say so instead of failing.
func TestKNNTooFewPoints(t *testing.T) {
	r := runKNNDemo(t, KNNSpec(), url.Values{"data": {"custom"}, "add": {"0,0,1~1,1,-1"}})
	var b bytes.Buffer
	if _, err := r.Plot(&b, false, render.Options{}); err != nil {
		t.Fatal(err)
	}
	p := r.Panel()
	if len(p.Notes) == 0 || p.Notes[0].TestID != "few-points" {
		t.Errorf("2 points at k = 5: notes %+v, want a few-points note", p.Notes)
	}
}

// TestCurseTable: the panel's table is CurseOfDimensionality's rows, and
// the ratio grows from near 0 in 1-D towards 1 in 1000-D.
func TestCurseTable(t *testing.T) {
	r := runKNNDemo(t, CurseSpec(), url.Values{"n": {"200"}, "seed": {"3"}})
	rows, err := knn.CurseOfDimensionality(CurseDims, 200, 3)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, d := range CurseDims {
		sum += d
	}
	if sum != curseDimsSum {
		t.Errorf("Σ CurseDims = %d, but curseDimsSum is %d", sum, curseDimsSum)
	}
	if MaxCurseN > knn.MaxCurseN || MaxCurseN*sum > knn.MaxCurseValues {
		t.Errorf("MaxCurseN = %d exceeds knn's limits for dimensions %v", MaxCurseN, CurseDims)
	}
	tab := r.Panel().Tables[0]
	if len(tab.Rows) != len(CurseDims) {
		t.Fatalf("%d rows, want %d", len(tab.Rows), len(CurseDims))
	}
	for i, row := range tab.Rows {
		if row[0] != strconv.Itoa(rows[i].D) || row[3] != textfmt.Sig(rows[i].Ratio) {
			t.Errorf("row %d = %v, want D = %d, ratio %s", i, row, rows[i].D, textfmt.Sig(rows[i].Ratio))
		}
	}
	if first, last := rows[0].Ratio, rows[len(rows)-1].Ratio; !(first < 0.05 && last > 0.7) {
		t.Errorf("ratio %g in 1-D and %g in 1000-D; want near 0 and near 1", first, last)
	}
}

// TestKNNChartsNameLogScaleOnce: the error-against-k chart and the curse
// chart say once that their x axis is logarithmic (Curves says it; an
// axis label that said it too made the description read "(log scale)
// (log scale)"), the k chart names its points by k, and a sweep of one
// k, drawn on a linear axis, does not claim a log scale at all.
func TestKNNChartsNameLogScaleOnce(t *testing.T) {
	for _, c := range []struct {
		spec       demo.Spec
		q          url.Values
		name, want string
		logs       int
	}{
		{KNNSpec(), url.Values{}, "k", "at k = 1", 1},
		{KNNSpec(), url.Values{"data": {"custom"}, "add": {"0,0,1"}, "k": {"1"}}, "k", "A line chart of error against k.", 0},
		{CurseSpec(), url.Values{}, demo.PlotFigure, "against dimension D (log scale).", 1},
	} {
		_, desc := demotest.FigureText(t, runKNNDemo(t, c.spec, c.q), c.name)
		if n := strings.Count(desc, "log scale"); n != c.logs || !strings.Contains(desc, c.want) {
			t.Errorf("%s %v: description names the log scale %d times (want %d), want %q: %s", c.spec.ID, c.q, n, c.logs, c.want, desc)
		}
	}
}
