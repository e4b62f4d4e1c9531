package logistic

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/bigmath"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// The states of issue 27 §2 where "Will J go down?" was graded by
// rounding: J changes by about 10⁻¹⁶ there.
var noiseFloor = []struct {
	spec  func() demo.Spec
	q     string
	steps []int
}{
	{LogisticSpec, "", []int{150, 152}},
	{LogisticSpec, "eta=5", []int{20}},
	{SoftmaxSpec, "", []int{1700}},
}

// TestPredictNoLossQuestionAtTheNoiseFloor: where J changes by less than
// twice the rounding error of a mean of n losses, no loss question is
// asked; the other question is, or none.
func TestPredictNoLossQuestionAtTheNoiseFloor(t *testing.T) {
	for _, c := range noiseFloor {
		for _, step := range c.steps {
			a := demotest.AskAt(t, c.spec(), c.q, step)
			where := fmt.Sprintf("%s?%s step %d", c.spec().ID, c.q, step)
			if a.Q == nil {
				t.Fatalf("%s: the run has stopped", where)
			}
			j0 := demotest.ParseSig(t, demotest.Counter(a.Now.Panel(), "objective"))
			if isLoss(a.Q) {
				t.Errorf("%s: a loss question at J = %v, where J changes by rounding only", where, j0)
			}
			if !demotest.HoldsNumber(a.Q.Prompt+a.Q.None, "40 losses") {
				t.Errorf("%s: the question asked instead should say why there is none on J: %q", where, a.Q.Prompt)
			}
		}
	}
}

// isLoss reports whether q asks "Will J go down?", by its choices.
func isLoss(q *demo.Question) bool {
	return len(q.Choices) == 2 && (q.Choices[0].Value == "yes" || q.Choices[1].Value == "yes")
}

// A run to replay: the query and the steps t whose question is checked.
type replayCase struct {
	q        string
	from, to int
}

