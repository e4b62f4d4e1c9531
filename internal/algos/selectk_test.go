package algos

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectK checks SelectK against sorting for every k on sizes up to
// 80: random values with many duplicates, sorted and reversed runs (the
// median-of-three's cases), as floats and as the unsigned keys the kNN
// risk ranks.
func TestSelectK(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 17))
	for n := 1; n <= 80; n++ {
		for _, shape := range []string{"random", "sorted", "reversed"} {
			s := make([]float64, n)
			for i := range s {
				switch shape {
				case "random":
					s[i] = float64(r.IntN(n/3 + 1))
				case "sorted":
					s[i] = float64(i)
				default:
					s[i] = float64(n - i)
				}
			}
			sorted := slices.Sorted(slices.Values(s))
			for k := range n {
				c := slices.Clone(s)
				if got := SelectK(c, k); got != sorted[k] || slices.Max(c[:k+1]) != got || slices.Min(c[k:]) != got {
					t.Fatalf("%s n = %d: SelectK(k = %d) = %v, want %v with nothing larger before it and nothing smaller after: %v", shape, n, k, got, sorted[k], c)
				}
				u := make([]uint64, n)
				for i, v := range s {
					u[i] = uint64(v)<<12 | uint64(i)
				}
				want := slices.Sorted(slices.Values(u))
				if got := SelectK(u, k); got != want[k] || !slices.Equal(slices.Sorted(slices.Values(u[:k+1])), want[:k+1]) {
					t.Fatalf("%s n = %d: SelectK on keys (k = %d) = %v, want %v first and the %d smallest before it", shape, n, k, got, want[k], k+1)
				}
			}
		}
	}
}
