package gd

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos"
)

// run steps st from s0 until it stops or maxK states and returns them all.
func run(t *testing.T, st algos.Method[State], s0 State, maxK int) []State {
	t.Helper()
	states := []State{s0}
	for s := s0; !st.Status(s).Done() && len(states) <= maxK; {
		s = st.Step(s)
		states = append(states, s)
	}
	return states
}

func mustQuad(t *testing.T, a [][]float64, c []float64) *Quadratic {
	t.Helper()
	q, err := NewQuadratic(a, c)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// shifted2D is NewQuadratic2D(κ, θ) with c = A·(1, −2), so x* = (1, −2).
func shifted2D(t *testing.T, kappa, theta float64) *Quadratic {
	t.Helper()
	q, err := NewQuadratic2D(kappa, theta)
	if err != nil {
		t.Fatal(err)
	}
	c := []float64{q.A[0][0] - 2*q.A[0][1], q.A[1][0] - 2*q.A[1][1]}
	return mustQuad(t, q.A, c)
}

func TestQuadratic2D(t *testing.T) {
	for _, kappa := range []float64{1, 4, 100} {
		for _, theta := range []float64{0, 0.5, math.Pi / 3, -2} {
			q, err := NewQuadratic2D(kappa, theta)
			if err != nil {
				t.Fatal(err)
			}
			ev := q.Eigenvalues()
			if math.Abs(ev[0]-1) > 1e-12*kappa || math.Abs(ev[1]-kappa) > 1e-12*kappa {
				t.Errorf("κ %v θ %v: eigenvalues %v, want [1 %v]", kappa, theta, ev, kappa)
			}
			if l := q.L(); math.Abs(l-kappa) > 1e-12*kappa {
				t.Errorf("κ %v θ %v: L = %v, want κ", kappa, theta, l)
			}
			// A(cos θ, sin θ) = (cos θ, sin θ): the flat direction.
			u := []float64{math.Cos(theta), math.Sin(theta)}
			g := make([]float64, 2)
			q.Grad(g, u) // c = 0, so ∇f(u) = Au
			if math.Abs(g[0]-u[0]) > 1e-12*kappa || math.Abs(g[1]-u[1]) > 1e-12*kappa {
				t.Errorf("κ %v θ %v: A·u = %v, want u = %v", kappa, theta, g, u)
			}
		}
	}
	for _, c := range []struct{ kappa, theta float64 }{{0.5, 0}, {math.NaN(), 0}, {math.Inf(1), 0}, {2, math.Inf(-1)}} {
		if _, err := NewQuadratic2D(c.kappa, c.theta); !errors.Is(err, ErrParameters) {
			t.Errorf("NewQuadratic2D(%v, %v) error = %v, want ErrParameters", c.kappa, c.theta, err)
		}
	}
}

func TestNewQuadraticErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		a    [][]float64
		c    []float64
		want error
		msg  string
	}{
		{"empty", nil, nil, ErrShape, "empty"},
		{"not square", [][]float64{{1, 2}, {2}}, []float64{0, 0}, ErrShape, "A[1] has 1 entries"},
		{"not symmetric", [][]float64{{1, 2}, {3, 4}}, []float64{0, 0}, ErrShape, "A[0][1] = 2 but A[1][0] = 3"},
		{"c length", [][]float64{{1}}, []float64{0, 0}, ErrShape, "c has 2 entries"},
		{"NaN", [][]float64{{math.NaN()}}, []float64{0}, ErrNotFinite, "A[0]"},
		{"Inf c", [][]float64{{1}}, []float64{math.Inf(1)}, ErrNotFinite, "c has"},
	} {
		_, err := NewQuadratic(c.a, c.c)
		if !errors.Is(err, c.want) || !contains(err, c.msg) {
			t.Errorf("%s: error = %v, want %v mentioning %q", c.name, err, c.want, c.msg)
		}
	}
}

func contains(err error, s string) bool { return err != nil && strings.Contains(err.Error(), s) }

