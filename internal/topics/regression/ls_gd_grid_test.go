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

// naiveGD is gradient descent on J(w, b) = (1/n) Σ (wxᵢ + b − yᵢ)² + λw²
// written out apart from linreg: the second route of the grid test.
type naiveGD struct {
	xs, ys      []float64
	lambda, eta float64
}

// at returns J, ∇_w J and ∇_b J at (w, b).
func (g naiveGD) at(w, b float64) (j, gw, gb float64) {
	n := float64(len(g.xs))
	for i, x := range g.xs {
		r := w*x + b - g.ys[i]
		j += r * r / n
		gw += 2 * r * x / n
		gb += 2 * r / n
	}
	return j + g.lambda*w*w, gw + 2*g.lambda*w, gb
}

// run returns (w, b) after k steps.
func (g naiveGD) run(k int) (w, b float64) {
	for range k {
		_, gw, gb := g.at(w, b)
		w, b = w-g.eta*gw, b-g.eta*gb
	}
	return w, b
}

// optimum solves the 2×2 normal equations by Cramer's rule, and L is the
// larger eigenvalue of the Hessian.
func (g naiveGD) optimum() (w, b, L float64) {
	n := float64(len(g.xs))
	var sx, sxx, sy, sxy float64
	for i, x := range g.xs {
		sx, sxx, sy, sxy = sx+x/n, sxx+x*x/n, sy+g.ys[i]/n, sxy+x*g.ys[i]/n
	}
	a, c := sxx+g.lambda, sx // (a c; c 1)(w, b) = (sxy, sy)
	det := a - c*c
	w, b = (sxy-c*sy)/det, (a*sy-c*sxy)/det
	h11, h12 := 2*a, 2*c
	L = (h11+2)/2 + math.Sqrt((h11-2)*(h11-2)/4+h12*h12)
	return w, b, L
}

// closeTo reports whether the printed s reads v, to its printed digits.
func closeTo(t *testing.T, s string, v float64) bool {
	t.Helper()
	got := demotest.ParseSig(t, s)
	if strings.Contains(s, "·10") { // three significant figures
		return math.Abs(got-v) <= 5.1e-3*math.Abs(v)
	}
	return math.Abs(got-v) <= 6e-4*math.Abs(v)+6e-5
}

var lsgdNumberRes = map[string]*regexp.Regexp{
	"grad":     regexp.MustCompile(`‖∇J‖ is now (\S+)\.$`),
	"factor":   regexp.MustCompile(`\|1 − ηL\| = ([^\s.]+(?:\.\d+)?(?:·10\S+)?)`),
	"would":    regexp.MustCompile(`iteration (\d+) would have J = (\S+), so the run stopped at iteration (\d+), with J = ([^\s]+?)\.(?:\s|$)`),
	"classic":  regexp.MustCompile(`η = 1/L = (\S+) is the classic`),
	"goes":     regexp.MustCompile(`J goes from (\S+) to ([^\s]+?)\.(?:\s|$)`),
	"gradient": regexp.MustCompile(`∇J = \((\S+), (\S+)\) gives \(w, b\) = \((\S+), ([^)]+)\)`),
	"prompt":   regexp.MustCompile(`θ = \(w, b\) = \((\S+), (\S+)\), J = (\S+), with`),
}

