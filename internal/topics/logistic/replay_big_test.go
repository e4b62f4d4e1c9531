package logistic

import (
	"math"
	"math/big"

	"github.com/margin-edu/margin/internal/algos/logistic"
	"github.com/margin-edu/margin/internal/bigmath"
)

// A second route to one step of gradient descent: from the float64 state
// at step t, the gradient, the step and J before and after in 200-bit
// arithmetic (internal/bigmath), so that what a question grades can be
// checked against the step the algorithm takes, far from float64's
// rounding.

// bigVec is v at 200 bits.
func bigVec(v []float64) []*big.Float {
	out := make([]*big.Float, len(v))
	for i, x := range v {
		out[i] = bigmath.New(x)
	}
	return out
}

// bigDot is w·x + b at 200 bits.
func bigDot(w []*big.Float, x []float64, b *big.Float) *big.Float {
	s := new(big.Float).SetPrec(bigmath.Prec).Set(b)
	for j, v := range w {
		s = bigmath.Add(s, bigmath.Mul(v, bigmath.New(x[j])))
	}
	return s
}

// bigLogistic is J of a logistic problem and its gradient at 200 bits.
type bigLogistic struct{ pr *logistic.Problem }

// objective is J(w, b) = (1/n) Σ log(1 + e^(−yᵢfᵢ)) + (λ/2)‖w‖².
func (p bigLogistic) objective(w []*big.Float, b *big.Float) *big.Float {
	sum := bigmath.New(0)
	for i, x := range p.pr.X {
		z := bigmath.Mul(bigmath.New(p.pr.Y[i]), bigDot(w, x, b))
		sum = bigmath.Add(sum, bigmath.Log1pExp(bigmath.Neg(z)))
	}
	j := bigmath.Quo(sum, bigmath.Int(int64(len(p.pr.X))))
	pen := bigmath.New(0)
	for _, v := range w {
		pen = bigmath.Add(pen, bigmath.Mul(v, v))
	}
	return bigmath.Add(j, bigmath.Mul(bigmath.New(p.pr.Lambda/2), pen))
}

// step is one gradient step (w, b) − η∇J(w, b) at 200 bits.
func (p bigLogistic) step(w []*big.Float, b *big.Float, eta float64) ([]*big.Float, *big.Float) {
	n := bigmath.Int(int64(len(p.pr.X)))
	gw := make([]*big.Float, len(w))
	for j := range gw {
		gw[j] = bigmath.New(0)
	}
	gb := bigmath.New(0)
	for i, x := range p.pr.X {
		y := bigmath.New(p.pr.Y[i])
		r := bigmath.Neg(bigmath.Mul(y, bigmath.Sigmoid(bigmath.Neg(bigmath.Mul(y, bigDot(w, x, b))))))
		for j := range gw {
			gw[j] = bigmath.Add(gw[j], bigmath.Mul(r, bigmath.New(x[j])))
		}
		gb = bigmath.Add(gb, r)
	}
	e := bigmath.New(eta)
	w1 := make([]*big.Float, len(w))
	for j := range w {
		g := bigmath.Add(bigmath.Quo(gw[j], n), bigmath.Mul(bigmath.New(p.pr.Lambda), w[j]))
		w1[j] = bigmath.Sub(w[j], bigmath.Mul(e, g))
	}
	return w1, bigmath.Sub(b, bigmath.Mul(e, bigmath.Quo(gb, n)))
}

// bigSoftmax is J of a softmax problem and its gradient at 200 bits.
type bigSoftmax struct{ sm *logistic.Softmax }

// scores are the C scores w_c·x + b_c at 200 bits.
func bigScores(w [][]*big.Float, b []*big.Float, x []float64) []*big.Float {
	z := make([]*big.Float, len(b))
	for c := range z {
		z[c] = bigDot(w[c], x, b[c])
	}
	return z
}

// probs are softmax(z) at 200 bits, and log Σ e^(z_c).
func bigSoftmaxOf(z []*big.Float) ([]*big.Float, *big.Float) {
	top := z[0]
	for _, v := range z {
		if v.Cmp(top) > 0 {
			top = v
		}
	}
	e := make([]*big.Float, len(z))
	sum := bigmath.New(0)
	for c, v := range z {
		e[c] = bigmath.Exp(bigmath.Sub(v, top))
		sum = bigmath.Add(sum, e[c])
	}
	for c := range e {
		e[c] = bigmath.Quo(e[c], sum)
	}
	return e, bigmath.Add(top, bigmath.Log(sum))
}