// TestPredictLogisticReplayedIn200Bits: wherever the logistic demo asks
// a question, the step t+1 replayed from the float64 state at t in
// 200-bit arithmetic gives the graded answer: J goes down exactly when
// the answer is yes, and q's score has the sign of the class graded.
func TestPredictLogisticReplayedIn200Bits(t *testing.T) {
	counts := map[string]int{}
	for _, c := range []replayCase{
		{"", 0, 200}, {"eta=5", 0, 40}, {"eta=2.5", 0, 60}, {"eta=20", 0, 40}, {"eta=100&data=separable", 0, 20},
		{"data=separable", 0, 30}, {"data=separable", 19990, 20000}, {"data=moons&eta=5&lambda=0.1", 0, 40},
		{"method=newton", 0, 30}, {"data=separable&method=newton", 0, 40}, {"data=separable&lambda=0.01&method=newton", 0, 30},
		{"data=moons&method=newton", 0, 30},
	} {
		r := demotest.Run(t, LogisticSpec(), c.q+"&step=0")
		pr, m, s := logisticProblem(t, r)
		s, _, err := algos.Replay(m, s, c.from)
		if err != nil {
			t.Fatal(err)
		}
		bp, gd, eta := bigLogistic{pr}, usesGD(r.State), logisticEta.Get(r.State)
		for step := c.from; step < c.to && !s.Status.Done(); step, s = step+1, m.Step(s) {
			where := fmt.Sprintf("?%s step %d", c.q, step)
			a := demotest.AskAt(t, LogisticSpec(), c.q, step)
			switch {
			case a.Q == nil:
				t.Fatalf("%s: no question while the run goes on", where)
			case a.Q.None != "":
				counts["none"]++
				continue
			}
			w, b := bigVec(s.Model.W), bigmath.New(s.Model.B)
			var w1 []*big.Float
			var b1 *big.Float
			if gd {
				w1, b1 = bp.step(w, b, eta)
			} else {
				var trials int
				if w1, b1, trials = bp.newtonStep(w, b); trials == 0 {
					t.Errorf("%s: a question, but in exact arithmetic the line search takes no step", where)
					continue
				}
			}
			if isLoss(a.Q) {
				if !gd {
					t.Errorf("%s: a loss question for Newton's method", where)
				}
				j0, j1 := bp.objective(w, b), bp.objective(w1, b1)
				down := j1.Cmp(j0) < 0
				if a.Q.Right != demo.YesOrNo(down) {
					t.Errorf("%s: graded %q, but in exact arithmetic J goes down: %v", where, a.Q.Right, down)
				}
				checkLossNumbers(t, where, a.Q, j0, j1, bigNorm(bp.gradient(w, b)), lambdaMaxByEigen(t, pr.X)/(4*float64(len(pr.X)))+pr.Lambda, len(pr.X))
				counts["loss "+a.Q.Right]++
				continue
			}
			qi := nearestBoundary(pr.X, s.Model)
			if mk := a.Q.Marks; len(mk) != 1 || mk[0].X1 != pr.X[qi][0] || mk[0].X2 != pr.X[qi][1] {
				t.Fatalf("%s: marks %v, want q = x%d, the point nearest the boundary", where, mk, qi)
			}
			want := map[bool]string{true: "pos", false: "neg"}[bigDot(w1, pr.X[qi], b1).Sign() > 0]
			if a.Q.Right != want {
				t.Errorf("%s: graded %q, but in exact arithmetic the step gives q class %q", where, a.Q.Right, want)
			}
			// The prompt's f(q) and P now, the reveal's after the step.
			f0, f1 := bigDot(w, pr.X[qi], b), bigDot(w1, pr.X[qi], b1)
			slack := func(f *big.Float) float64 { return 1e-12 * (1 + math.Abs(bigmath.Float64(f))) }
			near(t, where, "f(q) now", numberAfter(t, where, a.Q.Prompt, "w·q + b = "), f0, slack(f0))
			near(t, where, "P now", numberAfter(t, where, a.Q.Prompt, "σ(f(q)) = "), bigmath.Sigmoid(f0), slack(f0))
			why := a.Q.Why[strings.Index(a.Q.Why, "so f("):]
			near(t, where, "f(q) after", numberAfter(t, where, why, ") = "), f1, slack(f1))
			near(t, where, "P after", numberAfter(t, where, why[strings.Index(why, "P(y = +1"):], ") = "), bigmath.Sigmoid(f1), slack(f1))
			counts["class "+a.Q.Right]++
		}
	}
	t.Logf("questions checked: %v", counts)
	for _, k := range []string{"loss yes", "loss no", "class pos", "class neg"} {
		if counts[k] == 0 {
			t.Errorf("no question answered %q: the cases do not exercise it", k)
		}
	}
}