// closedForm returns x* + (I − ηA)ᵏ(x0 − x*) from A's eigendecomposition:
// (I − ηA)ᵏ = V diag((1 − ηλᵢ)ᵏ) Vᵀ, a route that shares nothing with the
// stepper.
func closedForm(q *Quadratic, xs, x0 []float64, eta float64, k int) []float64 {
	var es mat.EigenSym
	es.Factorize(q.sym, true)
	var v mat.Dense
	es.VectorsTo(&v)
	vals := es.Values(nil)
	d := len(xs)
	e := mat.NewVecDense(d, nil)
	for i := range d {
		e.SetVec(i, x0[i]-xs[i])
	}
	var p mat.VecDense
	p.MulVec(v.T(), e)
	for i, l := range vals {
		p.SetVec(i, p.AtVec(i)*math.Pow(1-eta*l, float64(k)))
	}
	var out mat.VecDense
	out.MulVec(&v, &p)
	x := out.RawVector().Data
	for i := range x {
		x[i] += xs[i]
	}
	return x
}

func TestGDQuadraticClosedForm(t *testing.T) {
	spd := [][]float64{{4, 1, 0.5}, {1, 3, -0.2}, {0.5, -0.2, 2}}
	cases := []struct {
		name string
		q    *Quadratic
		x0   []float64
	}{
		{"κ=10 θ=0.4", shifted2D(t, 10, 0.4), []float64{-3, 2}},
		{"κ=1", shifted2D(t, 1, 0), []float64{5, 5}},
		{"κ=50 θ=2", shifted2D(t, 50, 2), []float64{0.5, -7}},
		{"3-D", mustQuad(t, spd, []float64{1, -1, 2}), []float64{1, 2, 3}},
	}
	for _, c := range cases {
		xs, _, err := c.q.Minimiser()
		if err != nil {
			t.Fatal(err)
		}
		L := c.q.L()
		for _, eta := range []float64{0.1 / L, 1 / L, 1.9 / L} {
			g := &GD{F: c.q, Eta: eta, Iters: 60}
			s0, err := g.Init(c.x0)
			if err != nil {
				t.Fatal(err)
			}
			scale := math.Max(1, dist(c.x0, xs))
			for k, s := range run(t, g, s0, 60) {
				want := closedForm(c.q, xs, c.x0, eta, k)
				if d := dist(s.X, want); d > 1e-12*scale {
					t.Fatalf("%s η=%.3g/L: x⁽%d⁾ = %v, closed form %v (off by %.3g)", c.name, eta*L, k, s.X, want, d)
				}
			}
		}
	}
}

func dist(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(s)
}

// TestGDQuadraticTranscription: the iterates are bit for bit
// x ← x − η(Ax − c) computed as g = A·x (row by row, left to right, each
// product rounded), g −= c, x − η·g.
func TestGDQuadraticTranscription(t *testing.T) {
	a := [][]float64{{3.1, 0.7, -0.3}, {0.7, 2.2, 0.11}, {-0.3, 0.11, 1.3}}
	c := []float64{0.3, -1.7, 2.9}
	q := mustQuad(t, a, c)
	eta := 0.37
	g := &GD{F: q, Eta: eta, Iters: 200}
	s0, err := g.Init([]float64{1.5, -2.25, 0.1})
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{1.5, -2.25, 0.1}
	for k, s := range run(t, g, s0, 200) {
		for i := range x {
			if s.X[i] != x[i] {
				t.Fatalf("x⁽%d⁾ = %v, transcription %v", k, s.X, x)
			}
		}
		grad := make([]float64, 3)
		for i := range a {
			for j := range a[i] {
				grad[i] += float64(a[i][j] * x[j])
			}
			grad[i] -= c[i]
		}
		for i := range x {
			x[i] -= float64(eta * grad[i])
		}
	}
}

// TestNoFMA pins results that a fused multiply-add would change: with
// a = 1 + 2⁻³⁰, a·a = 1 + 2⁻²⁹ + 2⁻⁶⁰ rounds to aa = 1 + 2⁻²⁹, so with
// separate roundings a·a − aa is 0 and fused it is 2⁻⁶⁰. It fails on
// machines that fuse (arm64; amd64 with GOAMD64=v3) if the explicit
// roundings are removed.
func TestNoFMA(t *testing.T) {
	a := 1 + math.Ldexp(1, -30)
	aa := 1 + math.Ldexp(1, -29)
	g := make([]float64, 1)
	mustQuad(t, [][]float64{{a}}, []float64{aa}).Grad(g, []float64{a})
	if g[0] != 0 {
		t.Errorf("∇f = a·a − aa = %v, want 0", g[0])
	}
	// f = ½x² − cx with c = 2⁻³⁰ at x = aa: ∇f = aa − 2⁻³⁰ = a, and the
	// step with η = a is aa − a·a = 0.
	gd := &GD{F: mustQuad(t, [][]float64{{1}}, []float64{math.Ldexp(1, -30)}), Eta: a, Iters: 1}
	s, err := gd.Init([]float64{aa})
	if err != nil {
		t.Fatal(err)
	}
	if s = gd.Step(s); s.X[0] != 0 {
		t.Errorf("x⁽¹⁾ = aa − a·a = %v, want 0", s.X[0])
	}
}