// objective is J(W, b) = −(1/n) Σ log P(yᵢ | xᵢ) + (λ/2)‖W‖².
func (p bigSoftmax) objective(w [][]*big.Float, b []*big.Float) *big.Float {
	sum := bigmath.New(0)
	for i, x := range p.sm.X {
		z := bigScores(w, b, x)
		_, lse := bigSoftmaxOf(z)
		sum = bigmath.Add(sum, bigmath.Sub(lse, z[p.sm.Y[i]]))
	}
	j := bigmath.Quo(sum, bigmath.Int(int64(len(p.sm.X))))
	pen := bigmath.New(0)
	for _, row := range w {
		for _, v := range row {
			pen = bigmath.Add(pen, bigmath.Mul(v, v))
		}
	}
	return bigmath.Add(j, bigmath.Mul(bigmath.New(p.sm.Lambda/2), pen))
}

// step is one gradient step (W, b) − η∇J(W, b) at 200 bits.
func (p bigSoftmax) step(w [][]*big.Float, b []*big.Float, eta float64) ([][]*big.Float, []*big.Float) {
	d := len(p.sm.X[0])
	gw := make([][]*big.Float, len(w))
	gb := make([]*big.Float, len(b))
	for c := range gw {
		gw[c] = bigVec(make([]float64, d))
		gb[c] = bigmath.New(0)
	}
	for i, x := range p.sm.X {
		pr, _ := bigSoftmaxOf(bigScores(w, b, x))
		for c := range pr {
			r := pr[c]
			if c == p.sm.Y[i] {
				r = bigmath.Sub(r, bigmath.Int(1))
			}
			for j := range gw[c] {
				gw[c][j] = bigmath.Add(gw[c][j], bigmath.Mul(r, bigmath.New(x[j])))
			}
			gb[c] = bigmath.Add(gb[c], r)
		}
	}
	n, e, lam := bigmath.Int(int64(len(p.sm.X))), bigmath.New(eta), bigmath.New(p.sm.Lambda)
	w1 := make([][]*big.Float, len(w))
	b1 := make([]*big.Float, len(b))
	for c := range w {
		w1[c] = make([]*big.Float, d)
		for j := range w[c] {
			g := bigmath.Add(bigmath.Quo(gw[c][j], n), bigmath.Mul(lam, w[c][j]))
			w1[c][j] = bigmath.Sub(w[c][j], bigmath.Mul(e, g))
		}
		b1[c] = bigmath.Sub(b[c], bigmath.Mul(e, bigmath.Quo(gb[c], n)))
	}
	return w1, b1
}

// bigArgmax is the class of the largest score, the smallest on a tie.
func bigArgmax(z []*big.Float) int {
	best := 0
	for c, v := range z {
		if v.Cmp(z[best]) > 0 {
			best = c
		}
	}
	return best
}

// hessian is H = (1/n) Σᵢ σᵢ(1 − σᵢ) x̃ᵢx̃ᵢᵀ + λ diag(1, …, 1, 0) at 200
// bits, x̃ᵢ = (xᵢ, 1).
func (p bigLogistic) hessian(w []*big.Float, b *big.Float) [][]*big.Float {
	d := len(w)
	h := make([][]*big.Float, d+1)
	for r := range h {
		h[r] = bigVec(make([]float64, d+1))
	}
	for _, x := range p.pr.X {
		s := bigmath.Sigmoid(bigDot(w, x, b))
		dii := bigmath.Mul(s, bigmath.Sub(bigmath.Int(1), s))
		xt := append(append([]float64(nil), x...), 1)
		for r := range h {
			for c := range h {
				h[r][c] = bigmath.Add(h[r][c], bigmath.Mul(dii, bigmath.New(xt[r]*xt[c])))
			}
		}
	}
	n := bigmath.Int(int64(len(p.pr.X)))
	for r := range h {
		for c := range h {
			h[r][c] = bigmath.Quo(h[r][c], n)
		}
		if r < d {
			h[r][r] = bigmath.Add(h[r][r], bigmath.New(p.pr.Lambda))
		}
	}
	return h
}

// gradient is ∇J (w entries, then b's) at 200 bits: the step of
// gradient descent with η = 1, taken back.
func (p bigLogistic) gradient(w []*big.Float, b *big.Float) []*big.Float {
	w1, b1 := p.step(w, b, 1)
	g := make([]*big.Float, len(w)+1)
	for j := range w {
		g[j] = bigmath.Sub(w[j], w1[j])
	}
	g[len(w)] = bigmath.Sub(b, b1)
	return g
}

