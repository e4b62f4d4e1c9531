package logistic

import (
	"context"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/bigmath"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// TestSoftmaxPanelSecondRoute: the softmax panel over a grid of states
// (step 0 with its exact tie, early, mid, the end, η within and beyond
// 2/L, λ, probes on each class), each number and word recomputed in 200
// bits.
func TestSoftmaxPanelSecondRoute(t *testing.T) {
	statuses := map[string]int{}
	for _, q := range []string{
		"step=0", "step=1", "step=30&q1=0.5&q2=-1", "step=400&q1=-9&q2=9.5&lambda=0.001", "step=1700", "step=end",
		"q1=-0.166&q2=-0.543&step=2154", "eta=0.6&step=2", "eta=30&step=200", "eta=100&seed=2&q1=0.3&step=50",
		"lambda=0.5&q2=-1&step=end", "n=30&q1=-2&q2=0.5&eta=10&step=25", "q1=1&q2=1&eta=3&step=end",
	} {
		r := demotest.Run(t, SoftmaxSpec(), q)
		sm, s := softmaxReplay(t, r)
		p, bs, np := r.Panel(), bigSoftmax{sm}, len(sm.X)
		where := "softmax?" + q
		w, b := bigSoftmaxModel(s.Model)
		jBig := bs.objective(w, b)
		if got := demotest.Counter(p, "step"); got != strconv.Itoa(s.T) || s.T != r.Step {
			t.Errorf("%s: iteration %s, the replay is at %d, the run at %d", where, got, s.T, r.Step)
		}
		near(t, where, "J", demotest.Counter(p, "objective"), jBig, 0)
		near(t, where, "‖∇J‖", demotest.Counter(p, "grad"), bigNorm(bs.gradient(w, b)...), 1e-14)
		wrong := 0
		for i, x := range sm.X {
			if bigArgmax(bigScores(w, b, x)) != sm.Y[i] {
				wrong++
			}
		}
		train := textfmt.Pct(float64(wrong)/float64(np), 1)
		if got := demotest.Counter(p, "error"); got != train {
			t.Errorf("%s: training error %s, by the 200-bit scores %s", where, got, train)
		}
		pq := probeSlice(r.State)
		scores := bigScores(w, b, pq)
		pred := bigArgmax(scores)
		if got := demotest.Counter(p, "probe-class"); got != "class "+strconv.Itoa(pred) {
			t.Errorf("%s: prediction at q %s, the 200-bit arg max is class %d", where, got, pred)
		}
		_, desc := demotest.FigureText(t, r, demo.PlotFigure)
		if !strings.Contains(desc, strings.TrimSuffix(train, " %")+" % are misclassified") || !strings.Contains(desc, "predicted class "+strconv.Itoa(pred)) {
			t.Errorf("%s: the figure says %q; training error %s, class %d at q", where, desc, train, pred)
		}

		// The probe table: scores, probabilities, the arg max and its tie.
		probs, _ := bigSoftmaxOf(scores)
		rows := p.Tables[0].Rows
		if len(rows) != sm.C {
			t.Fatalf("%s: %d rows for %d classes", where, len(rows), sm.C)
		}
		for c, row := range rows {
			near(t, where, "score of class "+row[0], row[1], scores[c], 0)
			near(t, where, "P of class "+row[0], row[2], probs[c], 0)
			tie := false
			for k := c + 1; k < sm.C; k++ {
				tie = tie || scores[k].Cmp(scores[c]) == 0
			}
			if wantMark := c == pred; (row[3] != "") != wantMark || wantMark && strings.Contains(row[3], "a tie") != tie {
				t.Errorf("%s: class %d marked %q; arg max %d, tied with a later class %v", where, c, row[3], pred, tie)
			}
		}

		// The model box is the replayed state.
		for c, line := range p.Model {
			if got := line.Facts[0].Value + " " + line.Facts[1].Value; got != textfmt.Vec(s.Model.W[c])+" "+textfmt.Num(s.Model.B[c]) {
				t.Errorf("%s: class %d model %s", where, c, got)
			}
		}
		statuses[strings.SplitN(p.Status, ":", 2)[0]]++
		// Converged when ‖∇J‖ < 10⁻¹⁰, 1 % either way left to float64.
		if g, conv := bigmath.Float64(bigNorm(bs.gradient(w, b)...)), strings.HasPrefix(p.Status, "converged"); g < 0.99*logistic.Tol && !conv || g > 1.01*logistic.Tol && conv {
			t.Errorf("%s: status %q for ‖∇J‖ = %g", where, p.Status, g)
		}
		if s.T > 0 && !strings.Contains(p.Examined, "η = "+textfmt.Sig(eta.Get(r.State))) {
			t.Errorf("%s: %q should give η", where, p.Examined)
		}

		// The minimiser, the gap to it and the step-size note.
		opt, err := sm.Solve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ow, ob := bigSoftmaxModel(opt.Model)
		if og := bigmath.Float64(bigNorm(bs.gradient(ow, ob)...)); og > 1e-9 {
			t.Errorf("%s: the minimiser's gradient is %g in exact arithmetic", where, og)
		}
		jOpt := bs.objective(ow, ob)
		near(t, where, "J* counter", demotest.Counter(p, "optimum"), jOpt, 0)
		n := demotest.Note(p, "minimiser")
		if n == nil || !strings.Contains(n.Text, "With λ = "+textfmt.Sig(sm.Lambda)+" > 0") {
			t.Fatalf("%s: minimiser note %+v", where, n)
		}
		checkGap(t, where, n.Text, jBig, jOpt, np)
		var j []float64
		var states []logistic.SoftmaxState
		algos.Replay[logistic.SoftmaxState](logistic.SoftmaxGD{S: sm, Eta: eta.Get(r.State)}, sm.Start(), s.T,
			algos.RecorderFunc[logistic.SoftmaxState](func(_ int, st logistic.SoftmaxState) error {
				j, states = append(j, st.Objective), append(states, st)
				return nil
			}))
		var bigJ func(k int) *big.Float
		if len(j) <= 400 {
			bigJ = func(k int) *big.Float { w, b := bigSoftmaxModel(states[k].Model); return bs.objective(w, b) }
		}
		checkSmoothNote(t, where, demotest.Note(p, "smooth"), lambdaMaxByEigen(t, sm.X)/(2*float64(np))+sm.Lambda, j, bigJ, np)
	}
	t.Logf("statuses: %v", statuses)
}
