package regression

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"
)

// TestRegLossesDemo: the squared loss's line is least squares, and
// moving the outlier further moves it much more than the absolute
// loss's line.
func TestRegLossesDemo(t *testing.T) {
	slopes := func(q string) []float64 {
		r := demotest.Run(t, RegLossesSpec(), q)
		_, xs, ys := graphXY(r.Points)
		fits := regLosses(r.State)
		out := make([]float64, len(fits))
		for i, f := range fits {
			w, _, err := linreg.FitLine(xs, ys, f.loss, f.param)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = w
		}
		m, _ := linreg.Fit(linreg.PolyRows(xs, 1), ys, 0, true)
		if math.Abs(out[0]-m.W[0]) > 1e-7 {
			t.Errorf("%s: squared-loss slope %v, least squares %v", q, out[0], m.W[0])
		}
		if rows := r.Panel().Tables[0].Rows; len(rows) != 4 || rows[0][1] != textfmt.Sig(out[0]) {
			t.Errorf("%s: panel rows %v", q, rows)
		}
		return out
	}
	near, far := slopes("oy=1"), slopes("oy=-6")
	dSq, dAbs := math.Abs(far[0]-near[0]), math.Abs(far[1]-near[1])
	if !(dSq > 0.5 && dAbs < dSq/5) {
		t.Errorf("moving the outlier from y = 1 to −6 moves the squared slope by %v and the absolute one by %v", dSq, dAbs)
	}
}

// TestOutlierIndex: the ringed point follows removals.
func TestOutlierIndex(t *testing.T) {
	d := mustDemo(t, RegLossesSpec())
	for q, want := range map[string]int{"": 20, "del=0,3": 18, "del=20": -1, "n=5&del=1": 4, "data=custom&add=0,0": -1} {
		if got := outlierIndex(demotest.MustParse(t, d, q)); got != want {
			t.Errorf("%q: outlier index %d, want %d", q, got, want)
		}
	}
}

// TestRegLossesChartWords: the loss chart writes the residual as the
// prose does, r = y − f(x), and reports the ε-insensitive loss's band of
// minimisers as the interval [−ε, ε], not one sample of it.
func TestRegLossesChartWords(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"", "ε-insensitive, ε = 0.2: 2.8 at r = ±3, lowest, 0, on the whole interval −0.2 ≤ r ≤ 0.2"},
		{"epsilon=1", "on the whole interval −1 ≤ r ≤ 1"},
		{"epsilon=0", "ε-insensitive, ε = 0: 3 at r = ±3, lowest, 0, at r = 0."},
	} {
		r := demotest.Run(t, RegLossesSpec(), c.q)
		var b bytes.Buffer
		if _, err := r.WriteFigure(&b, "losses", false); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		if !strings.Contains(s, c.want) || !strings.Contains(s, "r = y − f(x)") || strings.Contains(s, "f(x) − y") {
			t.Errorf("%q: chart says %.600s", c.q, s[strings.Index(s, "<title>"):])
		}
	}
	if cap := demotest.Run(t, RegLossesSpec(), "").Panel().Tables[0].Caption; !strings.Contains(cap, "ℓ(yᵢ − w·xᵢ − b)") {
		t.Errorf("table caption %q", cap)
	}
}

// TestRegLossesNotByColourAlone: in both figures the four losses' lines
// have four different dash patterns (squared solid), and the loss chart
// names each line beside it as well as in the legend.
func TestRegLossesNotByColourAlone(t *testing.T) {
	r := demotest.Run(t, RegLossesSpec(), "")
	for _, fig := range []string{"plot", "losses"} {
		var b bytes.Buffer
		if _, err := r.WriteFigure(&b, fig, false); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		for i, d := range lossDashes {
			if i == 0 {
				continue
			}
			pat := "stroke-dasharray:" + strings.Trim(strings.ReplaceAll(fmt.Sprint(d), " ", ","), "[]")
			if strings.Count(s, pat) < 2 { // the line and its legend swatch
				t.Errorf("%s: %s drawn with %q fewer than twice", fig, regLosses(r.State)[i].name(), pat)
			}
		}
		if fig == "losses" {
			for _, f := range regLosses(r.State) {
				if n := strings.Count(s, ">"+f.name()+"</text>"); n < 2 {
					t.Errorf("losses: %q written %d times, want in the legend and beside its line", f.name(), n)
				}
			}
		}
	}
}
