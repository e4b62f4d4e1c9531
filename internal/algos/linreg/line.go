package linreg

import (
	"fmt"
	"math"
	"slices"
)

// FitLine returns a minimiser (w, b) of (1/n) Σ ℓ(w·xᵢ + b − yᵢ) for one
// feature and no penalty, with ℓ = loss and param its δ or ε (see Loss),
// for the "loss functions side by side" demo.
//
// Squared is solved in closed form (Fit). For the others the objective
// is convex in (w, b), and for each slope w the best intercept is exact:
// the median of yᵢ − w·xᵢ (Absolute), the median of those values ± ε
// (EpsInsensitive), or the root of the piecewise-linear Huber score
// equation. The slope is then found by golden-section search on that
// profile, from a bracket grown around the least-squares slope, to about
// 1e-13 relative. A Huber search stops at 1e-7, enough to tell which
// points are in the quadratic zone, and the line is then solved exactly
// from the optimality conditions for that split (searching on if the
// split is degenerate). The answer is the minimiser to about 1e-9
// relative, usually to rounding.
//
// Which minimiser: when all x are equal only w·x + b is determined, and
// FitLine returns w = 0. Absolute and EpsInsensitive can have a whole
// segment of optimal slopes (their objectives are piecewise linear);
// FitLine returns the one the golden-section search settles on, which is
// deterministic but not otherwise special, and for that slope the
// midpoint of the optimal intercepts (the midpoint of the two middle
// values for an even count, as the usual median). Huber's minimiser is
// unique once two points with different x fit within δ.
//
// Errors wrap ErrParameters (no points, len(x) ≠ len(y), an unknown loss,
// δ ≤ 0, ε < 0) or ErrNotFinite (NaN or ±Inf data, or an answer that
// overflows). It takes O(n log n) per search step, about 1 ms for n = 500.
func FitLine(x, y []float64, loss Loss, param float64) (w, b float64, err error) {
	if err := checkLine(x, y, loss, param); err != nil {
		return 0, 0, err
	}
	if loss == Squared {
		m, err := Fit(column(x), y, 0, true)
		if err != nil {
			return 0, 0, err
		}
		return m.W[0], m.B, nil
	}
	lo, hi := slices.Min(x), slices.Max(x)
	p := profile{x: x, y: y, loss: loss, param: param, u: make([]float64, len(x)), buf: make([]float64, 2*len(x))}
	if lo == hi {
		w, b = 0, p.intercept(0)
	} else {
		w, b = p.searchSlope(lo, hi)
	}
	if !isFinite(w) || !isFinite(b) || !isFinite(lineLoss(x, y, loss, param, w, b)) {
		return 0, 0, fmt.Errorf("%w: the fitted line overflows float64; rescale x and y to smaller numbers", ErrNotFinite)
	}
	return w, b, nil
}

func checkLine(x, y []float64, loss Loss, param float64) error {
	if err := loss.check(param); err != nil {
		return err
	}
	switch {
	case len(x) == 0:
		return fmt.Errorf("%w: no points; give at least one (x, y)", ErrParameters)
	case len(y) != len(x):
		return fmt.Errorf("%w: %d x values but %d y values; give one y per x", ErrParameters, len(x), len(y))
	}
	for i := range x {
		if !isFinite(x[i]) || !isFinite(y[i]) {
			return fmt.Errorf("%w: point %d is (%v, %v)", ErrNotFinite, i, x[i], y[i])
		}
	}
	return nil
}

// column turns scalars into one-feature rows.
func column(x []float64) [][]float64 {
	rows := make([][]float64, len(x))
	for i, v := range x {
		rows[i] = []float64{v}
	}
	return rows
}

// profile evaluates the objective minimised over b for a given slope,
// reusing its buffers (it is not safe for concurrent use).
type profile struct {
	x, y  []float64
	loss  Loss
	param float64
	u     []float64 // yᵢ − w·xᵢ
	buf   []float64
}