// TestLSGDNumbersSecondRoute: over a grid of states (each data set, λ,
// steps 0, 1, mid and end, each stop reason: converged, diverged by the
// cap, the step limit), every number and classifying word the panel, the
// model box and the question quote is recomputed by naive gradient
// descent and the 2×2 normal equations (issue 27 §5).
func TestLSGDNumbersSecondRoute(t *testing.T) {
	stops := map[string]bool{}
	for _, data := range []string{"line", "sine", "cubic"} {
		for _, par := range []string{"", "eta=0.05&lambda=0.5", "eta=1.05", "eta=1"} {
			base := strings.TrimPrefix(par+"&data="+data, "&")
			end := demotest.Run(t, LSGDSpec(), base+"&step=end")
			last := end.State.Step
			for _, k := range []int{0, 1, last / 2, last} {
				q := base + "&step=" + strconv.Itoa(k)
				r := demotest.Run(t, LSGDSpec(), q)
				p := r.Panel()
				_, xs, ys := graphXY(r.Points)
				g := naiveGD{xs, ys, lsgdLambda.Get(r.State), lsgdEta.Get(r.State)}
				w, b := g.run(k)
				j, gw, gb := g.at(w, b)
				ws, bs, L := g.optimum()
				jStar, _, _ := g.at(ws, bs)
				jNext, _, _ := g.at(g.run(k + 1))
				j0, _, _ := g.at(0, 0)
				capJ := math.Max(1e100, 1e10*j0)
				check := func(what, printed string, want float64) {
					t.Helper()
					if !closeTo(t, printed, want) {
						t.Errorf("%s: %s printed %s, the second route gives %v", q, what, printed, want)
					}
				}
				check("k", demotest.Counter(p, "step"), float64(k))
				check("J", demotest.Counter(p, "objective"), j)
				check("J*", demotest.Counter(p, "optimum"), jStar)
				check("‖θ − θ*‖", demotest.Counter(p, "distance"), math.Hypot(w-ws, b-bs))
				check("L", demotest.Counter(p, "L"), L)
				check("2/L", demotest.Counter(p, "two-over-L"), 2/L)
				check("w", factValue(p, "w"), w)
				check("b", factValue(p, "b"), b)
				check("w*", factValue(p, "w-opt"), ws)
				check("b*", factValue(p, "b-opt"), bs)
				if k > 0 {
					m := lsgdNumberRes["grad"].FindStringSubmatch(p.Examined)
					if m == nil {
						t.Fatalf("%s: %q", q, p.Examined)
					}
					check("‖∇J‖", m[1], math.Hypot(gw, gb))
				}
				// The stop: its word and its numbers.
				gn := math.Hypot(gw, gb)
				var word string
				switch {
				case jNext > capJ:
					word = "diverged"
				case k == last && gn < 1e-11*(1+j):
					word = "converged"
				case k == demo.MaxStep:
					word = demo.StepLimitStatus
				default:
					word = "running"
				}
				if p.Status != word {
					t.Errorf("%s: status %q; the second route says %q (‖∇J‖ = %v, next J = %v, cap %v)", q, p.Status, word, gn, jNext, capJ)
				}
				if k == last {
					stops[p.Status] = true
				}
				var notes string
				for _, n := range p.Notes {
					notes += n.Text + " "
				}
				if m := lsgdNumberRes["factor"].FindStringSubmatch(notes); m != nil {
					check("|1 − ηL|", m[1], math.Abs(1-g.eta*L))
				}
				if m := lsgdNumberRes["classic"].FindStringSubmatch(notes); m != nil {
					check("1/L", m[1], 1/L)
				}
				if word == "diverged" {
					m := lsgdNumberRes["would"].FindStringSubmatch(notes)
					if m == nil || !strings.Contains(notes, "cap of "+power(capJ)) {
						t.Fatalf("%s: the diverged note %q", q, notes)
					}
					check("refused iteration", m[1], float64(k+1))
					check("refused J", m[2], jNext)
					check("stopped at", m[3], float64(k))
					check("last J", m[4], j)
				}
				if strings.Contains(notes, " is above 2/L") != (g.eta > 2/L) || strings.Contains(notes, " is below 2/L") != (g.eta < 2/L) {
					t.Errorf("%s: η = %v against 2/L = %v, notes %q", q, g.eta, 2/L, notes)
				}
				// The question about step k+1, where one is asked.
				a := demotest.AskAt(t, LSGDSpec(), base, k)
				if a.Q == nil || a.Q.None != "" {
					continue
				}
				m := lsgdNumberRes["prompt"].FindStringSubmatch(a.Q.Prompt)
				if m == nil {
					t.Fatalf("%s: prompt %q", q, a.Q.Prompt)
				}
				check("prompt w", m[1], w)
				check("prompt b", m[2], b)
				check("prompt J", m[3], j)
				nw, nb := g.run(k + 1)
				if m := lsgdNumberRes["goes"].FindStringSubmatch(a.Q.Why); m != nil {
					check("J from", m[1], j)
					check("J to", m[2], jNext)
				} else if m := lsgdNumberRes["gradient"].FindStringSubmatch(a.Q.Why); m != nil {
					check("∇_w J", m[1], gw)
					check("∇_b J", m[2], gb)
					check("next w", m[3], nw)
					check("next b", m[4], nb)
				} else {
					t.Errorf("%s: why %q", q, a.Q.Why)
				}
			}
		}
	}
	for _, s := range []string{"converged", "diverged", demo.StepLimitStatus} {
		if !stops[s] {
			t.Errorf("no run of the grid ends %q: %v", s, stops)
		}
	}
}
