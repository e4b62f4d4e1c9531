package svm

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
	"github.com/margin-edu/margin/internal/textfmt"
)

// TestSVMDemosSolve runs both SMO demos to the end on their default data
// and checks what the panel and figures say against the solution.
func TestSVMDemosSolve(t *testing.T) {
	for _, hard := range []bool{true, false} {
		r := demotest.Run(t, SVMSpec(hard), "step=end")
		p := r.Panel()
		if !r.Done || p.Status != "converged" {
			t.Fatalf("hard=%v: run ended with status %q at step %d, want converged", hard, p.Status, r.Step)
		}
		if demotest.Counter(p, "step") != strconv.Itoa(r.Step) {
			t.Errorf("hard=%v: step counter %q, want %d", hard, demotest.Counter(p, "step"), r.Step)
		}
		if n, _ := strconv.Atoi(demotest.Counter(p, "support")); n < 2 {
			t.Errorf("hard=%v: %s support vectors, want at least one per class", hard, demotest.Counter(p, "support"))
		}
		if demotest.Note(p, "solved") == nil {
			t.Errorf("hard=%v: no note says the problem is solved", hard)
		}
		if len(p.Tables) != 1 || len(p.Tables[0].Rows) == 0 && p.Tables[0].More == "" {
			t.Errorf("hard=%v: tables %+v, want one non-empty table", hard, p.Tables)
		}
		if r.History == nil || len(r.History.Series) != 3 || r.History.Series[0].Compare == nil {
			t.Fatalf("hard=%v: history %+v, want three panels, the first comparing dual and primal", hard, r.History)
		}
		// At the optimum the duality gap has closed: −D(α) and the primal meet.
		dual, primal := r.History.Series[0], r.History.Series[0].Compare
		d, pv := dual.Y[len(dual.Y)-1], primal.Y[len(primal.Y)-1]
		if diff := math.Abs(pv - d); diff > 1e-2*max(1, pv) {
			t.Errorf("hard=%v: final −D(α) = %v, primal = %v: the gap has not closed", hard, d, pv)
		}
		for _, name := range []string{"alpha", "kkt"} {
			var buf bytes.Buffer
			if ok, err := r.WriteFigure(&buf, name, false); !ok || err != nil {
				t.Errorf("hard=%v: figure %s: ok %v, err %v", hard, name, ok, err)
			}
		}
	}
}

// TestSVMHardInfeasible checks that XOR, which no line separates, is
// reported as such with a link to the soft margin on the same points, and
// that nothing is solved or charted.
func TestSVMHardInfeasible(t *testing.T) {
	r := demotest.Run(t, SVMSpec(true), "data=xor&step=end")
	p := r.Panel()
	if p.Status != "infeasible" || !p.Bad {
		t.Fatalf("xor hard margin: status %q (bad %v), want infeasible", p.Status, p.Bad)
	}
	n := demotest.Note(p, "infeasible")
	if n == nil || !n.Alert {
		t.Fatalf("xor hard margin: no alert note; notes %+v", p.Notes)
	}
	if n.Href != "/lessons/soft-margin-svm?data=xor" {
		t.Errorf("link to the soft margin = %q, want the same data there", n.Href)
	}
	if r.History != nil {
		t.Error("an infeasible run has a history chart; it has nothing to chart")
	}
	var buf bytes.Buffer
	if _, err := r.WriteFigure(&buf, demo.PlotFigure, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "not linearly separable") {
		t.Error("the plot's title does not say the points are not separable")
	}
}

