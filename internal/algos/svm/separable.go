package svm

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/margin-edu/margin/internal/algos/feasible"
)

// The hard-margin SVM has a solution iff the data are separable:
// some (w, b) has yᵢ(⟨w, φ(xᵢ)⟩ + b) ≥ 1 for every i. By Farkas' lemma
// exactly one of these holds:
//
//	(a) the data are separable;
//	(b) some λ ≥ 0 has Σλᵢ = 1, Σλᵢyᵢ = 0 and Σλᵢyᵢφ(xᵢ) = 0,
//	    i.e. the convex hulls of the two classes meet.
//
// (b) is the feasibility problem of a linear program in standard form,
// A λ = e₁, λ ≥ 0, with rows 1ᵀ, yᵀ and one row (yᵢφₖ(xᵢ))ᵢ per feature,
// which gonum's Simplex decides when the features are few. Unlike a cap
// on α it has no scale: a margin of 1e-4 is as separable as a margin of
// 1, and a point 1e-4 across is as much a proof of (b) as any other.

// The rows are made orthonormal and the program solved by package
// feasible, which the logistic lesson's separability test shares.

// MaxPolyFeatures bounds the dimension C(d+p, p) of the polynomial
// kernel's feature space for a hard margin: the linear program has one row
// per feature. Every degree in two dimensions (66 at most) fits.
const MaxPolyFeatures = 120

// hardFeasibility decides separability in the kernel's feature space and
// returns a certificate λ of (b), or nil when the data are separable.
//
//   - Linear: the linear program on φ(x) = x, with d + 2 rows.
//   - RBF and Laplace are strictly positive definite: the Gram matrix of
//     distinct points is non-singular, so λᵀQλ = ‖Σλᵢyᵢφ(xᵢ)‖² > 0 for
//     every λ ≠ 0 and (b) fails. The data are inseparable exactly when
//     one point appears with both labels; λ puts ½ on such a pair.
//     (Distinct but nearly equal points with opposite labels are
//     separable with a tiny margin, which SMO may not reach in its
//     budget: the run then ends at IterationLimit, not at a false answer.)
//   - Poly: the linear program on the explicit feature map, see polyPhi.
func (p *Problem) hardFeasibility() ([]float64, error) {
	switch p.P.Kernel.Kind {
	case RBF, Laplace:
		return p.duplicate(), nil
	case Poly:
		phi, err := polyPhi(p.X, p.P.Kernel)
		if err != nil {
			return nil, err
		}
		return farkas(phi, p.Y)
	}
	return farkas(p.X, p.Y)
}

// duplicate returns λ = ½ on the first pair of equal points with opposite
// labels, in the lexicographic order of the points, or nil if none.
func (p *Problem) duplicate() []float64 {
	order := slices.Clone(p.all)
	slices.SortStableFunc(order, func(a, b int) int { return slices.Compare(p.X[a], p.X[b]) })
	start := 0 // first index of the run of equal points
	for r := 1; r < len(order); r++ {
		i := order[r]
		if !slices.Equal(p.X[i], p.X[order[start]]) {
			start = r
			continue
		}
		for _, j := range order[start:r] {
			if p.Y[j] != p.Y[i] {
				l := make([]float64, len(p.X))
				l[i], l[j] = 0.5, 0.5
				return l
			}
		}
	}
	return nil
}

