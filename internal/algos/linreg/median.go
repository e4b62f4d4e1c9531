package linreg

import (
	"slices"

	"github.com/margin-edu/margin/internal/algos"
)

// middle returns the median of s, the midpoint of the two middle values
// for an even count, reordering s (Hoare's selection, O(len(s))).
func middle(s []float64) float64 {
	k := len(s) / 2
	hi := selectK(s, k)
	if len(s)%2 == 1 {
		return hi
	}
	return (slices.Max(s[:k]) + hi) / 2
}

// selectK is algos.SelectK on floats: s[k] becomes s's k-th smallest
// value (from 0), nothing larger before it and nothing smaller after.
func selectK(s []float64, k int) float64 { return algos.SelectK(s, k) }
