package primal

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
)

// KernelPegasosParams are the inputs of 001's kernelized SGD procedure
// besides the data.
type KernelPegasosParams struct {
	Kernel svm.Kernel
	Lambda float64 // λ > 0, the weight of ‖w‖² = αᵀKα in the objective
	T      int     // iterations, at least 1
	Seed   uint64  // seeds the sampling
}

// KernelPegasos is 001's "SGD procedure for SVM with kernels" on
// validated data: Pegasos (see Pegasos) run in the feature space, where
// θ_t = Σᵢ βᵢ⁽ᵗ⁾φ(xᵢ) is kept as the integer-valued β. It minimises
//
//	λ αᵀKα + (1/n) Σᵢ max(0, 1 − yᵢ(Kα)ᵢ)
//
// with no bias. β starts at 0; at iteration t = 1, …, T it sets
// α⁽ᵗ⁾ = β⁽ᵗ⁾/(2λt), samples j uniformly, and adds yⱼ to βⱼ when
// yⱼ Σᵢ αᵢ⁽ᵗ⁾K(xᵢ, xⱼ) < 1. The answer is the average ᾱ of α⁽¹⁾, …, α⁽ᵀ⁾
// and the score f(x) = Σᵢ ᾱᵢK(xᵢ, x).
//
// The sum is taken in index order with each product rounded, over the
// αᵢ ≠ 0 only (which leaves its bits unchanged), so the run is bit for
// bit the procedure's as written; it is recomputed each iteration rather
// than read off a running Kβ, which would round differently and so could
// flip a comparison with 1. The draws follow Pegasos: iteration t
// calls IntN(n) on rand.New(rand.NewPCG(Seed, 0)) and nothing else draws.
//
// For n ≤ fullGramMax the Gram matrix is computed once; beyond, each
// iteration evaluates K(xᵢ, xⱼ) for the i with βᵢ ≠ 0, so memory stays
// O(n). Either way an iteration costs O(n). A KernelPegasos is read-only
// after NewKernelPegasos and safe for concurrent use.
type KernelPegasos struct {
	X [][]float64
	Y []float64
	P KernelPegasosParams

	gram []float64 // nil, or column j at gram[j*n:(j+1)*n], gram[j*n+i] = K(xᵢ, xⱼ)
}

// fullGramMax is the largest n for which KernelPegasos keeps the n×n Gram
// matrix: 8 MB. A lesson's sets are far smaller; the API allows 10000
// points, whose matrix (800 MB) must not be built.
const fullGramMax = 1000

// KernelPegasosState is the run after T iterations. Its slices are
// read-only.
type KernelPegasosState struct {
	T        int  // iterations done
	I        int  // the index j sampled at iteration T; −1 in state 0
	Violated bool // whether iteration T updated β (Margin < 1)
	// Margin is yⱼ Σᵢ αᵢ⁽ᵀ⁾K(xᵢ, xⱼ), the number iteration T compared
	// with 1; 0 in state 0.
	Margin float64
	Beta   []float64 // β⁽ᵀ⁺¹⁾, integers
	Alpha  []float64 // α⁽ᵀ⁾ = β⁽ᵀ⁾/(2λT), the model iteration T scored with; 0 in state 0
	Avg    []float64 // ᾱ, the average of α⁽¹⁾, …, α⁽ᵀ⁾: the answer
	Status algos.Status

	sum []float64 // α⁽¹⁾ + … + α⁽ᵀ⁾, in order, of which Avg is sum/T
	rng rand.PCG
}

// NewKernelPegasos validates the data (as svm.New does), the kernel (a Mercer
// kind with valid parameters) and p, and returns the trainer and state 0,
// with β = α = ᾱ = 0. Errors wrap ErrParameters for p and the kernel, and
// ErrNotFinite when a kernel value overflows.
func NewKernelPegasos(x [][]float64, y []int, p KernelPegasosParams) (*KernelPegasos, KernelPegasosState, error) {
	return NewKernelPegasosGram(x, y, p, nil)
}

