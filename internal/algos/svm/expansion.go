package svm

// Expansion is a kernel expansion f(x) = Σᵢ Coef[i]·K(X[i], x) + B. By the
// representer theorem (001) every kernel model's score has this form, so
// the SMO solution (Problem.Expansion), kernel Pegasos
// (KernelPegasos.Expansion) and anything later can hand one type to the
// code that evaluates or draws a model. Only terms with Coef[i] ≠ 0 are
// kept, so evaluation costs one kernel per support vector. Its slices
// are read-only; X shares the caller's rows.
type Expansion struct {
	K    Kernel
	X    [][]float64
	Coef []float64
	B    float64
}

// NewExpansion returns f(x) = Σᵢ coef[i]·k(x[i], x) + b, keeping the terms
// with coef[i] ≠ 0 in index order. coef[i] pairs with x[i]; x must have at
// least len(coef) rows. With no non-zero term f is the constant b.
func NewExpansion(k Kernel, x [][]float64, coef []float64, b float64) *Expansion {
	e := &Expansion{K: k, B: b}
	for i, c := range coef {
		if c != 0 {
			e.X = append(e.X, x[i])
			e.Coef = append(e.Coef, c)
		}
	}
	return e
}

// Eval returns f(x). Each term is rounded before it is added, so the sum
// has the same bits as Problem.Decision's for the same model.
func (e *Expansion) Eval(x []float64) float64 {
	return e.K.Sum(e.X, e.Coef, x) + e.B
}

// Sum returns Σᵢ coef[i]·k(xs[i], x) over the coef[i] ≠ 0, in index
// order, with every product rounded (no FMA). Skipping the zero terms
// leaves the sum's bits unchanged, because adding ±0 to a sum that starts
// at +0 never changes it.
func (k Kernel) Sum(xs [][]float64, coef []float64, x []float64) float64 {
	var f float64
	for i, c := range coef {
		if c != 0 {
			f += float64(c * k.Eval(xs[i], x))
		}
	}
	return f
}

// Grid fills z[j*len(xs)+i] = f(xs[i], ys[j]), the decision field on a
// grid of 2-D points, for drawing regions and contours. The terms' points
// must be 2-D and z must hold len(xs)·len(ys) values. A plot's grid is
// ~15000 points and a model hundreds of terms, so the common kernels take
// shortcuts: RBF factorises exp(−γ‖g − x‖²) = exp(−γ(g₁−x₁)²)·exp(−γ(g₂−x₂)²),
// which costs len(xs)+len(ys) exponentials per term and then one
// multiply-add per grid point; Linear collapses to w = Σ Coef[i]·X[i].
// The other kinds call Kernel.Eval at every point. Every value agrees with
// Eval to about 1e-12·(1 + Σ|Coef|) (the shortcuts round differently).
func (e *Expansion) Grid(xs, ys []float64, z []float64) {
	z = z[:len(xs)*len(ys)]
	for k := range z {
		z[k] = e.B
	}
	switch e.K.Kind {
	case RBF:
		e.gridRBF(xs, ys, z)
	case Linear:
		e.gridLinear(xs, ys, z)
	default:
		e.gridEval(xs, ys, z)
	}
}

// gridRBF adds the RBF terms by the separable factorisation. The factors
// use expNeg, so a factor whose exponent passes maxExpArg is 0 and its row
// or column costs nothing, and no subnormal slows the loop.
func (e *Expansion) gridRBF(xs, ys []float64, z []float64) {
	nx := len(xs)
	ex := make([]float64, nx)
	for t, c := range e.Coef {
		p := e.X[t]
		for i, g := range xs {
			d := g - p[0]
			ex[i] = expNeg(e.K.Gamma * float64(d*d))
		}
		for j, g := range ys {
			d := g - p[1]
			cy := float64(c * expNeg(e.K.Gamma*float64(d*d)))
			if cy == 0 {
				continue
			}
			row := z[j*nx : (j+1)*nx]
			for i, v := range ex {
				row[i] += float64(cy * v)
			}
		}
	}
}

// gridLinear evaluates w·g + B with w = Σ Coef[i]·X[i].
func (e *Expansion) gridLinear(xs, ys []float64, z []float64) {
	var w0, w1 float64
	for t, c := range e.Coef {
		w0 += float64(c * e.X[t][0])
		w1 += float64(c * e.X[t][1])
	}
	nx := len(xs)
	for j, gy := range ys {
		fy := float64(w1 * gy)
		for i, gx := range xs {
			z[j*nx+i] += float64(w0*gx) + fy
		}
	}
}

// gridEval adds the terms one Kernel.Eval at a time.
func (e *Expansion) gridEval(xs, ys []float64, z []float64) {
	nx := len(xs)
	g := make([]float64, 2)
	for j, gy := range ys {
		g[1] = gy
		for i, gx := range xs {
			g[0] = gx
			z[j*nx+i] += e.K.Sum(e.X, e.Coef, g)
		}
	}
}
