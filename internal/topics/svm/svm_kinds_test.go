package svm

import (
	"bytes"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestSVMKindsMidRun checks the words for support vectors (issue 27 §3):
// a state SMO has not solved names each point by its α and, separately,
// by where the current line puts it, each recomputed here from the
// table's own y, f(xᵢ) and αᵢ; only a solved state names the three kinds.
func TestSVMKindsMidRun(t *testing.T) {
	count := regexp.MustCompile(`so far: (\d+) free \(0 < αᵢ < C\) and (\d+) at C\. The current line puts (\d+) of them on the margin \(yᵢf\(xᵢ\) = 1 to within 10⁻³\), (\d+) outside the band, (\d+) inside it and (\d+) misclassified`)
	rows := 0
	for _, q := range []string{"step=11", "step=3", "step=39", "C=0.1&step=5", "data=xor&C=100&step=3", "C=1000&step=20000", "step=end", "data=separable&step=200"} {
		r := demotest.Run(t, SVMSpec(false), q)
		p := r.Panel()
		solved := p.Status == "converged"
		tab := p.Tables[0]
		c := 1.0
		if strings.Contains(q, "C=") {
			c, _ = strconv.ParseFloat(strings.Split(strings.Split(q, "C=")[1], "&")[0], 64)
		}
		for _, row := range tab.Rows {
			y := demotest.ParseSig(t, row[1])
			f, a := demotest.ParseSig(t, row[2]), demotest.ParseSig(t, row[4])
			if solved {
				if len(row) != 6 || tab.Head[5] != "kind" {
					t.Errorf("%s (solved): row %v under %v", q, row, tab.Head)
				}
				continue
			}
			rows++
			if len(row) != 7 || tab.Head[5] != "αᵢ is" || tab.Head[6] != "by yᵢf(xᵢ)" {
				t.Fatalf("%s: mid-run row %v under %v", q, row, tab.Head)
			}
			wantA := map[bool]string{true: "at C", false: "free"}[a == c]
			if a == 0 {
				wantA = "0"
			}
			m := y * f
			wantP := "inside the band"
			switch {
			case m < 0:
				wantP = "misclassified"
			case m == 0:
				wantP = "on H"
			}
			if row[5] != wantA || row[6] != wantP {
				t.Errorf("%s: %s (y = %v, f = %v, α = %v) is %q, %q; want %q, %q", q, row[0], y, f, a, row[5], row[6], wantA, wantP)
			}
		}
		n := demotest.Note(p, "kinds")
		if n == nil {
			t.Fatalf("%s: no kinds note", q)
		}
		if solved != strings.HasPrefix(n.Text, "Support vectors: ") {
			t.Errorf("%s (status %s): kinds note %q", q, p.Status, n.Text)
		}
		if !solved {
			m := count.FindStringSubmatch(n.Text)
			if m == nil {
				t.Fatalf("%s: kinds note %q", q, n.Text)
			}
			sum := func(ks ...int) int {
				s := 0
				for _, k := range ks {
					v, _ := strconv.Atoi(m[k])
					s += v
				}
				return s
			}
			if sv, _ := strconv.Atoi(demotest.Counter(p, "support")); sum(1, 2) != sv || sum(3, 4, 5, 6) > sv || sum(3, 4, 5, 6) < sv-1 {
				t.Errorf("%s: %d support vectors, the note counts %v", q, sv, m[1:])
			}
		}
	}
	if rows == 0 {
		t.Error("no mid-run slack rows checked")
	}
	// The hard margin on OR after step 2: its support vectors have yᵢf(xᵢ) = ½,
	// inside the band, which the figure must not call on the margin.
	r := demotest.Run(t, SVMSpec(true), "data=or&step=2")
	var buf bytes.Buffer
	if _, err := r.WriteFigure(&buf, demo.PlotFigure, false); err != nil {
		t.Fatal(err)
	}
	desc := html.UnescapeString(demotest.SVGText(buf.String()))
	if strings.Contains(desc, "on the margin") {
		t.Errorf("OR after step 2 (yᵢf(xᵢ) = 0.5 at the support vectors): the figure says %q", desc)
	}
	if !strings.Contains(desc, "2 inside the margin") {
		t.Errorf("OR after step 2: the figure does not place its 2 support vectors inside the band: %q", desc)
	}
}
