package render

import (
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/textfmt"
)

// num and coord format a weight and a data coordinate by textfmt's one
// rule (at most four decimals, exact integers exactly, a real minus sign).
func num(v float64) string { return textfmt.Num(v) }

func coord(v float64) string { return textfmt.Num(v) }

// sig formats v to d significant digits by textfmt's rule (1.23·10⁻⁵
// outside [0.001, 10⁶), exact integers exactly).
func sig(v float64, d int) string { return textfmt.SigN(v, d) }

// vector formats w or x as "(a, b, …)" with f.
func vector(v []float64, f func(float64) string) string { return textfmt.VecWith(v, f) }

// ClassName names class c: "y = +1" and "y = −1" for a two-class problem,
// "class c" otherwise.
func ClassName(c int, binary bool) string {
	if !binary {
		return "class " + strconv.Itoa(c)
	}
	if c > 0 {
		return "y = +1"
	}
	return "y = −1"
}

// PointName names the point with 0-based index i as the notes do, 1-based
// with a subscript: x₁ for index 0.
func PointName(i int) string {
	const sub = "₀₁₂₃₄₅₆₇₈₉"
	digits := []rune(sub)
	var b strings.Builder
	b.WriteString("x")
	for _, c := range strconv.Itoa(i + 1) {
		b.WriteRune(digits[c-'0'])
	}
	return b.String()
}
