package knn

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// exactDist is the distance of x and q in big.Float arithmetic, with
// precision enough that every difference, square and sum of float64s is
// exact.
func exactDist(m Metric, x, q []float64) *big.Float {
	const prec = 4400 // a float64 difference needs ≤ 2100 bits, its square twice that
	s := new(big.Float).SetPrec(prec)
	for j := range x {
		t := new(big.Float).SetPrec(prec).Sub(big.NewFloat(x[j]).SetPrec(prec), big.NewFloat(q[j]).SetPrec(prec))
		if m == Manhattan {
			s.Add(s, t.Abs(t))
		} else {
			s.Add(s, t.Mul(t, t))
		}
	}
	return s
}

// hostile is a coordinate of any scale float64 has, subnormal to 1e308,
// or one of a few shared values, so that differences cancel.
func hostile(r *rand.Rand, shared []float64) float64 {
	switch r.IntN(4) {
	case 0:
		return shared[r.IntN(len(shared))]
	case 1:
		return 0
	}
	v := math.Ldexp(1+r.Float64(), r.IntN(2090)-1070)
	if math.IsInf(v, 0) {
		v = math.MaxFloat64
	}
	if r.IntN(2) == 0 {
		v = -v
	}
	return v
}

// TestWideAgainstExact: on random data of every scale float64 holds
// (subnormal to 1.8e308, mixed in one point), the neighbours are the
// exact distance's, computed with big.Float, wherever the exact
// distances are not so close that rounding decides (relative gap under
// 1e-12): each neighbour list is in exact order, and holds the exact k
// nearest. float64's squared distances tie at +Inf or 0 on most of these
// queries.
func TestWideAgainstExact(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 4))
	gap := big.NewFloat(1e-12)
	close := func(a, b *big.Float) bool { // |a − b| ≤ 1e-12·max(a, b)
		d := new(big.Float).Sub(a, b)
		top := a
		if b.Cmp(a) > 0 {
			top = b
		}
		return d.Abs(d).Cmp(new(big.Float).Mul(gap, top)) <= 0
	}
	checked := 0
	for trial := range 120 {
		n, d, k := 3+r.IntN(20), 1+r.IntN(3), 1+r.IntN(3)
		k = min(k, n)
		m := Metric(trial % 2)
		shared := []float64{math.Ldexp(1, r.IntN(2000)-1000), -math.MaxFloat64, 3e-170, 5e-324}
		x := make([][]float64, n)
		y := make([]int, n)
		for i := range x {
			x[i] = make([]float64, d)
			for j := range x[i] {
				x[i][j] = hostile(r, shared)
			}
			y[i] = r.IntN(3)
		}
		for path := range numPaths {
			c, err := New(x, y, k, m)
			if err != nil {
				t.Fatal(err)
			}
			forcePath(c, path)
			for range 5 {
				q := make([]float64, d)
				for j := range q {
					q[j] = hostile(r, shared)
				}
				got, err := c.Neighbours(q)
				if err != nil {
					t.Fatal(err)
				}
				exact := make([]*big.Float, n)
				order := make([]int, n)
				for i := range x {
					exact[i], order[i] = exactDist(m, x[i], q), i
				}
				slices.SortStableFunc(order, func(a, b int) int { return exact[a].Cmp(exact[b]) })
				for i := 1; i < len(got); i++ {
					if a, b := exact[got[i-1]], exact[got[i]]; a.Cmp(b) > 0 && !close(a, b) {
						t.Fatalf("%v, x %v, q %v: Neighbours = %v, but %d is nearer than %d (exact %s > %s)", m, x, q, got, got[i], got[i-1], a.Text('g', 6), b.Text('g', 6))
					}
				}
				if k < n && close(exact[order[k-1]], exact[order[k]]) {
					continue // the k-th place is decided by rounding
				}
				want := slices.Sorted(slices.Values(order[:k]))
				if g := slices.Sorted(slices.Values(got)); !slices.Equal(g, want) {
					t.Fatalf("%v path %d, x %v, q %v: Neighbours = %v, want the exact %v", m, path, x, q, got, order[:k])
				}
				checked++
			}
		}
	}
	if checked < 700 {
		t.Errorf("only %d of 3000 queries were decided by more than rounding; the test checks too little", checked)
	}
}

// TestOrdinaryKeepsFloat: data of ordinary scale never takes the wide
// path, so every answer of the demos is the float64 ranking's, and one
// coordinate outside [2⁻⁴⁵⁰, 2⁴⁵⁰] takes it.
func TestOrdinaryKeepsFloat(t *testing.T) {
	tests := []struct {
		v    []float64
		want bool
	}{
		{[]float64{0, 1, -3.5, 1e100, -1e-100, 0x1p450, 0x1p-450}, true},
		{[]float64{0x1p451}, false},
		{[]float64{1, 0x1p-451}, false},
		{[]float64{5e-324}, false},
		{[]float64{-math.MaxFloat64}, false},
	}
	for _, tt := range tests {
		if got := Ordinary(tt.v); got != tt.want {
			t.Errorf("Ordinary(%v) = %v, want %v", tt.v, got, tt.want)
		}
	}
	c, err := New([][]float64{{1, 2}, {-3, 4}}, []int{0, 1}, 1, Euclidean)
	if err != nil || c.wide {
		t.Errorf("New on ordinary data: wide = %v (%v), want false", c.wide, err)
	}
	if c, err = New([][]float64{{1, 2}, {-3, 1e200}}, []int{0, 1}, 1, Euclidean); err != nil || !c.wide {
		t.Errorf("New with a coordinate of 1e200: wide = %v (%v), want true", c.wide, err)
	}
}
