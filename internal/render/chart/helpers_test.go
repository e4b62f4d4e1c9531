package chart

import (
	"flag"
	"math"
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

// checkTextAlternative is goldentest.CheckTextAlternative.
func checkTextAlternative(t *testing.T, svg string) { goldentest.CheckTextAlternative(t, svg) }
