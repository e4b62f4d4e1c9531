package svm

import (
	"fmt"
	"math"
)

// KernelKind names a kernel function.
type KernelKind int

const (
	// Linear is ⟨x, z⟩: the plain SVM of §1.5–1.6 of the notes.
	Linear KernelKind = iota
	// Poly is (Coef0 + Gamma·⟨x, z⟩)^Degree (Example 1.7.7, 001's (r + γ x·x′)^d).
	Poly
	// RBF is the Gaussian kernel exp(−Gamma·‖x − z‖²).
	RBF
	// Laplace is exp(−Gamma·‖x − z‖).
	Laplace
	// Sigmoid is tanh(Gamma·⟨x, z⟩ + Coef0), scikit-learn's "sigmoid". It
	// is not a kernel (Mercer): its Gram matrices can have negative
	// eigenvalues, so nothing here trains with it; Gram shows why.
	Sigmoid
	// NegSqDist is −‖x − z‖², not a kernel either: its Gram matrix has a
	// zero diagonal and, for two or more distinct points, trace 0 with
	// a non-zero entry, so a negative eigenvalue.
	NegSqDist
)

var kindNames = [...]string{"linear", "poly", "rbf", "laplace", "sigmoid", "neg-sqdist"}

// Mercer reports whether k is a kernel in the sense of Mercer's theorem,
// positive semi-definite on every finite set of points: true for Linear,
// Poly (with Coef0 ≥ 0), RBF and Laplace, false for Sigmoid, NegSqDist
// and unknown kinds. Only Mercer kinds can be trained with: with the
// others the dual need not be convex.
func (k KernelKind) Mercer() bool { return k >= Linear && k <= Laplace }

// String returns "linear", "poly", "rbf", "laplace", "sigmoid" or
// "neg-sqdist", the names ParseFunctionKind reads and a URL carries.
func (k KernelKind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("KernelKind(%d)", int(k))
	}
	return kindNames[k]
}

// ParseKernelKind reads the name of a kernel to train with, one of the
// four Mercer kinds, as KernelKind.String writes it. It refuses the
// other names, "sigmoid" and "neg-sqdist" with a message saying they are
// not kernels; ParseFunctionKind reads those too.
func ParseKernelKind(s string) (KernelKind, error) {
	k, err := ParseFunctionKind(s)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%w: unknown kernel %q; choose one of %v", ErrParameters, s, kindNames[:Sigmoid])
	case !k.Mercer():
		return 0, notKernel(k)
	}
	return k, nil
}

