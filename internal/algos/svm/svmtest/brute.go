// Package svmtest holds the brute-force reference solver that the tests of
// package svm (SMO) and package primal (the exact optima behind Pegasos and
// kernel Pegasos) check their answers against. It shares no code with
// either solver, so an agreement means something.
package svmtest

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// BruteQP minimises D(α) = ½αᵀQα − Σα over 0 ≤ α ≤ c (c may be +Inf)
// with Σαᵢyᵢ = 0 when intercept is set, by trying every active set: each
// αᵢ is 0, c, or free, and the free ones solve the KKT system
//
//	Q_FF α_F + ν y_F = 1 − Q_FU α_U,   y_Fᵀ α_F = −y_Uᵀ α_U
//
// (without the ν column and the last row when there is no intercept). The
// feasible candidate with the lowest D is the minimum: every feasible α
// has D ≥ D*, and some optimal α is a vertex of the optimal face, whose
// system is non-singular. 3ⁿ systems, so n ≤ 8 or so. It is written from the
// definition with gonum/mat, sharing nothing with the solver.
func BruteQP(q [][]float64, y []float64, c float64, intercept bool) (alpha []float64, dual float64) {
	n := len(y)
	best := math.Inf(1)
	states := 3
	if math.IsInf(c, 1) {
		states = 2 // no upper bound
	}
	status := make([]int, n) // 0: at 0, 1: free, 2: at c
	a := make([]float64, n)
	var try func(k int)
	try = func(k int) {
		if k < n {
			for st := range states {
				status[k] = st
				try(k + 1)
			}
			return
		}
		var free []int
		for i, st := range status {
			a[i] = 0
			switch st {
			case 1:
				free = append(free, i)
			case 2:
				a[i] = c
			}
		}
		m := len(free)
		rows := m
		if intercept {
			rows++
		}
		if rows > 0 {
			lhs := mat.NewDense(rows, rows, nil)
			rhs := mat.NewVecDense(rows, nil)
			for r, i := range free {
				v := 1.0
				for j := range n {
					if status[j] == 2 {
						v -= q[i][j] * c
					}
				}
				rhs.SetVec(r, v)
				for s, j := range free {
					lhs.Set(r, s, q[i][j])
				}
				if intercept {
					lhs.Set(r, m, y[i])
					lhs.Set(m, r, y[i])
				}
			}
			if intercept {
				v := 0.0
				for j := range n {
					if status[j] == 2 {
						v -= y[j] * c
					}
				}
				rhs.SetVec(m, v)
			}
			var sol mat.VecDense
			if err := sol.SolveVec(lhs, rhs); err != nil {
				if _, ill := err.(mat.Condition); !ill {
					return
				}
			}
			for r, i := range free {
				a[i] = sol.AtVec(r)
			}
		}
		var sy float64
		for i, v := range a {
			if v < -1e-10 || v > c+1e-10 {
				return
			}
			sy += v * y[i]
		}
		if intercept && math.Abs(sy) > 1e-9 {
			return
		}
		var d float64
		for i := range n {
			for j := range n {
				d += a[i] * a[j] * q[i][j] / 2
			}
			d -= a[i]
		}
		if d < best {
			best = d
			alpha = append(alpha[:0], a...)
		}
	}
	try(0)
	return alpha, best
}

// Q returns Qᵢⱼ = yᵢyⱼk(xᵢ, xⱼ) for a kernel function k (a Kernel's Eval).
func Q(k func(x, z []float64) float64, x [][]float64, y []float64) [][]float64 {
	q := make([][]float64, len(x))
	for i := range x {
		q[i] = make([]float64, len(x))
		for j := range x {
			q[i][j] = y[i] * y[j] * k(x[i], x[j])
		}
	}
	return q
}
