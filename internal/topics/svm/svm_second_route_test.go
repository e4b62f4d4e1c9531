package svm

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
)

// TestSMOPanelSecondRoute recomputes what the SMO demos' panels quote
// (issue 27 §5) from each state's α and the points alone, by formulas
// of the test's own, over a grid of states (each data set at step 0, 1,
// 2, mid-run and the end, and the states at the step limit and with no
// free multiplier): the band 2/‖w‖ from w = Σαᵢyᵢxᵢ, the training error
// with sgn(0) = −1, D(α) = ½ΣΣ − Σα, the KKT violation m − M from the
// gradient rebuilt as Qα − 1, the number of support vectors, the status
// (converged exactly when m − M ≤ ε, the step limit at the demo's last
// step) and, once solved, the three kinds by α and yᵢf(xᵢ).
func TestSMOPanelSecondRoute(t *testing.T) {
	kinds := regexp.MustCompile(`Support vectors: (\d+) on the margin \(0 < αᵢ < C\), (\d+) inside it and (\d+) misclassified`)
	seen := map[string]int{}
	for _, data := range []string{"separable", "noisy", "or", "and", "xor"} {
		for _, hard := range []bool{true, false} {
			for _, step := range []string{"0", "1", "2", "11", "40", "end"} {
				q := "data=" + data + "&step=" + step
				checkSMOState(t, hard, q, kinds, seen)
			}
		}
	}
	for _, q := range []string{"C=1000&step=20000", "C=0.001&step=end", "C=0.1&step=end", "C=100&step=3"} {
		checkSMOState(t, false, q, kinds, seen)
	}
	t.Logf("statuses: %v", seen)
	for _, k := range []string{"converged", "running", "step limit reached", "infeasible", "kinds"} {
		if seen[k] == 0 {
			t.Errorf("no state of status %q in the grid", k)
		}
	}
}

