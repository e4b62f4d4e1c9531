package svm

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomPoints returns n points of d standard normal coordinates.
func randomPoints(n, d int, seed uint64) [][]float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	x := make([][]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = r.NormFloat64()
		}
	}
	return x
}

// checkSpectrum fails unless sp's values are ascending and sum to
// trace(K) to 1e-9 relative (to the largest |λ|, or 1).
func checkSpectrum(t *testing.T, K *mat.SymDense, sp Spectrum) {
	t.Helper()
	n := K.SymmetricDim()
	if len(sp.Values) != n {
		t.Fatalf("%d eigenvalues for n = %d", len(sp.Values), n)
	}
	var sum, trace float64
	for i, v := range sp.Values {
		if i > 0 && v < sp.Values[i-1] {
			t.Fatalf("eigenvalues not ascending at %d: %v < %v", i, v, sp.Values[i-1])
		}
		sum += v
		trace += K.At(i, i)
	}
	scale := math.Max(1, math.Max(math.Abs(sp.Values[0]), math.Abs(sp.Values[n-1])))
	if !near(sum, trace, 1e-9*scale) {
		t.Errorf("Σλ = %v, trace(K) = %v", sum, trace)
	}
}

// TestGramMercer: on random data the four kernels' Gram matrices are
// exactly symmetric, hold Eval's values, and are PSD.
func TestGramMercer(t *testing.T) {
	kernels := []Kernel{
		{Kind: Linear},
		{Kind: Poly, Gamma: 1, Coef0: 1, Degree: 2},
		{Kind: Poly, Gamma: 0.3, Coef0: 0, Degree: 3},
		{Kind: Poly, Gamma: 0.1, Coef0: 2, Degree: 5},
		{Kind: RBF, Gamma: 0.1},
		{Kind: RBF, Gamma: 1},
		{Kind: RBF, Gamma: 10},
		{Kind: Laplace, Gamma: 0.5},
		{Kind: Laplace, Gamma: 3},
	}
	for _, d := range []int{1, 3, 10} {
		x := randomPoints(40, d, uint64(d))
		for _, k := range kernels {
			t.Run(fmt.Sprintf("%v γ=%v deg=%d d=%d", k, k.Gamma, k.Degree, d), func(t *testing.T) {
				K := Gram(k, x)
				for i := range x {
					for j := range x {
						if K.At(i, j) != K.At(j, i) || K.At(i, j) != k.Eval(x[min(i, j)], x[max(i, j)]) {
							t.Fatalf("K[%d][%d] = %v, K[%d][%d] = %v, want %v", i, j, K.At(i, j), j, i, K.At(j, i), k.Eval(x[i], x[j]))
						}
					}
				}
				raw := K.RawSymmetric()
				for i := range x {
					for j := range x {
						if raw.Data[i*raw.Stride+j] != raw.Data[j*raw.Stride+i] {
							t.Fatalf("stored K is not mirrored at (%d, %d)", i, j)
						}
					}
				}
				sp, err := Eigenvalues(K)
				if err != nil {
					t.Fatal(err)
				}
				checkSpectrum(t, K, sp)
				if !sp.PSD {
					t.Errorf("smallest eigenvalue %v, largest %v: not PSD", sp.Values[0], sp.Values[len(x)-1])
				}
			})
		}
	}
}

