package lessons

import (
	"bytes"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// runSVM runs demo spec at the state query q gives.
func runSVM(t *testing.T, spec Spec, q string) *Run {
	t.Helper()
	d, err := NewDemo(spec)
	if err != nil {
		t.Fatal(err)
	}
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	step := v.Get("step")
	v.Del("step")
	s, probs := d.Parse(v)
	if len(probs) > 0 {
		t.Fatalf("Parse(%q): %v", q, probs)
	}
	switch step {
	case "end":
		s.Step = StepToEnd
	case "":
	default:
		s.Step, _ = strconv.Atoi(step)
	}
	r, err := d.Execute(s)
	if err != nil {
		t.Fatalf("Execute(%q): %v", q, err)
	}
	return r
}

func counter(p Panel, id string) string {
	for _, c := range p.Counters {
		if c.TestID == id {
			return c.Value
		}
	}
	return ""
}

func note(p Panel, id string) *Note {
	for i := range p.Notes {
		if p.Notes[i].TestID == id {
			return &p.Notes[i]
		}
	}
	return nil
}

// TestSVMDemosSolve runs both SMO demos to the end on their default data
// and checks what the panel and figures say against the solution.
func TestSVMDemosSolve(t *testing.T) {
	for _, hard := range []bool{true, false} {
		r := runSVM(t, SVMSpec(hard), "step=end")
		p := r.Panel()
		if !r.Done || p.Status != "converged" {
			t.Fatalf("hard=%v: run ended with status %q at step %d, want converged", hard, p.Status, r.Step)
		}
		if counter(p, "step") != strconv.Itoa(r.Step) {
			t.Errorf("hard=%v: step counter %q, want %d", hard, counter(p, "step"), r.Step)
		}
		if n, _ := strconv.Atoi(counter(p, "support")); n < 2 {
			t.Errorf("hard=%v: %s support vectors, want at least one per class", hard, counter(p, "support"))
		}
		if note(p, "solved") == nil {
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
	r := runSVM(t, SVMSpec(true), "data=xor&step=end")
	p := r.Panel()
	if p.Status != "infeasible" || !p.Bad {
		t.Fatalf("xor hard margin: status %q (bad %v), want infeasible", p.Status, p.Bad)
	}
	n := note(p, "infeasible")
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
	if _, err := r.WriteFigure(&buf, "", false); err != nil {
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
	r := runSVM(t, SVMSpec(false), "C=0.1&step=end")
	p := r.Panel()
	tab := p.Tables[0]
	if tab.TestID != "slack-table" || len(tab.Rows) == 0 {
		t.Fatalf("table %+v, want slack rows on noisy data at C = 0.1", tab)
	}
	prev := 1e300
	for _, row := range tab.Rows {
		y, f, xi := parseSig(t, row[1]), parseSig(t, row[2]), parseSig(t, row[3])
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
	kinds := note(p, "kinds")
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
	if sv, _ := strconv.Atoi(counter(p, "support")); a+b+c != sv {
		t.Errorf("kinds %d + %d + %d ≠ %d support vectors", a, b, c, sv)
	}
}

// TestSVMComparePerceptron checks the comparison on separable data: the
// perceptron's line separates the points too, with a margin no wider
// than the SVM's, which is the widest.
func TestSVMComparePerceptron(t *testing.T) {
	r := runSVM(t, SVMSpec(true), "compare=perceptron&step=end")
	n := note(r.Panel(), "compare")
	if n == nil {
		t.Fatal("no comparison note")
	}
	var pm, sm float64
	i := strings.Index(n.Text, "closest point is ")
	j := strings.Index(n.Text, "closest points are ")
	if i < 0 || j < 0 {
		t.Fatalf("comparison note %q gives no margins", n.Text)
	}
	pm = parseSig(t, strings.Fields(n.Text[i+len("closest point is "):])[0])
	sm = parseSig(t, strings.Fields(n.Text[j+len("closest points are "):])[0])
	if pm > sm*(1+1e-3) {
		t.Errorf("perceptron margin %v exceeds the max-margin SVM's %v", pm, sm)
	}
}

// TestSVMOneClass checks that points of one class get a plot and a
// request for the other class, not an error.
func TestSVMOneClass(t *testing.T) {
	r := runSVM(t, SVMSpec(false), "data=custom&add=1,1,1~2,0.5,1")
	if note(r.Panel(), "one-class") == nil {
		t.Errorf("panel %+v does not ask for the other class", r.Panel())
	}
	var buf bytes.Buffer
	if _, err := r.WriteFigure(&buf, "", false); err != nil {
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
		r := runSVM(t, SVMSpec(false), "step=7")
		if _, err := r.WriteFigure(&buf, "", false); err != nil {
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
		if got := sig(tt.v); got != tt.want {
			t.Errorf("sig(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// parseSig reads a number sig or signed wrote (real minus signs).
func parseSig(t *testing.T, s string) float64 {
	t.Helper()
	s = strings.NewReplacer("−", "-", "+", "", "·10", "e", "⁻", "-", "⁰", "0", "¹", "1", "²", "2", "³", "3",
		"⁴", "4", "⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9").Replace(s)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("number %q: %v", s, err)
	}
	return v
}
