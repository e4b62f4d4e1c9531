package regression

import (
	"math"
	"math/big"
	"regexp"
	"testing"

	"github.com/margin-edu/margin/internal/algos/linreg"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// exactLineFace solves min Σ max(0, |w·xᵢ + b − yᵢ| − ε) exactly, in
// rationals, by a second route: the objective is convex and piecewise
// linear, and with two distinct x coercive, so its minimum is attained at
// a vertex of the arrangement of kink lines w·xᵢ + b = yᵢ ± ε; the
// minimiser is unique exactly when one vertex attains it (a segment or
// region of minimisers has at least two). It returns the minimum (the
// sum, not yet divided by n) and how many vertices attain it.
func exactLineFace(xs, ys []float64, eps float64) (min *big.Rat, at int) {
	type line struct{ x, c *big.Rat } // x·w + b = c
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	e := rat(eps)
	var lines []line
	for i, x := range xs {
		lines = append(lines, line{rat(x), new(big.Rat).Add(rat(ys[i]), e)})
		if eps > 0 {
			lines = append(lines, line{rat(x), new(big.Rat).Sub(rat(ys[i]), e)})
		}
	}
	f := func(w, b *big.Rat) *big.Rat {
		s := new(big.Rat)
		for i, x := range xs {
			r := new(big.Rat).Mul(rat(x), w)
			r.Add(r, b).Sub(r, rat(ys[i]))
			r.Abs(r).Sub(r, e)
			if r.Sign() > 0 {
				s.Add(s, r)
			}
		}
		return s
	}
	// Screen the vertices in float64 and solve exactly only those whose
	// loss is within rounding of the least: an exact minimiser cannot be
	// far above it.
	fl := func(w, b float64) float64 {
		var s float64
		for i, x := range xs {
			s += math.Max(0, math.Abs(w*x+b-ys[i])-eps)
		}
		return s
	}
	type cand struct {
		i, j int
		f    float64
	}
	var cands []cand
	best := math.Inf(1)
	for i := range lines {
		for j := i + 1; j < len(lines); j++ {
			xi, _ := lines[i].x.Float64()
			xj, _ := lines[j].x.Float64()
			if xi == xj {
				continue
			}
			ci, _ := lines[i].c.Float64()
			cj, _ := lines[j].c.Float64()
			w := (ci - cj) / (xi - xj)
			f := fl(w, ci-xi*w)
			cands = append(cands, cand{i, j, f})
			best = math.Min(best, f)
		}
	}
	scale := 1.0
	for i, x := range xs {
		scale = math.Max(scale, math.Abs(x)+math.Abs(ys[i]))
	}
	seen := map[string]bool{}
	for _, c := range cands {
		if c.f > best+1e-6*scale {
			continue
		}
		i, j := c.i, c.j
		dx := new(big.Rat).Sub(lines[i].x, lines[j].x)
		w := new(big.Rat).Sub(lines[i].c, lines[j].c)
		w.Quo(w, dx)
		b := new(big.Rat).Mul(lines[i].x, w)
		b.Sub(lines[i].c, b)
		key := w.RatString() + "," + b.RatString()
		if seen[key] {
			continue
		}
		seen[key] = true
		v := f(w, b)
		switch c := -1; {
		case min != nil:
			c = v.Cmp(min)
			fallthrough
		default:
			if min == nil || c < 0 {
				min, at = v, 1
			} else if c == 0 {
				at++
			}
		}
	}
	return min, at
}

// TestRegLossesTiesExact: the panel says the absolute or ε-insensitive
// fit is not unique exactly where the exact optimal set holds more than
// one line, and the second line it names has the least loss (issue 27
// §3: the prose called the fit at ε = 1 not unique, where the optimal
// set is the one line w = 0.84528, b = −0.58061; without the outlier,
// ?del=20, all 20 points fit in the default tube at zero loss).
func TestRegLossesTiesExact(t *testing.T) {
	lineRe := regexp.MustCompile(`the line y = (\S+)·x ([+−]) (\S+) has the same mean loss`)
	seen := map[string]bool{}
	for _, q := range []string{"", "epsilon=0", "epsilon=0.5", "epsilon=1", "epsilon=2", "del=20", "del=20&epsilon=0.1", "del=20&epsilon=0.05",
		"del=5", "oy=-6", "ox=0&oy=-6", "data=sine", "data=cubic&epsilon=0.5", "del=10&n=10", "n=5&del=5&epsilon=0",
		"add=0,0~1,0~0,1~1,1&data=custom", "add=0,0~1,1~2,0~3,1&data=custom", "add=0,0~1,1~2,2&data=custom&epsilon=0.5"} {
		r := demotest.Run(t, RegLossesSpec(), q)
		_, xs, ys := graphXY(r.Points)
		p := r.Panel()
		for _, f := range regLosses(r.State) {
			if f.loss != linreg.Absolute && f.loss != linreg.EpsInsensitive {
				continue
			}
			id := map[linreg.Loss]string{linreg.Absolute: "tie-absolute", linreg.EpsInsensitive: "tie-eps"}[f.loss]
			min, at := exactLineFace(xs, ys, f.param)
			n := demotest.Note(p, id)
			if (n != nil) != (at > 1) {
				t.Errorf("%s, %s: %d vertices attain the least loss, note %v", q, f.name(), at, n)
			}
			seen[id+map[bool]string{true: "-tie", false: "-unique"}[at > 1]] = true
			if n == nil {
				continue
			}
			m := lineRe.FindStringSubmatch(n.Text)
			if m == nil {
				t.Fatalf("%s: note %q names no line", q, n.Text)
			}
			w2, b2 := demotest.ParseSig(t, m[1]), demotest.ParseSig(t, m[3])
			if m[2] == "−" {
				b2 = -b2
			}
			var got float64
			for i, x := range xs {
				got += f.loss.Value(ys[i]-w2*x-b2, f.param)
			}
			// The printed line is rounded to four figures: its loss is the
			// minimum to within what that rounding moves the residuals.
			want, _ := min.Float64()
			if slack := float64(len(xs)) * 1e-3 * (1 + absMax(xs)) * (1 + abs(w2) + abs(b2)); got > want+slack {
				t.Errorf("%s: the note's line has loss %v (summed), the least is %v: %q", q, got, want, n.Text)
			}
		}
	}
	for _, k := range []string{"tie-eps-tie", "tie-eps-unique", "tie-absolute-tie", "tie-absolute-unique"} {
		if !seen[k] {
			t.Errorf("no state of the grid has %s: %v", k, seen)
		}
	}
}

func abs(v float64) float64 { return max(v, -v) }

func absMax(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, abs(x))
	}
	return m
}
