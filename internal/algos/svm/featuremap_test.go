package svm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The kernels against their explicit feature maps (000 §1.7, 001): a
// kernel is an inner product of features, K(x, z) = ⟨φ(x), φ(z)⟩, that
// never builds φ. Each case evaluates both sides on random points and
// requires agreement to 1e-12 relative to ‖φ(x)‖‖φ(z)‖, the size of the
// terms in the inner product (by Cauchy–Schwarz it bounds |K| too, and
// unlike |K| it does not vanish when the terms cancel).

// phi001 is 001's map for (1 + ⟨x, z⟩)² in 2-D:
// (x₁², √2x₁x₂, x₂², √2x₁, √2x₂, 1).
func phi001(x []float64) []float64 {
	s := math.Sqrt2
	return []float64{x[0] * x[0], s * x[0] * x[1], x[1] * x[1], s * x[0], s * x[1], 1}
}

// phi000 is 000 §1.7's map for the same kernel, (vec(xxᵀ), √2x, 1): in
// 2-D its 7 entries repeat x₁x₂ where phi001 scales one copy by √2.
func phi000(x []float64) []float64 { return phiScaled(x, 1, 1) }

// phiScaled is the map of (r + γ⟨x, z⟩)² in any dimension:
// (γ·vec(xxᵀ), √(2rγ)·x, r), from (r + γt)² = γ²t² + 2rγt + r² with
// t² = ⟨xxᵀ, zzᵀ⟩.
func phiScaled(x []float64, gamma, r float64) []float64 {
	var f []float64
	for _, a := range x {
		for _, b := range x {
			f = append(f, gamma*a*b)
		}
	}
	for _, a := range x {
		f = append(f, math.Sqrt(2*r*gamma)*a)
	}
	return append(f, r)
}

// phiMonomial is the map of (r + γ⟨x, z⟩)^d by the multinomial theorem:
// one entry per exponent vector (k₀, k₁, …, k_dim) summing to d, equal to
// √(d!/(k₀!k₁!⋯) · r^k₀ · γ^(d−k₀)) · x₁^k₁ ⋯ x_dim^k_dim.
func phiMonomial(x []float64, gamma, r float64, d int) []float64 {
	var f []float64
	exps := make([]int, len(x))
	var walk func(i, left int)
	walk = func(i, left int) {
		if i == len(x) {
			c := fact(d) / fact(left) * math.Pow(r, float64(left)) * math.Pow(gamma, float64(d-left))
			m := 1.0
			for j, k := range exps {
				c /= fact(k)
				m *= math.Pow(x[j], float64(k))
			}
			f = append(f, math.Sqrt(c)*m)
			return
		}
		for k := 0; k <= left; k++ {
			exps[i] = k
			walk(i+1, left-k)
		}
	}
	walk(0, d)
	return f
}

// remarkPhi and remarkPsi are the two maps of 000's Remark 1.7.5, both
// for ⟨x, z⟩² in 2-D: a kernel's feature map is not unique.
func remarkPhi(x []float64) []float64 {
	return []float64{x[0] * x[0], math.Sqrt2 * x[0] * x[1], x[1] * x[1]}
}

func remarkPsi(x []float64) []float64 {
	return []float64{x[0] * x[0], x[0] * x[1], x[0] * x[1], x[1] * x[1]}
}

func identityMap(x []float64) []float64 { return x }

func vecNorm(v []float64) float64 { return math.Sqrt(dot(v, v)) }

