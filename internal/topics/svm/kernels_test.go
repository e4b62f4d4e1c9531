package svm

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/primal"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
)

// TestKernelMapIdentity checks the kernel trick the demo prints on the
// notes' two points and on others: both sides computed apart agree.
func TestKernelMapIdentity(t *testing.T) {
	for _, q := range []string{"", "x1=-2.5&x2=0.3&z1=7&z2=-9.9", "x1=0&x2=0&z1=0&z2=0"} {
		p := demotest.Run(t, KernelMapSpec(), q).Panel()
		k, _ := strconv.ParseFloat(strings.Replace(demotest.Counter(p, "kernel"), "−", "-", 1), 64)
		f, _ := strconv.ParseFloat(strings.Replace(demotest.Counter(p, "features"), "−", "-", 1), 64)
		if k != f {
			t.Errorf("%q: (⟨x, z⟩ + 1)² printed %s, ⟨φ(x), φ(z)⟩ %s", q, demotest.Counter(p, "kernel"), demotest.Counter(p, "features"))
		}
	}
	p := demotest.Run(t, KernelMapSpec(), "").Panel()
	if demotest.Counter(p, "kernel") != "4" || demotest.Counter(p, "score-x") != "8" {
		t.Errorf("x = (1, 2), z = (3, −1): k = %s (want (1 + 1)² = 4), w·ψ(x) + b = %s (want 1 + 6 + 4 − 3 = 8)",
			demotest.Counter(p, "kernel"), demotest.Counter(p, "score-x"))
	}
	rem := p.Tables[0].Rows
	if rem[0][3] != rem[1][3] || rem[0][3] != rem[2][3] || rem[2][3] != "1" {
		t.Errorf("Remark 1.7.5's two maps give %s and %s, ⟨x, z⟩² = %s; want all 1", rem[0][3], rem[1][3], rem[2][3])
	}
}

// TestPsiPointsLabels checks the lifted set is labelled by 001's plane.
func TestPsiPointsLabels(t *testing.T) {
	r := demotest.Run(t, KernelMapSpec(), "n=200&seed=7")
	pos := 0
	for _, p := range r.Points {
		if (PsiScore(p.X1, p.X2) > 0) != (p.Y > 0) {
			t.Fatalf("point %v is labelled against the curve", p)
		}
		if p.Y > 0 {
			pos++
		}
	}
	if pos == 0 || pos == len(r.Points) {
		t.Errorf("%d of %d points are +1: want both classes", pos, len(r.Points))
	}
}

// TestStaticDemoHasNoSteps: a step other than 0 is a problem, not a
// silently different URL for the same state.
func TestStaticDemoHasNoSteps(t *testing.T) {
	d, err := demo.NewDemo(KernelGramSpec())
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []string{"1", "end"} {
		_, probs := d.Parse(url.Values{"step": {step}})
		if !strings.Contains(probs["step"], "no steps") {
			t.Errorf("step=%s: problems %v, want one saying the demo has no steps", step, probs)
		}
	}
	if _, probs := d.Parse(url.Values{"step": {"0"}}); len(probs) > 0 {
		t.Errorf("step=0: %v", probs)
	}
}

// TestGramDemoMercer: the four kernels pass on the default points, the
// two functions that are not kernels fail with a negative eigenvalue.
func TestGramDemoMercer(t *testing.T) {
	for q, psd := range map[string]bool{
		"": true, "kernel=linear": true, "kernel=poly&degree=3": true, "kernel=laplace&gamma=5": true,
		"kernel=sigmoid&coef0=-1": false, "kernel=neg-sqdist": false, "kernel=poly&coef0=-1&degree=3": false,
	} {
		p := demotest.Run(t, KernelGramSpec(), q).Panel()
		if got := demotest.Note(p, "psd") != nil; got != psd {
			t.Errorf("%q: PSD note %v, want %v (smallest eigenvalue %s)", q, got, psd, demotest.Counter(p, "min-eig"))
		}
		if !psd && (demotest.Note(p, "not-psd") == nil || !strings.HasPrefix(demotest.Counter(p, "min-eig"), "−")) {
			t.Errorf("%q: no negative eigenvalue reported (smallest %s)", q, demotest.Counter(p, "min-eig"))
		}
	}
}

