package logistic

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// probeSlice is the probe point q of s as a slice.
func probeSlice(s demo.State) []float64 { q := probe(s); return q[:] }

// softmaxReplay replays the softmax demo's run from scratch.
func softmaxReplay(t *testing.T, r *demo.Run) (*logistic.Softmax, logistic.SoftmaxState) {
	t.Helper()
	x, yf := demo.Columns(r.Points)
	y, c, _ := softmaxClasses(yf)
	sm, err := logistic.NewSoftmax(x, y, c, demo.Lambda.Get(r.State))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := algos.Replay(logistic.SoftmaxGD{S: sm, Eta: eta.Get(r.State)}, sm.Start(), r.Step)
	if err != nil {
		t.Fatal(err)
	}
	return sm, s
}

// TestSoftmaxProbe: the probe table is SoftmaxModel's probabilities and
// scores at q, which sum to 1, with the arg max marked; the panel's J is
// the problem's objective.
func TestSoftmaxProbe(t *testing.T) {
	for _, q := range []string{"step=30&q1=0.5&q2=-1", "step=0", "step=400&q1=-9&q2=9.5&lambda=0.001"} {
		r := demotest.Run(t, SoftmaxSpec(), q)
		sm, s := softmaxReplay(t, r)
		p := r.Panel()
		if got := demotest.Counter(p, "objective"); got != textfmt.Sig(sm.Objective(s.Model)) {
			t.Errorf("%s: J = %s, want %s", q, got, textfmt.Sig(sm.Objective(s.Model)))
		}
		pt := probeSlice(r.State)
		probs, scores, pred := s.Model.Proba(pt), s.Model.Scores(pt), s.Model.Predict(pt)
		if sum := floats.Sum(probs); math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s: P(c | q) sums to %v", q, sum)
		}
		rows := p.Tables[0].Rows
		if len(rows) != len(probs) {
			t.Fatalf("%s: %d rows for %d classes", q, len(rows), len(probs))
		}
		for c, row := range rows {
			if row[1] != textfmt.Sig(scores[c]) || row[2] != textfmt.Sig(probs[c]) || (row[3] != "") != (c == pred) {
				t.Errorf("%s: row %d = %q, want score %s, P %s, marked %v", q, c, row, textfmt.Sig(scores[c]), textfmt.Sig(probs[c]), c == pred)
			}
		}
	}
	if got := demotest.Counter(demotest.Run(t, SoftmaxSpec(), "step=0").Panel(), "objective"); got != textfmt.Sig(math.Log(3)) {
		t.Errorf("J at W = 0 = %s, want log 3", got)
	}
}

// TestSoftmaxRegionsArePredict: the tinted regions, painted in order,
// put every point of the plane in the class Predict gives it.
func TestSoftmaxRegionsArePredict(t *testing.T) {
	r := demotest.Run(t, SoftmaxSpec(), "step=15")
	sm, s := softmaxReplay(t, r)
	run := &softmaxRun{sm: sm, s: s}
	layers, err := run.regions()
	if err != nil || len(layers) != 3 {
		t.Fatalf("regions = %d layers, %v", len(layers), err)
	}
	for i := -40; i <= 40; i++ {
		for j := -40; j <= 40; j++ {
			x := []float64{float64(i) / 8, float64(j) / 8}
			shown := -1
			for c, l := range layers {
				if inside(l.(*render.Region), x) {
					shown = c
				}
			}
			if want := s.Model.Predict(x); shown != want {
				t.Fatalf("at %v the figure shows class %d, Predict says %d", x, shown, want)
			}
		}
	}
}

func inside(r *render.Region, x []float64) bool {
	for _, h := range r.Planes {
		v := h.A[0]*x[0] + h.A[1]*x[1] + h.B
		if v < 0 || h.Strict && v == 0 {
			return false
		}
	}
	return true
}

func TestSoftmaxClasses(t *testing.T) {
	for _, tt := range []struct {
		y       []float64
		want    []int
		c, miss int
	}{
		{[]float64{0, 1, 2, 1}, []int{0, 1, 2, 1}, 3, -1},
		{[]float64{1, -1, 1}, []int{0, 1, 0}, 2, -1}, // +1 is blue, class 0
		{[]float64{-1, 2, 2}, []int{0, 2, 2}, 3, 1},
		{[]float64{1, 1}, []int{0, 0}, 1, -1},
	} {
		y, c, miss := softmaxClasses(tt.y)
		if !slices.Equal(y, tt.want) || c != tt.c || miss != tt.miss {
			t.Errorf("softmaxClasses(%v) = %v, %d, %d; want %v, %d, %d", tt.y, y, c, miss, tt.want, tt.c, tt.miss)
		}
	}
}

// TestSoftmaxMissingClass: softmax needs every class up to the largest.
func TestSoftmaxMissingClass(t *testing.T) {
	for q, want := range map[string]string{
		"data=custom&add=0,0,0~1,1,2~2,0,2": "class 1 has no points",
		"data=custom&add=0,0,2~1,1,2~2,2,1": "class 0 has no points",
		"data=custom&add=0,0,0~1,1,0":       "one class only",
	} {
		r := demotest.Run(t, SoftmaxSpec(), q)
		var buf bytes.Buffer
		if _, err := r.WriteFigure(&buf, demo.PlotFigure, false); err != nil || !strings.Contains(buf.String(), want) {
			t.Errorf("%s: figure (%v) should say %q", q, err, want)
		}
		if p := r.Panel(); !p.Bad || demotest.Note(p, "one-class") == nil {
			t.Errorf("%s: panel %+v should ask for the missing class", q, p)
		}
	}
}