func TestFeatureMaps(t *testing.T) {
	type mapFn = func([]float64) []float64
	cases := []struct {
		name string
		dim  int
		k    func(x, z []float64) float64
		phi  mapFn
		size int // entries of φ(x)
	}{
		{"001 poly γ=r=1 d=2", 2, Kernel{Kind: Poly, Gamma: 1, Coef0: 1, Degree: 2}.Eval, phi001, 6},
		{"000 (vec(xxᵀ), √2x, 1)", 2, Kernel{Kind: Poly, Gamma: 1, Coef0: 1, Degree: 2}.Eval, phi000, 7},
		{"scaled γ=0.3 r=2.5 d=2, 3-D", 3, Kernel{Kind: Poly, Gamma: 0.3, Coef0: 2.5, Degree: 2}.Eval,
			func(x []float64) []float64 { return phiScaled(x, 0.3, 2.5) }, 13},
		{"scaled γ=1.7 r=0 d=2", 2, Kernel{Kind: Poly, Gamma: 1.7, Degree: 2}.Eval,
			func(x []float64) []float64 { return phiScaled(x, 1.7, 0) }, 7},
		{"monomial d=2 γ=r=1", 2, Kernel{Kind: Poly, Gamma: 1, Coef0: 1, Degree: 2}.Eval,
			func(x []float64) []float64 { return phiMonomial(x, 1, 1, 2) }, 6},
		{"monomial d=3 γ=r=1", 2, Kernel{Kind: Poly, Gamma: 1, Coef0: 1, Degree: 3}.Eval,
			func(x []float64) []float64 { return phiMonomial(x, 1, 1, 3) }, 10},
		{"monomial d=3 γ=0.4 r=1.5, 3-D", 3, Kernel{Kind: Poly, Gamma: 0.4, Coef0: 1.5, Degree: 3}.Eval,
			func(x []float64) []float64 { return phiMonomial(x, 0.4, 1.5, 3) }, 20},
		{"linear = identity, 4-D", 4, Kernel{Kind: Linear}.Eval, identityMap, 4},
		{"remark 1.7.5 φ", 2, Kernel{Kind: Poly, Gamma: 1, Degree: 2}.Eval, remarkPhi, 3},
		{"remark 1.7.5 ψ", 2, Kernel{Kind: Poly, Gamma: 1, Degree: 2}.Eval, remarkPsi, 4},
		{"remark 1.7.5 ⟨φ(x), φ(z)⟩ = ⟨ψ(x), ψ(z)⟩", 2,
			func(x, z []float64) float64 { return dot(remarkPsi(x), remarkPsi(z)) }, remarkPhi, 3},
	}
	r := rand.New(rand.NewPCG(17, 0))
	for _, tc := range cases {
		for try := range 200 {
			x, z := randVec(r, tc.dim), randVec(r, tc.dim)
			fx, fz := tc.phi(x), tc.phi(z)
			if len(fx) != tc.size {
				t.Fatalf("%s: φ has %d entries, want %d", tc.name, len(fx), tc.size)
			}
			got, want := tc.k(x, z), dot(fx, fz)
			if tol := 1e-12 * vecNorm(fx) * vecNorm(fz); !near(got, want, tol) {
				t.Errorf("%s: try %d: K(%v, %v) = %.17g, ⟨φ(x), φ(z)⟩ = %.17g", tc.name, try, x, z, got, want)
				break
			}
		}
	}
}

// randVec returns a point with normal coordinates of standard deviation
// 2, so that the polynomial terms span a few orders of magnitude.
func randVec(r *rand.Rand, dim int) []float64 {
	v := make([]float64, dim)
	for i := range v {
		v[i] = 2 * r.NormFloat64()
	}
	return v
}

// ExampleKernel_Eval shows 001's check: the degree-2 polynomial kernel
// with r = γ = 1 is the inner product of ψ(x) = (x₁², √2x₁x₂, x₂², √2x₁,
// √2x₂, 1), without building ψ.
func ExampleKernel_Eval() {
	k := Kernel{Kind: Poly, Gamma: 1, Coef0: 1, Degree: 2}
	x, z := []float64{1, 2}, []float64{3, -1}
	psi := func(v []float64) []float64 {
		s := math.Sqrt2
		return []float64{v[0] * v[0], s * v[0] * v[1], v[1] * v[1], s * v[0], s * v[1], 1}
	}
	var inner float64
	for i, a := range psi(x) {
		inner += a * psi(z)[i]
	}
	fmt.Printf("K(x, z) = %g, ⟨ψ(x), ψ(z)⟩ = %.12g\n", k.Eval(x, z), inner)
	// Output: K(x, z) = 4, ⟨ψ(x), ψ(z)⟩ = 4
}
