package regression

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestLassoPanelSteps checks that the panel's soft-thresholding is the
// state's: step 1 at the default state updates w₁ with ρ₁ > α, step 2
// updates w₂ and, with the default α = 1 above |ρ₂|, sets it to 0.
func TestLassoPanelSteps(t *testing.T) {
	r := demotest.Run(t, LassoSpec(), "step=1")
	p := r.Panel()
	if !strings.Contains(p.Examined, "updates w₁") || len(p.Lines) != 3 || !strings.Contains(p.Lines[2], "ρ₁ − α") {
		t.Errorf("step 1: %q, %q; want w₁'s update with ρ₁ > α", p.Examined, p.Lines)
	}
	w1 := demotest.ParseSig(t, demotest.Counter(p, "step"))
	if w1 != 1 {
		t.Errorf("step counter %v, want 1", w1)
	}
	p = demotest.Run(t, LassoSpec(), "step=2").Panel()
	if !strings.Contains(p.Examined, "updates w₂") || !strings.Contains(p.Lines[2], "w₂ = 0 exactly") {
		t.Errorf("step 2: %q, %q; want w₂ thresholded to 0", p.Examined, p.Lines)
	}
	end := demotest.Run(t, LassoSpec(), "step=end").Panel()
	if end.Status != "converged" || demotest.Note(end, "zero2") == nil || demotest.Note(end, "active1") == nil {
		t.Errorf("end: %s, notes %+v; want converged with w₂ = 0 and w₁ active", end.Status, end.Notes)
	}
}

// TestLassoMatchesSolver checks the demo's counters against linreg's
// solver on the demo's data, recomputed here.
func TestLassoMatchesSolver(t *testing.T) {
	p := demotest.Run(t, LassoSpec(), "alpha=0.1&corr=0.9&n=60&seed=4&step=end").Panel()
	x, y := lassoData(60, 0.9, 0.5, 4)
	m, _, err := linreg.SolveLasso(x, y, 0.1, demo.MaxStep)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"w1-opt", "w2-opt"} {
		if got := demotest.ParseSig(t, factValue(p, id)); math.Abs(got-m.W[i]) > 1e-4 {
			t.Errorf("%s = %v, want %v", id, got, m.W[i])
		}
	}
	if m.W[0] == 0 || m.W[1] == 0 {
		t.Errorf("α = 0.1: w* = %v, want both weights active", m.W)
	}
}

func factValue(p demo.Panel, id string) string {
	for _, l := range p.Model {
		for _, f := range l.Facts {
			if f.TestID == id {
				return f.Value
			}
		}
	}
	return ""
}

// TestLassoPathsHitZero draws the paths figure and checks its data: every
// lasso weight is exactly 0 at the largest α and no ridge weight is.
func TestLassoPathsHitZero(t *testing.T) {
	x, y := lassoData(40, 0.6, 0.5, 1)
	c, err := lassoPaths(context.Background(), x, y, 1)
	if err != nil {
		t.Fatal(err)
	}
	last := len(c.Series[0].Y) - 1
	for i, s := range c.Series {
		zero := s.Y[last] == 0
		if lasso := i < 2; zero != lasso {
			t.Errorf("%s at α = %v: %v; want zero exactly for the lasso only", s.Name, s.X[last], s.Y[last])
		}
	}
	var buf bytes.Buffer
	r := demotest.Run(t, LassoSpec(), "")
	if _, err := r.WriteFigure(&buf, "paths", false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "(α/2)‖w‖₂²") {
		t.Error("the paths figure does not state ridge's objective")
	}
}

// TestLassoBudget runs the slowest state found (five points with a
// sample correlation near −1, α = 10⁻³): the stepped run stops at its
// budget, says so, and the reference solve, with its larger work budget,
// still reaches the solution and its optimality conditions.
func TestLassoBudget(t *testing.T) {
	r := demotest.Run(t, LassoSpec(), "alpha=0.001&corr=-0.95&n=5&noise=2&seed=175&step=end")
	p := r.Panel()
	if p.Status != "iteration limit" || !p.Bad || demotest.Note(p, "limit") == nil {
		t.Errorf("status %q, bad %v, notes %+v; want the iteration limit, flagged", p.Status, p.Bad, p.Notes)
	}
	if demotest.Note(p, "active1") == nil || demotest.Note(p, "active2") == nil {
		t.Errorf("notes %+v: want the solution's conditions for both weights", p.Notes)
	}
}

// TestLassoContext checks that an ended context stops the run and the
// paths sweep, and that the kit reports it as the context's end, not a bug.
func TestLassoContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d, err := demo.NewDemo(LassoSpec())
	if err != nil {
		t.Fatal(err)
	}
	s := demotest.MustParse(t, d, "alpha=0.01&step=100")
	if _, err := d.ExecuteFigure(ctx, s, ""); !errors.Is(err, context.Canceled) {
		t.Errorf("a page under a cancelled context: %v, want context.Canceled", err)
	}
	x, y := lassoData(40, 0.6, 0.5, 1)
	if _, err := lassoPaths(ctx, x, y, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("paths on a cancelled context: %v, want context.Canceled", err)
	}
}
