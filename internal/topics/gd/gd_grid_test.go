package gd

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/gd"
	"github.com/margin-edu/margin/internal/bigmath"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// etaClosed is the step size of iteration k by the schedules' closed
// forms as the lesson states them.
func etaClosed(st demo.State, k int) float64 {
	t := stepSize.Get(st)
	switch schedule.Get(st) {
	case "exp-decay":
		return t * math.Pow(decay.Get(st), float64(k-1))
	case "warmup-linear":
		w, h, T := warmup.Get(st), hold.Get(st), runLen.Get(st)
		switch {
		case k <= w:
			return t * float64(k) / float64(w)
		case k <= w+h:
			return t
		}
		return t * float64(T-k) / float64(T-w-h)
	}
	return t
}

// quadA is the quadratic's A = R_θ diag(1, κ) R_θᵀ, written out here.
func quadA(st demo.State) [2][2]float64 {
	th := theta.Get(st) * math.Pi / 180
	s, c, k := math.Sin(th), math.Cos(th), kappa.Get(st)
	return [2][2]float64{{c*c + k*s*s, (1 - k) * s * c}, {(1 - k) * s * c, s*s + k*c*c}}
}

// near reports whether a printed number (4 significant digits, or 4
// decimals) is v.
func near(t *testing.T, printed string, v float64) bool {
	t.Helper()
	got := demotest.ParseSig(t, printed)
	rel := 6e-4
	if strings.Contains(printed, "·10") {
		rel = 6e-3 // three significant digits beside a power of ten
	}
	return math.Abs(got-v) <= rel*math.Abs(v)+6e-5
}

// gdGrid is the grid of states the panel is checked over: each objective
// by each method and schedule (and mini-batches), at steps 0, 1, the
// middle and the end, and runs that stop each way a run stops.
func gdGrid(t *testing.T, d *demo.Demo) []string {
	t.Helper()
	var bases []string
	for _, obj := range []string{objQuadratic, objLeastSq, objLogistic, objDoubleWell} {
		o := "objective=" + obj
		bases = append(bases, o+"&method=newton", o, o+"&schedule=exp-decay", o+"&schedule=warmup-linear")
		if obj == objLeastSq || obj == objLogistic {
			bases = append(bases, o+"&batch=2", o+"&batch=3&schedule=exp-decay&decay=0.995")
		}
	}
	bases = append(bases,
		"t=0.21", "objective=double-well&t=0.2", "objective=least-squares&t=0.45", // diverged
		"method=newton&objective=logistic",                                 // stalled
		"schedule=warmup-linear&iters=50&hold=20&t=0.01",                   // iteration limit
		"objective=least-squares&batch=1",                                  // step limit
		"objective=double-well&x0=0", "t=0.2", "t=0.05&kappa=30&theta=-60") // saddle, t = 2/L, between 1/L and 2/L
	var out []string
	for _, b := range bases {
		end := gdExec(t, d, b+"&step=end").Step
		for _, k := range []int{0, 1, end / 2, end} {
			out = append(out, b+"&step="+strconv.Itoa(k))
		}
	}
	return out
}

var (
	asciiIterate = regexp.MustCompile(`⁽[^⁾]*[0-9][^⁾]*⁾`)
	oneCount     = regexp.MustCompile(`\b1 (points|steps|rows|iterations)\b`)
)

