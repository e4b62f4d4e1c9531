package regression

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// naiveLasso is cyclic coordinate descent on the lasso written out apart
// from linreg: the data centred by their own means, the residual
// recomputed from w at every step.
type naiveLasso struct {
	xc    [][2]float64
	yc    []float64
	xbar  [2]float64
	ybar  float64
	alpha float64
}

func newNaiveLasso(x [][]float64, y []float64, alpha float64) naiveLasso {
	n := float64(len(y))
	l := naiveLasso{alpha: alpha}
	for i, row := range x {
		l.xbar[0], l.xbar[1], l.ybar = l.xbar[0]+row[0]/n, l.xbar[1]+row[1]/n, l.ybar+y[i]/n
	}
	for i, row := range x {
		l.xc = append(l.xc, [2]float64{row[0] - l.xbar[0], row[1] - l.xbar[1]})
		l.yc = append(l.yc, y[i]-l.ybar)
	}
	return l
}

// step returns ρⱼ, zⱼ and the new wⱼ of a step on j from w.
func (l naiveLasso) step(w [2]float64, j int) (rho, z, nw float64) {
	n := float64(len(l.yc))
	for i, x := range l.xc {
		r := l.yc[i] - x[0]*w[0] - x[1]*w[1] + x[j]*w[j]
		rho += x[j] * r / n
		z += x[j] * x[j] / n
	}
	switch {
	case rho > l.alpha:
		nw = (rho - l.alpha) / z
	case rho < -l.alpha:
		nw = (rho + l.alpha) / z
	}
	return rho, z, nw
}

func (l naiveLasso) run(k int) [2]float64 {
	var w [2]float64
	for t := range k {
		_, _, w[t%2] = l.step(w, t%2)
	}
	return w
}

// objective is J(w, b) with b = ȳ − x̄·w, and b.
func (l naiveLasso) objective(w [2]float64) (j, b float64) {
	n := float64(len(l.yc))
	for i, x := range l.xc {
		r := l.yc[i] - x[0]*w[0] - x[1]*w[1]
		j += r * r / (2 * n)
	}
	return j + l.alpha*(math.Abs(w[0])+math.Abs(w[1])), l.ybar - l.xbar[0]*w[0] - l.xbar[1]*w[1]
}

// solve2c is c = X̃ᵀỹ/n, whose largest |cⱼ| is α_max.
func (l naiveLasso) solve2c() [2]float64 {
	n := float64(len(l.yc))
	var c [2]float64
	for i, x := range l.xc {
		c[0], c[1] = c[0]+x[0]*l.yc[i]/n, c[1]+x[1]*l.yc[i]/n
	}
	return c
}

// solve2 solves (C + μI)w = c, least squares at μ = 0 and the paths'
// ridge at μ = α, on the centred data.
func (l naiveLasso) solve2(mu float64) [2]float64 {
	n := float64(len(l.yc))
	var c11, c12, c22, c1, c2 float64
	for i, x := range l.xc {
		c11, c12, c22 = c11+x[0]*x[0]/n, c12+x[0]*x[1]/n, c22+x[1]*x[1]/n
		c1, c2 = c1+x[0]*l.yc[i]/n, c2+x[1]*l.yc[i]/n
	}
	c11, c22 = c11+mu, c22+mu
	det := c11*c22 - c12*c12
	return [2]float64{(c22*c1 - c12*c2) / det, (c11*c2 - c12*c1) / det}
}

var lassoNumberRes = map[string]*regexp.Regexp{
	"rho":    regexp.MustCompile(`^ρ(.) = \(1/n\) Σᵢ .* = (\S+), with r = .* before the step\.$`),
	"z":      regexp.MustCompile(`^z. = \(1/n\) Σᵢ x̃ᵢ.² = ([^\s]+)\.$`),
	"zero":   regexp.MustCompile(`^\|ρ.\| = (\S+) ≤ α = (\S+), so S\(ρ., α\) = 0: w. = 0 exactly\.$`),
	"shrink": regexp.MustCompile(`^ρ. = (\S+) ([<>]) −?α = −?(\S+), so S\(ρ., α\) = ρ. [−+] α = (\S+), and w. = S\(ρ., α\)/z. = \S+/\S+ = ([^\s]+)\.$`),
	"ridge":  regexp.MustCompile(`gives w = \((\S+), ([^)]+)\): (neither weight is 0|a weight is 0 only because the data make it so)`),
	"amax":   regexp.MustCompile(`α_max = max over j of \|x̃ⱼ·ỹ\|/n = ([^:]+):`),
	"head":   regexp.MustCompile(`^Step (\d+) updates w(.) alone \(now (\S+)\), with α = (\S+) and w = \((\S+), ([^)]+)\)\.`),
	"why":    regexp.MustCompile(`^ρ(.) = (\S+) and z. = (\S+): \|ρ.\| ([≤>]) α, so `),
}

