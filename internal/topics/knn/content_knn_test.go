package knn

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/textfmt"

	"gonum.org/v1/gonum/stat/distuv"
)

// The gradient descent and knn-bayes lessons are checked with the others
// (courseLessons in content_regression_test.go); this file holds what is
// particular to them.

// TestProseBayesTable checks the prose's table of Bayes errors of two
// equally likely Gaussian clouds against Φ(−Δ/2σ) computed here by gonum:
// each value the table prints must be the closed form rounded to the
// digits shown, so a typo in the hand-copied numbers fails.
func TestProseBayesTable(t *testing.T) {
	parts, err := demo.Prose(Topic().Prose, "knn-bayes")
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(demotest.Strings(parts), "")
	for _, tt := range []struct {
		ratio  float64 // Δ/σ
		format string  // the digits the table shows
	}{
		{0, "%.1f"}, {1, "%.4f"}, {2, "%.4f"}, {3, "%.4f"}, {4, "%.4f"}, {6, "%.5f"},
	} {
		want := fmt.Sprintf(tt.format, distuv.UnitNormal.CDF(-tt.ratio/2))
		// KaTeX keeps the TeX source in an annotation: the cell reads
		// <td>$0.1587$</td> in the source.
		if !strings.Contains(all, `<annotation encoding="application/x-tex">`+want+`</annotation>`) {
			t.Errorf("Δ/σ = %v: the table has no cell %s = Φ(−%v/2)", tt.ratio, want, tt.ratio)
		}
	}
}

// TestProseCurseSpread: the spread of distances the prose quotes is the
// spread of distances, not of squared distances (issue 16): the exact
// 2-D value and the large-D approximation 0.5916/√D, computed here, and
// the demo's measured values on its default state, read from its table.
func TestProseCurseSpread(t *testing.T) {
	all := demotest.Prose(t, Topic().Prose, "knn-bayes")
	has := func(what, s string) {
		t.Helper()
		if !strings.Contains(all, s) {
			t.Errorf("%s: the prose does not say %q", what, s)
		}
	}
	tex := func(s string) string { return `<annotation encoding="application/x-tex">` + s + `</annotation>` }
	const meanDist = 0.5214054331647207 // (2 + √2 + 5 ln(1 + √2))/15
	has("exact 2-D", tex(fmt.Sprintf(`%.0f\%%`, 100*math.Sqrt(1.0/3-meanDist*meanDist)/meanDist)))
	has("D = 100", tex(fmt.Sprintf(`%.1f\%%`, 100*3*math.Sqrt(7.0/180)/10)))
	for _, wrong := range []string{tex(`84\%`), tex(`12\%`)} {
		if strings.Contains(all, wrong) {
			t.Errorf("the prose still quotes the spread of squared distances, %s", wrong)
		}
	}
	run := runKNNDemo(t, CurseSpec(), nil)
	rows := run.Panel().Tables[0].Rows
	col := len(rows[0]) - 1
	for _, d := range []string{"2", "100", "1000"} {
		for _, r := range rows {
			if r[0] == d {
				has("measured at D = "+d, tex(strings.TrimSuffix(r[col], " %")+`\%`))
			}
		}
	}
}

// TestProseKNNNumbers checks the training errors and risks the kNN prose
// quotes against the states it links, and what the prose says of the
// curve: on the default sample no k's risk is below the Bayes error, the
// risk falls from k = 1 and rises again at k = n.
func TestProseKNNNumbers(t *testing.T) {
	t.Parallel()
	all := demotest.Prose(t, Topic().Prose, "knn-bayes")
	tex := func(s string) string { return `<annotation encoding="application/x-tex">` + s + `</annotation>` }
	num := func(r float64) string { return strings.TrimSuffix(textfmt.Pct(r, 2), " %") + `\%` }
	for _, tt := range []struct {
		query string
		train bool // the prose quotes the training error too
	}{
		{"k=1", true}, {"k=3", true}, {"", true}, {"k=15", true}, {"k=101", false}, {"k=151", false}, {"k=200", true},
		{"k=1&n=500", false}, {"k=25&n=500", true}, {"k=1&metric=manhattan", false}, {"metric=manhattan", false},
	} {
		q, err := url.ParseQuery(tt.query)
		if err != nil {
			t.Fatal(err)
		}
		kr := knnOf(t, runKNNDemo(t, KNNSpec(), q))
		if !strings.Contains(all, tex(num(kr.heldErr))) {
			t.Errorf("?%s: the prose does not quote its risk %s", tt.query, num(kr.heldErr))
		}
		if tr := demo.Fraction(kr.wrong); tt.train && !strings.Contains(all, tex(num(tr))) {
			t.Errorf("?%s: the prose does not quote its training error %s", tt.query, num(tr))
		}
	}
	kr := knnOf(t, runKNNDemo(t, KNNSpec(), nil))
	sw, err := kr.sweep()
	if err != nil {
		t.Fatal(err)
	}
	low := slices.Min(sw.held)
	for i, k := range sw.ks {
		if sw.held[i] < kr.bayesErr {
			t.Errorf("k = %d: risk %v below the Bayes error %v", k, sw.held[i], kr.bayesErr)
		}
	}
	if first, last := sw.held[0], sw.held[len(sw.held)-1]; !(first > low+0.05 && last > low+0.2) || sw.ks[len(sw.ks)-1] != len(kr.x) {
		t.Errorf("risk against k %v: want a U from k = 1 to k = n", sw.held)
	}
	k151 := knnOf(t, runKNNDemo(t, KNNSpec(), url.Values{"k": {"151"}}))
	if !strings.Contains(all, tex(fmt.Sprintf("%.2f", 100*(k151.heldErr-k151.bayesErr)))) {
		t.Errorf("k = 151: the prose does not give its excess risk %.2f", 100*(k151.heldErr-k151.bayesErr))
	}
}