// solve solves h x = r by Gaussian elimination with partial pivoting.
func bigSolve(h [][]*big.Float, r []*big.Float) []*big.Float {
	k := len(r)
	a := make([][]*big.Float, k)
	for i := range a {
		a[i] = append(append([]*big.Float(nil), h[i]...), r[i])
	}
	for col := range k {
		piv := col
		for i := col + 1; i < k; i++ {
			if new(big.Float).Abs(a[i][col]).Cmp(new(big.Float).Abs(a[piv][col])) > 0 {
				piv = i
			}
		}
		a[col], a[piv] = a[piv], a[col]
		for i := col + 1; i < k; i++ {
			f := bigmath.Quo(a[i][col], a[col][col])
			for j := col; j <= k; j++ {
				a[i][j] = bigmath.Sub(a[i][j], bigmath.Mul(f, a[col][j]))
			}
		}
	}
	x := make([]*big.Float, k)
	for i := k - 1; i >= 0; i-- {
		s := a[i][k]
		for j := i + 1; j < k; j++ {
			s = bigmath.Sub(s, bigmath.Mul(a[i][j], x[j]))
		}
		x[i] = bigmath.Quo(s, a[i][i])
	}
	return x
}

// newtonStep is one step of logistic.Newton at 200 bits: Δ solves
// HΔ = −∇J, and t is the first of 1, ½, … with
// J(θ + tΔ) ≤ J(θ) + 10⁻⁴ t ∇J·Δ, or t = 1 when the full step lowers
// ‖∇J‖ without raising J by more than the rounding bound the algorithm
// states (its rule, decided here without its rounding). trials is how
// many step sizes it tried, 0 when none of the algorithm's 40 is taken.
func (p bigLogistic) newtonStep(w []*big.Float, b *big.Float) (w1 []*big.Float, b1 *big.Float, trials int) {
	d := len(w)
	g := p.gradient(w, b)
	neg := make([]*big.Float, len(g))
	for i, v := range g {
		neg[i] = bigmath.Neg(v)
	}
	dir := bigSolve(p.hessian(w, b), neg)
	slope := bigmath.New(0)
	norm2 := func(v []*big.Float) *big.Float {
		s := bigmath.New(0)
		for _, x := range v {
			s = bigmath.Add(s, bigmath.Mul(x, x))
		}
		return s
	}
	for i := range g {
		slope = bigmath.Add(slope, bigmath.Mul(g[i], dir[i]))
	}
	j0 := p.objective(w, b)
	j0f := bigmath.Float64(j0)
	t := bigmath.New(1)
	for trial := 1; trial <= logistic.MaxTrials; trial++ {
		w1 = make([]*big.Float, d)
		for k := range w {
			w1[k] = bigmath.Add(w[k], bigmath.Mul(t, dir[k]))
		}
		b1 = bigmath.Add(b, bigmath.Mul(t, dir[d]))
		j1 := p.objective(w1, b1)
		if j1.Cmp(bigmath.Add(j0, bigmath.Mul(bigmath.New(1e-4), bigmath.Mul(t, slope)))) <= 0 {
			return w1, b1, trial
		}
		if trial == 1 && norm2(p.gradient(w1, b1)).Cmp(norm2(g)) < 0 &&
			j1.Cmp(bigmath.Add(j0, bigmath.New(float64(max(len(p.pr.X), 4))*0x1p-52*math.Abs(j0f)))) <= 0 {
			return w1, b1, trial
		}
		t = bigmath.Quo(t, bigmath.Int(2))
	}
	return nil, nil, 0
}

// bigNorm is the Euclidean norm of v at 200 bits.
func bigNorm(v ...[]*big.Float) *big.Float {
	s := bigmath.New(0)
	for _, row := range v {
		for _, x := range row {
			s = bigmath.Add(s, bigmath.Mul(x, x))
		}
	}
	return bigmath.Sqrt(s)
}

// gradient is ∇J at 200 bits, each class's w entries then its b, as
// one vector per class: the step of gradient descent with η = 1, taken
// back.
func (p bigSoftmax) gradient(w [][]*big.Float, b []*big.Float) [][]*big.Float {
	w1, b1 := p.step(w, b, 1)
	g := make([][]*big.Float, len(w))
	for c := range w {
		for j := range w[c] {
			g[c] = append(g[c], bigmath.Sub(w[c][j], w1[c][j]))
		}
		g[c] = append(g[c], bigmath.Sub(b[c], b1[c]))
	}
	return g
}

// bigSoftmaxModel is m at 200 bits.
func bigSoftmaxModel(m logistic.SoftmaxModel) ([][]*big.Float, []*big.Float) {
	w := make([][]*big.Float, len(m.W))
	for c, row := range m.W {
		w[c] = bigVec(row)
	}
	return w, bigVec(m.B)
}
