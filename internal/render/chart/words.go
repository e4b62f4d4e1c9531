package chart

import (
	"strconv"

	"github.com/margin-edu/margin/internal/textfmt"
)

// The charts' words, by textfmt's one rule as render's are (render/words.go).

func sig(v float64, d int) string { return textfmt.SigN(v, d) }

func coord(v float64) string { return textfmt.Num(v) }

// vector formats v as "(a, b, …)" with f.
func vector(v []float64, f func(float64) string) string { return textfmt.VecWith(v, f) }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// vec is a point of a curve.
type vec struct{ X, Y float64 }
