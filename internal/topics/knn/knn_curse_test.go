package knn

import (
	"net/url"
	"strconv"
	"testing"

	"github.com/margin-edu/margin/internal/algos/knn"
	"github.com/margin-edu/margin/internal/textfmt"
)

// TestCurseTable: the panel's table is CurseOfDimensionality's rows, and
// the ratio grows from near 0 in 1-D towards 1 in 1000-D.
func TestCurseTable(t *testing.T) {
	r := runKNNDemo(t, CurseSpec(), url.Values{"n": {"200"}, "seed": {"3"}})
	rows, err := knn.CurseOfDimensionality(CurseDims, 200, 3)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, d := range CurseDims {
		sum += d
	}
	if sum != curseDimsSum {
		t.Errorf("Σ CurseDims = %d, but curseDimsSum is %d", sum, curseDimsSum)
	}
	if MaxCurseN > knn.MaxCurseN || MaxCurseN*sum > knn.MaxCurseValues {
		t.Errorf("MaxCurseN = %d exceeds knn's limits for dimensions %v", MaxCurseN, CurseDims)
	}
	tab := r.Panel().Tables[0]
	if len(tab.Rows) != len(CurseDims) {
		t.Fatalf("%d rows, want %d", len(tab.Rows), len(CurseDims))
	}
	for i, row := range tab.Rows {
		if row[0] != strconv.Itoa(rows[i].D) || row[3] != textfmt.Sig(rows[i].Ratio) {
			t.Errorf("row %d = %v, want D = %d, ratio %s", i, row, rows[i].D, textfmt.Sig(rows[i].Ratio))
		}
	}
	if first, last := rows[0].Ratio, rows[len(rows)-1].Ratio; !(first < 0.05 && last > 0.7) {
		t.Errorf("ratio %g in 1-D and %g in 1000-D; want near 0 and near 1", first, last)
	}
}
