package logistic

import (
	"context"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/bigmath"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/textfmt"
)

// Issue 27 §5: every number and classifying word the two demos' panels
// quote is recomputed by a second route, over a grid of states: J, ∇J,
// ‖w‖, the errors and the minimum in 200-bit arithmetic (bigmath) from
// the float64 state of a plain replay, L from an eigendecomposition, the
// line search's step from a 200-bit Newton step, the separable sets from
// the problem's LP.

// sigNumber matches a number textfmt.Sig writes: "0.4607", "−3",
// "1.23·10⁻⁷".
var sigNumber = regexp.MustCompile(`^−?\d+(?:\.\d+)?(?:·10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?`)

// numberAfter is the number right after the first prefix in text.
func numberAfter(t *testing.T, where, text, prefix string) string {
	t.Helper()
	i := strings.Index(text, prefix)
	if i < 0 {
		t.Fatalf("%s: no %q in %q", where, prefix, text)
	}
	m := sigNumber.FindString(text[i+len(prefix):])
	if m == "" {
		t.Fatalf("%s: no number after %q in %q", where, prefix, text)
	}
	return strings.TrimSuffix(m, ".")
}

// shownNumber reads a number textfmt.Sig wrote and half a unit in its
// last digit.
func shownNumber(t *testing.T, s string) (v, half float64) {
	t.Helper()
	v = demotest.ParseSig(t, s)
	m, e, sci := strings.Cut(s, "·10")
	d := 0
	if _, frac, ok := strings.Cut(m, "."); ok {
		d = len(frac)
	}
	half = 0.5 * math.Pow(10, float64(-d))
	if sci {
		half *= math.Pow(10, float64(exponent(t, e)))
	}
	return v, half
}

// exponent reads a superscript exponent: "⁻¹²" is −12.
func exponent(t *testing.T, e string) int {
	t.Helper()
	return int(math.Round(math.Log10(demotest.ParseSig(t, "1·10"+e))))
}

// near checks the number shown against want, computed another way: they
// agree to the digits shown, give or take slack.
func near(t *testing.T, where, what, shown string, want *big.Float, slack float64) {
	t.Helper()
	v, half := shownNumber(t, shown)
	if w := bigmath.Float64(want); math.Abs(v-w) > half*(1+1e-9)+slack {
		t.Errorf("%s: %s shows %s, computed another way %.10g", where, what, shown, w)
	}
}

// bigLess reports a < b.
func bigLess(a, b *big.Float) bool { return a.Cmp(b) < 0 }

// lambdaMaxByEigen is λ_max(X̃ᵀX̃) from gonum's symmetric eigensolver.
func lambdaMaxByEigen(t *testing.T, x [][]float64) float64 {
	t.Helper()
	var g mat.SymDense
	xt := mat.NewDense(len(x), 3, nil)
	for i, row := range x {
		xt.SetRow(i, []float64{row[0], row[1], 1})
	}
	g.SymOuterK(1, xt.T())
	var eig mat.EigenSym
	if !eig.Factorize(&g, false) {
		t.Fatal("eigendecomposition failed")
	}
	v := eig.Values(nil)
	return v[len(v)-1]
}

