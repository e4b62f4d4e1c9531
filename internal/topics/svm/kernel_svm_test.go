package svm

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
)

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
		g := kernelGamma.Get(r.State)
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
	p.C, p.Kernel = boxC.Get(r.State), kernelOf(r.State)
	p.Tol, _ = strconv.ParseFloat(smoTol.Get(r.State), 64)
	pr, _, err := svm.New(x, pointset.SignLabels(yf), p)
	if err != nil {
		return chart.Curves{}, err
	}
	tx, ty, ok := pointset.HeldOut(r.State)
	return gammaSweep(context.Background(), nil, pr, tx, ty, ok)
}