func checkSMOState(t *testing.T, hard bool, q string, kinds *regexp.Regexp, seen map[string]int) {
	t.Helper()
	spec := SVMSpec(hard)
	r := demotest.Run(t, spec, q)
	p := r.Panel()
	name := spec.ID + "?" + q
	x, yf := demo.Columns(r.Points)
	y := pointset.SignLabels(yf)
	params := SvmParams(r.State, hard)
	pr, s := replayTo(t, demo.Input{Points: r.Points, State: r.State}, func(demo.State) svm.Params { return params }, r.Step)
	if p.Status == "infeasible" {
		// Farkas: weights λ ≥ 0, ½ on each class, with Σλᵢyᵢxᵢ = 0, a
		// point common to the two classes' hulls, checked here.
		seen["infeasible"]++
		lam := pr.Certificate()
		var sum, sumY, z0, z1 float64
		for i, l := range lam {
			if l < 0 {
				t.Errorf("%s: certificate λ%d = %v < 0", name, i+1, l)
			}
			sum, sumY = sum+l, sumY+l*float64(y[i])
			z0, z1 = z0+l*float64(y[i])*x[i][0], z1+l*float64(y[i])*x[i][1]
		}
		if !hard || lam == nil || math.Abs(sum-1) > 1e-9 || math.Abs(sumY) > 1e-9 || math.Hypot(z0, z1) > 1e-9 {
			t.Errorf("%s: infeasible with certificate Σλ = %v, Σλy = %v, Σλyx = (%v, %v)", name, sum, sumY, z0, z1)
		}
		return
	}
	n, d := len(x), len(x[0])
	c := math.Inf(1)
	if !hard {
		c = params.C
	}
	w := make([]float64, d)
	maxA := 1.0
	for i := range x {
		for k := range w {
			w[k] += s.Alpha[i] * float64(y[i]) * x[i][k]
		}
		maxA = math.Max(maxA, s.Alpha[i])
	}
	f := func(i int) float64 {
		v := s.B
		for k := range w {
			v += w[k] * x[i][k]
		}
		return v
	}
	near := func(what, shown string, want, rel float64) {
		t.Helper()
		got := demotest.ParseSig(t, strings.TrimSuffix(shown, " %"))
		if math.Abs(got-want) > rel*math.Max(math.Abs(want), 1e-12) && math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: %s reads %s, recomputed %v", name, what, shown, want)
		}
	}
	// Band, error, D(α), support vectors.
	if nw := math.Hypot(w[0], w[1]); nw > 0 {
		near("band", demotest.Counter(p, "band"), 2/nw, 1e-3)
	}
	wrong, dual, sv := 0, 0.0, 0
	for i := range x {
		pred := -1
		if f(i) > 0 {
			pred = 1
		}
		if pred != y[i] {
			wrong++
		}
		if s.Alpha[i] > 1e-6*maxA {
			sv++
		}
		dual -= s.Alpha[i]
		for j := range x {
			dual += 0.5 * s.Alpha[i] * s.Alpha[j] * float64(y[i]*y[j]) * (x[i][0]*x[j][0] + x[i][1]*x[j][1])
		}
	}
	if want := fmt.Sprintf("%.1f %%", 100*float64(wrong)/float64(n)); demotest.Counter(p, "error") != want {
		t.Errorf("%s: training error %s, recomputed %s", name, demotest.Counter(p, "error"), want)
	}
	near("D(α)", demotest.Counter(p, "dual"), dual, 1e-3)
	if got := demotest.Counter(p, "support"); got != strconv.Itoa(sv) {
		t.Errorf("%s: %s support vectors, recomputed %d", name, got, sv)
	}
	// m − M from G = Qα − 1 rebuilt.
	m, mm := math.Inf(-1), math.Inf(1)
	for i := range x {
		g := -1.0
		for j := range x {
			g += s.Alpha[j] * float64(y[i]*y[j]) * (x[i][0]*x[j][0] + x[i][1]*x[j][1])
		}
		v := -float64(y[i]) * g
		up := y[i] > 0 && s.Alpha[i] < c || y[i] < 0 && s.Alpha[i] > 0
		low := y[i] > 0 && s.Alpha[i] > 0 || y[i] < 0 && s.Alpha[i] < c
		if up {
			m = math.Max(m, v)
		}
		if low {
			mm = math.Min(mm, v)
		}
	}
	gap := m - mm
	near("m − M", demotest.Counter(p, "gap"), gap, 2e-3)
	// The status by the stopping rule.
	want := "running"
	switch {
	case gap <= params.Tol:
		want = "converged"
	case r.Step >= demo.MaxStep:
		want = "step limit reached"
	}
	if math.Abs(gap-params.Tol) > 1e-9 && p.Status != want {
		t.Errorf("%s: status %q, the rule gives %q (m − M = %v, step %d)", name, p.Status, want, gap, r.Step)
	}
	seen[p.Status]++
	if (demotest.Note(p, "solved") != nil) != (p.Status == "converged") {
		t.Errorf("%s: status %q, solved note %v", name, p.Status, demotest.Note(p, "solved") != nil)
	}
	// The kinds, at the solution only, by α and yᵢf(xᵢ).
	if hard || p.Status != "converged" {
		return
	}
	seen["kinds"]++
	var margin, inside, wrongSide int
	for i := range x {
		if !(s.Alpha[i] > 1e-6*maxA) {
			continue
		}
		switch {
		case s.Alpha[i] < c:
			margin++
		case float64(y[i])*f(i) < 0:
			wrongSide++
		default:
			inside++
		}
	}
	got := kinds.FindStringSubmatch(demotest.Note(p, "kinds").Text)
	if want := []string{strconv.Itoa(margin), strconv.Itoa(inside), strconv.Itoa(wrongSide)}; got == nil || strings.Join(got[1:], " ") != strings.Join(want, " ") {
		t.Errorf("%s: kinds note %q, recomputed margin/inside/misclassified %v", name, demotest.Note(p, "kinds").Text, want)
	}
}
