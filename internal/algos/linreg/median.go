package linreg

import "slices"

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

// selectK reorders s so that s[k] is its k-th smallest value (from 0),
// with nothing larger before it and nothing smaller after, and returns
// it. The pivot is the median of three, so sorted input stays linear;
// there is no randomness, so the result never varies.
func selectK(s []float64, k int) float64 {
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
