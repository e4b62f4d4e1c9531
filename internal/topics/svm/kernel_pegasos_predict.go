package svm

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/margin-edu/margin/internal/algos/primal"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// predictKernelPegasos asks kernel-pegasos's question about iteration
// t+1, by the parity of the step shown t: at an even t, will the point
// it samples be inside the margin (does its hinge term contribute)? At
// an odd t, what sign will f take at the point q nearest the boundary?
func predictKernelPegasos(ctx context.Context, in demo.Input) (*demo.Question, error) {
	x, yf := demo.Columns(in.Points)
	y := pointset.SignLabels(yf)
	if !pointset.BothClasses(y) || in.Step >= demo.MaxStep {
		return nil, nil
	}
	st := in.State
	p := primal.KernelPegasosParams{Kernel: kernelOf(st), Lambda: demo.Lambda.Get(st), T: demo.Iterations.Get(st),
		Seed: uint64(demo.Aseed.Get(st))}
	kp, s0, err := primal.NewKernelPegasosGram(x, y, p, keptGram(ctx, in.Cache, x, y, p))
	if err != nil {
		return nil, demo.UncomputableIf(err, svm.ErrNotFinite)
	}
	ts, k, _, err := keptKernelPegasos(ctx, in, x, y, p, kp, s0, false)
	s := ts.s
	if err != nil || k < in.Step || s.Status.Done() {
		return nil, err
	}
	next := kp.Step(s)
	if s.T%2 == 0 {
		if scale := kernelTerms(kp, next.Alpha, kp.X[next.I]); math.Abs(next.Margin-1) <= float64(len(kp.X))*2*svm.TieTol(scale) {
			return demo.NoQuestion(fmt.Sprintf("the score yⱼ Σᵢ αᵢ⁽ᵗ⁾K(xᵢ, xⱼ) = %s of the point iteration %d samples is 1 to within rounding",
				textfmt.Sig(next.Margin), next.T)), nil
		}
		return kernelMarginQuestion(kp, next), nil
	}
	qi, _ := nearestBoundary(kp.X, func(x []float64) float64 { return kp.Score(s, x) })
	if f1, scale := kp.Score(next, kp.X[qi]), kernelTerms(kp, next.Avg, kp.X[qi]); scale > 0 && math.Abs(f1) <= float64(len(kp.X))*2*svm.TieTol(scale) {
		return demo.NoQuestion(fmt.Sprintf("f(q) = %s at q = %s after iteration %d is 0 to within rounding, so rounding would give its sign",
			textfmt.Sig(f1), render.PointName(qi), next.T)), nil
	}
	return kernelSignQuestion(kp, s, next), nil
}

// kernelTerms is Σᵢ |aᵢK(xᵢ, x)|, the scale of a kernel sum's rounding.
func kernelTerms(kp *primal.KernelPegasos, a []float64, x []float64) float64 {
	s := 0.0
	for i, xi := range kp.X {
		if a[i] != 0 {
			s += math.Abs(a[i] * kp.P.Kernel.Eval(xi, x))
		}
	}
	return s
}

// kernelMarginQuestion asks whether the point j iteration t+1 samples
// has yⱼ Σᵢ αᵢ⁽ᵗ⁾K(xᵢ, xⱼ) < 1 (001's kernelized procedure).
func kernelMarginQuestion(kp *primal.KernelPegasos, next primal.KernelPegasosState) *demo.Question {
	j, t := next.I, next.T
	nz := 0
	for _, a := range next.Alpha {
		if a != 0 {
			nz++
		}
	}
	q := &demo.Question{
		Prompt: fmt.Sprintf("Iteration t = %d samples %s, y = %s, and scores it with αᵢ⁽ᵗ⁾ = βᵢ⁽ᵗ⁾/(2λt), of which %s non-zero. "+
			"Will the point be inside the margin, y Σᵢ αᵢ⁽ᵗ⁾K(xᵢ, xⱼ) < 1, so that its hinge term contributes and βⱼ changes?",
			t, pointAt(j, kp.X[j]), textfmt.Signed(kp.Y[j]), map[bool]string{true: "1 is", false: strconv.Itoa(nz) + " are"}[nz == 1]),
		Choices: demo.YesNoSaying("yes: the score is below 1, so βⱼ ← βⱼ + yⱼ", "no: the score is at least 1, so β stays"),
		Right:   demo.YesOrNo(next.Violated),
		Marks:   []demo.Mark{markOf("j", kp.X[j])},
	}
	if next.Violated {
		q.Why = fmt.Sprintf("yⱼ Σᵢ αᵢ⁽ᵗ⁾K(xᵢ, xⱼ) = %s < 1: %s is inside the margin (or on the wrong side), its hinge term is positive, so βⱼ ← βⱼ + yⱼ = %s.",
			textfmt.Sig(next.Margin), render.PointName(j), textfmt.Num(next.Beta[j]))
	} else {
		q.Why = fmt.Sprintf("yⱼ Σᵢ αᵢ⁽ᵗ⁾K(xᵢ, xⱼ) = %s ≥ 1: %s is on or beyond its margin, its hinge term is 0, so β stays (βⱼ = %s).",
			textfmt.Sig(next.Margin), render.PointName(j), textfmt.Num(next.Beta[j]))
	}
	return q
}

// kernelSignQuestion asks the sign of the drawn f(x) = Σᵢ ᾱᵢK(xᵢ, x) at
// the point q nearest the boundary after iteration t+1.
func kernelSignQuestion(kp *primal.KernelPegasos, s, next primal.KernelPegasosState) *demo.Question {
	qi, f0 := nearestBoundary(kp.X, func(x []float64) float64 { return kp.Score(s, x) })
	f1 := kp.Score(next, kp.X[qi])
	name := render.PointName(qi)
	return &demo.Question{
		Prompt: fmt.Sprintf("q = %s, the point nearest the boundary, has f(q) = Σᵢ ᾱᵢK(xᵢ, q) = %s now. "+
			"After iteration t = %d adds α⁽ᵗ⁾ = β⁽ᵗ⁾/(2λt) to the average ᾱ, what will the sign of f(q) be?",
			pointAt(qi, kp.X[qi]), textfmt.Sig(f0), next.T),
		Choices: signChoices(),
		Right:   signOf(f1),
		Why: fmt.Sprintf("After iteration %d, ᾱ is the average of α⁽¹⁾, …, α⁽%s⁾ and f(%s) = Σᵢ ᾱᵢK(xᵢ, %s) = %s %s (it was %s).",
			next.T, textfmt.Sup(next.T), name, name, textfmt.Sig(f1), relation(f1), textfmt.Sig(f0)),
		Marks: []demo.Mark{markOf("q", kp.X[qi])},
	}
}