func TestNewtonQuadratic(t *testing.T) {
	spd := [][]float64{{4, 1, 0.5}, {1, 3, -0.2}, {0.5, -0.2, 2}}
	for _, q := range []*Quadratic{shifted2D(t, 1000, 0.7), mustQuad(t, spd, []float64{1, -1, 2})} {
		xs, _, err := q.Minimiser()
		if err != nil {
			t.Fatal(err)
		}
		g := &GD{F: q, Method: Newton, Iters: 5}
		s, err := g.Init(make([]float64, q.Dim()))
		if err != nil {
			t.Fatal(err)
		}
		s = g.Step(s)
		if d := dist(s.X, xs); d > 1e-12*math.Max(1, norm(xs)) || s.Eta != 1 || s.K != 1 {
			t.Errorf("one Newton step: x = %v (η %v), want x* = %v", s.X, s.Eta, xs)
		}
	}
	// An indefinite A: Newton jumps to the saddle A⁻¹c in one step.
	q := mustQuad(t, [][]float64{{2, 0}, {0, -1}}, []float64{2, 3})
	g := &GD{F: q, Method: Newton, Iters: 1}
	s, _ := g.Init([]float64{5, 5})
	if s = g.Step(s); dist(s.X, []float64{1, -3}) > 1e-15 {
		t.Errorf("Newton on an indefinite quadratic: x = %v, want the saddle (1, −3)", s.X)
	}
	if _, _, err := q.Minimiser(); !errors.Is(err, ErrNoMinimiser) {
		t.Errorf("Minimiser of an indefinite quadratic: error %v, want ErrNoMinimiser", err)
	}
}

func norm(x []float64) float64 { return dist(x, make([]float64, len(x))) }

// TestDivergence: on a quadratic a constant step above 2/L diverges, and
// the run stops on its last finite iterate; just below 2/L it converges.
func TestDivergence(t *testing.T) {
	q := shifted2D(t, 10, 0.3)
	L := q.L()
	g := &GD{F: q, Eta: 2.05 / L, Iters: 100000}
	s0, _ := g.Init([]float64{0, 0})
	states := run(t, g, s0, 100000)
	last := states[len(states)-1]
	if last.Status != algos.Diverged || last.K >= 100000 || last.K != len(states)-2 {
		t.Fatalf("η = 2.05/L: status %v after %d iterations, want diverged early", last.Status, last.K)
	}
	if !tame(last.X...) || !tame(last.F) || !finite(last.Grad) || !finite([]float64{last.GradNorm}) {
		t.Errorf("diverged state is not finite: %+v", last)
	}
	if prev := states[len(states)-2]; dist(prev.X, last.X) != 0 || prev.F != last.F || prev.K != last.K {
		t.Errorf("diverged state moved off iterate %d: %v → %v", prev.K, prev.X, last.X)
	}
	// The refused step is the one the rule gives from the last iterate,
	// computed here from ∇f and f directly, and it is past the cap.
	grad := make([]float64, 2)
	q.Grad(grad, last.X)
	want := []float64{last.X[0] - g.Eta*grad[0], last.X[1] - g.Eta*grad[1]}
	if len(last.Next) != 2 || dist(last.Next, want) > 1e-12*norm(want) || last.NextF != q.Value(last.Next) {
		t.Errorf("refused step %v with f = %v, want %v with f = %v", last.Next, last.NextF, want, q.Value(want))
	}
	if tame(last.Next...) && tame(last.NextF) {
		t.Errorf("refused step %v with f = %v is within the cap %g", last.Next, last.NextF, Blowup)
	}
	if prev := states[len(states)-2]; prev.Next != nil {
		t.Errorf("a running state holds a refused step %v", prev.Next)
	}
	if again := g.Step(last); again.K != last.K || again.Status != algos.Diverged {
		t.Errorf("Step on a diverged state = %+v, want it unchanged", again)
	}
	// Least squares has a constant Hessian too: the same threshold.
	x, y := line(20, 4)
	ls := mustLS(t, x, y, 0.1)
	for _, c := range []struct {
		scale float64
		want  algos.Status
	}{{2.05, algos.Diverged}, {1.95, algos.IterationLimit}} {
		g := &GD{F: ls, Eta: c.scale / ls.L(), Iters: 20000}
		s0, _ := g.Init([]float64{1, 1, 1})
		if s, _, _ := algos.Replay[State](g, s0, 20000); s.Status != c.want || !tame(s.X...) {
			t.Errorf("least squares, η = %v/L: %v at k = %d, want %v", c.scale, s.Status, s.K, c.want)
		}
	}
	g.Eta = 1.95 / L
	s0, _ = g.Init([]float64{0, 0})
	s, _, _ := algos.Replay[State](g, s0, 3000)
	if s.Status.Done() || dist(s.X, []float64{1, -2}) > 1e-9 {
		t.Errorf("η = 1.95/L: after 3000 steps status %v at %v, want running near x* = (1, −2)", s.Status, s.X)
	}
}

