package textfmt

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxExact is the magnitude from which a number always prints as m·10ᵉ:
// below it a whole number prints digit by digit; past it ten or more
// digits (48, after a diverging run) read as noise.
const MaxExact = 1e9

// minus writes s's sign as a real minus and drops the sign of a zero.
func minus(s string) string {
	if strings.HasPrefix(s, "-") {
		if strings.Trim(s[1:], "0.") == "" {
			return s[1:]
		}
		return "−" + s[1:]
	}
	return s
}

// special formats NaN and the infinities, and reports whether v was one.
func special(v float64) (string, bool) {
	switch {
	case math.IsNaN(v):
		return "NaN", true
	case math.IsInf(v, 1):
		return "∞", true
	case math.IsInf(v, -1):
		return "−∞", true
	}
	return "", false
}

// IsExact reports whether v is a whole number printed digit by digit.
func IsExact(v float64) bool {
	return v == math.Trunc(v) && math.Abs(v) < MaxExact
}

// Num formats v with at most four decimals and no trailing zeros: 0.5,
// −1.25, 40401, 0.1235. An exact integer prints exactly; from 10¹⁵ on,
// Num is Sig. A value that rounds to zero prints "0".
func Num(v float64) string {
	return Fixed(v, 4)
}

// Fixed formats v with at most d decimals (trailing zeros dropped), by
// Num's rule otherwise.
func Fixed(v float64, d int) string {
	if s, ok := special(v); ok {
		return s
	}
	if IsExact(v) {
		return minus(strconv.FormatFloat(v, 'f', 0, 64))
	}
	if math.Abs(v) >= MaxExact {
		return Sig(v)
	}
	s := strconv.FormatFloat(v, 'f', d, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return minus(s)
}

// Sig formats v to four significant digits plainly from 0.001 to a
// million (0.01235, 1.19, 40401 when exact, 12350 when not), else to three
// as 1.23·10⁻⁷. Numbers that span many orders of magnitude (αᵢ, a duality
// gap, a diverging loss) read best this way.
func Sig(v float64) string { return SigN(v, 4) }

// SigN is Sig to d ≥ 1 significant digits; the exponent form keeps d − 1
// of them (at least one) in its mantissa.
func SigN(v float64, d int) string {
	if d < 1 {
		d = 1
	}
	if s, ok := special(v); ok {
		return s
	}
	if v == 0 || IsExact(v) {
		return minus(strconv.FormatFloat(v, 'f', 0, 64))
	}
	if a := math.Abs(v); a >= 1e-3 && a < 1e6 {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', d, 64), 64)
		if a2 := math.Abs(r); a2 >= 1e-3 && a2 < 1e6 {
			return minus(strconv.FormatFloat(r, 'f', -1, 64))
		}
	}
	// The exponent form keeps one digit fewer: its ·10ⁿ already takes the
	// room of two, and a counter box on a projector has little to spare.
	m, e, _ := strings.Cut(strconv.FormatFloat(v, 'e', max(d-2, 0), 64), "e")
	if strings.Contains(m, ".") {
		m = strings.TrimRight(strings.TrimRight(m, "0"), ".")
	}
	exp, _ := strconv.Atoi(e)
	return minus(m) + "·10" + Sup(exp)
}

// Pct formats a fraction r as a percentage with d decimals: Pct(0.125, 1)
// is "12.5 %". NaN prints "—" (no rate to show).
func Pct(r float64, d int) string {
	if math.IsNaN(r) {
		return "—"
	}
	if s, ok := special(r); ok {
		return s + " %"
	}
	return minus(strconv.FormatFloat(100*r, 'f', d, 64)) + " %"
}

// Signed formats v with an explicit sign: "+1", "−1", "0".
func Signed(v float64) string {
	s := Num(v)
	if v > 0 {
		return "+" + s
	}
	return s
}

// Vec formats a vector with Num: "(1, −0.5)".
func Vec(v []float64) string { return VecWith(v, Num) }

// VecWith formats a vector with f: "(a, b, …)".
func VecWith(v []float64, f func(float64) string) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = f(x)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Sup writes n in superscript digits: −7 as ⁻⁷.
func Sup(n int) string {
	sup := []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")
	var b strings.Builder
	if n < 0 {
		b.WriteRune('⁻')
	}
	for _, c := range strconv.Itoa(n) {
		if c >= '0' && c <= '9' {
			b.WriteRune(sup[c-'0'])
		}
	}
	return b.String()
}

// MaxQuote is how many characters of a user's value a message repeats.
const MaxQuote = 60

// Clip cuts s to MaxQuote characters, ending a cut one with "…": enough
// of a value to recognise it in a message, never a 30 KiB query sent back
// whole.
func Clip(s string) string {
	if utf8.RuneCountInString(s) <= MaxQuote {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxQuote-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// Quote is s in Go quotes, cut to MaxQuote characters (the "…" after the
// closing quote): how a message names a value the user sent.
func Quote(s string) string {
	if r := []rune(s); len(r) > MaxQuote {
		return strconv.Quote(string(r[:MaxQuote])) + "…"
	}
	return strconv.Quote(s)
}

// Paren wraps a formatted negative number in brackets, for use as a factor
// inside a product: "(−2)".
func Paren(s string) string {
	if strings.HasPrefix(s, "−") {
		return "(" + s + ")"
	}
	return s
}

// Plural writes a count with its noun: "1 mistake", "3 mistakes", given the
// plural form, which for n = 1 loses its last letter; a noun whose
// singular is not its plural less an "s" ("class", "vertex") takes Count.
func Plural(n int, many string) string {
	if len(many) > 1 {
		return Count(n, many[:len(many)-1], many)
	}
	return Count(n, many, many)
}

// Count writes n with the noun in its number: Count(1, "point", "points")
// is "1 point", Count(0, "point", "points") "0 points", Count(−1, …)
// "−1 points", Count(3, "class", "classes") "3 classes". Only 1 is
// singular, as in English.
func Count(n int, one, many string) string {
	noun := many
	if n == 1 {
		noun = one
	}
	return minus(strconv.Itoa(n)) + " " + noun
}