// checkSmoothNote checks the step-size note: L from the eigenvalues,
// 2/L and 1/L, and, for runs short enough to replay in 200 bits, the
// steps it counts as rises (each a rise in exact arithmetic) and as
// rounding.
func checkSmoothNote(t *testing.T, where string, n *demo.Note, l float64, j []float64, bigJ func(k int) *big.Float, np int) {
	t.Helper()
	if n == nil {
		t.Fatalf("%s: no step-size note", where)
	}
	near(t, where, "L", numberAfter(t, where, n.Text, "+ λ = "), bigmath.New(l), 1e-12)
	near(t, where, "2/L", numberAfter(t, where, n.Text, "2/L = "), bigmath.New(2/l), 1e-12)
	near(t, where, "1/L", numberAfter(t, where, n.Text, "1/L = "), bigmath.New(1/l), 1e-12)
	rises, tiny := 0, 0
	for k := 1; k < len(j); k++ {
		d, r := j[k]-j[k-1], float64(np)*0x1p-52*math.Max(j[k], j[k-1])
		switch {
		case d > r:
			rises++
			if bigJ != nil && !bigLess(bigJ(k-1), bigJ(k)) {
				t.Errorf("%s: step %d counted as a rise of J, but in exact arithmetic J does not rise", where, k)
			}
		case d > 0:
			tiny++
		}
	}
	if said := strings.Contains(n.Text, "J rose at"); said != (rises > 0) {
		t.Errorf("%s: %d rises, note %q", where, rises, n.Text)
	} else if said && len(j) > 2 && !strings.Contains(n.Text, "J rose at "+strconv.Itoa(rises)+" of the "+strconv.Itoa(len(j)-1)+" steps") {
		t.Errorf("%s: %d rises in %d steps, note %q", where, rises, len(j)-1, n.Text)
	}
	if said := strings.Contains(n.Fine, textfmt.Plural(tiny, "steps")+" at which"); said != (tiny > 0) {
		t.Errorf("%s: %d rounding rises, small print %q", where, tiny, n.Fine)
	}
}

// checkGap checks gapText's words and number against J and J* in 200
// bits.
func checkGap(t *testing.T, where, text string, j, opt *big.Float, np int) {
	t.Helper()
	gap := bigmath.Sub(j, opt)
	near(t, where, "J*", numberAfter(t, where, text, "minimum J* = "), opt, 0)
	switch g := math.Abs(bigmath.Float64(gap)); {
	case strings.Contains(text, "equals its minimum"):
		if g > 2e-12*math.Max(1, bigmath.Float64(opt)) {
			t.Errorf("%s: %q, yet J − J* = %g", where, text, g)
		}
	default:
		near(t, where, "J − J*", numberAfter(t, where, text, "J is "), gap, float64(np)*0x1p-51*bigmath.Float64(j))
	}
}

// logisticGrid is the grid of states: each data set, each method, step
// 0, 1, mid and end, λ = 0 and above, η within and beyond 2/L.
var logisticGrid = []string{
	"step=0", "step=1", "step=40", "step=152", "step=end", "eta=10&step=300", "eta=2.5&step=2", "eta=100&step=1", "eta=30&step=200",
	"data=separable&step=1", "data=separable&step=50", "data=separable&step=end", "data=separable&lambda=0.01&step=882",
	"data=moons&step=7", "data=moons&lambda=0.1&step=end", "n=30&seed=4&step=25",
	"method=newton&step=0", "method=newton&step=1", "method=newton&step=3", "method=newton&step=end",
	"data=separable&method=newton&step=5", "data=separable&method=newton&step=24", "data=separable&lambda=0.01&method=newton&step=8",
	"data=moons&method=newton&step=2", "data=moons&method=newton&step=end", "lambda=1&method=newton&step=3",
	"add=0,0,-1~1,0,1~0,1,1&data=custom&step=1", "add=0,0,-1~1,0,1~0,1,1~1,1,-1&data=custom&method=newton&step=end",
	"add=1e6,0,1~0,1e6,-1~1e6,1e6,-1~0,0,1~5e5,5e5,1&data=custom&method=newton&step=30",
}

