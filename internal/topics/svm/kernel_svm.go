package svm

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
	"github.com/margin-edu/margin/internal/textfmt"
)

// KernelSVMSpec declares the kernel lesson's SMO demo: the soft-margin
// SVM of the SVM lessons, stepped the same way, with a kernel; its extra
// figure is training and held-out error against γ.
func KernelSVMSpec() demo.Spec {
	params := append(pointset.ShapeParams(60, "seeds the random set (its held-out points use another seed)"), kernelParams(false)...)
	params = append(params, demo.Params(boxC, smoTol)...)
	return demo.Spec{
		ID: "kernel-svm", Title: "Kernel SVM, solved by SMO", Lesson: "kernels",
		Data: kernelData(), Params: params, Panels: []string{"alpha", "kkt", "gamma"}, PanelLabels: map[string]string{"alpha": "α of each point", "kkt": "KKT violation of each point", "gamma": "Training and held-out error against γ"},
		Examples:    []demo.Example{{Name: "end", Query: "step=end"}},
		Conventions: smoConventions(false, true), Explain: demo.Explain{Section: "kernel-svms"},
		Compute: func(ctx context.Context, in demo.Input) (demo.Result, error) {
			return computeSVM(ctx, in, kernelSVMParams(in.State), false, kernelExtra)
		},
		Predict: smoPredictor(kernelSVMParams),
	}
}

// kernelSVMParams are the soft margin's SMO parameters with the kernel s
// selects, and LIBSVM's scan for ties.
func kernelSVMParams(s demo.State) svm.Params {
	p := SvmParams(s, false)
	p.Kernel = kernelOf(s)
	// LIBSVM's scan, as the γ sweep's Solve has it, so that the sweep at
	// the γ shown and the run agree; the questions skip a step whose pair
	// rounding would choose.
	p.Ties = false
	return p
}

// kernelExtra adds the held-out error to the counters and the γ sweep to
// the figures.
func kernelExtra(ctx context.Context, in demo.Input, pr *svm.Problem, s svm.State, res *demo.Result) {
	tx, ty, ok := pointset.HeldOut(in.State)
	panel := res.Panel
	res.Panel = func() demo.Panel {
		p := panel()
		// The training error by the course's rule (sgn(0) = −1), which
		// the SVM panel's counter may not follow yet: at α = 0, b = 0 it
		// is the share of +1 points, not 100 %.
		f := func(x []float64) float64 { return pr.Decision(s, x) }
		for i, c := range p.Counters {
			if c.TestID == "error" {
				p.Counters[i].Value = textfmt.Pct(demo.ErrorRate(f, pr.X, labelsOf(pr)), 1)
			}
		}
		if !slices.ContainsFunc(p.Notes, func(n demo.Note) bool { return n.TestID == "prediction-rule" }) {
			p.Notes = append(p.Notes, demo.RuleNote(demo.SignRule))
		}
		if !ok {
			p.Counters = append(p.Counters, demo.Counter{"held-out error", "—", "heldout"})
			return p
		}
		p.Counters = append(p.Counters, demo.HeldOutCounter(demo.ErrorRate(f, tx, ty), len(tx)))
		return p
	}
	if !in.Wants("gamma") || !usesGamma(pr.P.Kernel.Kind) {
		delete(res.Panels, "gamma")
		return
	}
	res.Panels["gamma"] = func(w io.Writer, _ bool, opt render.Options) (render.Frame, error) {
		c, err := gammaSweep(ctx, in.Cache, pr, tx, ty, ok)
		if err != nil {
			return render.Frame{}, err
		}
		return render.Frame{}, chart.CurvesSVG(w, c, render.Options{Width: opt.Width})
	}
}

func usesGamma(k svm.KernelKind) bool { return k == svm.Poly || k == svm.RBF || k == svm.Laplace }

// predictionError is errorRate from margins mᵢ = yᵢf(xᵢ) a demo already
// has: f(xᵢ) = yᵢmᵢ for labels ±1.
func predictionError(margins []float64, y []int) float64 {
	wrong := 0
	for i, m := range margins {
		if demo.Predict(float64(y[i])*m) != y[i] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(margins))
}

