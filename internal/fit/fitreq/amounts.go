package fitreq

import "strconv"

// Work and Limit format a work estimate and the limit it is checked
// against for a refusal's message, with the fewest significant digits
// (three at least) at which the printed numbers compare as the real ones
// do: a refusal never reads "1.2e+09 …; the limit is 1.2e+09".
func Work(work, limit float64) string { return amount(work, limit, work) }

// Limit is Work's counterpart for the limit.
func Limit(work, limit float64) string { return amount(work, limit, limit) }

func amount(work, limit, v float64) string {
	for prec := 3; ; prec++ {
		w, l := strconv.FormatFloat(work, 'g', prec, 64), strconv.FormatFloat(limit, 'g', prec, 64)
		pw, _ := strconv.ParseFloat(w, 64)
		pl, _ := strconv.ParseFloat(l, 64)
		if prec >= 17 || (pw > pl) == (work > limit) && (pw < pl) == (work < limit) {
			return strconv.FormatFloat(v, 'g', prec, 64)
		}
	}
}
