package lessons

import (
	"strconv"
	"strings"
)

// num formats v for people: at most four decimals, no trailing zeros, a
// real minus sign, and no "-0".
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 4, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return strings.Replace(s, "-", "−", 1)
}

// signed formats a label or factor with an explicit sign: "+1", "−1".
func signed(v float64) string {
	if v > 0 {
		return "+" + num(v)
	}
	return num(v)
}

// vec formats a vector as "(1, −0.5)".
func vec(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = num(x)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// paren wraps negative numbers in brackets for use inside a product.
func paren(s string) string {
	if strings.HasPrefix(s, "−") {
		return "(" + s + ")"
	}
	return s
}