// TestTheorem185 checks f(x⁽ᵏ⁾) − f* ≤ ‖x⁽⁰⁾ − x*‖²/(2ηk) for η ≤ 1/L at
// every k, on quadratics of several shapes.
func TestTheorem185(t *testing.T) {
	for _, kappa := range []float64{1, 3, 30, 300} {
		for _, theta := range []float64{0, 0.4, 1.3} {
			q := shifted2D(t, kappa, theta)
			checkRate(t, fmt.Sprintf("κ %v θ %v", kappa, theta), q, []float64{4, 3}, 500)
		}
	}
}

// checkRate runs GD with η = 1/L and η = 0.3/L and checks Theorem 1.8.5.
func checkRate(t *testing.T, name string, f interface {
	Func
	Minimiser
	Smooth
}, x0 []float64, iters int) {
	t.Helper()
	xs, fs, err := f.Minimiser()
	if err != nil {
		t.Fatal(err)
	}
	r2 := dist(x0, xs) * dist(x0, xs)
	for _, scale := range []float64{1, 0.3} {
		eta := scale / f.L()
		g := &GD{F: f, Eta: eta, Iters: iters}
		s0, err := g.Init(x0)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range run(t, g, s0, iters)[1:] {
			bound := r2 / (2 * eta * float64(s.K))
			if gap := s.F - fs; gap > bound+1e-12*math.Max(1, math.Abs(fs)) {
				t.Fatalf("%s η = %v/L, k = %d: f − f* = %v > %v", name, scale, s.K, gap, bound)
			}
		}
	}
}

// TestTinyMatrices: gonum's EigenSym panics on matrices whose entries are
// all tiny; L, Eigenvalues and Newton's fallback must not.
func TestTinyMatrices(t *testing.T) {
	for _, v := range []float64{1e-200, 1e-310, -1e-150} {
		q := mustQuad(t, [][]float64{{v, v}, {v, 3 * v}}, []float64{v, 0})
		ev := q.Eigenvalues()
		want := []float64{(2 - math.Sqrt2) * v, (2 + math.Sqrt2) * v} // 2v ∓ √2|v|
		if v < 0 {
			want[0], want[1] = want[1], want[0]
		}
		if len(ev) != 2 || math.Abs(ev[0]-want[0]) > 1e-12*math.Abs(v) || math.Abs(ev[1]-want[1]) > 1e-12*math.Abs(v) {
			t.Errorf("A = %v·[1 1; 1 3]: eigenvalues %v, want %v", v, ev, want)
		}
		if l := q.L(); l != ev[1] {
			t.Errorf("A = %v·[1 1; 1 3]: L = %v, want %v", v, l, ev[1])
		}
		g := &GD{F: q, Method: Newton, Iters: 1}
		s, err := g.Init([]float64{1, 1})
		if err != nil {
			t.Fatal(err)
		}
		if v != 1e-310 { // subnormal entries lose the digits to invert exactly
			if s = g.Step(s); s.Status == algos.Diverged || dist(s.X, []float64{1.5, -0.5}) > 1e-9 {
				t.Errorf("A = %v·[1 1; 1 3]: Newton step to %v (%v), want A⁻¹c = (1.5, −0.5)", v, s.X, s.Status)
			}
		}
	}
	// A zero matrix: eigenvalues 0, and Newton's pseudo-inverse step is 0.
	q := mustQuad(t, [][]float64{{0, 0}, {0, 0}}, []float64{0, 0})
	if ev := q.Eigenvalues(); len(ev) != 2 || ev[0] != 0 || ev[1] != 0 || q.L() != 0 {
		t.Errorf("zero A: eigenvalues %v, L %v", ev, q.L())
	}
}
