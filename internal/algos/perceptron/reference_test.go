package perceptron

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/dataset"
)

// ref is what referenceFit returns.
type ref struct {
	w, avgW             []float64
	b, avgB             float64
	t, mistakes, epochs int
	violations          int // updates at a score in (0, margin]
	converged, cycled   bool
}

// referenceFit is Algorithm 1 (with η, margin and Algorithm 7's averaging)
// written as plainly as possible, straight from the notes, with none of
// the package's machinery: an independent route to the same numbers.
// After each epoch it stops, in this order of precedence, when the epoch
// made no update (converged), when (w, b) equals its value at the start of
// an earlier epoch (cycled: also on the last allowed epoch, as the package
// documents), or when the epochs are used up. With fixed it runs every
// epoch and ends converged only if the last one made no update.
func referenceFit(x [][]float64, y []int, eta, margin float64, maxEpochs int, fixed bool) ref {
	d := len(x[0])
	var r ref
	w, u := make([]float64, d), make([]float64, d)
	var b, beta float64
	c := 1.0
	starts := [][]float64{append(slices.Clone(w), b)} // (w, b) at each epoch start
	for r.epochs < maxEpochs {
		epochMistakes := 0
		for i := range x {
			r.t++
			yi := float64(y[i])
			score := b
			for j := range w {
				score += float64(w[j] * x[i][j])
			}
			if yi*score <= margin {
				for j := range w {
					w[j] += float64(eta * yi * x[i][j])
					u[j] += float64(eta * yi * c * x[i][j])
				}
				b += eta * yi
				beta += float64(eta * yi * c)
				r.mistakes++
				epochMistakes++
				if yi*score > 0 {
					r.violations++
				}
			}
			c++
		}
		r.epochs++
		if fixed {
			r.converged = epochMistakes == 0
			continue
		}
		if epochMistakes == 0 {
			r.converged = true
			break
		}
		end := append(slices.Clone(w), b)
		for _, s := range starts {
			if slices.Equal(s, end) {
				r.cycled = true
			}
		}
		if r.cycled {
			break
		}
		starts = append(starts, end)
	}
	r.w, r.b = w, b
	r.avgW = make([]float64, d)
	for j := range w {
		r.avgW[j] = w[j] - u[j]/c
	}
	r.avgB = b - beta/c
	return r
}

// checkReference runs the package and referenceFit on the same problem and
// fails unless they agree on the classifier, the counts and the status.
func checkReference(t *testing.T, name string, x [][]float64, y []int, p Params) algos.Status {
	t.Helper()
	want := referenceFit(x, y, p.Eta, p.Margin, p.MaxEpochs, p.FixedEpochs)
	pr, s, err := Run(Data{X: x, Y: y}, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	gw, gb := pr.Classifier(s, 0)
	ww, wb := want.w, want.b
	if p.Average {
		ww, wb = want.avgW, want.avgB
	}
	wantStatus := algos.IterationLimit
	switch {
	case want.converged:
		wantStatus = algos.Converged
	case want.cycled:
		wantStatus = algos.CycleDetected
	}
	if !slices.Equal(gw, ww) || gb != wb || s.T != want.t || s.Mistakes != want.mistakes || s.Violations != want.violations || s.Epoch != want.epochs || s.Status != wantStatus {
		t.Fatalf("%s (n=%d d=%d %+v): got w=%v b=%v t=%d m=%d v=%d e=%d %v; reference w=%v b=%v t=%d m=%d v=%d e=%d %v",
			name, len(x), len(x[0]), p, gw, gb, s.T, s.Mistakes, s.Violations, s.Epoch, s.Status, ww, wb, want.t, want.mistakes, want.violations, want.epochs, wantStatus)
	}
	return s.Status
}

// TestReferenceEdges pins the cases random trials may miss: a cycle that
// closes on the last allowed epoch is CycleDetected, not IterationLimit
// (XOR returns to w = 0, b = 0 after its first epoch); a clean last epoch
// is Converged; and FixedEpochs runs through both.
func TestReferenceEdges(t *testing.T) {
	tests := []struct {
		name  string
		d     Data
		p     func(*Params)
		want  algos.Status
		steps int
	}{
		{"xor cycle on last epoch", xorData, func(p *Params) { p.MaxEpochs = 1 }, algos.CycleDetected, 4},
		{"xor cycle before limit", xorData, func(p *Params) { p.MaxEpochs = 2 }, algos.CycleDetected, 4},
		{"or converges on last epoch", orData, func(p *Params) { p.MaxEpochs = 6 }, algos.Converged, 24},
		{"or one epoch short", orData, func(p *Params) { p.MaxEpochs = 5 }, algos.IterationLimit, 20},
		{"xor fixed epochs", xorData, func(p *Params) { p.MaxEpochs, p.FixedEpochs = 3, true }, algos.IterationLimit, 12},
		{"or fixed epochs", orData, func(p *Params) { p.MaxEpochs, p.FixedEpochs, p.Average = 9, true, true }, algos.Converged, 36},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultParams()
			tt.p(&p)
			if got := checkReference(t, tt.name, tt.d.X, tt.d.Y, p); got != tt.want {
				t.Errorf("status = %v, want %v", got, tt.want)
			}
			if _, s, _ := Run(tt.d, p, nil); s.T != tt.steps {
				t.Errorf("steps = %d, want %d", s.T, tt.steps)
			}
		})
	}
}

