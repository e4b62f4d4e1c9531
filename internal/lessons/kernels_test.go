package lessons

import (
	"bytes"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/render"
)

// TestKernelMapIdentity checks the kernel trick the demo prints on the
// notes' two points and on others: both sides computed apart agree.
func TestKernelMapIdentity(t *testing.T) {
	for _, q := range []string{"", "x1=-2.5&x2=0.3&z1=7&z2=-9.9", "x1=0&x2=0&z1=0&z2=0"} {
		p := runSVM(t, KernelMapSpec(), q).Panel()
		k, _ := strconv.ParseFloat(strings.Replace(counter(p, "kernel"), "−", "-", 1), 64)
		f, _ := strconv.ParseFloat(strings.Replace(counter(p, "features"), "−", "-", 1), 64)
		if k != f {
			t.Errorf("%q: (⟨x, z⟩ + 1)² printed %s, ⟨φ(x), φ(z)⟩ %s", q, counter(p, "kernel"), counter(p, "features"))
		}
	}
	p := runSVM(t, KernelMapSpec(), "").Panel()
	if counter(p, "kernel") != "4" || counter(p, "score-x") != "8" {
		t.Errorf("x = (1, 2), z = (3, −1): k = %s (want (1 + 1)² = 4), w·ψ(x) + b = %s (want 1 + 6 + 4 − 3 = 8)",
			counter(p, "kernel"), counter(p, "score-x"))
	}
	rem := p.Tables[0].Rows
	if rem[0][3] != rem[1][3] || rem[0][3] != rem[2][3] || rem[2][3] != "1" {
		t.Errorf("Remark 1.7.5's two maps give %s and %s, ⟨x, z⟩² = %s; want all 1", rem[0][3], rem[1][3], rem[2][3])
	}
}

// TestPsiPointsLabels checks the lifted set is labelled by 001's plane.
func TestPsiPointsLabels(t *testing.T) {
	r := runSVM(t, KernelMapSpec(), "n=200&seed=7")
	pos := 0
	for _, p := range r.Points {
		if (psiScore(p.X1, p.X2) > 0) != (p.Y > 0) {
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
	d, err := NewDemo(KernelGramSpec())
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
		p := runSVM(t, KernelGramSpec(), q).Panel()
		if got := note(p, "psd") != nil; got != psd {
			t.Errorf("%q: PSD note %v, want %v (smallest eigenvalue %s)", q, got, psd, counter(p, "min-eig"))
		}
		if !psd && (note(p, "not-psd") == nil || !strings.HasPrefix(counter(p, "min-eig"), "−")) {
			t.Errorf("%q: no negative eigenvalue reported (smallest %s)", q, counter(p, "min-eig"))
		}
	}
}

// TestKernelSVMLinearEqualsSVM: the kernel demo with the linear kernel is
// the soft-margin demo, step for step, on the same points.
func TestKernelSVMLinearEqualsSVM(t *testing.T) {
	pts := "add=0,0,-1~1,0,1~0,1,1~1,1,-1~0.5,0.2,1~2,2,-1~-1,0.5,1&data=custom"
	for _, step := range []string{"3", "end"} {
		a := runSVM(t, KernelSVMSpec(), pts+"&kernel=linear&C=2&step="+step).Panel()
		b := runSVM(t, SVMSpec(false), pts+"&C=2&step="+step).Panel()
		for _, id := range []string{"step", "support", "dual", "gap", "error"} {
			if counter(a, id) != counter(b, id) {
				t.Errorf("step %s: %s is %q in the kernel demo, %q in the SVM demo", step, id, counter(a, id), counter(b, id))
			}
		}
	}
}

// TestKernelSVMGammaSweep: a tiny γ underfits the circles, a good one
// fits them, a huge one memorises them (no training error, held-out
// error well above the good one's).
func TestKernelSVMGammaSweep(t *testing.T) {
	errAt := func(g string) (train, held float64) {
		p := runSVM(t, KernelSVMSpec(), "gamma="+g+"&step=end").Panel()
		train, _ = strconv.ParseFloat(strings.Fields(counter(p, "error"))[0], 64)
		held, _ = strconv.ParseFloat(strings.Fields(counter(p, "heldout"))[0], 64)
		return train, held
	}
	_, heldSmall := errAt("0.001")
	trainGood, heldGood := errAt("1")
	trainHuge, heldHuge := errAt("1000")
	if !(heldSmall > heldGood+10 && heldHuge > heldGood+10 && trainHuge == 0 && trainGood < 10) {
		t.Errorf("held-out error %v %% / %v %% / %v %% at γ = 10⁻³, 1, 10³ and training error %v %% / %v %% at 1, 10³: "+
			"want a valley at γ = 1 and memorising at 10³", heldSmall, heldGood, heldHuge, trainGood, trainHuge)
	}
	r := runSVM(t, KernelSVMSpec(), "step=end")
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
	kp, s0, err := svm.NewKernelPegasos(x, signLabels(yf), svm.KernelPegasosParams{
		Kernel: svm.Kernel{Kind: svm.RBF, Gamma: 2}, Lambda: 0.01, T: 3000, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	tr := newKernelTracker(kp)
	worst := 0.0
	check := algos.RecorderFunc[svm.KernelPegasosState](func(k int, s svm.KernelPegasosState) error {
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
	d, err := NewDemo(KernelSVMSpec())
	if err != nil {
		return nil, nil, err
	}
	s, probs := d.Parse(url.Values{"data": {name}, "n": {strconv.Itoa(n)}})
	if len(probs) > 0 {
		return nil, nil, probs
	}
	return datasetPoints(s)
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
	pr, _, err := svm.New(x, signLabels(yf), p)
	if err != nil {
		b.Fatal(err)
	}
	tx, ty, _ := datasetPointsFor("circles", 300)
	for b.Loop() {
		if _, err := solveSweep(pr, sweepGammas(), tx, signLabels(ty), true); err != nil {
			b.Fatal(err)
		}
	}
}
