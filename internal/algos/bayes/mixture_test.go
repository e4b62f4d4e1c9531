package bayes

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestEta compares η with Bayes' rule on the textbook densities:
// π p₊ / (π p₊ + (1 − π) p₋), and h* with η > ½.
func TestEta(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range unequal {
		m, _ := New(c.pi, c.mp, c.cp, c.mn, c.cn)
		pos, neg := density(c.mp, c.cp), density(c.mn, c.cn)
		for range 200 {
			x := []float64{4*r.Float64() - 2, 4*r.Float64() - 2}
			a, b := c.pi*pos(x[0], x[1]), (1-c.pi)*neg(x[0], x[1])
			want := a / (a + b)
			if got := m.Eta(x); math.Abs(got-want) > 1e-12 {
				t.Fatalf("%s: Eta(%v) = %v, want %v", c.name, x, got, want)
			}
			if l := m.LogOdds(x); math.Abs(l-math.Log(a/b)) > 1e-12*math.Max(1, math.Abs(l)) {
				t.Fatalf("%s: LogOdds(%v) = %v, want %v", c.name, x, l, math.Log(a/b))
			}
			if h, want := m.BayesClassifier(x), map[bool]int{true: 1, false: -1}[a > b]; h != want && math.Abs(a-b) > 1e-12*(a+b) {
				t.Fatalf("%s: BayesClassifier(%v) = %d, want %d", c.name, x, h, want)
			}
		}
	}
}

// TestBoundary: on the bisector of a symmetric mixture η = ½ exactly and
// h* = −1 (Margin's rule for ties, the lower label; the notes say +1);
// just off it h* follows the nearer mean.
func TestBoundary(t *testing.T) {
	m, _ := NewIsotropic(0.5, [2]float64{1, 0}, [2]float64{-1, 0}, 1)
	for _, c := range []struct {
		x    []float64
		want int
	}{{[]float64{0, 3}, -1}, {[]float64{1e-9, 0}, 1}, {[]float64{-1e-9, 0}, -1}, {[]float64{0, 0, 0}, 0}, {nil, 0}} {
		if got := m.BayesClassifier(c.x); got != c.want {
			t.Errorf("BayesClassifier(%v) = %d, want %d", c.x, got, c.want)
		}
	}
	if got := m.Eta([]float64{0, -2}); got != 0.5 {
		t.Errorf("Eta on the bisector = %v, want 0.5", got)
	}
	if got := m.Eta([]float64{1}); !math.IsNaN(got) {
		t.Errorf("Eta of a 1-D point = %v, want NaN", got)
	}
}

func TestParamErrors(t *testing.T) {
	id := [2][2]float64{{1, 0}, {0, 1}}
	zero := [2]float64{}
	for _, c := range []struct {
		name string
		err  func() error
		want string
	}{
		{"π = 0", func() error { _, err := NewIsotropic(0, zero, zero, 1); return err }, "0 < π < 1"},
		{"π = 1", func() error { _, err := NewIsotropic(1, zero, zero, 1); return err }, "0 < π < 1"},
		{"π NaN", func() error { _, err := NewIsotropic(math.NaN(), zero, zero, 1); return err }, "0 < π < 1"},
		{"σ = 0", func() error { _, err := NewIsotropic(0.5, zero, zero, 0); return err }, "σ > 0"},
		{"σ Inf", func() error { _, err := NewIsotropic(0.5, zero, zero, math.Inf(1)); return err }, "σ > 0"},
		{"mean NaN", func() error { _, err := New(0.5, [2]float64{math.NaN(), 0}, id, zero, id); return err }, "finite"},
		{"asymmetric", func() error { _, err := New(0.5, zero, [2][2]float64{{1, 0.2}, {0.1, 1}}, zero, id); return err }, "not symmetric"},
		{"indefinite", func() error { _, err := New(0.5, zero, id, zero, [2][2]float64{{1, 2}, {2, 1}}); return err }, "not positive definite"},
		{"zero variance", func() error { _, err := New(0.5, zero, [2][2]float64{{0, 0}, {0, 1}}, zero, id); return err }, "positive definite"},
	} {
		err := c.err()
		if !errors.Is(err, ErrParams) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrParams saying %q", c.name, err, c.want)
		}
	}
	m, _ := NewIsotropic(0.5, zero, [2]float64{1, 1}, 1)
	if _, _, err := m.Sample(-1, 1); err == nil {
		t.Error("Sample(-1) gave no error")
	}
	if _, _, err := m.Sample(MaxSample+1, 1); err == nil {
		t.Error("Sample(MaxSample+1) gave no error")
	}
	if _, _, err := m.Risk(m.BayesClassifier, 0, 1); err == nil {
		t.Error("Risk with 0 points gave no error")
	}
}