// TestGramNotKernels: functions that are not kernels, on data small
// enough to work by hand.
func TestGramNotKernels(t *testing.T) {
	phi := (1 + math.Sqrt(5)) / 2
	tests := []struct {
		name string
		k    Kernel
		x    [][]float64
		K    []float64 // row by row
		eig  []float64
	}{
		// x = 1 and −1: tanh(1·1 − 1) = 0 on the diagonal, tanh(−1 − 1)
		// off it. A zero diagonal with b ≠ 0 beside it: λ = ±|b|, though
		// every k(x, x) ≥ 0.
		{"sigmoid", Kernel{Kind: Sigmoid, Gamma: 1, Coef0: -1}, [][]float64{{1}, {-1}},
			[]float64{0, math.Tanh(-2), math.Tanh(-2), 0}, []float64{math.Tanh(-2), -math.Tanh(-2)}},
		// x = 0 and 1: a = tanh(−1) everywhere but K₂₂ = tanh(0) = 0, so
		// λ² − aλ − a² = 0: λ = aφ < 0 and −a/φ.
		{"sigmoid 0 and 1", Kernel{Kind: Sigmoid, Gamma: 1, Coef0: -1}, [][]float64{{0}, {1}},
			[]float64{math.Tanh(-1), math.Tanh(-1), math.Tanh(-1), 0}, []float64{math.Tanh(-1) * phi, -math.Tanh(-1) / phi}},
		// −‖x − z‖² on (0, 0) and (3, 4): [[0, −25], [−25, 0]], λ = ±25.
		{"neg-sqdist", Kernel{Kind: NegSqDist}, [][]float64{{0, 0}, {3, 4}},
			[]float64{0, -25, -25, 0}, []float64{-25, 25}},
		// 0, 1, 2 on a line: trace 0, so some λ < 0. [[0,−1,−4],[−1,0,−1],
		// [−4,−1,0]] has λ = 4 for (1, 0, −1), and the other two solve
		// λ² + 4λ − 2 = 0 on span{(1, 0, 1), (0, 1, 0)}: −2 ∓ √6.
		{"neg-sqdist line", Kernel{Kind: NegSqDist}, [][]float64{{0}, {1}, {2}},
			[]float64{0, -1, -4, -1, 0, -1, -4, -1, 0}, []float64{-2 - math.Sqrt(6), -2 + math.Sqrt(6), 4}},
		// poly with coef0 < 0, degree 1: ⟨x, z⟩ − 1, at x = 0: [−1].
		{"poly coef0 -1", Kernel{Kind: Poly, Gamma: 1, Coef0: -1, Degree: 1}, [][]float64{{0}},
			[]float64{-1}, []float64{-1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.k.ValidateFunction(); err != nil {
				t.Fatal(err)
			}
			K := Gram(tt.k, tt.x)
			n := len(tt.x)
			for i := range n {
				for j := range n {
					if got, want := K.At(i, j), tt.K[i*n+j]; got != want {
						t.Errorf("K[%d][%d] = %v, want %v", i, j, got, want)
					}
				}
			}
			sp, err := Eigenvalues(K)
			if err != nil {
				t.Fatal(err)
			}
			checkSpectrum(t, K, sp)
			for i, want := range tt.eig {
				if !near(sp.Values[i], want, 1e-12*math.Max(1, math.Abs(want))) {
					t.Errorf("eigenvalues = %v, want %v", sp.Values, tt.eig)
					break
				}
			}
			if sp.PSD {
				t.Errorf("PSD with smallest eigenvalue %v", sp.Values[0])
			}
		})
	}
}

func TestEigenvaluesEdges(t *testing.T) {
	sp, err := Eigenvalues(mat.NewSymDense(1, []float64{2.5}))
	if err != nil || len(sp.Values) != 1 || sp.Values[0] != 2.5 || !sp.PSD {
		t.Errorf("Eigenvalues([2.5]) = %+v, %v; want [2.5], PSD", sp, err)
	}
	// A rounding-size negative eigenvalue is still PSD; −1e-8 on a
	// largest of 1 is not.
	for _, c := range []struct {
		smallest float64
		psd      bool
	}{{0, true}, {-1e-12, true}, {-1e-9, true}, {-1e-8, false}} {
		sp, err := Eigenvalues(mat.NewSymDense(2, []float64{c.smallest, 0, 0, 1}))
		if err != nil || sp.PSD != c.psd {
			t.Errorf("diag(%v, 1): PSD %v, %v; want %v", c.smallest, sp.PSD, err, c.psd)
		}
	}
	if got := Gram(Kernel{Kind: RBF, Gamma: 1}, nil); got != nil {
		t.Errorf("Gram of no points = %v, want nil", got)
	}
	if _, err := Eigenvalues(nil); !errors.Is(err, ErrNoData) {
		t.Errorf("Eigenvalues(nil) = %v, want ErrNoData", err)
	}
	K := Gram(Kernel{Kind: Poly, Gamma: 1, Coef0: 0, Degree: 10}, [][]float64{{1e40}, {1}})
	if _, err := Eigenvalues(K); !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "K[0][0]") {
		t.Errorf("Eigenvalues with K[0][0] = +Inf: %v, want ErrNotFinite naming K[0][0]", err)
	}
}