// sweepMaxIter bounds each solve of the sweep, so that an ill-conditioned
// kernel (a degree-10 polynomial at γ = 1000) costs a fraction of a
// second, not millions of SMO steps; the chart says when a solve stopped
// there. The sweep solves to the demo's own tolerance ε, so that at the
// demo's γ it is the demo's run to its end (when that takes fewer steps)
// and the chart's errors there are the counters'.
const sweepMaxIter = 10000

// sweepGammas are the γ of the sweep: half decades from 10⁻² to 10³.
func sweepGammas() []float64 {
	g := make([]float64, 11)
	for i := range g {
		g[i] = math.Pow(10, -2+0.5*float64(i))
	}
	return g
}

// gammaSweep solves the demo's problem to the demo's tolerance at each γ of
// the sweep, keeping C and the rest, and charts training and held-out
// error: small γ underfits, large γ memorises each point. The errors do
// not depend on the γ or the step shown, so they are memoised: stepping
// through a run, or moving γ, solves the sweep once.
func gammaSweep(ctx context.Context, cache *demo.Cache, pr *svm.Problem, tx [][]float64, ty []int, held bool) (chart.Curves, error) {
	gs := sweepGammas()
	errs, err := demo.Memoise(ctx, cache, sweepKey(pr, tx),
		func(e [3][]float64) int64 { return demo.FloatsBytes(e[:]...) },
		func(ctx context.Context) ([3][]float64, error) { return solveSweep(ctx, pr, gs, tx, ty, held) })
	if err != nil {
		return chart.Curves{}, err
	}
	c := chart.Curves{
		Title:  "training error against γ at C = " + textfmt.Sig(pr.P.C),
		XLabel: "γ", YLabel: "error", LogX: true, Percent: true,
		Series: []chart.Curve{{Name: "training error", X: gs, Y: errs[0]}}, Mark: pr.P.Kernel.Gamma,
	}
	if held {
		c.Series = append(c.Series, chart.Curve{Name: "held-out error", X: gs, Y: errs[1], Dashed: true})
		c.Title = "training and held-out error against γ at C = " + textfmt.Sig(pr.P.C)
	}
	if stopped := floats.Sum(errs[2]); stopped > 0 {
		c.Title += fmt.Sprintf("\n%s stopped at %d SMO steps, short of ε", textfmt.Plural(int(stopped), "solves"), sweepMaxIter)
	}
	return c, nil
}

// solveSweep returns the training and held-out errors at each γ of gs.
// The training error is read off SMO's gradient and the held-out error
// sums over the support vectors only, so neither costs n² kernel values;
// both count predictions by the course's rule, sgn(0) = −1.
func solveSweep(ctx context.Context, pr *svm.Problem, gs []float64, tx [][]float64, ty []int, held bool) ([3][]float64, error) {
	// errs[2] flags (1) the γ whose solve stopped at sweepMaxIter.
	errs := [3][]float64{make([]float64, len(gs)), make([]float64, len(gs)), make([]float64, len(gs))}
	y := labelsOf(pr)
	for i, g := range gs {
		p := pr.P
		p.Kernel.Gamma, p.MaxIter = g, sweepMaxIter
		q, _, err := svm.New(pr.X, y, p)
		if err != nil {
			return errs, err
		}
		s, err := q.Solve(ctx)
		if err != nil {
			return errs, err
		}
		if s.Status != algos.Converged {
			errs[2][i] = 1
		}
		errs[0][i] = predictionError(q.Margins(s), y)
		if held {
			errs[1][i] = demo.ErrorRate(q.Expansion(s).Eval, tx, ty)
		}
	}
	return errs, nil
}

// sweepKey names a sweep by everything it depends on: the points and
// labels, C, the tolerance, the kernel but its γ, and the held-out points.
func sweepKey(pr *svm.Problem, tx [][]float64) [sha256.Size]byte {
	k := pr.P.Kernel
	parts := [][]float64{{pr.P.C, pr.P.Tol, float64(k.Kind), float64(k.Degree), k.Coef0}, pr.Y}
	parts = append(append(parts, pr.X...), nil) // nil: the training rows end here
	return demo.FloatsKey("gamma-sweep", append(parts, tx...)...)
}