// TestGDPanelSecondRoute holds every number and classifying word the
// panel quotes, over gdGrid, to a second route: the step by counting
// the stepper's accepted steps, f, ‖∇f‖ and the Hessian from the
// objectives' definitions in 200-bit arithmetic, L by the 2×2 closed
// form, tₖ by the schedules' closed forms, a quadratic's iterate as
// Πⱼ(I − tⱼA)x⁽⁰⁾, the status from its definition (‖∇f‖ < 10⁻¹⁰;
// the next step past the cap; Newton's Hessian singular to working
// precision; T steps of the warm-up), and the words of every text.
func TestGDPanelSecondRoute(t *testing.T) {
	d := gdDemo(t, GDSpec())
	d.Cache = demo.NewCache(64 << 20) // keeps each run, as a course does
	type ends struct{ last, stop gd.State }
	stops := map[string]ends{}
	for _, q := range gdGrid(t, d) {
		r := gdExec(t, d, q)
		st, p := r.State, r.Panel()
		run, err := runGD(t.Context(), d.Cache, st, r.Step, false)
		if err != nil {
			t.Fatal(err)
		}
		base := q[:strings.LastIndex(q, "&step=")]
		if _, ok := stops[base]; !ok {
			l, s := stopOf(t, st)
			stops[base] = ends{l, s}
		}
		last, stop := stops[base].last, stops[base].stop
		k := r.Step
		// The step: the stepper's accepted steps up to the one asked for.
		want, _ := strconv.Atoi(q[strings.LastIndex(q, "=")+1:])
		if want > last.K {
			want = last.K
		}
		if k != want || run.s.K != k || demotest.Counter(p, "step") != strconv.Itoa(k) {
			t.Errorf("%s: shown at step %d (counter %s), want %d", q, k, demotest.Counter(p, "step"), want)
			continue
		}
		e := exactObjective{run.obj}
		x := bigVec(run.s.X)
		f := bigmath.Float64(e.f(x))
		g := e.grad(x, nil)
		gn := math.Hypot(bigmath.Float64(g[0]), bigmath.Float64(g[1]))
		if !near(t, demotest.Counter(p, "objective"), f) {
			t.Errorf("%s: f = %s, from the definition %v", q, demotest.Counter(p, "objective"), f)
		}
		if !near(t, demotest.Counter(p, "grad"), gn) && gn > 1e-6*math.Abs(f) {
			t.Errorf("%s: ‖∇f‖ = %s, from the definition %v", q, demotest.Counter(p, "grad"), gn)
		}
		// L: the largest eigenvalue of the Hessian (the logistic's bound).
		var L float64
		switch run.obj.kind {
		case objQuadratic:
			a := quadA(st)
			L = eig2Max(a[0][0], a[0][1], a[1][1])
		case objLeastSq:
			sxx, sx, n := gram(gdLSX)
			L = eig2Max(2*sxx/n, 2*sx/n, 2)
		case objLogistic:
			sxx, sx, n := gram(gdLogX)
			L = eig2Max(sxx, sx, n)/(4*n) + gdLogisticLambda
		}
		if L > 0 {
			for id, v := range map[string]float64{"L": L, "one-over-L": 1 / L, "two-over-L": 2 / L} {
				if !near(t, demotest.Counter(p, id), v) {
					t.Errorf("%s: %s = %s, want %v", q, id, demotest.Counter(p, id), v)
				}
			}
		} else if demotest.Counter(p, "L") != "none" {
			t.Errorf("%s: L = %s on the double well", q, demotest.Counter(p, "L"))
		}
		// The step sizes.
		if isGD(st) {
			if !near(t, demotest.Counter(p, "t"), stepSize.Get(st)) {
				t.Errorf("%s: t = %s", q, demotest.Counter(p, "t"))
			}
			if k > 0 && !near(t, demotest.Counter(p, "t-k"), etaClosed(st, k)) {
				t.Errorf("%s: tₖ = %s, want %v", q, demotest.Counter(p, "t-k"), etaClosed(st, k))
			}
		}
		// A quadratic's iterate by the product of the steps' matrices.
		if run.obj.kind == objQuadratic {
			a := quadA(st)
			xk := [2]float64{startX1.Get(st), startX2.Get(st)}
			if isNewton(st) && k > 0 {
				xk = [2]float64{0, 0}
			}
			for j := 1; j <= k && isGD(st); j++ {
				eta := etaClosed(st, j)
				xk = [2]float64{xk[0] - eta*(a[0][0]*xk[0]+a[0][1]*xk[1]), xk[1] - eta*(a[1][0]*xk[0]+a[1][1]*xk[1])}
			}
			for i, fact := range p.Model[0].Facts {
				if !near(t, fact.Value, xk[i]) && math.Abs(xk[i]-run.s.X[i]) > 1e-9*(1+math.Abs(xk[i])) {
					t.Errorf("%s: x%d = %s, by the product of steps %v", q, i+1, fact.Value, xk[i])
				}
			}
		}
		// The status, from its definition.
		var status algos.Status
		switch {
		case gn < gdTol*(1-1e-6):
			status = algos.Converged
		case k == last.K && stop.K == last.K && stop.Status == algos.Diverged:
			status = algos.Diverged
			if stop.Next != nil && !isNewton(st) && !run.sgd {
				eta := bigmath.New(etaClosed(st, k+1))
				nx := vec{bigmath.Sub(x[0], bigmath.Mul(eta, g[0])), bigmath.Sub(x[1], bigmath.Mul(eta, g[1]))}
				fn := bigmath.Float64(e.f(nx))
				if math.Abs(fn) <= gd.Blowup && math.Abs(bigmath.Float64(nx[0])) <= gd.Blowup && math.Abs(bigmath.Float64(nx[1])) <= gd.Blowup {
					t.Errorf("%s: diverged, but step %d stays within the cap (f = %v)", q, k+1, fn)
				}
				if n := demotest.Note(p, "diverged"); n == nil || math.Abs(fn) > gd.Blowup && !strings.Contains(n.Text, "f to "+textfmt.Sig(fn)) {
					t.Errorf("%s: the diverged note does not give f = %s: %+v", q, textfmt.Sig(fn), n)
				}
			}
		case k == last.K && stop.K == last.K && stop.Status == algos.Stalled:
			status = algos.Stalled
			h := e.hess(x)
			a, b, c := bigmath.Float64(h[0][0]), bigmath.Float64(h[0][1]), bigmath.Float64(h[1][1])
			hi := eig2Max(a, b, c)
			if lo := a + c - hi; math.Abs(lo) > 1e-12*hi {
				t.Errorf("%s: stalled, but ∇²f has eigenvalues %v and %v", q, lo, hi)
			}
		case isWarmup(st) && k == runLen.Get(st), !isWarmup(st) && k == demo.MaxStep:
			status = algos.IterationLimit // the run's budget: T, or the steps the demo shows
		default:
			status = algos.Running
		}
		wantStatus := status.String()
		if p.Status != wantStatus || r.Done != (status != algos.Running) {
			t.Errorf("%s: status %q (done %v), by its definition %q", q, p.Status, r.Done, wantStatus)
		}
		// The history and the explanation name the same step.
		if h := r.History; h.Now != float64(k) || !strings.HasPrefix(h.Title, fmt.Sprintf("after iteration %d:", k)) {
			t.Errorf("%s: history at %v, %q", q, h.Now, h.Title)
		}
		if k > 0 && !strings.HasPrefix(p.Examined, fmt.Sprintf("Iteration %d moved to (%s, %s)", k, p.Model[0].Facts[0].Value, p.Model[0].Facts[1].Value)) {
			t.Errorf("%s: %q", q, p.Examined)
		}
		// The minimiser the model box gives.
		if len(p.Model) > 1 {
			xs := run.obj.xstar
			gs := e.grad(bigVec(xs), nil)
			if math.Hypot(bigmath.Float64(gs[0]), bigmath.Float64(gs[1])) > 1e-9 {
				t.Errorf("%s: ∇f(x*) = (%v, %v) at the model's minimiser", q, bigmath.Float64(gs[0]), bigmath.Float64(gs[1]))
			}
			if !near(t, p.Model[1].Facts[2].Value, bigmath.Float64(e.f(bigVec(xs)))) {
				t.Errorf("%s: f* = %s", q, p.Model[1].Facts[2].Value)
			}
		}
		// The words of every text.
		title, _ := demotest.FigureText(t, r, demo.PlotFigure)
		texts := []string{p.Start, p.Examined, title, r.History.Title, r.History.Desc}
		for _, n := range p.Notes {
			texts = append(texts, n.Text, n.Fine)
		}
		for _, s := range texts {
			if m := asciiIterate.FindString(s); m != "" {
				t.Errorf("%s: %q without superscript digits in %q", q, m, s)
			}
			if m := oneCount.FindString(s); m != "" {
				t.Errorf("%s: %q in %q", q, m, s)
			}
			if strings.Contains(s, "float can hold") || strings.Contains(s, "last finite") {
				t.Errorf("%s: %q", q, s)
			}
		}
	}
}
