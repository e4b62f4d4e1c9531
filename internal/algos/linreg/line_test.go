package linreg

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestLossValue(t *testing.T) {
	for _, tc := range []struct {
		loss     Loss
		r, param float64
		want     float64
		wantName string
	}{
		{Squared, -3, 0, 9, "squared"},
		{Absolute, -3, 0, 3, "absolute"},
		{Huber, 0.5, 1, 0.125, "huber"}, // r²/2
		{Huber, -3, 1, 2.5, "huber"},    // δ(|r| − δ/2) = 3 − 0.5
		{Huber, 1, 1, 0.5, "huber"},     // both branches meet at |r| = δ
		{EpsInsensitive, 0.3, 0.5, 0, "eps-insensitive"},
		{EpsInsensitive, -2, 0.5, 1.5, "eps-insensitive"},
	} {
		if got := tc.loss.Value(tc.r, tc.param); got != tc.want {
			t.Errorf("%v.Value(%v, %v) = %v, want %v", tc.loss, tc.r, tc.param, got, tc.want)
		}
		if tc.loss.String() != tc.wantName {
			t.Errorf("String() = %q, want %q", tc.loss.String(), tc.wantName)
		}
	}
	if got := Loss(9).Value(1, 1); !math.IsNaN(got) || Loss(9).String() != "Loss(9)" {
		t.Errorf("unknown loss: Value %v, String %q", got, Loss(9).String())
	}
}

// lineData is a noisy line with a few gross outliers.
func lineData(n int, seed uint64) ([]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 2))
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = 4 * r.Float64()
		y[i] = 1.5*x[i] - 1 + 0.4*r.NormFloat64()
		if i%7 == 3 {
			y[i] += 8 * r.NormFloat64()
		}
	}
	return x, y
}

// bruteVertices is the least objective over lines through two of the
// points (xᵢ, yᵢ + sᵢ) and (xⱼ, yⱼ + sⱼ), sᵢ, sⱼ ∈ shifts. For a
// piecewise-linear convex objective some minimiser is a vertex of its
// pieces: a line through two data points for the absolute loss (the
// classic LAD fact), through two points shifted by ±ε for the
// ε-insensitive one.
func bruteVertices(x, y []float64, l Loss, param float64, shifts []float64) float64 {
	best := math.Inf(1)
	for i := range x {
		for j := range x {
			if x[i] == x[j] {
				continue
			}
			for _, si := range shifts {
				for _, sj := range shifts {
					w := (y[j] + sj - y[i] - si) / (x[j] - x[i])
					b := y[i] + si - w*x[i]
					best = math.Min(best, lineLoss(x, y, l, param, w, b))
				}
			}
		}
	}
	return best
}

func TestFitLinePiecewiseLinear(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		x, y := lineData(14+int(seed), seed)
		for _, tc := range []struct {
			loss   Loss
			param  float64
			shifts []float64
		}{
			{Absolute, 0, []float64{0}},
			{EpsInsensitive, 0.3, []float64{-0.3, 0.3}},
			{EpsInsensitive, 0, []float64{0}},
		} {
			w, b, err := FitLine(x, y, tc.loss, tc.param)
			if err != nil {
				t.Fatal(err)
			}
			got := lineLoss(x, y, tc.loss, tc.param, w, b)
			want := bruteVertices(x, y, tc.loss, tc.param, tc.shifts)
			if math.Abs(got-want) > 1e-9*want {
				t.Errorf("seed %d, %v(%v): objective %.15g at (%v, %v), brute force %.15g", seed, tc.loss, tc.param, got, w, b, want)
			}
		}
	}
}

// TestFitLineHuber checks the Huber line by its optimality certificate:
// the objective is differentiable, so (w, b) is the minimiser iff
// ∇ = (1/n) Σ ψ(rᵢ)(xᵢ, 1) = 0 with ψ(r) = clip(r, −δ, δ), computed here
// from the definition. Neighbouring lines must not do better either; and
// with δ so wide that every residual is quadratic, Huber is ½ squared
// and gives the least-squares line.
func TestFitLineHuber(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		x, y := lineData(40, seed)
		for _, delta := range []float64{0.003, 0.3, 1, 2.5} {
			w, b, err := FitLine(x, y, Huber, delta)
			if err != nil {
				t.Fatal(err)
			}
			var gw, gb, scale float64
			for i := range x {
				psi := math.Max(-delta, math.Min(delta, w*x[i]+b-y[i]))
				gw += psi * x[i] / float64(len(x))
				gb += psi / float64(len(x))
				scale += delta * (1 + math.Abs(x[i])) / float64(len(x))
			}
			if math.Hypot(gw, gb) > 1e-12*scale {
				t.Errorf("seed %d δ %v: gradient (%g, %g) at (%v, %v), want 0", seed, delta, gw, gb, w, b)
			}
			f := lineLoss(x, y, Huber, delta, w, b)
			for _, h := range [][2]float64{{1e-6, 0}, {-1e-6, 0}, {0, 1e-6}, {0, -1e-6}, {1e-6, -1e-6}} {
				if g := lineLoss(x, y, Huber, delta, w+h[0], b+h[1]); g < f {
					t.Errorf("seed %d δ %v: the line moved by %v has objective %.17g < %.17g", seed, delta, h, g, f)
				}
			}
		}
		w, b, err := FitLine(x, y, Huber, 1e6)
		if err != nil {
			t.Fatal(err)
		}
		ws, bs, err := FitLine(x, y, Squared, 0)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(w-ws) > 1e-9*math.Abs(ws) || math.Abs(b-bs) > 1e-9*(1+math.Abs(bs)) {
			t.Errorf("Huber with huge δ = (%v, %v), least squares (%v, %v)", w, b, ws, bs)
		}
	}
}