// Gram returns the Gram matrix the trainer keeps (nil beyond fullGramMax
// points), column j at [j·n, (j+1)·n). It is shared: do not modify it.
func (kp *KernelPegasos) Gram() []float64 { return kp.gram }

// NewKernelPegasosGram is NewKernelPegasos given the Gram matrix of the
// same points and kernel, as Gram returned it for an earlier trainer, so
// that a caller keeping it between runs skips its n² kernel values; nil,
// or a matrix of another size, is computed. The run is the same either
// way. gram is shared, never modified.
func NewKernelPegasosGram(x [][]float64, y []int, p KernelPegasosParams, gram []float64) (*KernelPegasos, KernelPegasosState, error) {
	if err := validKernelProblem(x, y, p.Kernel, p.Lambda); err != nil {
		return nil, KernelPegasosState{}, err
	}
	if p.T < 1 {
		return nil, KernelPegasosState{}, fmt.Errorf("%w: T is %d; it must be at least 1", svm.ErrParameters, p.T)
	}
	kp := &KernelPegasos{X: x, Y: labels(y), P: p}
	n := len(x)
	if n <= fullGramMax && len(gram) == n*n {
		kp.gram = gram
	} else if err := kp.setGram(); err != nil {
		return nil, KernelPegasosState{}, err
	}
	s := KernelPegasosState{
		I:     -1,
		Beta:  make([]float64, n),
		Alpha: make([]float64, n),
		Avg:   make([]float64, n),
		sum:   make([]float64, n),
		rng:   *rand.NewPCG(p.Seed, 0),
	}
	return kp, s, nil
}

// validKernelProblem checks what the kernel Pegasos objective needs: the
// data (as svm.New), λ finite and > 0, and a Mercer kernel.
func validKernelProblem(x [][]float64, y []int, k svm.Kernel, lambda float64) error {
	if err := svm.ValidateData(x, y); err != nil {
		return err
	}
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return fmt.Errorf("%w: λ is %v; it must be a finite number > 0", svm.ErrParameters, lambda)
	}
	return k.Validate()
}

// setGram computes the Gram matrix when n ≤ fullGramMax, and checks that
// the kernel values are finite: all of them when the matrix is built,
// else the diagonal, which bounds the rest for a Mercer kernel
// (|K(x, z)|² ≤ K(x, x)K(z, z)).
func (kp *KernelPegasos) setGram() error {
	n := len(kp.X)
	k := kp.P.Kernel
	if n > fullGramMax {
		for i, xi := range kp.X {
			if err := finiteKernel(k.Eval(xi, xi), i, i); err != nil {
				return err
			}
		}
		return nil
	}
	kp.gram = make([]float64, n*n)
	for j, xj := range kp.X {
		for i, xi := range kp.X {
			v := k.Eval(xi, xj)
			if err := finiteKernel(v, i, j); err != nil {
				return err
			}
			kp.gram[j*n+i] = v
		}
	}
	return nil
}

func finiteKernel(v float64, i, j int) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%w: K(x%d, x%d) is %v; scale the data or lower γ or the degree", svm.ErrNotFinite, i, j, v)
	}
	return nil
}

// columnSum returns Σᵢ a[i]·K(xᵢ, xⱼ) over the a[i] ≠ 0, in index order,
// each product rounded: (Ka)ⱼ, bit for bit the procedure's full sum.
func (kp *KernelPegasos) columnSum(a []float64, j int) float64 {
	if kp.gram == nil {
		return kp.P.Kernel.Sum(kp.X, a, kp.X[j])
	}
	n := len(kp.X)
	col := kp.gram[j*n : (j+1)*n]
	var f float64
	for i, v := range a {
		if v != 0 {
			f += float64(v * col[i])
		}
	}
	return f
}

