package svm

import (
	"math"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
)

// TestSVMDualSign checks that the model box states the D(α) the counter
// shows (issue 27 §3): the box's objective is the minimised
// D = ½ΣΣ αᵢαⱼyᵢyⱼ⟨xᵢ, xⱼ⟩ − Σαᵢ, and the counter equals that sum
// recomputed here from the state's α and the points.
func TestSVMDualSign(t *testing.T) {
	for _, c := range []struct {
		spec demo.Spec
		q    string
	}{{SVMSpec(true), "data=or&step=2"}, {SVMSpec(true), "step=7"}, {SVMSpec(false), "step=11"}, {SVMSpec(false), "C=0.1&step=end"}} {
		r := demotest.Run(t, c.spec, c.q)
		box := c.spec.Conventions.Objective(r.State, len(r.Points))
		if !strings.Contains(box, "min D(α) = ½ΣᵢΣⱼ αᵢαⱼyᵢyⱼ") || strings.Contains(box, "max D") {
			t.Errorf("%s?%s: the model box says %q", c.spec.ID, c.q, box)
		}
		x, yf := demo.Columns(r.Points)
		y := pointset.SignLabels(yf)
		_, s := replayTo(t, demo.Input{Points: r.Points, State: r.State}, func(st demo.State) svm.Params { return SvmParams(st, c.spec.ID == "svm-hard") }, r.Step)
		d := 0.0
		for i := range x {
			d -= s.Alpha[i]
			for j := range x {
				d += 0.5 * s.Alpha[i] * s.Alpha[j] * float64(y[i]*y[j]) * (x[i][0]*x[j][0] + x[i][1]*x[j][1])
			}
		}
		got := demotest.ParseSig(t, demotest.Counter(r.Panel(), "dual"))
		if math.Abs(got-d) > 1e-3*math.Max(1, math.Abs(d)) {
			t.Errorf("%s?%s: counter D(α) = %v, ½ΣΣ − Σα = %v", c.spec.ID, c.q, got, d)
		}
	}
}

// TestProseDualSign: the lesson gives the DS 503 slides' dual with their
// own sign, maximised, beside the notes' D the demos count.
func TestProseDualSign(t *testing.T) {
	src := svmSource(t, "hard-margin-svm")
	if !strings.Contains(src, `they maximise $\mathcal{L}_D(\boldsymbol{\alpha}) = \boldsymbol{\alpha}^\top \mathbf{1} - \tfrac12 \boldsymbol{\alpha}^\top G \boldsymbol{\alpha} = -D(\boldsymbol{\alpha})$`) ||
		strings.Contains(src, "slides' notation, $D") {
		t.Error("the hard-margin prose does not give the slides' L_D = αᵀ1 − ½αᵀGα, maximised")
	}
}

// TestSVMStepNamesItsRule checks that the panel says which rule chose the
// pair, never that it is the most violating one (issue 27 §3).
func TestSVMStepNamesItsRule(t *testing.T) {
	for _, q := range []string{"step=2", "data=or&step=1", "step=14"} {
		p := demotest.Run(t, SVMSpec(true), q).Panel()
		if !strings.Contains(p.Examined, "second-order rule (WSS 2)") || strings.Contains(p.Examined, "the most violating pair") {
			t.Errorf("%s: %q", q, p.Examined)
		}
	}
}
