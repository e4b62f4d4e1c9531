package algos

import (
	"cmp"
	"slices"
)

// SelectK reorders s so that s[k] is its k-th smallest value (from 0),
// with nothing larger before it and nothing smaller after, and returns
// it: s[:k+1] then holds the k+1 smallest values, in no order. It takes
// O(len(s)) on average (Hoare's selection); the pivot is the median of
// three, so sorted input stays linear, and there is no randomness, so the
// result never varies. k must be in [0, len(s)); s must hold no NaN.
func SelectK[T cmp.Ordered](s []T, k int) T {
	lo, hi := 0, len(s)-1
	for hi-lo > 16 {
		mid := lo + (hi-lo)/2
		if s[mid] < s[lo] {
			s[mid], s[lo] = s[lo], s[mid]
		}
		if s[hi] < s[lo] {
			s[hi], s[lo] = s[lo], s[hi]
		}
		if s[hi] < s[mid] {
			s[hi], s[mid] = s[mid], s[hi]
		}
		pivot := s[mid]
		i, j := lo, hi
		for i <= j {
			for s[i] < pivot {
				i++
			}
			for s[j] > pivot {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return s[k]
		}
	}
	slices.Sort(s[lo : hi+1])
	return s[k]
}
