package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Curve is a regression data set of one input: observations
// Y[i] = F(X[i]) + noise, with F the true function a lesson can draw
// beside a fit.
type Curve struct {
	X, Y []float64
	F    func(x float64) float64
}

// CurveSpec names a built-in curve and its knobs.
type CurveSpec struct {
	Name  string  // one of CurveNames
	N     int     // observations, MinN to MaxN
	Noise float64 // standard deviation of the Gaussian noise on y, 0 to 1
	Seed  uint64
}

// curves are the true functions, in the order a menu shows them. Each
// stays within about ±1.2 on [−1, 1], so every set shares one view.
var curves = []struct {
	name string
	f    func(float64) float64
}{
	{"sine", func(x float64) float64 { return math.Sin(math.Pi * x) }},
	{"line", func(x float64) float64 { return 0.8*x + 0.3 }},
	{"cubic", func(x float64) float64 { return 2*x*x*x - x }},
}

// CurveNames returns the names of the built-in curves.
func CurveNames() []string {
	out := make([]string, len(curves))
	for i, c := range curves {
		out[i] = c.name
	}
	return out
}

// CurveTruth returns the true function of the curve name.
func CurveTruth(name string) (func(float64) float64, bool) {
	for _, c := range curves {
		if c.name == name {
			return c.f, true
		}
	}
	return nil, false
}

// NewCurve draws the curve s names: N inputs in [−1, 1], one in each of N
// equal strata at a random place in its middle 80 %, in increasing order,
// so that any two are at least 0.4·2/N ≥ 0.0016 apart and stay distinct
// after rounding to four decimals (an interpolating polynomial needs
// distinct inputs, Thm 1.3.2), and y = F(x) plus Gaussian noise, rounded
// to three decimals so URLs and CSV stay short. The same spec gives the
// same set.
func NewCurve(s CurveSpec) (Curve, error) {
	f, ok := CurveTruth(s.Name)
	switch {
	case !ok:
		return Curve{}, fmt.Errorf("%w %q; choose one of %v", ErrUnknown, s.Name, CurveNames())
	case s.N < MinN || s.N > MaxN:
		return Curve{}, fmt.Errorf("dataset: %d observations asked for; give %d to %d", s.N, MinN, MaxN)
	case !(s.Noise >= 0 && s.Noise <= 1):
		return Curve{}, fmt.Errorf("dataset: noise %v asked for; give 0 to 1", s.Noise)
	}
	r := rand.New(rand.NewPCG(s.Seed, 0x6375727665)) // "curve"
	c := Curve{X: make([]float64, s.N), Y: make([]float64, s.N), F: f}
	width := 2 / float64(s.N)
	for i := range s.N {
		x := -1 + width*(float64(i)+0.1+0.8*r.Float64())
		c.X[i] = math.Round(x*1e4) / 1e4
		c.Y[i] = round3(f(c.X[i]) + s.Noise*r.NormFloat64())
	}
	return c, nil
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
