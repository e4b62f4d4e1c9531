package svm

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/primal"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
)

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

// ReplayKernelPegasos replays r's run of kernelized SGD independently of
// the demo, from its points and parameters.
func ReplayKernelPegasos(t *testing.T, r *demo.Run) (*primal.KernelPegasos, primal.KernelPegasosState) {
	t.Helper()
	x, yf := demo.Columns(r.Points)
	kp, s0, err := primal.NewKernelPegasos(x, pointset.SignLabels(yf), primal.KernelPegasosParams{Kernel: kernelOf(r.State),
		Lambda: demo.Lambda.Get(r.State), T: demo.Iterations.Get(r.State), Seed: uint64(demo.Aseed.Get(r.State))})
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := algos.Replay(kp, s0, r.Step)
	if err != nil {
		t.Fatal(err)
	}
	return kp, s
}
