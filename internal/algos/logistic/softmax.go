package logistic

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// MaxClasses is the most classes Softmax takes: its Newton system has
// C(d+1) unknowns, and the course's pictures colour at most a handful.
const MaxClasses = 10

// SoftmaxModel scores class c as W[c]·x + B[c] and gives it the
// probability softmax(scores)_c. W is C×d and B has C entries.
type SoftmaxModel struct {
	W [][]float64
	B []float64
}

// Scores returns the C scores W[c]·x + B[c].
func (m SoftmaxModel) Scores(x []float64) []float64 {
	z := make([]float64, len(m.B))
	for c, w := range m.W {
		z[c] = floats.Dot(w, x) + m.B[c]
	}
	return z
}

// Proba returns the C class probabilities softmax(Scores(x)), computed
// after subtracting the largest score so that exp never overflows; they
// sum to 1 up to rounding.
func (m SoftmaxModel) Proba(x []float64) []float64 {
	return softmaxInPlace(m.Scores(x))
}

// Predict returns the class of the largest score; ties go to the
// smallest class.
func (m SoftmaxModel) Predict(x []float64) int {
	z := m.Scores(x)
	best := 0
	for c, v := range z {
		if v > z[best] {
			best = c
		}
	}
	return best
}

func (m SoftmaxModel) clone() SoftmaxModel {
	w := make([][]float64, len(m.W))
	for c, row := range m.W {
		w[c] = append([]float64(nil), row...)
	}
	return SoftmaxModel{W: w, B: append([]float64(nil), m.B...)}
}

// softmaxInPlace turns scores z into probabilities and returns z.
func softmaxInPlace(z []float64) []float64 {
	top := floats.Max(z)
	var sum float64
	for c, v := range z {
		z[c] = math.Exp(v - top)
		sum += z[c]
	}
	floats.Scale(1/sum, z)
	return z
}

// logSumExp returns log Σ e^(z_c) without overflow.
func logSumExp(z []float64) float64 {
	top := floats.Max(z)
	var sum float64
	for _, v := range z {
		sum += math.Exp(v - top)
	}
	return top + math.Log(sum)
}

// Softmax is multinomial logistic regression on classes 0, …, C−1:
//
//	J(W, b) = (1/n) Σ −log softmax(Wxᵢ + b)_{yᵢ} + (λ/2)‖W‖²_F,
//
// with b not penalised and λ > 0. J is unchanged by b → b + t·1, so its
// minimiser is unique only up to that shift; Solve reports the one with
// Σ_c b_c = 0. W's rows sum to 0 at the optimum (the penalty takes away
// any common part, which the loss does not see).
type Softmax struct {
	X      [][]float64
	Y      []int
	C      int
	Lambda float64
}

// NewSoftmax checks and returns the problem: x as for New, 2 ≤ c ≤
// MaxClasses, every label in 0…c−1 and every class present (a class
// with no points would have b_c → −∞: no minimiser), and a finite
// λ > 0 (with λ = 0 the same happens to W on separable data). The
// slices are kept, not copied.
func NewSoftmax(x [][]float64, y []int, c int, lambda float64) (*Softmax, error) {
	if err := checkX(x, len(y)); err != nil {
		return nil, err
	}
	if c < 2 || c > MaxClasses {
		return nil, fmt.Errorf("%w: %d classes; give 2 to %d", ErrInput, c, MaxClasses)
	}
	seen := make([]bool, c)
	for i, v := range y {
		if v < 0 || v >= c {
			return nil, fmt.Errorf("%w: y[%d] is %d; labels must be 0 to %d", ErrInput, i, v, c-1)
		}
		seen[v] = true
	}
	for k, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("%w: class %d has no points; every class 0 to %d must appear (an empty class has no finite optimum)", ErrInput, k, c-1)
		}
	}
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("%w: λ is %v; give a finite λ > 0", ErrInput, lambda)
	}
	return &Softmax{X: x, Y: y, C: c, Lambda: lambda}, nil
}

func (s *Softmax) dim() int { return len(s.X[0]) }

// Objective returns J(m.W, m.B).
func (s *Softmax) Objective(m SoftmaxModel) float64 {
	j, _ := s.eval(m, false)
	return j
}

// Gradient returns ∇J at m: gW[c] = (1/n) Σ (p_ic − [yᵢ = c]) xᵢ + λW[c]
// and gb[c] = (1/n) Σ (p_ic − [yᵢ = c]), p_i = softmax(Wxᵢ + b). The gb
// entries sum to 0.
func (s *Softmax) Gradient(m SoftmaxModel) (gW [][]float64, gb []float64) {
	_, g := s.eval(m, true)
	return s.unflatten(g)
}

// eval returns J at m and, when grad is set, ∇J laid out as flatten
// does, from one pass over the data.
func (s *Softmax) eval(m SoftmaxModel, grad bool) (float64, []float64) {
	d1 := s.dim() + 1
	var g []float64
	if grad {
		g = make([]float64, s.C*d1)
	}
	z := make([]float64, s.C)
	var loss float64
	for i, x := range s.X {
		for c, w := range m.W {
			z[c] = floats.Dot(w, x) + m.B[c]
		}
		if !grad {
			loss += logSumExp(z) - z[s.Y[i]]
			continue
		}
		// log Σ e^(z_c) and softmax(z) from the same e^(z_c − max z), as
		// logSumExp and softmaxInPlace compute them (so the same bits),
		// each exponential taken once: they were half of a softmax step.
		zy, top := z[s.Y[i]], floats.Max(z)
		var sum float64
		for c, v := range z {
			z[c] = math.Exp(v - top)
			sum += z[c]
		}
		loss += top + math.Log(sum) - zy
		p := z
		floats.Scale(1/sum, p)
		p[s.Y[i]]--
		for c, r := range p {
			blk := g[c*d1 : (c+1)*d1]
			floats.AddScaled(blk[:d1-1], r, x)
			blk[d1-1] += r
		}
	}
	inv := 1 / float64(len(s.X))
	var pen float64
	for c, w := range m.W {
		pen += floats.Dot(w, w)
		if grad {
			blk := g[c*d1 : (c+1)*d1]
			floats.Scale(inv, blk)
			floats.AddScaled(blk[:d1-1], s.Lambda, w)
		}
	}
	return loss*inv + s.Lambda/2*pen, g
}

// unflatten splits a vector laid out as flatten does into W and b
// (copies).
func (s *Softmax) unflatten(v []float64) ([][]float64, []float64) {
	d1 := s.dim() + 1
	w := make([][]float64, s.C)
	b := make([]float64, s.C)
	for c := range w {
		w[c] = append([]float64(nil), v[c*d1:(c+1)*d1-1]...)
		b[c] = v[(c+1)*d1-1]
	}
	return w, b
}

// L returns a smoothness constant of J, λ_max(X̃ᵀX̃)/(2n) + λ. The
// Hessian of −log softmax(z)_y in z is diag(p) − ppᵀ, which is at most
// ½(I − 11ᵀ/C) ≤ ½I (Böhning, 1992); in (W, b) that becomes
// (1/n) Σ (diag(pᵢ) − pᵢpᵢᵀ) ⊗ x̃ᵢx̃ᵢᵀ ≤ ½ I ⊗ X̃ᵀX̃/n, plus λ for the
// penalty. With C = 2 this is twice the binary bound: softmax's two
// score rows each carry half of the binary w.
func (s *Softmax) L() float64 {
	return lambdaMax(s.X)/(2*float64(len(s.X))) + s.Lambda
}