// TestFitLineByHand: hand-worked lines.
func TestFitLineByHand(t *testing.T) {
	// Three points on y = 2x + 1 and one outlier at x = 3: LAD passes
	// through the three, least squares does not.
	x := []float64{0, 1, 2, 3}
	y := []float64{1, 3, 5, 100}
	if w, b, err := FitLine(x, y, Absolute, 0); err != nil || math.Abs(w-2) > 1e-12 || math.Abs(b-1) > 1e-12 {
		t.Errorf("LAD = (%v, %v), %v; want (2, 1)", w, b, err)
	}
	// Least squares on the same: slope Σ(x−1.5)(y−27.25)/Σ(x−1.5)² = 149.5/5.
	if w, _, err := FitLine(x, y, Squared, 0); err != nil || math.Abs(w-29.9) > 1e-12 {
		t.Errorf("least squares slope %v, %v; want 29.9", w, err)
	}
	// All x equal: only the level is determined; w = 0 and b the median.
	if w, b, err := FitLine([]float64{2, 2, 2}, []float64{5, -1, 0}, Absolute, 0); err != nil || w != 0 || b != 0 {
		t.Errorf("LAD on equal x = (%v, %v), %v; want (0, 0)", w, b, err)
	}
	// One point with a wide tube: the tube's middle.
	if w, b, err := FitLine([]float64{1}, []float64{4}, EpsInsensitive, 2); err != nil || w != 0 || b != 4 {
		t.Errorf("ε-insensitive on one point = (%v, %v), %v; want (0, 4)", w, b, err)
	}
	// Even count, Absolute, equal x: midpoint of the two middle values.
	if _, b, _ := FitLine([]float64{0, 0, 0, 0}, []float64{1, 2, 4, 9}, Absolute, 0); b != 3 {
		t.Errorf("LAD level of 1, 2, 4, 9 = %v, want 3", b)
	}
}

func TestFitLineDeterministic(t *testing.T) {
	x, y := lineData(200, 9)
	for _, l := range []Loss{Squared, Absolute, Huber, EpsInsensitive} {
		w1, b1, _ := FitLine(x, y, l, 0.5)
		w2, b2, _ := FitLine(x, y, l, 0.5)
		if math.Float64bits(w1) != math.Float64bits(w2) || math.Float64bits(b1) != math.Float64bits(b2) {
			t.Errorf("%v: two runs gave (%v, %v) and (%v, %v)", l, w1, b1, w2, b2)
		}
	}
}

func TestFitLineErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		x, y  []float64
		loss  Loss
		param float64
		want  error
	}{
		{"empty", nil, nil, Absolute, 0, ErrParameters},
		{"lengths", []float64{1, 2}, []float64{1}, Absolute, 0, ErrParameters},
		{"NaN", []float64{1, math.NaN()}, []float64{1, 2}, Absolute, 0, ErrNotFinite},
		{"δ = 0", []float64{1, 2}, []float64{1, 2}, Huber, 0, ErrParameters},
		{"ε < 0", []float64{1, 2}, []float64{1, 2}, EpsInsensitive, -1, ErrParameters},
		{"unknown loss", []float64{1, 2}, []float64{1, 2}, Loss(7), 0, ErrParameters},
	} {
		if _, _, err := FitLine(tc.x, tc.y, tc.loss, tc.param); !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestMiddle checks the selection-based median against sorting, with
// duplicates, on every size up to 70.
func TestMiddle(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for n := 1; n <= 70; n++ {
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(r.IntN(n/2 + 1))
		}
		sorted := slices.Sorted(slices.Values(s))
		want := (sorted[(n-1)/2] + sorted[n/2]) / 2
		if got := middle(slices.Clone(s)); got != want {
			t.Errorf("n = %d: middle(%v) = %v, want %v", n, s, got, want)
		}
		k := r.IntN(n)
		c := slices.Clone(s)
		if got := selectK(c, k); got != sorted[k] || slices.Max(c[:k+1]) != got || slices.Min(c[k:]) != got {
			t.Errorf("n = %d: selectK(k = %d) = %v, want %v with smaller values first", n, k, got, sorted[k])
		}
	}
}

func BenchmarkFitLine500(b *testing.B) {
	x, y := lineData(500, 3)
	for _, l := range []Loss{Absolute, Huber, EpsInsensitive} {
		b.Run(l.String(), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := FitLine(x, y, l, 0.5); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