// ParseFunctionKind is the inverse of KernelKind.String: it reads any of
// the six names, Mercer or not, for showing a function's Gram matrix.
func ParseFunctionKind(s string) (KernelKind, error) {
	for k, name := range kindNames {
		if s == name {
			return KernelKind(k), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown kernel function %q; choose one of %v", ErrParameters, s, kindNames)
}

// notKernel is the error for training with a kind that is not Mercer.
func notKernel(k KernelKind) error {
	return fmt.Errorf("%w: %s is not a kernel: its Gram matrix can have negative eigenvalues, so the dual is not convex and training has no well-defined optimum; use linear, poly, rbf or laplace", ErrParameters, k)
}

// Kernel is a kernel function k(x, z) = ⟨φ(x), φ(z)⟩ (Definition 1.7.4),
// or, with a kind that is not Mercer, a similarity function that is not
// one. Gamma, Coef0 and Degree are read only by the kinds that use them.
type Kernel struct {
	Kind   KernelKind
	Gamma  float64 // > 0 for Poly, RBF, Laplace and Sigmoid
	Coef0  float64 // ≥ 0 for Poly to train with, so that the kernel stays positive semi-definite
	Degree int     // 1…MaxDegree for Poly
}

// MaxDegree bounds Kernel.Degree: beyond it the Gram matrix of ordinary
// data spans too many orders of magnitude for float64 to solve anything.
const MaxDegree = 10

// String returns the kind's name, as ParseKernelKind reads it.
func (k Kernel) String() string { return k.Kind.String() }

// Eval returns k(x, z) for vectors of equal length. RBF and Laplace
// compute ‖x − z‖ from the differences, not from ‖x‖² + ‖z‖² − 2⟨x, z⟩ as
// LIBSVM does, so the kernel of a point with itself is exactly 1 and never
// rounds above it. The solver's kernel columns hold these very values, bit
// for bit, so Decision on a training point sees the numbers SMO saw.
func (k Kernel) Eval(x, z []float64) float64 {
	switch k.Kind {
	case Poly:
		return powi(k.Coef0+float64(k.Gamma*dot(x, z)), k.Degree)
	case RBF:
		return expNeg(k.Gamma * sqdist(x, z))
	case Laplace:
		return expNeg(k.Gamma * math.Sqrt(sqdist(x, z)))
	case Sigmoid:
		return math.Tanh(float64(k.Gamma*dot(x, z)) + k.Coef0)
	case NegSqDist:
		return 0 - sqdist(x, z) // +0, not −0, for k(x, x)
	}
	return dot(x, z)
}

// maxExpArg is where the exponential kernels' values become 0:
// e^−230 ≈ 10⁻¹⁰⁰ is far under any tolerance (LIBSVM's float32 Q loses
// values below 10⁻³⁸). Left alone, e^−a for a past 708 is a subnormal
// float, slow to compute and slow in every gradient update after: two
// clusters 27 apart with γ = 1 took 4 s instead of about 1.
const maxExpArg = 230

// expNeg returns e^−a, or 0 when a > maxExpArg.
func expNeg(a float64) float64 {
	if a > maxExpArg {
		return 0
	}
	return math.Exp(-a)
}

// Validate checks that k can be trained with: a Mercer kind
// (ErrParameters naming why otherwise) whose parameters are valid, with
// Coef0 ≥ 0 for Poly. Every trainer's constructor calls it.
func (k Kernel) Validate() error {
	switch {
	case k.Kind == Sigmoid || k.Kind == NegSqDist:
		return notKernel(k.Kind)
	case !k.Kind.Mercer():
		return fmt.Errorf("%w: unknown kernel kind %d", ErrParameters, int(k.Kind))
	}
	if err := k.ValidateFunction(); err != nil {
		return err
	}
	if k.Kind == Poly && !(k.Coef0 >= 0) {
		return fmt.Errorf("%w: poly coef0 is %v; it must be a finite number ≥ 0 (a negative one can make the kernel indefinite)", ErrParameters, k.Coef0)
	}
	return nil
}

// ValidateFunction checks the parameters of k as a function to evaluate,
// for any of the six kinds, Mercer or not: Gamma finite and > 0 for Poly,
// RBF, Laplace and Sigmoid; Coef0 finite (of any sign) for Poly and
// Sigmoid; Degree 1…MaxDegree for Poly. Linear and NegSqDist read
// nothing. It allows what training refuses (a non-Mercer kind, Poly with
// Coef0 < 0), so that Gram can show such functions fail to be PSD.
func (k Kernel) ValidateFunction() error {
	switch k.Kind {
	case Linear, NegSqDist:
		return nil
	case Poly, RBF, Laplace, Sigmoid:
	default:
		return fmt.Errorf("%w: unknown kernel kind %d", ErrParameters, int(k.Kind))
	}
	if !(k.Gamma > 0) || math.IsInf(k.Gamma, 0) {
		return fmt.Errorf("%w: kernel γ is %v; it must be a finite number > 0", ErrParameters, k.Gamma)
	}
	if k.Kind != Poly && k.Kind != Sigmoid {
		return nil
	}
	if math.IsNaN(k.Coef0) || math.IsInf(k.Coef0, 0) {
		return fmt.Errorf("%w: %s coef0 is %v; it must be a finite number", ErrParameters, k.Kind, k.Coef0)
	}
	if k.Kind == Poly && (k.Degree < 1 || k.Degree > MaxDegree) {
		return fmt.Errorf("%w: poly degree is %d; it must be 1 to %d", ErrParameters, k.Degree, MaxDegree)
	}
	return nil
}

// dot returns ⟨x, z⟩. Each product is rounded by an explicit conversion
// before it is added, so that no compiler fuses the sum into FMA
// instructions and the same data give the same bits on every machine
// (as perceptron.Score does).
func dot(x, z []float64) float64 {
	var s float64
	for j, v := range x {
		s += float64(v * z[j])
	}
	return s
}

// sqdist returns ‖x − z‖², rounded as dot.
func sqdist(x, z []float64) float64 {
	var s float64
	for j, v := range x {
		d := v - z[j]
		s += float64(d * d)
	}
	return s
}

// powi returns v^d for d ≥ 0 by repeated squaring: exact for small
// integers, and cheaper and more predictable than math.Pow.
func powi(v float64, d int) float64 {
	r := 1.0
	for d > 0 {
		if d&1 == 1 {
			r *= v
		}
		v *= v
		d >>= 1
	}
	return r
}