// TestEigenvaluesScale: −‖x − z‖² on 0, s, 2s has eigenvalues s²·(−2 ∓
// √6, 4) at any scale, including those where gonum's Dsterf would
// rescale (entries below 1e-123 or above 1e153) and subnormal ones.
func TestEigenvaluesScale(t *testing.T) {
	for _, c := range []struct {
		s   float64
		tol float64
	}{{1, 1e-14}, {0x1p-250, 1e-14}, {0x1p-300, 1e-14}, {0x1p260, 1e-14}, {0x1p-520, 1e-9}, {1e-160, 1e-5}} {
		K := Gram(Kernel{Kind: NegSqDist}, [][]float64{{0}, {c.s}, {2 * c.s}})
		sp, err := Eigenvalues(K)
		if err != nil {
			t.Errorf("s = %g: %v", c.s, err)
			continue
		}
		s2 := c.s * c.s
		want := []float64{(-2 - math.Sqrt(6)) * s2, (-2 + math.Sqrt(6)) * s2, 4 * s2}
		for i := range want {
			if !near(sp.Values[i], want[i], c.tol*4*s2) {
				t.Errorf("s = %g: eigenvalues %v, want %v", c.s, sp.Values, want)
				break
			}
		}
	}
	// A zero matrix, and many subnormal entries.
	sp, err := Eigenvalues(mat.NewSymDense(3, nil))
	if err != nil || fmt.Sprint(sp.Values) != "[0 0 0]" || !sp.PSD {
		t.Errorf("zero matrix: %+v, %v", sp, err)
	}
	x := randomPoints(200, 20, 3)
	for _, row := range x {
		for j := range row {
			row[j] = math.Round(row[j]) * 1e-160
		}
	}
	if _, err := Eigenvalues(Gram(Kernel{Kind: NegSqDist}, x)); err != nil {
		t.Errorf("subnormal neg-sqdist: %v", err)
	}
}

func TestMercerKinds(t *testing.T) {
	for _, c := range []struct {
		kind   KernelKind
		name   string
		mercer bool
	}{{Linear, "linear", true}, {Poly, "poly", true}, {RBF, "rbf", true}, {Laplace, "laplace", true},
		{Sigmoid, "sigmoid", false}, {NegSqDist, "neg-sqdist", false}, {KernelKind(6), "KernelKind(6)", false}, {KernelKind(-1), "KernelKind(-1)", false}} {
		if c.kind.String() != c.name || c.kind.Mercer() != c.mercer {
			t.Errorf("%d: String %q, Mercer %v; want %q, %v", int(c.kind), c.kind, c.kind.Mercer(), c.name, c.mercer)
		}
		if k, err := ParseFunctionKind(c.name); c.kind >= 0 && c.kind <= NegSqDist && (err != nil || k != c.kind) {
			t.Errorf("ParseFunctionKind(%q) = %v, %v", c.name, k, err)
		}
		_, err := ParseKernelKind(c.name)
		if (err == nil) != c.mercer {
			t.Errorf("ParseKernelKind(%q) = %v; want an error only for non-kernels", c.name, err)
		}
		if c.kind == Sigmoid || c.kind == NegSqDist {
			if !errors.Is(err, ErrParameters) || !strings.Contains(err.Error(), "not a kernel") {
				t.Errorf("ParseKernelKind(%q) = %v, want ErrParameters saying it is not a kernel", c.name, err)
			}
		}
	}
	if _, err := ParseFunctionKind("tanh"); !errors.Is(err, ErrParameters) || !strings.Contains(err.Error(), "neg-sqdist") {
		t.Errorf("ParseFunctionKind(tanh) = %v", err)
	}
	x, z := []float64{1, 2}, []float64{3, -1}
	if got, want := (Kernel{Kind: Sigmoid, Gamma: 0.5, Coef0: -1}).Eval(x, z), math.Tanh(-0.5); got != want {
		t.Errorf("sigmoid = %v, want tanh(0.5·1 − 1) = %v", got, want)
	}
	if got := (Kernel{Kind: NegSqDist}).Eval(x, z); got != -13 {
		t.Errorf("neg-sqdist = %v, want −‖(−2, 3)‖² = −13", got)
	}
}

