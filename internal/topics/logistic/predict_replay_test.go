package logistic

import (
	"fmt"
	"math/big"
	"strconv"
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
				down := bp.objective(w1, b1).Cmp(bp.objective(w, b)) < 0
				if a.Q.Right != demo.YesOrNo(down) {
					t.Errorf("%s: graded %q, but in exact arithmetic J goes down: %v", where, a.Q.Right, down)
				}
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
				down := bs.objective(w1, b1).Cmp(bs.objective(w, b)) < 0
				if a.Q.Right != demo.YesOrNo(down) {
					t.Errorf("%s: graded %q, but in exact arithmetic J goes down: %v", where, a.Q.Right, down)
				}
				counts["loss "+a.Q.Right]++
				continue
			}
			if want := strconv.Itoa(bigArgmax(bigScores(w1, b1, q))); a.Q.Right != want {
				t.Errorf("%s: graded class %s, but in exact arithmetic the step gives q class %s", where, a.Q.Right, want)
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