// TestLassoNumbersSecondRoute: over a grid of states (steps 0, 1, 2,
// mid and end; α below, inside and above the band where weights are
// cut, α ≥ α_max; correlated features; few points; a run stopped by its
// budget), every number and classifying word the panel, model box, notes
// and question quote is recomputed by naive coordinate descent, the
// exact two-feature solve and 2×2 normal equations (issue 27 §5).
func TestLassoNumbersSecondRoute(t *testing.T) {
	seen := map[string]bool{}
	for _, base := range []string{"", "alpha=0.1&corr=0.9", "alpha=1.5&corr=0.9&seed=13", "alpha=2", "alpha=0.02&n=20&noise=1",
		"alpha=0.5&seed=3", "alpha=1.25&corr=-0.6&seed=15", "alpha=0.001&corr=-0.95&n=5&seed=175"} {
		end := demotest.Run(t, LassoSpec(), base+"&step=end")
		last := end.State.Step
		for _, k := range []int{0, 1, 2, last / 2, last} {
			q := strings.TrimPrefix(base+"&step="+strconv.Itoa(k), "&")
			r := demotest.Run(t, LassoSpec(), q)
			p := r.Panel()
			st := r.State
			x, y := lassoData(lassoN.Get(st), lassoCorr.Get(st), lassoNoise.Get(st), uint64(lassoSeed.Get(st)))
			alpha := lassoAlpha.Get(st)
			nl := newNaiveLasso(x, y, alpha)
			w := nl.run(k)
			j, b := nl.objective(w)
			ws, _, _ := lassoExact2(x, y, alpha)
			jStar, bStar := nl.objective(ws)
			ls, ridge := nl.solve2(0), nl.solve2(alpha)
			var amax float64
			for _, c := range nl.solve2c() {
				amax = math.Max(amax, math.Abs(c))
			}
			check := func(what, printed string, want float64) {
				t.Helper()
				if !closeTo(t, printed, want) {
					t.Errorf("%s: %s printed %s, the second route gives %v", q, what, printed, want)
				}
			}
			check("k", demotest.Counter(p, "step"), float64(k))
			check("sweep", demotest.Counter(p, "sweep"), float64((k+1)/2))
			check("J", demotest.Counter(p, "objective"), j)
			check("J at w*", demotest.Counter(p, "optimum"), jStar)
			check("α", demotest.Counter(p, "alpha"), alpha)
			check("α_max", demotest.Counter(p, "alpha-max"), amax)
			for i, v := range map[string]float64{"w1": w[0], "w2": w[1], "b": b, "w1-opt": ws[0], "w2-opt": ws[1], "b-opt": bStar,
				"w1-ls": ls[0], "w2-ls": ls[1]} {
				check(i, factValue(p, i), v)
			}
			var notes string
			for _, n := range p.Notes {
				notes += n.Text + "\n"
			}
			if m := lassoNumberRes["ridge"].FindStringSubmatch(notes); m == nil {
				t.Errorf("%s: no ridge note in %q", q, notes)
			} else {
				check("ridge w₁", m[1], ridge[0])
				check("ridge w₂", m[2], ridge[1])
				if (m[3] == "neither weight is 0") != (ridge[0] != 0 && ridge[1] != 0) {
					t.Errorf("%s: ridge %v, note says %q", q, ridge, m[3])
				}
			}
			if m := lassoNumberRes["amax"].FindStringSubmatch(notes); m == nil {
				t.Errorf("%s: no α_max note", q)
			} else {
				check("α_max note", m[1], amax)
			}
			// The status word: converged only at the end, on the solution;
			// the budget only at MaxStep.
			switch p.Status {
			case "converged":
				seen["converged"] = true
				if k != last || math.Abs(w[0]-ws[0])+math.Abs(w[1]-ws[1]) > 1e-9*(1+math.Abs(ws[0])+math.Abs(ws[1])) {
					t.Errorf("%s: converged at w = %v, the solution is %v", q, w, ws)
				}
				if !strings.Contains(notes, "Converged after "+strconv.Itoa(k)+" steps") {
					t.Errorf("%s: converged note %q", q, notes)
				}
			case "iteration limit":
				seen["limit"] = true
				if k != demo.MaxStep || k != last || demotest.Note(p, "limit") == nil || !strings.Contains(notes, "budget of "+strconv.Itoa(demo.MaxStep)+" steps") {
					t.Errorf("%s: stopped by the budget at step %d of %d, notes %q", q, k, last, notes)
				}
			case "running":
				if k == last {
					t.Errorf("%s: running at the end of the run", q)
				}
			default:
				t.Errorf("%s: status %q", q, p.Status)
			}
			if k > 0 {
				jj := (k - 1) % 2
				rho, z, nw := nl.step(nl.run(k-1), jj)
				check("w after the step", factValue(p, "w"+strconv.Itoa(jj+1)), nw)
				m := lassoNumberRes["rho"].FindStringSubmatch(p.Lines[0])
				mz := lassoNumberRes["z"].FindStringSubmatch(p.Lines[1])
				if m == nil || mz == nil || m[1] != sub(jj) {
					t.Fatalf("%s: lines %q", q, p.Lines)
				}
				check("ρ", m[2], rho)
				check("z", mz[1], z)
				if mm := lassoNumberRes["zero"].FindStringSubmatch(p.Lines[2]); mm != nil {
					seen["cut"] = true
					if math.Abs(rho) > alpha {
						t.Errorf("%s: the line says |ρ| ≤ α, the second route has ρ = %v, α = %v", q, rho, alpha)
					}
					check("|ρ|", mm[1], math.Abs(rho))
				} else if mm := lassoNumberRes["shrink"].FindStringSubmatch(p.Lines[2]); mm != nil {
					seen["shrunk"] = true
					if (mm[2] == ">") != (rho > alpha) || math.Abs(rho) <= alpha {
						t.Errorf("%s: the line says ρ %s α, the second route has ρ = %v, α = %v", q, mm[2], rho, alpha)
					}
					check("ρ again", mm[1], rho)
					check("S(ρ, α)", mm[4], nw*z)
					check("new w", mm[5], nw)
				} else {
					t.Errorf("%s: line %q", q, p.Lines[2])
				}
			}
			// The question about step k+1.
			a := demotest.AskAt(t, LassoSpec(), base, k)
			if a.Q == nil || a.Q.None != "" {
				continue
			}
			jj := k % 2
			rho, z, nw := nl.step(w, jj)
			h := lassoNumberRes["head"].FindStringSubmatch(a.Q.Prompt)
			why := lassoNumberRes["why"].FindStringSubmatch(a.Q.Why)
			if h == nil || why == nil || h[2] != sub(jj) || why[1] != sub(jj) {
				t.Fatalf("%s: prompt %q, why %q", q, a.Q.Prompt, a.Q.Why)
			}
			check("prompt step", h[1], float64(k+1))
			check("prompt old", h[3], w[jj])
			check("prompt α", h[4], alpha)
			check("prompt w₁", h[5], w[0])
			check("prompt w₂", h[6], w[1])
			check("why ρ", why[2], rho)
			check("why z", why[3], z)
			if (why[4] == "≤") != (math.Abs(rho) <= alpha) {
				t.Errorf("%s: why says |ρ| %s α; ρ = %v, α = %v", q, why[4], rho, alpha)
			}
			if nw != 0 && !strings.Contains(a.Q.Why, "= "+coef(nw)+".") {
				t.Errorf("%s: why %q, the new weight is %v", q, a.Q.Why, nw)
			}
		}
	}
	for _, s := range []string{"converged", "limit", "cut", "shrunk"} {
		if !seen[s] {
			t.Errorf("the grid never meets %q", s)
		}
	}
}