// TestTrainersRefuseNonKernels: New refuses what is not a kernel with
// ErrParameters (kernel Pegasos too: primal.TestKernelPegasosRefusesNonKernels);
// ValidateFunction allows it.
func TestTrainersRefuseNonKernels(t *testing.T) {
	x, y := [][]float64{{0, 0}, {1, 1}}, []int{-1, 1}
	for _, k := range []Kernel{{Kind: Sigmoid, Gamma: 1, Coef0: 0}, {Kind: NegSqDist}} {
		p := DefaultParams()
		p.Kernel = k
		_, _, err := New(x, y, p)
		if !errors.Is(err, ErrParameters) || !strings.Contains(err.Error(), "not a kernel") || !strings.Contains(err.Error(), "negative eigenvalues") {
			t.Errorf("New with %v: %v, want ErrParameters saying it is not a kernel", k, err)
		}
		if err := k.ValidateFunction(); err != nil {
			t.Errorf("%v.ValidateFunction() = %v", k, err)
		}
	}
}

func TestValidateFunction(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	good := []Kernel{
		{Kind: Linear}, {Kind: NegSqDist}, {Kind: Linear, Gamma: -1}, // gamma unread
		{Kind: Poly, Gamma: 1, Coef0: -5, Degree: 1}, {Kind: Poly, Gamma: 2, Coef0: 0, Degree: MaxDegree},
		{Kind: Sigmoid, Gamma: 1, Coef0: -1}, {Kind: Sigmoid, Gamma: 0.01, Coef0: 3},
		{Kind: RBF, Gamma: 1e-9}, {Kind: Laplace, Gamma: 1e9},
	}
	for _, k := range good {
		if err := k.ValidateFunction(); err != nil {
			t.Errorf("%+v: %v", k, err)
		}
	}
	bad := []struct {
		k    Kernel
		want string
	}{
		{Kernel{Kind: RBF}, "γ"},
		{Kernel{Kind: Laplace, Gamma: inf}, "γ"},
		{Kernel{Kind: Sigmoid, Gamma: nan}, "γ"},
		{Kernel{Kind: Sigmoid, Gamma: 1, Coef0: inf}, "sigmoid coef0"},
		{Kernel{Kind: Poly, Gamma: 1, Coef0: nan, Degree: 2}, "poly coef0"},
		{Kernel{Kind: Poly, Gamma: 1, Degree: 0}, "degree"},
		{Kernel{Kind: Poly, Gamma: 1, Degree: MaxDegree + 1}, "degree"},
		{Kernel{Kind: 7}, "unknown"},
	}
	for _, c := range bad {
		if err := c.k.ValidateFunction(); !errors.Is(err, ErrParameters) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want ErrParameters mentioning %q", c.k, err, c.want)
		}
	}
}

// ExampleEigenvalues shows why −‖x − z‖² is not a kernel: its Gram
// matrix on two points has a negative eigenvalue.
func ExampleEigenvalues() {
	K := Gram(Kernel{Kind: NegSqDist}, [][]float64{{0, 0}, {3, 4}})
	sp, err := Eigenvalues(K)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(mat.Formatted(K), sp.Values, sp.PSD)
	// Output:
	// ⎡  0  -25⎤
	// ⎣-25    0⎦ [-25 25] false
}

// TestSpectrumNegatives counts only the eigenvalues negative beyond the
// PSD tolerance, and PSD agrees with it.
func TestSpectrumNegatives(t *testing.T) {
	for _, tt := range []struct {
		vals []float64
		want int
	}{
		{[]float64{-2, -1e-3, -1e-12, 0, 5}, 2},
		{[]float64{-4e-9, 1, 10}, 0},
		{[]float64{-2e-8, 1, 10}, 1},
		{nil, 0},
	} {
		if got := (Spectrum{Values: tt.vals}).Negatives(); got != tt.want {
			t.Errorf("Negatives(%v) = %d, want %d", tt.vals, got, tt.want)
		}
	}
	K := Gram(Kernel{Kind: Sigmoid, Gamma: 1, Coef0: -1}, [][]float64{{1, 0}, {3, 0}, {0, 2}})
	sp, err := Eigenvalues(K)
	if err != nil {
		t.Fatal(err)
	}
	if sp.PSD != (sp.Negatives() == 0) || sp.PSD {
		t.Errorf("tanh(⟨x, z⟩ − 1): PSD %v with %d negative eigenvalues %v", sp.PSD, sp.Negatives(), sp.Values)
	}
}