// TestPredictSoftmaxReplayedIn200Bits: likewise for the softmax demo, J
// and the probe's arg max after the step replayed in 200 bits.
func TestPredictSoftmaxReplayedIn200Bits(t *testing.T) {
	counts := map[string]int{}
	for _, c := range []replayCase{
		{"", 0, 200}, {"", 1690, 1710}, {"eta=0.6", 0, 20}, {"eta=30", 0, 30}, {"q1=1&q2=1&eta=3", 0, 40},
		{"n=30&q1=-2&q2=0.5&eta=10", 0, 30}, {"lambda=0.5&q2=-1", 0, 30}, {"q1=-0.166&q2=-0.543", 2140, 2160},
	} {
		r := demotest.Run(t, SoftmaxSpec(), c.q+"&step=0")
		x, yf := demo.Columns(r.Points)
		y, k, _ := softmaxClasses(yf)
		sm, err := logistic.NewSoftmax(x, y, k, demo.Lambda.Get(r.State))
		if err != nil {
			t.Fatal(err)
		}
		gd := logistic.SoftmaxGD{S: sm, Eta: eta.Get(r.State)}
		s, _, err := algos.Replay(gd, sm.Start(), c.from)
		if err != nil {
			t.Fatal(err)
		}
		bs, q := bigSoftmax{sm}, probeSlice(r.State)
		for step := c.from; step < c.to && !s.Status.Done(); step, s = step+1, gd.Step(s) {
			where := fmt.Sprintf("?%s step %d", c.q, step)
			a := demotest.AskAt(t, SoftmaxSpec(), c.q, step)
			switch {
			case a.Q == nil:
				t.Fatalf("%s: no question while the run goes on", where)
			case a.Q.None != "":
				counts["none"]++
				continue
			}
			w := make([][]*big.Float, len(s.Model.W))
			for c, row := range s.Model.W {
				w[c] = bigVec(row)
			}
			b := bigVec(s.Model.B)
			w1, b1 := bs.step(w, b, gd.Eta)
			if isLoss(a.Q) {
				j0, j1 := bs.objective(w, b), bs.objective(w1, b1)
				down := j1.Cmp(j0) < 0
				if a.Q.Right != demo.YesOrNo(down) {
					t.Errorf("%s: graded %q, but in exact arithmetic J goes down: %v", where, a.Q.Right, down)
				}
				checkLossNumbers(t, where, a.Q, j0, j1, bigNorm(bs.gradient(w, b)...), lambdaMaxByEigen(t, sm.X)/(2*float64(len(sm.X)))+sm.Lambda, len(sm.X))
				counts["loss "+a.Q.Right]++
				continue
			}
			if want := strconv.Itoa(bigArgmax(bigScores(w1, b1, q))); a.Q.Right != want {
				t.Errorf("%s: graded class %s, but in exact arithmetic the step gives q class %s", where, a.Q.Right, want)
			}
			// The scores and probabilities now (prompt) and after (reveal).
			for _, at := range []struct {
				text, scores, probs string
				w                   [][]*big.Float
				b                   []*big.Float
			}{{a.Q.Prompt, "w_c·q + b_c = ", "P(c | q) = ", w, b}, {a.Q.Why, "the scores are ", "P(c | q) = ", w1, b1}} {
				z := bigScores(at.w, at.b, q)
				pr, _ := bigSoftmaxOf(z)
				checkList(t, where, "scores", at.text, at.scores, z)
				checkList(t, where, "P(c | q)", at.text, at.probs, pr)
			}
			counts["class "+a.Q.Right]++
		}
	}
	t.Logf("questions checked: %v", counts)
	for _, k := range []string{"loss yes", "loss no", "class 0", "class 1", "class 2"} {
		if counts[k] == 0 {
			t.Errorf("no question answered %q: the cases do not exercise it", k)
		}
	}
}

// lossNumbers finds the two values of J a loss reveal quotes: "from A to
// B" or "(A, then B)".
var lossNumbers = regexp.MustCompile(`from (\S+) to (\S+?)[,:.]? |\((\S+), then (\S+?)\)`)

// checkLossNumbers checks the numbers of a loss question against J
// before and after the step and ‖∇J‖ in 200 bits, and 2/L from the
// eigenvalues: the prompt's J and ‖∇J‖ now, the reveal's J before and
// after (the float64 step's J after differs from the exact step's by its
// rounding, 4nε·J) and 2/L.
func checkLossNumbers(t *testing.T, where string, q *demo.Question, j0, j1, grad *big.Float, l float64, n int) {
	t.Helper()
	near(t, where, "J now", numberAfter(t, where, q.Prompt, "b) = "), j0, 0)
	near(t, where, "‖∇J‖ now", numberAfter(t, where, q.Prompt, "‖∇J‖ = "), grad, 1e-14)
	m := lossNumbers.FindStringSubmatch(q.Why)
	if m == nil {
		t.Fatalf("%s: no values of J in %q", where, q.Why)
	}
	a, b := m[1]+m[3], m[2]+m[4]
	slack := 4 * float64(n) * 0x1p-52 * bigmath.Float64(j0)
	near(t, where, "J before", a, j0, slack)
	near(t, where, "J after", b, j1, slack)
	near(t, where, "2/L", numberAfter(t, where, q.Why, "2/L = "), bigmath.New(2/l), 1e-12)
}

// checkList checks a list "(0.1, −0.3, 0.2)" after prefix in text
// against want, to the digits shown.
func checkList(t *testing.T, where, what, text, prefix string, want []*big.Float) {
	t.Helper()
	i := strings.Index(text, prefix+"(")
	if i < 0 {
		t.Fatalf("%s: no %q in %q", where, prefix, text)
	}
	rest := text[i+len(prefix)+1:]
	parts := strings.Split(rest[:strings.Index(rest, ")")], ", ")
	if len(parts) != len(want) {
		t.Fatalf("%s: %s %v, want %d entries", where, what, parts, len(want))
	}
	for c, s := range parts {
		near(t, where, what+" of class "+strconv.Itoa(c), s, want[c], 1e-12)
	}
}