// TestSample: the same seed gives the same points bit for bit, a longer
// sample starts with the shorter one, and the class frequency and class
// means match π and μ within 4 standard errors.
func TestSample(t *testing.T) {
	c := unequal[0]
	m, _ := New(c.pi, c.mp, c.cp, c.mn, c.cn)
	x1, y1, _ := m.Sample(50000, 3)
	x2, y2, _ := m.Sample(100, 3)
	if !slices.Equal(y1[:100], y2) {
		t.Fatal("Sample(100, 3) labels are not the first 100 of Sample(50000, 3)")
	}
	for i := range x2 {
		if !slices.Equal(x1[i], x2[i]) {
			t.Fatalf("point %d: %v then %v", i, x1[i], x2[i])
		}
	}
	var n [2]int
	var sum [2][2]float64
	for i, y := range y1 {
		k := (1 - y) / 2 // +1 → 0, −1 → 1
		n[k]++
		sum[k][0] += x1[i][0]
		sum[k][1] += x1[i][1]
	}
	if p, se := float64(n[0])/50000, math.Sqrt(c.pi*(1-c.pi)/50000); math.Abs(p-c.pi) > 4*se {
		t.Errorf("fraction of +1 = %v, want π = %v ± %v", p, c.pi, se)
	}
	for k, mu := range [2][2]float64{c.mp, c.mn} {
		cov := [2][2][2]float64{c.cp, c.cn}[k]
		for j := range 2 {
			se := math.Sqrt(cov[j][j] / float64(n[k]))
			if got := sum[k][j] / float64(n[k]); math.Abs(got-mu[j]) > 4*se {
				t.Errorf("class %d coordinate %d: mean %v, want %v ± %v", k, j, got, mu[j], se)
			}
		}
	}
}

// TestRisk: Risk(h, n, seed) is the error of h on Sample(n, seed), and
// for the constant classifier +1 it estimates 1 − π.
func TestRisk(t *testing.T) {
	c := unequal[3]
	m, _ := New(c.pi, c.mp, c.cp, c.mn, c.cn)
	x, y, _ := m.Sample(3000, 9)
	wrong := 0
	for i := range x {
		if m.BayesClassifier(x[i]) != y[i] {
			wrong++
		}
	}
	if got, _, _ := m.Risk(m.BayesClassifier, 3000, 9); got != float64(wrong)/3000 {
		t.Errorf("Risk = %v, want the error on Sample(3000, 9), %v", got, float64(wrong)/3000)
	}
	got, se, _ := m.Risk(func([]float64) int { return 1 }, 100000, 2)
	if math.Abs(got-(1-c.pi)) > 4*se {
		t.Errorf("risk of h ≡ +1 = %v ± %v, want 1 − π = %v", got, se, 1-c.pi)
	}
	// h* beats a plausible rival, the linear rule through the midpoint.
	rival, _, _ := m.Risk(func(x []float64) int {
		if x[0]+x[1] > 0.5 {
			return 1
		}
		return -1
	}, 100000, 2)
	if bayes, _ := m.BayesError(); rival <= bayes {
		t.Errorf("a linear rule's risk %v is not above the Bayes error %v", rival, bayes)
	}
}
