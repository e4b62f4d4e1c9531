package lessons

import (
	"strings"

	"github.com/margin-edu/margin/internal/textfmt"
)

// The lessons print numbers by textfmt's one rule; these short names keep
// the panels readable.

// num formats v for people: at most four decimals, exact integers exactly.
func num(v float64) string { return textfmt.Num(v) }

// sig formats v to four significant digits, as 1.23·10⁻⁷ outside
// [0.001, 10⁶); exact integers exactly.
func sig(v float64) string { return textfmt.Sig(v) }

// signed formats a label or factor with an explicit sign: "+1", "−1".
func signed(v float64) string { return textfmt.Signed(v) }

// vec formats a vector as "(1, −0.5)".
func vec(v []float64) string { return textfmt.Vec(v) }

// superscript writes n in superscript digits: −7 as ⁻⁷.
func superscript(n int) string { return textfmt.Sup(n) }

// pct formats a rate as a percentage with two decimals: "15.87 %".
func pct(r float64) string { return textfmt.Pct(r, 2) }

// rate formats an error rate as a percentage with one decimal: "12.5 %".
func rate(r float64) string { return textfmt.Pct(r, 1) }

// paren wraps negative numbers in brackets for use inside a product.
func paren(s string) string {
	if strings.HasPrefix(s, "−") {
		return "(" + s + ")"
	}
	return s
}
