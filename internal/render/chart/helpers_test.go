package chart

import (
	"flag"
	"math"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/goldentest"
)

var look = flag.String("look", "", "also write the charts as SVG and PNG to this directory, to look at")

// checkGolden compares got with testdata/<name>_golden.svg (goldentest).
func checkGolden(t *testing.T, name string, got []byte) { goldentest.Check(t, name, got) }

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func sign(v float64) int {
	if v > 0 {
		return 1
	}
	return -1
}

// checkTextAlternative wants exactly one <title> and one <desc>, first
// inside the root <svg> element, where assistive technology looks.
func checkTextAlternative(t *testing.T, svg string) {
	t.Helper()
	i := strings.Index(svg, "<svg")
	j := strings.Index(svg[i:], ">") + i + 1
	rest := strings.TrimLeft(svg[j:], "\n")
	if !strings.HasPrefix(rest, "<title>") {
		t.Fatalf("no <title> right after <svg ...>; it is followed by %.40q", rest)
	}
	if !strings.Contains(rest, "</title>\n<desc>") || !strings.Contains(rest, "</desc>") {
		t.Errorf("no <desc> right after </title>")
	}
	if strings.Count(svg, "<title>") != 1 || strings.Count(svg, "<desc>") != 1 {
		t.Errorf("want exactly one <title> and one <desc>")
	}
	if strings.Contains(svg, "<title></title>") || strings.Contains(svg, "<desc></desc>") {
		t.Errorf("empty <title> or <desc>")
	}
}