// TestAgainstReference compares Run with referenceFit on random data sets:
// separable and not, integer grids (whose updates cancel exactly, so
// cycles show) and real values, with several η and margins.
func TestAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	outcomes := map[algos.Status]int{}
	defer func() {
		// The trials must exercise every way a run can end.
		for _, o := range []algos.Status{algos.Converged, algos.CycleDetected, algos.IterationLimit} {
			if outcomes[o] == 0 {
				t.Errorf("no trial ended %q: %v", o, outcomes)
			}
		}
	}()
	for trial := range 300 {
		n, d := 2+r.IntN(12), 1+r.IntN(4)
		x := make([][]float64, n)
		y := make([]int, n)
		integer := trial%2 == 0
		for i := range x {
			x[i] = make([]float64, d)
			for j := range x[i] {
				if integer {
					x[i][j] = float64(r.IntN(5) - 2)
				} else {
					x[i][j] = r.NormFloat64()
				}
			}
			y[i] = 1 - 2*r.IntN(2)
		}
		p := DefaultParams()
		p.MaxEpochs = 1 + r.IntN(60)
		if trial%7 == 0 {
			p.MaxEpochs = 1 + r.IntN(2) // where cycles meet the limit
		}
		p.Eta = []float64{1, 0.5, 2, 0.1}[trial%4]
		p.Margin = []float64{0, 0, 1, 0.25}[(trial/4)%4]
		p.Average = trial%3 == 0
		p.FixedEpochs = trial%5 == 0
		outcomes[checkReference(t, fmt.Sprintf("trial %d", trial), x, y, p)]++
	}
}

// TestBoundOR checks Bound against the max-margin separator of OR worked
// by hand: (w*, b*) = (2, 2, −1)/3, γ = 1/3, C = √3, so C²/γ² = 27.
func TestBoundOR(t *testing.T) {
	mb := Bound(context.Background(), orData.X, orData.Y)
	near := func(a, b float64) bool { return a-b < 1e-6 && b-a < 1e-6 }
	if !mb.Separable || !near(mb.Gamma, 1.0/3) || !near(mb.W[0], 2.0/3) || !near(mb.W[1], 2.0/3) || !near(mb.B, -1.0/3) || !(mb.Mistakes >= 27 && mb.Mistakes-27 < 1e-5) {
		t.Errorf("Bound(context.Background(), OR) = %+v, want w* = (2/3, 2/3), b* = −1/3, γ = 1/3, bound 27", mb)
	}
}

// bruteMaxMargin solves min ½‖v‖² s.t. yᵢ⟨x̃ᵢ, v⟩ ≥ 1 on tiny data by
// trying every set S of at most three active constraints: v = Σ_S αᵢyᵢx̃ᵢ
// with yᵢ⟨x̃ᵢ, v⟩ = 1 on S (a Gram system solved with gonum/mat), kept
// when α ≥ 0 and every constraint holds. The shortest such v is optimal
// (KKT), so γ = 1/‖v‖. It returns 0 when no v is feasible.
func bruteMaxMargin(x [][]float64, y []int) float64 {
	n := len(x)
	aug := make([][]float64, n)
	for i := range x {
		aug[i] = append(slices.Clone(x[i]), 1)
	}
	best := math.Inf(1)
	var try func(start int, s []int)
	try = func(start int, s []int) {
		if len(s) > 0 {
			k := len(s)
			g := mat.NewDense(k, k, nil)
			for a, i := range s {
				for b, j := range s {
					g.Set(a, b, float64(y[i]*y[j])*floats.Dot(aug[i], aug[j]))
				}
			}
			ones := mat.NewVecDense(k, nil)
			for a := range k {
				ones.SetVec(a, 1)
			}
			var alpha mat.VecDense
			if err := alpha.SolveVec(g, ones); err == nil && mat.Min(&alpha) >= -1e-12 {
				v := make([]float64, len(aug[0]))
				for a, i := range s {
					floats.AddScaled(v, alpha.AtVec(a)*float64(y[i]), aug[i])
				}
				feasible := true
				for i := range aug {
					feasible = feasible && float64(y[i])*floats.Dot(v, aug[i]) >= 1-1e-9
				}
				if norm := floats.Norm(v, 2); feasible && norm < best {
					best = norm
				}
			}
		}
		if len(s) == 3 {
			return
		}
		for i := start; i < n; i++ {
			try(i+1, append(s, i))
		}
	}
	try(0, nil)
	if math.IsInf(best, 1) {
		return 0
	}
	return 1 / best
}

// TestBoundAgainstBruteForce: Bound's SMO solve reaches the same
// margin as the exhaustive active-set search on small random sets.
func TestBoundAgainstBruteForce(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		name := []string{"separable", "noisy"}[seed%2]
		set, _ := dataset.New(dataset.Spec{Name: name, N: 9, Margin: 0.3, Seed: seed})
		want := bruteMaxMargin(set.X, set.Y)
		mb := Bound(context.Background(), set.X, set.Y)
		if (want > 0) != mb.Separable || math.Abs(mb.Gamma-want) > 1e-6*math.Max(1, want) {
			t.Errorf("%s seed %d: Bound γ = %v (separable %v), brute force %v", name, seed, mb.Gamma, mb.Separable, want)
		}
	}
}