// intercept returns the optimal b for slope w (the midpoint of the
// optimal interval when there is one).
func (p *profile) intercept(w float64) float64 {
	for i, xi := range p.x {
		p.u[i] = p.y[i] - float64(w*xi)
	}
	n := len(p.u)
	switch p.loss {
	case Absolute:
		return middle(append(p.buf[:0], p.u...))
	case EpsInsensitive:
		// The slope of Σ max(0, |b − uᵢ| − ε) in b is #(uᵢ + ε < b) −
		// #(uᵢ − ε > b): zero between the n-th and (n+1)-th of the 2n
		// values uᵢ ± ε.
		s := p.buf[:0]
		for _, v := range p.u {
			s = append(s, v-p.param, v+p.param)
		}
		return middle(s)
	case Huber:
		return p.huberRoot()
	}
	var m float64
	for _, v := range p.u {
		m += v
	}
	return m / float64(n)
}

// value is the objective at slope w and its best intercept.
func (p *profile) value(w float64) float64 {
	return lineLoss(p.x, p.y, p.loss, p.param, w, p.intercept(w))
}

// huberRoot returns the optimal Huber intercept for the residual
// offsets u: the root of ψ(b) = Σ clip(b − uᵢ, −δ, δ), the derivative of
// the objective in b (times n). ψ is non-decreasing and piecewise linear
// with kinks at uᵢ ± δ, from −nδ below every kink to nδ above, so one
// sweep over the sorted kinks finds where it crosses 0, exactly (ψ is
// affine between kinks). If ψ is 0 on a whole interval (no residual
// within δ there), it returns the interval's midpoint.
func (p *profile) huberRoot() float64 {
	d := p.param
	u := append(p.buf[:0], p.u...)
	slices.Sort(u)
	n := len(u)
	// Walk the kinks in order: lower ends u[i] − δ (a point enters the
	// slope-1 zone) and upper ends u[j] + δ (it leaves it).
	i, j := 0, 0
	prev, psi := u[0]-d, -float64(n)*d
	active := 0
	lo := math.NaN()
	for j < n {
		var k float64
		enter := i < n && u[i]-d <= u[j]+d
		if enter {
			k = u[i] - d
		} else {
			k = u[j] + d
		}
		next := psi + float64(active)*(k-prev)
		if math.IsNaN(lo) && next >= 0 { // psi < 0 ≤ next: active > 0
			lo = prev + (-psi)/float64(active)
		}
		if next > 0 {
			if psi >= 0 { // ψ = 0 from lo to prev
				return (lo + prev) / 2
			}
			return (lo + prev + (-psi)/float64(active)) / 2
		}
		prev, psi = k, next
		if enter {
			active++
			i++
		} else {
			active--
			j++
		}
	}
	return lo // not reached: ψ = nδ > 0 after the last kink
}

// searchSlope brackets the best slope around the least-squares one and
// narrows it by golden-section search, returning the line. x has at least
// two distinct values, so the profile grows without bound both ways. A
// Huber line only needs the search to find which points are quadratic:
// it stops at 1e-7 and solves exactly, and searches on to 1e-13 only if
// that fails (a degenerate split).
func (p *profile) searchSlope(lo, hi float64) (w, b float64) {
	w0 := lsSlope(p.x, p.y)
	h := (math.Abs(w0) + (slices.Max(p.y)-slices.Min(p.y))/(hi-lo)) / 4
	if !(h > 0) {
		h = 1 / (hi - lo)
	}
	a, c := bracket(p.value, w0, h)
	floor := 1e-15 * (c - a)
	if p.loss == Huber {
		var ok bool
		w, a, c = golden(p.value, a, c, 1e-7, floor)
		if w, b, ok = p.polishHuber(w, p.intercept(w)); ok {
			return w, b
		}
	}
	w, _, _ = golden(p.value, a, c, 1e-13, floor)
	return w, p.intercept(w)
}

// lsSlope is the least-squares slope Σ(x − x̄)(y − ȳ)/Σ(x − x̄)².
func lsSlope(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(x))
	var sxy, sxx float64
	for i := range x {
		dx := x[i] - mx
		sxy += float64(dx * (y[i] - my))
		sxx += float64(dx * dx)
	}
	if sxx == 0 || !isFinite(sxy/sxx) {
		return 0
	}
	return sxy / sxx
}