// polyPhi returns the explicit feature map of k = (c + γ⟨x, z⟩)^p: by the
// multinomial theorem, with a₀ + a₁ + … + a_d = p,
//
//	k(x, z) = Σₐ p!/(a₀!a₁!…a_d!) · c^a₀ γ^(p−a₀) · Πⱼ (xⱼzⱼ)^aⱼ,
//
// so φₐ(x) = √(p!/(a₀!…a_d!) · c^a₀ γ^(p−a₀)) · Πⱼ xⱼ^aⱼ, one feature per
// monomial of degree ≤ p (exactly p when c = 0): exact, where a factored
// Gram matrix would cost O(n³) and drop part of the spectrum.
func polyPhi(x [][]float64, k Kernel) ([][]float64, error) {
	d, deg := len(x[0]), k.Degree
	var exps [][]int // a₁…a_d of each monomial
	var weights []float64
	a := make([]int, d)
	var gen func(j, left int)
	gen = func(j, left int) {
		if j == d {
			a0 := left
			if k.Coef0 == 0 && a0 > 0 {
				return
			}
			m := fact(deg) / fact(a0)
			for _, e := range a {
				m /= fact(e)
			}
			exps = append(exps, slices.Clone(a))
			weights = append(weights, math.Sqrt(m*powi(k.Coef0, a0)*powi(k.Gamma, deg-a0)))
			return
		}
		for e := 0; e <= left; e++ {
			a[j] = e
			gen(j+1, left-e)
		}
		a[j] = 0
	}
	if dim := binom(d+deg, deg); dim > MaxPolyFeatures {
		return nil, fmt.Errorf("%w: a hard margin with a degree-%d kernel in %d dimensions has %.0f features; the limit is %d", ErrTooLarge, deg, d, dim, MaxPolyFeatures)
	}
	gen(0, deg)
	phi := make([][]float64, len(x))
	for i, row := range x {
		phi[i] = make([]float64, len(exps))
		for f, e := range exps {
			v := weights[f]
			for j, pw := range e {
				v *= powi(row[j], pw)
			}
			phi[i][f] = v
		}
	}
	return phi, nil
}

// fact returns n! as a float64 (exact for n ≤ 18).
func fact(n int) float64 {
	f := 1.0
	for i := 2; i <= n; i++ {
		f *= float64(i)
	}
	return f
}

// binom returns C(n, k) as a float64, which does not overflow an int.
func binom(n, k int) float64 {
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return c
}

// farkas decides (b) for the points phi with labels y and returns a
// verified λ, or nil when (b) has no solution (the data are separable).
//
// A row of A that depends on the earlier ones and disagrees with them
// proves (b) impossible (a feature equal to a·y + c, say, separates the
// classes by itself); feasible.System says which.
func farkas(phi [][]float64, y []float64) ([]float64, error) {
	n, d := len(phi), len(phi[0])
	var sys feasible.System
	add := sys.Add
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	add(ones, 1)
	if !add(append([]float64(nil), y...), 0) {
		return nil, nil
	}
	for k := range d {
		a := make([]float64, n)
		for i, row := range phi {
			a[i] = y[i] * row[k]
		}
		if !add(a, 0) {
			return nil, nil
		}
	}
	lambda, err := sys.NonNegative()
	switch {
	case errors.Is(err, feasible.ErrInfeasible):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%w: the linear program failed: %v", ErrUndecided, err)
	}
	return verify(lambda, phi, y)
}

// verify checks a λ from the linear program against the original rows:
// it clears the round-off below zero, renormalises Σλ = 1, and accepts λ
// when Σλᵢyᵢ and Σλᵢyᵢφ(xᵢ) vanish relative to the size of the points.
func verify(lambda []float64, phi [][]float64, y []float64) ([]float64, error) {
	var sum float64
	for i, l := range lambda {
		if l < 0 {
			lambda[i] = 0
		}
		sum += lambda[i]
	}
	if !(sum > 0) {
		return nil, fmt.Errorf("%w: the linear program returned λ = 0", ErrUndecided)
	}
	floats.Scale(1/sum, lambda)
	d := len(phi[0])
	v := make([]float64, d)
	var sy, scale float64
	for i, l := range lambda {
		sy += l * y[i]
		floats.AddScaled(v, l*y[i], phi[i])
		scale = math.Max(scale, floats.Norm(phi[i], 2))
	}
	if r := floats.Norm(v, 2); r > 1e-8*math.Max(scale, 1) || math.Abs(sy) > 1e-8 {
		return nil, fmt.Errorf("%w: the linear program's hull point is off by %.3g (Σλy = %.3g)", ErrUndecided, r, sy)
	}
	return lambda, nil
}