// TestSVMSoftSlackTable checks the slack table against the definition
// ξᵢ = max(0, 1 − yᵢf(xᵢ)): largest first, each row consistent, and the
// kinds' counts adding up to the support vectors.
func TestSVMSoftSlackTable(t *testing.T) {
	r := demotest.Run(t, SVMSpec(false), "C=0.1&step=end")
	p := r.Panel()
	tab := p.Tables[0]
	if tab.TestID != "slack-table" || len(tab.Rows) == 0 {
		t.Fatalf("table %+v, want slack rows on noisy data at C = 0.1", tab)
	}
	prev := 1e300
	for _, row := range tab.Rows {
		y, f, xi := demotest.ParseSig(t, row[1]), demotest.ParseSig(t, row[2]), demotest.ParseSig(t, row[3])
		if want := 1 - y*f; xi-want > 1e-3*max(1, want) || want-xi > 1e-3*max(1, want) {
			t.Errorf("row %v: ξ = %v, but 1 − y·f = %v", row, xi, want)
		}
		if xi > prev {
			t.Errorf("row %v: slack %v after %v; rows should be largest first", row, xi, prev)
		}
		prev = xi
		if xi > 1 && row[5] != "misclassified" {
			t.Errorf("row %v: ξ > 1 but kind %q", row, row[5])
		}
	}
	kinds := demotest.Note(p, "kinds")
	if kinds == nil {
		t.Fatal("no note counts the kinds of support vectors")
	}
	m := regexp.MustCompile(`(\d+) on the margin.*?(\d+) inside it and (\d+) misclassified`).FindStringSubmatch(kinds.Text)
	if m == nil {
		t.Fatalf("kinds note %q does not give three counts", kinds.Text)
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	c, _ := strconv.Atoi(m[3])
	if sv, _ := strconv.Atoi(demotest.Counter(p, "support")); a+b+c != sv {
		t.Errorf("kinds %d + %d + %d ≠ %d support vectors", a, b, c, sv)
	}
}

// TestSVMComparePerceptron checks the comparison on separable data: the
// perceptron's line separates the points too, with a margin no wider
// than the SVM's, which is the widest.
func TestSVMComparePerceptron(t *testing.T) {
	r := demotest.Run(t, SVMSpec(true), "compare=perceptron&step=end")
	n := demotest.Note(r.Panel(), "compare")
	if n == nil {
		t.Fatal("no comparison note")
	}
	var pm, sm float64
	i := strings.Index(n.Text, "closest point is ")
	j := strings.Index(n.Text, "closest points are ")
	if i < 0 || j < 0 {
		t.Fatalf("comparison note %q gives no margins", n.Text)
	}
	pm = demotest.ParseSig(t, strings.Fields(n.Text[i+len("closest point is "):])[0])
	sm = demotest.ParseSig(t, strings.Fields(n.Text[j+len("closest points are "):])[0])
	if pm > sm*(1+1e-3) {
		t.Errorf("perceptron margin %v exceeds the max-margin SVM's %v", pm, sm)
	}
}

// TestSVMOneClass checks that points of one class get a plot and a
// request for the other class, not an error.
func TestSVMOneClass(t *testing.T) {
	r := demotest.Run(t, SVMSpec(false), "data=custom&add=1,1,1~2,0.5,1")
	if demotest.Note(r.Panel(), "one-class") == nil {
		t.Errorf("panel %+v does not ask for the other class", r.Panel())
	}
	var buf bytes.Buffer
	if _, err := r.WriteFigure(&buf, demo.PlotFigure, false); err != nil {
		t.Fatal(err)
	}
	if ok, _ := r.WriteFigure(&buf, "alpha", false); ok {
		t.Error("an α chart is served with no SVM to show")
	}
}

// TestSVMDeterministic checks one state draws the same bytes twice.
func TestSVMDeterministic(t *testing.T) {
	draw := func() []byte {
		var buf bytes.Buffer
		r := demotest.Run(t, SVMSpec(false), "step=7")
		if _, err := r.WriteFigure(&buf, demo.PlotFigure, false); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if !bytes.Equal(draw(), draw()) {
		t.Error("the same state drew different SVGs")
	}
}

func TestSig(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {1, "1"}, {-0.5, "−0.5"}, {0.0012346, "0.001235"}, {123456, "123456"}, {123456.7, "123500"}, {40401, "40401"},
		{2.5e-7, "2.5·10⁻⁷"}, {-3e12, "−3·10¹²"}, {0.41234, "0.4123"},
	} {
		if got := textfmt.Sig(tt.v); got != tt.want {
			t.Errorf("sig(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// TestSVMBiasNotUnique checks the soft margin's states with no free
// multiplier against the primal alone: with w* fixed, the optimal offsets
// are the minimisers of b ↦ Σᵢ max(0, 1 − yᵢ(⟨w*, xᵢ⟩ + b)), found here at
// the kinks of that piecewise linear function; the panel must give that
// interval, and the training error over it found on a fine grid of b.
func TestSVMBiasNotUnique(t *testing.T) {
	for _, q := range []string{"data=xor&step=end", "C=0.001&step=end", "data=xor&C=0.01&step=end"} {
		t.Run(q, func(t *testing.T) {
			r := demotest.Run(t, SVMSpec(false), q)
			p := r.Panel()
			x, yf := demo.Columns(r.Points)
			params := SvmParams(r.State, false)
			params.Tol = 1e-9
			pr, _, err := svm.New(x, pointset.SignLabels(yf), params)
			if err != nil {
				t.Fatal(err)
			}
			opt, err := pr.Solve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			w := pr.Weights(opt)
			u := make([]float64, len(x))
			hinge := func(b float64) float64 {
				h := 0.0
				for i := range x {
					h += math.Max(0, 1-yf[i]*(u[i]+b))
				}
				return h
			}
			for i, row := range x {
				u[i] = floats.Dot(w, row)
			}
			best, lo, hi := math.Inf(1), math.Inf(1), math.Inf(-1)
			for i := range x {
				k := yf[i] - u[i] // a kink: point i on its own hyperplane
				switch h := hinge(k); {
				case h < best-1e-9:
					best, lo, hi = h, k, k
				case h <= best+1e-9:
					lo, hi = math.Min(lo, k), math.Max(hi, k)
				}
			}
			n := demotest.Note(p, "bias-range")
			if n == nil {
				t.Fatalf("no note says b is not unique; optimal b in [%v, %v]; notes %+v", lo, hi, p.Notes)
			}
			m := regexp.MustCompile(`every b from (\S+) to (\S+) satisfies`).FindStringSubmatch(n.Text)
			if m == nil {
				t.Fatalf("note %q gives no interval", n.Text)
			}
			if gl, gh := demotest.ParseSig(t, m[1]), demotest.ParseSig(t, m[2]); math.Abs(gl-lo) > 2e-3 || math.Abs(gh-hi) > 2e-3 {
				t.Errorf("note gives b in [%v, %v]; the primal is minimal for b in [%v, %v]", gl, gh, lo, hi)
			}
			if !strings.Contains(p.Model[0].Extra, "is optimal") {
				t.Errorf("the model line b = … does not say b is not unique: %+v", p.Model[0])
			}
			// The training error over the interval, on a fine grid.
			eLo, eHi := 1.0, 0.0
			for k := 0; k <= 20000; k++ {
				b := lo + (hi-lo)*float64(k)/20000
				wrong := 0
				for i := range x {
					if (u[i]+b > 0) != (yf[i] > 0) {
						wrong++
					}
				}
				e := float64(wrong) / float64(len(x))
				eLo, eHi = math.Min(eLo, e), math.Max(eHi, e)
			}
			want := fmt.Sprintf("%.1f %% to %.1f %%", 100*eLo, 100*eHi)
			if eLo == eHi {
				want = fmt.Sprintf("%.1f %% for every one", 100*eLo)
			}
			if !strings.Contains(n.Text, want) {
				t.Errorf("note %q; want the training error over the interval, %s", n.Text, want)
			}
		})
	}
	// With a free multiplier b is pinned, and nothing says otherwise.
	r := demotest.Run(t, SVMSpec(false), "step=end")
	if n := demotest.Note(r.Panel(), "bias-range"); n != nil || r.Panel().Model[0].Extra != "" {
		t.Errorf("default soft margin (free multipliers) says b is not unique: %v", n)
	}
}

// TestCompareNoteAtStepZero: before SMO's first step w = 0, so the SVM has
// no line and no closest point to compare with the perceptron's.
func TestCompareNoteAtStepZero(t *testing.T) {
	for _, q := range []string{"compare=perceptron&data=or", "compare=perceptron&data=or&step=4"} {
		p := demotest.Run(t, SVMSpec(true), q).Panel()
		n := demotest.Note(p, "compare")
		if n == nil {
			t.Fatalf("%s: no compare note", q)
		}
		if strings.Contains(n.Text, "closest points are 0 away") {
			t.Errorf("%s: %q", q, n.Text)
		}
		if q == "compare=perceptron&data=or" && !strings.Contains(n.Text, "no line while w = 0") {
			t.Errorf("%s: %q does not say the SVM has no line yet", q, n.Text)
		}
	}
}