// TestKernelSVMLinearEqualsSVM: the kernel demo with the linear kernel is
// the soft-margin demo, step for step, on the same points.
func TestKernelSVMLinearEqualsSVM(t *testing.T) {
	pts := "add=0,0,-1~1,0,1~0,1,1~1,1,-1~0.5,0.2,1~2,2,-1~-1,0.5,1&data=custom"
	for _, step := range []string{"3", "end"} {
		a := demotest.Run(t, KernelSVMSpec(), pts+"&kernel=linear&C=2&step="+step).Panel()
		b := demotest.Run(t, SVMSpec(false), pts+"&C=2&step="+step).Panel()
		for _, id := range []string{"step", "support", "dual", "gap", "error"} {
			if demotest.Counter(a, id) != demotest.Counter(b, id) {
				t.Errorf("step %s: %s is %q in the kernel demo, %q in the SVM demo", step, id, demotest.Counter(a, id), demotest.Counter(b, id))
			}
		}
	}
}

// TestKernelSVMGammaSweep: a tiny γ underfits the circles, a good one
// fits them, a huge one memorises them (no training error, held-out
// error well above the good one's).
func TestKernelSVMGammaSweep(t *testing.T) {
	errAt := func(g string) (train, held float64) {
		p := demotest.Run(t, KernelSVMSpec(), "gamma="+g+"&step=end").Panel()
		train, _ = strconv.ParseFloat(strings.Fields(demotest.Counter(p, "error"))[0], 64)
		held, _ = strconv.ParseFloat(strings.Fields(demotest.Counter(p, "heldout"))[0], 64)
		return train, held
	}
	_, heldSmall := errAt("0.001")
	trainGood, heldGood := errAt("1")
	trainHuge, heldHuge := errAt("1000")
	if !(heldSmall > heldGood+10 && heldHuge > heldGood+10 && trainHuge == 0 && trainGood < 10) {
		t.Errorf("held-out error %v %% / %v %% / %v %% at γ = 10⁻³, 1, 10³ and training error %v %% / %v %% at 1, 10³: "+
			"want a valley at γ = 1 and memorising at 10³", heldSmall, heldGood, heldHuge, trainGood, trainHuge)
	}
	r := demotest.Run(t, KernelSVMSpec(), "step=end")
	var b bytes.Buffer
	if _, err := r.Panels["gamma"](&b, false, render.Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "held-out error") {
		t.Error("the γ sweep does not chart the held-out error")
	}
}