// bracket returns a < c with a minimiser of the convex f in [a, c]: it
// steps away from m by doubling steps while f keeps falling. For convex
// f, f(a) ≥ f(m) ≤ f(c) puts a minimiser in [a, c].
func bracket(f func(float64) float64, m, h float64) (a, c float64) {
	fm := f(m)
	a, c = m-h, m+h
	fa, fc := f(a), f(c)
	for i := 0; i < 2000 && fa < fm; i++ {
		c, m, fm = m, a, fa
		h *= 2
		a = m - h
		fa = f(a)
	}
	for i := 0; i < 2000 && fc < fm; i++ {
		a, m, fm = m, c, fc
		h *= 2
		c = m + h
		fc = f(c)
	}
	return a, c
}

// golden narrows [a, c] around a minimiser of the convex f until the
// bracket is below tol of its scale (|a| + |c|) or below floor, and
// returns the best point it evaluated inside and the final bracket.
func golden(f func(float64) float64, a, c, tol, floor float64) (best, na, nc float64) {
	const r = 0.6180339887498949 // (√5 − 1)/2
	x1, x2 := c-r*(c-a), a+r*(c-a)
	f1, f2 := f(x1), f(x2)
	for i := 0; i < 300 && c-a > tol*(math.Abs(a)+math.Abs(c))+floor; i++ {
		if f1 <= f2 {
			c, x2, f2 = x2, x1, f1
			x1 = c - r*(c-a)
			f1 = f(x1)
		} else {
			a, x1, f1 = x1, x2, f2
			x2 = a + r*(c-a)
			f2 = f(x2)
		}
	}
	if f1 <= f2 {
		return x1, a, c
	}
	return x2, a, c
}

// polishHuber solves the Huber optimality conditions exactly for the
// split of the points at (w, b) into |r| ≤ δ (quadratic) and the rest
// (linear, sign s): with cx = δΣsᵢxᵢ and c1 = δΣsᵢ over the linear ones,
// and x̄, ȳ the means over the nq quadratic ones,
//
//	w = (Σ(xᵢ − x̄)(yᵢ − ȳ) + c1·x̄ − cx) / Σ(xᵢ − x̄)²,  b = ȳ − c1/nq − w·x̄.
//
// A candidate with the split it was solved for meets the conditions
// exactly and is the minimiser (ok); otherwise it repeats from the
// candidate while the objective falls, and gives up (not ok) when it
// rises or after 20 rounds.
func (p *profile) polishHuber(w, b float64) (float64, float64, bool) {
	best := lineLoss(p.x, p.y, Huber, p.param, w, b)
	for range 20 {
		nw, nb, ok := p.huberSplitSolve(w, b)
		if !ok {
			return w, b, false
		}
		if p.sameSplit(w, b, nw, nb) {
			// (nw, nb) solves the conditions of its own split: the minimiser.
			return nw, nb, true
		}
		v := lineLoss(p.x, p.y, Huber, p.param, nw, nb)
		if v > best {
			return w, b, false
		}
		w, b, best = nw, nb, v
	}
	return w, b, false
}

func (p *profile) huberSplitSolve(w, b float64) (float64, float64, bool) {
	d := p.param
	var nq, mx, my, cx, c1 float64
	for i, xi := range p.x {
		r := float64(w*xi) + b - p.y[i]
		switch {
		case math.Abs(r) <= d:
			nq++
			mx += xi
			my += p.y[i]
		case r > 0:
			cx += float64(d * xi)
			c1 += d
		default:
			cx -= float64(d * xi)
			c1 -= d
		}
	}
	if nq == 0 {
		return 0, 0, false
	}
	mx, my = mx/nq, my/nq
	var sxx, sxy float64
	for i, xi := range p.x {
		if r := float64(w*xi) + b - p.y[i]; math.Abs(r) <= d {
			sxx += float64((xi - mx) * (xi - mx))
			sxy += float64((xi - mx) * (p.y[i] - my))
		}
	}
	if !(sxx > 0) {
		return 0, 0, false
	}
	nw := (sxy + float64(c1*mx) - cx) / sxx
	return nw, my - c1/nq - float64(nw*mx), true
}

// sameSplit reports whether (w, b) and (nw, nb) put every point on the
// same side of ±δ.
func (p *profile) sameSplit(w, b, nw, nb float64) bool {
	side := func(r float64) int {
		switch {
		case r > p.param:
			return 1
		case r < -p.param:
			return -1
		}
		return 0
	}
	for i, xi := range p.x {
		if side(float64(w*xi)+b-p.y[i]) != side(float64(nw*xi)+nb-p.y[i]) {
			return false
		}
	}
	return true
}