// Column writes K(xᵢ, xⱼ) for every training point i into dst (of length
// n) and returns it: read from the Gram matrix when the trainer keeps one,
// else computed. A caller following the run, such as a lesson keeping Kβ
// as β changes, then pays no kernel value twice.
func (kp *KernelPegasos) Column(j int, dst []float64) []float64 {
	if n := len(kp.X); kp.gram != nil {
		return append(dst[:0], kp.gram[j*n:(j+1)*n]...)
	}
	dst = dst[:0]
	for _, x := range kp.X {
		dst = append(dst, kp.P.Kernel.Eval(x, kp.X[j]))
	}
	return dst
}

// Status reports where s stands: Running, then IterationLimit once the T
// iterations are done. There is no convergence test; the answer is Avg
// after exactly T iterations.
func (kp *KernelPegasos) Status(s KernelPegasosState) algos.Status { return s.Status }

// Clone returns a deep copy of s for Advance.
func (kp *KernelPegasos) Clone(s KernelPegasosState) KernelPegasosState {
	s.Beta = slices.Clone(s.Beta)
	s.Alpha = slices.Clone(s.Alpha)
	s.Avg = slices.Clone(s.Avg)
	s.sum = slices.Clone(s.sum)
	return s
}

// Step does iteration T+1 and returns the new state; s is not modified.
// A terminal state is returned unchanged.
func (kp *KernelPegasos) Step(s KernelPegasosState) KernelPegasosState {
	if s.Status.Done() {
		return s
	}
	next := kp.Clone(s)
	kp.Advance(&next)
	return next
}

// Advance is Step in place on a state from Clone.
func (kp *KernelPegasos) Advance(s *KernelPegasosState) {
	if s.Status.Done() {
		return
	}
	s.T++
	t := float64(s.T)
	for i, b := range s.Beta {
		s.Alpha[i] = b / (2 * kp.P.Lambda * t)
	}
	j := rand.New(&s.rng).IntN(len(kp.X))
	s.I = j
	s.Margin = kp.Y[j] * kp.columnSum(s.Alpha, j)
	s.Violated = s.Margin < 1
	if s.Violated {
		s.Beta[j] += kp.Y[j]
	}
	for i, a := range s.Alpha {
		s.sum[i] += a
		s.Avg[i] = s.sum[i] / t
	}
	if s.T >= kp.P.T {
		s.Status = algos.IterationLimit
	}
}

// Score returns f(x) = Σᵢ ᾱᵢK(xᵢ, x) for the average ᾱ of s, with no
// bias; the predicted class is its sign. It equals Expansion(s).Eval(x).
func (kp *KernelPegasos) Score(s KernelPegasosState, x []float64) float64 {
	return kp.P.Kernel.Sum(kp.X, s.Avg, x)
}

// Expansion returns the score of s as a kernel expansion, coefficients ᾱ
// and B = 0, for svm.Expansion.Grid.
func (kp *KernelPegasos) Expansion(s KernelPegasosState) *svm.Expansion {
	return svm.NewExpansion(kp.P.Kernel, kp.X, s.Avg, 0)
}

// Margins returns yᵢ(Kα)ᵢ for every i: the functional margins of the
// model f = Σᵢ αᵢK(xᵢ, ·) on the training points, which Objective reads.
// It costs n kernel sums over the αᵢ ≠ 0.
func (kp *KernelPegasos) Margins(alpha []float64) []float64 {
	m := make([]float64, len(kp.X))
	for i := range m {
		m[i] = kp.Y[i] * kp.columnSum(alpha, i)
	}
	return m
}

// Objective returns λ αᵀKα + (1/n) Σᵢ max(0, 1 − yᵢ(Kα)ᵢ), the function
// the procedure minimises (λ‖w‖² plus the mean hinge loss of
// w = Σᵢ αᵢφ(xᵢ)); αᵀKα is read off the margins as Σᵢ αᵢyᵢ·yᵢ(Kα)ᵢ.
func (kp *KernelPegasos) Objective(alpha []float64) float64 {
	var quad, hinge float64
	for i, m := range kp.Margins(alpha) {
		quad += float64(float64(alpha[i]*kp.Y[i]) * m)
		hinge += math.Max(0, 1-m)
	}
	return float64(kp.P.Lambda*quad) + hinge/float64(len(kp.X))
}