// TestKernelTrackerObjective: the history's objective, kept in O(n) per
// step, equals the O(n²) one of the state at every sampled step.
func TestKernelTrackerObjective(t *testing.T) {
	x, yf, err := datasetPointsFor("moons", 50)
	if err != nil {
		t.Fatal(err)
	}
	kp, s0, err := primal.NewKernelPegasos(x, pointset.SignLabels(yf), primal.KernelPegasosParams{
		Kernel: svm.Kernel{Kind: svm.RBF, Gamma: 2}, Lambda: 0.01, T: 3000, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	tr := newKernelTracker(kp)
	worst := 0.0
	check := algos.RecorderFunc[primal.KernelPegasosState](func(k int, s primal.KernelPegasosState) error {
		if k%97 == 0 {
			worst = math.Max(worst, math.Abs(tr.objective(s)-kp.Objective(s.Avg)))
		}
		return nil
	})
	if _, _, err := algos.Replay(kp, s0, 3000, tr, check); err != nil {
		t.Fatal(err)
	}
	if worst > 1e-9 {
		t.Errorf("tracked objective off by %g", worst)
	}
}

// datasetPointsFor draws a kernel demo's set by name.
func datasetPointsFor(name string, n int) ([][]float64, []float64, error) {
	d, err := demo.NewDemo(KernelSVMSpec())
	if err != nil {
		return nil, nil, err
	}
	s, probs := d.Parse(url.Values{"data": {name}, "n": {strconv.Itoa(n)}})
	if len(probs) > 0 {
		return nil, nil, probs
	}
	return pointset.Points(s)
}

// BenchmarkGammaSweepCold is the sweep a kernel SVM page computes the
// first time it sees a data set: 11 SMO solves on 300 points.
func BenchmarkGammaSweepCold(b *testing.B) {
	x, yf, err := datasetPointsFor("circles", 300)
	if err != nil {
		b.Fatal(err)
	}
	p := svm.DefaultParams()
	p.Kernel = svm.Kernel{Kind: svm.RBF, Gamma: 1}
	pr, _, err := svm.New(x, pointset.SignLabels(yf), p)
	if err != nil {
		b.Fatal(err)
	}
	tx, ty, _ := datasetPointsFor("circles", 300)
	for b.Loop() {
		if _, err := solveSweep(context.Background(), pr, sweepGammas(), tx, pointset.SignLabels(ty), true); err != nil {
			b.Fatal(err)
		}
	}
}

// rat parses a number as the panels print it ("−0.3", "40401") exactly.
func rat(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(strings.Trim(strings.ReplaceAll(s, "−", "-"), "()"))
	if !ok {
		t.Fatalf("%q is not a number", s)
	}
	return r
}

// TestKernelMapArithmeticAsPrinted reads the kernel check's numbers as
// the panel prints them and redoes its arithmetic exactly: ⟨x, z⟩ from the
// four coordinates, (⟨x, z⟩ + 1)² from ⟨x, z⟩, ⟨φ(x), φ(z)⟩ as the sum of
// its seven terms, and the two sides equal. (10, 10)·(10, 10) printed
// (200 + 1)² = 40400 while claiming the identity; the lead's textfmt will
// print exact integers exactly everywhere, and exact in kernel_map.go does
// it here until then.
func TestKernelMapArithmeticAsPrinted(t *testing.T) {
	num := `(\(?−?[0-9.]+\)?)`
	dotLine := regexp.MustCompile(`^⟨x, z⟩ = ` + num + `·` + num + ` \+ ` + num + `·` + num + ` = ` + num + `$`)
	kLine := regexp.MustCompile(`^k\(x, z\) = \(⟨x, z⟩ \+ 1\)² = \(` + num + ` \+ 1\)² = ` + num + `$`)
	term := regexp.MustCompile(`([+−]?) ?([0-9.]+)`)
	for _, q := range []string{"x1=10&x2=10&z1=10&z2=10", "", "x1=1.1&x2=2.3&z1=3.7&z2=-1.9",
		"x1=-2.5&x2=0.3&z1=7&z2=-9.9", "x1=0.1&x2=0.2&z1=0.3&z2=0.4", "x1=-10&x2=9.9&z1=-9.7&z2=10"} {
		p := demotest.Run(t, KernelMapSpec(), q).Panel()
		m := dotLine.FindStringSubmatch(p.Lines[0])
		if m == nil {
			t.Fatalf("%q: line %q", q, p.Lines[0])
		}
		ip := new(big.Rat).Add(new(big.Rat).Mul(rat(t, m[1]), rat(t, m[2])), new(big.Rat).Mul(rat(t, m[3]), rat(t, m[4])))
		if ip.Cmp(rat(t, m[5])) != 0 {
			t.Errorf("%q: %s, but the products sum to %s", q, p.Lines[0], ip.FloatString(6))
		}
		k := kLine.FindStringSubmatch(p.Lines[1])
		if k == nil {
			t.Fatalf("%q: line %q", q, p.Lines[1])
		}
		sq := new(big.Rat).Add(rat(t, k[1]), big.NewRat(1, 1))
		sq.Mul(sq, sq)
		if rat(t, k[1]).Cmp(rat(t, m[5])) != 0 || sq.Cmp(rat(t, k[2])) != 0 {
			t.Errorf("%q: %s after ⟨x, z⟩ = %s; (⟨x, z⟩ + 1)² is %s", q, p.Lines[1], m[5], sq.FloatString(6))
		}
		lhs, rhs, ok := strings.Cut(strings.TrimPrefix(p.Lines[4], "⟨φ(x), φ(z)⟩ = "), " = ")
		if !ok {
			t.Fatalf("%q: line %q", q, p.Lines[4])
		}
		sum, n := new(big.Rat), 0
		for _, tm := range term.FindAllStringSubmatch(lhs, -1) {
			v := rat(t, tm[2])
			if tm[1] == "−" {
				v.Neg(v)
			}
			sum.Add(sum, v)
			n++
		}
		if n != 7 || sum.Cmp(rat(t, rhs)) != 0 {
			t.Errorf("%q: %s: %d terms summing to %s", q, p.Lines[4], n, sum.FloatString(6))
		}
		if rhs != k[2] || demotest.Counter(p, "kernel") != k[2] || demotest.Counter(p, "features") != rhs || p.Status != "identity holds" {
			t.Errorf("%q: kernel %s (counter %s), features %s (counter %s), status %q: want one number and the identity",
				q, k[2], demotest.Counter(p, "kernel"), rhs, demotest.Counter(p, "features"), p.Status)
		}
	}
	if p := demotest.Run(t, KernelMapSpec(), "x1=10&x2=10&z1=10&z2=10").Panel(); demotest.Counter(p, "kernel") != "40401" {
		t.Errorf("(⟨x, z⟩ + 1)² at x = z = (10, 10) printed %s, want 201² = 40401", demotest.Counter(p, "kernel"))
	}
}

// TestKernelMapViewControls: the rotate and tilt the prose sends the
// reader to are controls of the demo's form, and they turn the lifted
// figure.
func TestKernelMapViewControls(t *testing.T) {
	d, err := demo.NewDemo(KernelMapSpec())
	if err != nil {
		t.Fatal(err)
	}
	s, _ := d.Parse(url.Values{})
	found := map[string]demo.Control{}
	for _, f := range d.Forms(s) {
		for _, c := range f.Controls {
			found[c.Key] = c
		}
	}
	for key, want := range map[string][2]string{"azim": {"-180", "180"}, "elev": {"-90", "90"}} {
		c, ok := found[key]
		if !ok || c.Min != want[0] || c.Max != want[1] || !strings.Contains(c.Label, map[string]string{"azim": "rotate", "elev": "tilt"}[key]) {
			t.Errorf("control %s = %+v (present %v), want a %s…%s input labelled as the prose names it", key, c, ok, want[0], want[1])
		}
	}
	lift := func(q string) string {
		var b bytes.Buffer
		if _, err := demotest.Run(t, KernelMapSpec(), q).WriteFigure(&b, "lift", false); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if def := lift(""); def == lift("azim=-10&elev=0") || def == lift("azim=60") {
		t.Error("changing azim and elev does not change the lifted figure")
	}
}

// TestKernelGramPlotSaysWhatItShows: the Gram demo's plot is its points;
// its title and description name the points and the kernel, and no model
// (there is none in this demo).
func TestKernelGramPlotSaysWhatItShows(t *testing.T) {
	for _, q := range []string{"", "data=xor", "kernel=sigmoid&coef0=-1", "n=12&data=moons"} {
		r := demotest.Run(t, KernelGramSpec(), q)
		title, desc := demotest.FigureText(t, r, demo.PlotFigure)
		words := title + " " + desc
		for _, bad := range []string{"SVM", "classifier", "support vector", "w = 0", "b = 0", "yet", "margin", "C = "} {
			if strings.Contains(words, bad) {
				t.Errorf("%q: the plot mentions %q: %s", q, bad, words)
			}
		}
		pos := 0
		for _, p := range r.Points {
			if p.Y > 0 {
				pos++
			}
		}
		n := len(r.Points)
		for _, want := range []string{"Gram matrix", strconv.Itoa(n) + " points", fmt.Sprintf("%d with y = +1, %d with y = −1", pos, n-pos),
			kernelFormula(kernelOf(r.State))} {
			if !strings.Contains(words, want) {
				t.Errorf("%q: the plot does not say %q: %s", q, want, words)
			}
		}
	}
}

// svKinds finds the SVM figure's count of support vectors by kind.
var svKinds = regexp.MustCompile(`[0-9]+ (support vectors?|on the margin|inside the margin|misclassified)`)

// TestKernelPegasosIterateHasNoSupportVectors: an SGD iterate is not an
// optimum, so its plot sorts no point into support-vector kinds ("30 on
// the margin" were points with yᵢf(xᵢ) from 1.004 to 1.401); it counts
// the points by yᵢf(xᵢ), as recomputed here from f at each point.
func TestKernelPegasosIterateHasNoSupportVectors(t *testing.T) {
	for _, q := range []string{"step=1", "step=50", "step=2000", "data=xor&lambda=0.25&aseed=24&step=3", "data=moons&step=700"} {
		r := demotest.Run(t, KernelPegasosSpec(), q)
		_, desc := demotest.FigureText(t, r, demo.PlotFigure)
		if m := svKinds.FindString(desc); m != "" {
			t.Errorf("%q: the plot sorts an SGD iterate's points into kinds, %q: %s", q, m, desc)
		}
		// Recompute yᵢf(xᵢ) from the model, f = Σⱼ ᾱⱼK(xⱼ, ·).
		x, yf := demo.Columns(r.Points)
		y := pointset.SignLabels(yf)
		kp, s := ReplayKernelPegasos(t, r)
		active, wrong := 0, 0
		for i, row := range x {
			f := kp.Score(s, row)
			if float64(y[i])*f < 1 {
				active++
			}
			if (f > 0) != (y[i] > 0) {
				wrong++
			}
		}
		want := fmt.Sprintf("yᵢf(xᵢ) < 1 (hinge loss active) at %d of %d", active, len(x))
		if !strings.Contains(desc, want) {
			t.Errorf("%q: desc %q; want %q", q, desc, want)
		}
		p := r.Panel()
		if got, want := demotest.Counter(p, "active"), strconv.Itoa(active); got != want {
			t.Errorf("%q: counter yᵢf(xᵢ) < 1 = %s, want %s", q, got, want)
		}
		if got, want := demotest.Counter(p, "error"), fmt.Sprintf("%.1f %%", 100*float64(wrong)/float64(len(x))); got != want {
			t.Errorf("%q: training error %s, want %s", q, got, want)
		}
	}
}

// TestKernelErrorsAtZero: the course's rule sgn(0) = −1. Before any
// update f = 0 predicts −1 everywhere, so both kernel trainers' errors are
// the share of +1 points (training and held out), not 100 %; the rule is
// written beside the counters.
func TestKernelErrorsAtZero(t *testing.T) {
	for _, tc := range []struct {
		spec demo.Spec
		q    string
	}{
		{KernelPegasosSpec(), "step=0"}, {KernelPegasosSpec(), "step=0&data=moons&n=33"},
		{KernelSVMSpec(), "step=0"}, {KernelSVMSpec(), "step=0&data=checkerboard&n=41"},
	} {
		r := demotest.Run(t, tc.spec, tc.q)
		p := r.Panel()
		share := func(y []int) string {
			pos := 0
			for _, v := range y {
				if v > 0 {
					pos++
				}
			}
			return fmt.Sprintf("%.1f %%", 100*float64(pos)/float64(len(y)))
		}
		_, yf := demo.Columns(r.Points)
		if got, want := demotest.Counter(p, "error"), share(pointset.SignLabels(yf)); got != want {
			t.Errorf("%s %q: training error %s at f = 0, want the share of +1 points %s", tc.spec.ID, tc.q, got, want)
		}
		_, ty, _ := pointset.HeldOut(r.State)
		if got, want := demotest.Counter(p, "heldout"), share(ty); got != want {
			t.Errorf("%s %q: held-out error %s at f = 0, want %s", tc.spec.ID, tc.q, got, want)
		}
		if n := demotest.Note(p, "prediction-rule"); n == nil || !strings.Contains(n.Fine, "sgn(0) = −1") {
			t.Errorf("%s %q: no note stating sgn(0) = −1", tc.spec.ID, tc.q)
		}
	}
}

// TestKernelSVMSweepMatchesCounters: the γ sweep solves with the demo's
// tolerance, so at the demo's γ its errors are the counters' at the end
// of the run (on the moons at γ = 1 the sweep said 0 % and the counter
// 1.7 %, the sweep solving to ε = 10⁻²). Its description names the log
// scale once.
func TestKernelSVMSweepMatchesCounters(t *testing.T) {
	for _, q := range []string{"data=moons", "", "data=moons&gamma=10", "data=xor-cloud&gamma=0.1&C=10", "data=moons&tol=0.01", "data=checkerboard&gamma=31.622776601683793"} {
		r := demotest.Run(t, KernelSVMSpec(), q+"&step=end")
		if !r.Done {
			t.Fatalf("%q: the run did not end", q)
		}
		p := r.Panel()
		_, desc := demotest.FigureText(t, r, "gamma")
		if n := strings.Count(desc, "log scale"); n != 1 {
			t.Errorf("%q: the sweep's description names the log scale %d times: %s", q, n, desc)
		}
		c, err := gammaSweepOf(t, r)
		if err != nil {
			t.Fatal(err)
		}
		g := r.State.Float("gamma")
		i := slices.IndexFunc(c.Series[0].X, func(x float64) bool { return math.Abs(x/g-1) < 1e-12 })
		if i < 0 {
			t.Fatalf("%q: γ = %v is not on the sweep's grid", q, g)
		}
		for k, id := range []string{"error", "heldout"} {
			if got, want := fmt.Sprintf("%.1f %%", 100*c.Series[k].Y[i]), demotest.Counter(p, id); got != want {
				t.Errorf("%q: the sweep's %s at γ = %v is %s, the counter %s", q, c.Series[k].Name, g, got, want)
			}
		}
	}
}

// gammaSweepOf is the sweep of a kernel SVM run, as its figure charts it.
func gammaSweepOf(t *testing.T, r *demo.Run) (chart.Curves, error) {
	t.Helper()
	x, yf := demo.Columns(r.Points)
	p := svm.DefaultParams()
	p.C, p.Kernel = r.State.Float("C"), kernelOf(r.State)
	p.Tol, _ = strconv.ParseFloat(r.State.Str("tol"), 64)
	pr, _, err := svm.New(x, pointset.SignLabels(yf), p)
	if err != nil {
		return chart.Curves{}, err
	}
	tx, ty, ok := pointset.HeldOut(r.State)
	return gammaSweep(context.Background(), nil, pr, tx, ty, ok)
}

// ReplayKernelPegasos replays r's run of kernelized SGD independently of
// the demo, from its points and parameters.
func ReplayKernelPegasos(t *testing.T, r *demo.Run) (*primal.KernelPegasos, primal.KernelPegasosState) {
	t.Helper()
	x, yf := demo.Columns(r.Points)
	kp, s0, err := primal.NewKernelPegasos(x, pointset.SignLabels(yf), primal.KernelPegasosParams{Kernel: kernelOf(r.State),
		Lambda: r.State.Float("lambda"), T: r.State.Int("T"), Seed: uint64(r.State.Int("aseed"))})
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := algos.Replay(kp, s0, r.Step)
	if err != nil {
		t.Fatal(err)
	}
	return kp, s
}
