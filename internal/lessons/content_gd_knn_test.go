package lessons

import (
	"fmt"
	"strings"
	"testing"

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
	parts, err := Prose("knn-bayes")
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(toStrings(parts), "")
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
