package regression

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo/demotest"
)

// lassoExact2 solves the two-feature lasso by a second route: it
// enumerates the supports and signs of w and keeps the one whose
// optimality conditions hold, on the centred Gram matrix C = X̃ᵀX̃/n and
// c = X̃ᵀỹ/n. g is c − Cw, the pull x̃ⱼ·r/n of each feature at w; tie is
// set when a zero weight's |gⱼ| or an active weight is within rounding
// of the boundary that decides its support.
func lassoExact2(x [][]float64, y []float64, alpha float64) (w, g [2]float64, tie bool) {
	n := float64(len(y))
	var xb [2]float64
	var yb float64
	for i, row := range x {
		xb[0], xb[1], yb = xb[0]+row[0]/n, xb[1]+row[1]/n, yb+y[i]/n
	}
	var C [2][2]float64
	var c [2]float64
	for i, row := range x {
		u := [2]float64{row[0] - xb[0], row[1] - xb[1]}
		for j := range 2 {
			c[j] += u[j] * (y[i] - yb) / n
			for k := range 2 {
				C[j][k] += u[j] * u[k] / n
			}
		}
	}
	pull := func(w [2]float64) [2]float64 {
		return [2]float64{c[0] - C[0][0]*w[0] - C[0][1]*w[1], c[1] - C[1][0]*w[0] - C[1][1]*w[1]}
	}
	const tol = 1e-9
	var cands [][2]float64
	cands = append(cands, [2]float64{})
	for j := range 2 {
		for _, s := range []float64{-1, 1} {
			var v [2]float64
			v[j] = (c[j] - s*alpha) / C[j][j]
			if v[j]*s > 0 {
				cands = append(cands, v)
			}
		}
	}
	for _, s0 := range []float64{-1, 1} {
		for _, s1 := range []float64{-1, 1} {
			r0, r1 := c[0]-s0*alpha, c[1]-s1*alpha
			det := C[0][0]*C[1][1] - C[0][1]*C[1][0]
			v := [2]float64{(C[1][1]*r0 - C[0][1]*r1) / det, (C[0][0]*r1 - C[1][0]*r0) / det}
			if v[0]*s0 > 0 && v[1]*s1 > 0 {
				cands = append(cands, v)
			}
		}
	}
	for _, v := range cands {
		p, ok := pull(v), true
		for j := range 2 {
			if v[j] == 0 {
				ok = ok && math.Abs(p[j]) <= alpha*(1+tol)
				tie = tie || math.Abs(math.Abs(p[j])-alpha) <= tol*alpha
			} else {
				tie = tie || math.Abs(v[j]) <= tol
			}
		}
		if ok {
			return v, p, tie
		}
	}
	panic("lassoExact2: no support satisfies the optimality conditions")
}

// TestLassoNotesTrue: over seeds 1–20 and a grid of α (the band 1–1.5
// where the first step on w₁ can leave 0 while w₁* = 0) and ρ, each
// note on the solution is true of the run (issue 27 §2): a zero note
// stands where the exact solution has wⱼ* = 0, quotes its pull, and
// claims nothing about every step; an active note where wⱼ* ≠ 0. In
// predict mode, while the run goes on, the notes on the solution are
// left out: beside "will w₁ be exactly 0?" they read as the answer.
func TestLassoNotesTrue(t *testing.T) {
	zeroWhileMoved := 0
	for seed := 1; seed <= 20; seed++ {
		for _, corr := range []float64{0.6, 0.9} {
			for _, alpha := range []float64{0.1, 1, 1.1, 1.25, 1.5} {
				q := fmt.Sprintf("alpha=%v&corr=%v&seed=%d", alpha, corr, seed)
				x, y := lassoData(40, corr, 0.5, uint64(seed))
				w, g, tie := lassoExact2(x, y, alpha)
				r := demotest.Run(t, LassoSpec(), q+"&step=1")
				p := r.Panel()
				for j := range 2 {
					zero, active := demotest.Note(p, fmt.Sprintf("zero%d", j+1)), demotest.Note(p, fmt.Sprintf("active%d", j+1))
					if tie {
						continue
					}
					switch {
					case w[j] == 0 && (zero == nil || active != nil):
						t.Errorf("%s: w%s* = 0 exactly (pull %v ≤ α), notes %v", q, sub(j), g[j], p.Notes)
					case w[j] != 0 && (active == nil || zero != nil):
						t.Errorf("%s: w%s* = %v ≠ 0, notes %v", q, sub(j), w[j], p.Notes)
					case zero != nil && !strings.Contains(zero.Text, "|x̃"+sub(j)+"·r|/n = "+textfmt4(math.Abs(g[j]), alpha)):
						t.Errorf("%s: the zero note %q does not quote the pull %v", q, zero.Text, g[j])
					case active != nil && !strings.Contains(active.Text, "w"+sub(j)+" = "+coef(w[j])):
						t.Errorf("%s: the active note %q does not quote w%s* = %v", q, active.Text, sub(j), w[j])
					}
					if zero != nil && strings.Contains(zero.Text, "every step") {
						t.Errorf("%s: the zero note claims every step: %q", q, zero.Text)
					}
				}
				if w[0] == 0 && demotest.Counter(p, "step") == "1" && factValue(p, "w1") != "0" {
					zeroWhileMoved++
				}
				pr := demotest.Run(t, LassoSpec(), q+"&predict=1&step=0")
				for _, n := range pr.Panel().Notes {
					if strings.HasPrefix(n.TestID, "zero") || strings.HasPrefix(n.TestID, "active") {
						t.Errorf("%s predicting: a note on the solution beside the question: %q", q, n.Text)
					}
				}
			}
		}
	}
	if zeroWhileMoved == 0 {
		t.Errorf("no state of the grid has w₁* = 0 after a step 1 that moves w₁; the grid misses the case the issue found")
	}
}

// textfmt4 is how the zero note prints |gⱼ| against α.
func textfmt4(g, alpha float64) string { s, _ := apart(g, alpha); return s }