// TestLogisticPanelSecondRoute: the logistic panel over logisticGrid,
// each number and word recomputed.
func TestLogisticPanelSecondRoute(t *testing.T) {
	statuses := map[string]int{}
	for _, q := range logisticGrid {
		r := demotest.Run(t, LogisticSpec(), q)
		pr, m, s := logisticProblem(t, r)
		p, bp, np := r.Panel(), bigLogistic{pr}, len(pr.X)
		where := "?" + q
		w, b := bigVec(s.Model.W), bigmath.New(s.Model.B)
		jBig, gBig := bp.objective(w, b), bigNorm(bp.gradient(w, b))
		if got := demotest.Counter(p, "step"); got != strconv.Itoa(s.T) || s.T != r.Step {
			t.Errorf("%s: iteration %s, the replay is at %d, the run at %d", where, got, s.T, r.Step)
		}
		near(t, where, "J", demotest.Counter(p, "objective"), jBig, 0)
		near(t, where, "‖∇J‖", demotest.Counter(p, "grad"), gBig, 1e-14)
		near(t, where, "‖w‖", demotest.Counter(p, "wnorm"), bigNorm(w), 0)
		errRate := func(x [][]float64, y func(i int) float64) string {
			wrong := 0
			for i, row := range x {
				if f := bigDot(w, row, b); (f.Sign() > 0) != (y(i) > 0) {
					wrong++
				}
			}
			return textfmt.Pct(float64(wrong)/float64(len(x)), 1)
		}
		train := errRate(pr.X, func(i int) float64 { return pr.Y[i] })
		if got := demotest.Counter(p, "error"); got != train {
			t.Errorf("%s: training error %s, by the 200-bit scores %s", where, got, train)
		}
		if tx, ty, ok := pointset.HeldOut(r.State); ok {
			if got, want := demotest.Counter(p, "heldout"), errRate(tx, func(i int) float64 { return float64(ty[i]) }); got != want {
				t.Errorf("%s: held-out error %s, by the 200-bit scores %s", where, got, want)
			}
		}
		if h := r.History; h == nil || !strings.Contains(h.Title, "J = "+demotest.Counter(p, "objective")) || !strings.Contains(h.Title, "‖w‖ = "+demotest.Counter(p, "wnorm")) ||
			!strings.Contains(h.Title, "after iteration "+strconv.Itoa(s.T)+":") {
			t.Errorf("%s: the history's title %+v does not give the counters' J and ‖w‖", where, h)
		}
		_, desc := demotest.FigureText(t, r, demo.PlotFigure)
		if s.Model.W[0] != 0 || s.Model.W[1] != 0 {
			if !strings.Contains(desc, strings.TrimSuffix(train, " %")+" % are misclassified") {
				t.Errorf("%s: the figure says %q, the training error is %s", where, desc, train)
			}
		}

		// The stop: converged when ‖∇J‖ < 10⁻¹⁰ (1 % either way left to
		// float64), running otherwise.
		statuses[strings.SplitN(p.Status, ":", 2)[0]]++
		g := bigmath.Float64(gBig)
		switch {
		case g < 0.99*logistic.Tol && !p.Done:
			t.Errorf("%s: ‖∇J‖ = %g < 10⁻¹⁰ in exact arithmetic, yet the run goes on (%q)", where, g, p.Status)
		case g < 0.99*logistic.Tol && !strings.Contains(p.Status, "converged: ‖∇J‖ < 10⁻¹⁰") && !strings.Contains(p.Status, "is below the tolerance"):
			t.Errorf("%s: status %q for ‖∇J‖ = %g", where, p.Status, g)
		case g > 1.01*logistic.Tol && (strings.HasPrefix(p.Status, "converged") || strings.Contains(p.Status, "below the tolerance")):
			t.Errorf("%s: status %q, yet ‖∇J‖ = %g", where, p.Status, g)
		case p.Status == "running" && (p.Done || s.Status != algos.Running):
			t.Errorf("%s: status running, done %v, replay %v", where, p.Done, s.Status)
		}

		// The model box is the replayed state.
		if got := p.Model[0].Facts[0].Value + " " + p.Model[0].Facts[1].Value; got != textfmt.Vec(s.Model.W)+" "+textfmt.Num(s.Model.B) {
			t.Errorf("%s: model %s, the replay %s %s", where, got, textfmt.Vec(s.Model.W), textfmt.Num(s.Model.B))
		}

		// The step: its size, the line search's t and how J moved.
		if s.T > 0 {
			prev, _, err := algos.Replay(m, pr.Start(), s.T-1)
			if err != nil {
				t.Fatal(err)
			}
			pw, pb := bigVec(prev.Model.W), bigmath.New(prev.Model.B)
			if usesGD(r.State) {
				if !strings.Contains(p.Examined, "η = "+textfmt.Sig(logisticEta.Get(r.State))) {
					t.Errorf("%s: %q should give η", where, p.Examined)
				}
			} else if _, _, trials := bp.newtonStep(pw, pb); trials == 0 || (trials == 1) != strings.Contains(p.Examined, "the full step, t = 1") ||
				trials > 1 && !strings.Contains(p.Examined, "t = 2"+textfmt.Sup(1-trials)) {
				t.Errorf("%s: %q, but the line search in 200 bits takes step size number %d", where, p.Examined, trials)
			}
			line := p.Lines[len(p.Lines)-1]
			j0 := bp.objective(pw, pb)
			d := bigmath.Sub(jBig, j0)
			r := float64(np) * 0x1p-52 * math.Max(prev.Objective, s.Objective)
			switch {
			case strings.HasPrefix(line, "J fell by "):
				if d.Sign() >= 0 {
					t.Errorf("%s: %q, yet J does not fall in exact arithmetic", where, line)
				}
				near(t, where, "the fall", numberAfter(t, where, line, "J fell by "), new(big.Float).Abs(d), r)
			case strings.HasPrefix(line, "J rose by "):
				if d.Sign() <= 0 {
					t.Errorf("%s: %q, yet J does not rise in exact arithmetic", where, line)
				}
				near(t, where, "the rise", numberAfter(t, where, line, "J rose by "), d, r)
			case strings.HasPrefix(line, "J changed by "):
				if math.Abs(s.Objective-prev.Objective) > r {
					t.Errorf("%s: %q, yet J moved by %g, beyond its rounding %g", where, line, s.Objective-prev.Objective, r)
				}
			default:
				t.Errorf("%s: the last line %q does not say how J moved", where, line)
			}
			near(t, where, "J after the step", numberAfter(t, where, line, ", to "), jBig, 0)
		}

		// The notes: the minimiser, the gap to it, the separable case.
		sep, err := pr.Separable()
		if err != nil {
			t.Fatal(err)
		}
		opt, optErr := pr.Solve(context.Background())
		switch {
		case sep && pr.Lambda == 0:
			if demotest.Note(p, "separable") == nil && demotest.Note(p, "no-minimiser") == nil {
				t.Errorf("%s: separable with λ = 0, yet no note says J has no minimiser", where)
			}
			if n := demotest.Note(p, "no-minimiser"); n != nil {
				near(t, where, "‖w‖ in the note", numberAfter(t, where, n.Text, "‖w‖ = "), bigNorm(w), 0)
			}
		case optErr != nil:
			t.Fatalf("%s: %v", where, optErr)
		default:
			n := demotest.Note(p, "minimiser")
			if n == nil {
				t.Fatalf("%s: no minimiser note", where)
			}
			ow, ob := bigVec(opt.Model.W), bigmath.New(opt.Model.B)
			if og := bigmath.Float64(bigNorm(bp.gradient(ow, ob))); og > 1e-9 {
				t.Errorf("%s: the minimiser's gradient is %g in exact arithmetic", where, og)
			}
			if strings.HasPrefix(n.Text, "No line separates") != (pr.Lambda == 0) || pr.Lambda == 0 && sep {
				t.Errorf("%s: separable %v, λ = %v, note %q", where, sep, pr.Lambda, n.Text)
			}
			near(t, where, "‖w*‖", numberAfter(t, where, n.Text, "‖w*‖ = "), bigNorm(ow), 0)
			jOpt := bp.objective(ow, ob)
			near(t, where, "J* counter", demotest.Counter(p, "optimum"), jOpt, 0)
			checkGap(t, where, n.Text, jBig, jOpt, np)
		}
		if usesGD(r.State) {
			var j []float64
			var states []logistic.State
			algos.Replay(m, pr.Start(), s.T, algos.RecorderFunc[logistic.State](func(_ int, st logistic.State) error {
				j, states = append(j, st.Objective), append(states, st)
				return nil
			}))
			var bigJ func(k int) *big.Float
			if len(j) <= 400 {
				bigJ = func(k int) *big.Float {
					return bp.objective(bigVec(states[k].Model.W), bigmath.New(states[k].Model.B))
				}
			}
			checkSmoothNote(t, where, demotest.Note(p, "smooth"), lambdaMaxByEigen(t, pr.X)/(4*float64(np))+pr.Lambda, j, bigJ, np)
		}
	}
	t.Logf("statuses: %v", statuses)
}
