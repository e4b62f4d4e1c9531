package fit

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func fitSoftmaxJSON(t testing.TB, body string) (*SoftmaxResponse, error) {
	t.Helper()
	return lrRun[*SoftmaxResponse](t, body)
}

// threeClasses returns n points in 2-D, class i%3 around a corner.
func smThreeClasses(seed uint64, n int) ([][]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 2))
	centres := [][]float64{{0, 0}, {2, 0}, {1, 2}}
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		c := i % 3
		y[i] = float64(c)
		x[i] = []float64{centres[c][0] + r.NormFloat64(), centres[c][1] + r.NormFloat64()}
	}
	return x, y
}

// softmaxGrad is ∇J written out again from the definition.
func smGrad(x [][]float64, y []float64, lambda float64, W [][]float64, b []float64) float64 {
	c := len(b)
	var sq float64
	gW := make([][]float64, c)
	gb := make([]float64, c)
	for k := range gW {
		gW[k] = make([]float64, len(x[0]))
	}
	for i, row := range x {
		z := make([]float64, c)
		var top, sum float64 = math.Inf(-1), 0
		for k := range z {
			z[k] = b[k]
			for j, v := range row {
				z[k] += W[k][j] * v
			}
			top = math.Max(top, z[k])
		}
		for k := range z {
			z[k] = math.Exp(z[k] - top)
			sum += z[k]
		}
		for k := range z {
			r := z[k] / sum
			if float64(k) == y[i] {
				r--
			}
			for j, v := range row {
				gW[k][j] += r * v / float64(len(x))
			}
			gb[k] += r / float64(len(x))
		}
	}
	for k := range gW {
		for j := range gW[k] {
			g := gW[k][j] + lambda*W[k][j]
			sq += g * g
		}
		sq += gb[k] * gb[k]
	}
	return math.Sqrt(sq)
}

func TestSoftmaxFit(t *testing.T) {
	x, y := smThreeClasses(1, 90)
	r, err := fitSoftmaxJSON(t, lrBody(t, "softmax-regression", x, y, `{"lambda":0.02}`, x, false))
	if err != nil {
		t.Fatal(err)
	}
	if g := smGrad(x, y, 0.02, r.W, r.B); g > 1e-9 || r.GradNorm >= 1e-10 {
		t.Errorf("‖∇J‖ recomputed = %v, reported %v", g, r.GradNorm)
	}
	if s := r.B[0] + r.B[1] + r.B[2]; math.Abs(s) > 1e-12 {
		t.Errorf("Σ b = %v, want 0", s)
	}
	right := 0
	for i, p := range r.Proba {
		if s := p[0] + p[1] + p[2]; math.Abs(s-1) > 1e-12 {
			t.Errorf("proba[%d] sums to %v", i, s)
		}
		best := 0
		for k := range p {
			if p[k] > p[best] {
				best = k
			}
		}
		if r.Labels[i] != best {
			t.Errorf("labels[%d] = %d, arg max of %v is %d", i, r.Labels[i], p, best)
		}
		if float64(r.Labels[i]) == y[i] {
			right++
		}
	}
	if right < 60 {
		t.Errorf("%d of 90 training points right; the clusters are easy", right)
	}
}

// TestSoftmaxTwoClassesIsLogistic: softmax with two classes at λ is
// logistic regression at λ/2 with w = W₁ − W₀ and b = b₁ − b₀.
func TestSoftmaxTwoClassesIsLogistic(t *testing.T) {
	x, y := lrBlobs(7, 40, 2, 0.5)
	y01 := make([]float64, len(y))
	for i, v := range y {
		y01[i] = (v + 1) / 2
	}
	s, err := fitSoftmaxJSON(t, lrBody(t, "softmax-regression", x, y01, `{"lambda":0.1}`, x[:3], false))
	if err != nil {
		t.Fatal(err)
	}
	l, err := fitLogisticJSON(t, lrBody(t, "logistic-regression", x, y01, `{"lambda":0.05}`, x[:3], false))
	if err != nil {
		t.Fatal(err)
	}
	for j := range l.W {
		if !near(s.W[1][j]-s.W[0][j], l.W[j], 1e-9) {
			t.Errorf("W₁ − W₀ = %v, logistic w = %v", s.W[1][j]-s.W[0][j], l.W[j])
		}
	}
	if !near(s.B[1]-s.B[0], l.B, 1e-9) {
		t.Errorf("b₁ − b₀ = %v, logistic b = %v", s.B[1]-s.B[0], l.B)
	}
	for i := range l.Proba {
		if !near(s.Proba[i][1], l.Proba[i], 1e-9) {
			t.Errorf("P(class 1 | predict[%d]) = %v, logistic %v", i, s.Proba[i][1], l.Proba[i])
		}
	}
}

func TestSoftmaxBadRequests(t *testing.T) {
	x := `"x":[[0],[1],[2],[3]]`
	for _, tc := range []struct{ name, body, want string }{
		{"fraction", `{"algorithm":"softmax-regression",` + x + `,"y":[0,1,1.5,0]}`, `"y[2]" is 1.5`},
		{"negative", `{"algorithm":"softmax-regression",` + x + `,"y":[0,-1,1,0]}`, `"y[1]" is -1`},
		{"too many classes", `{"algorithm":"softmax-regression",` + x + `,"y":[0,10,1,0]}`, `"y[1]" is 10`},
		{"missing class", `{"algorithm":"softmax-regression",` + x + `,"y":[0,2,2,0]}`, `none of class 1`},
		{"one class", `{"algorithm":"softmax-regression",` + x + `,"y":[0,0,0,0]}`, `at least two classes`},
		{"lambda 0", `{"algorithm":"softmax-regression",` + x + `,"y":[0,1,1,0],"params":{"lambda":0}}`, `params.lambda is 0`},
		{"unknown", `{"algorithm":"softmax-regression",` + x + `,"y":[0,1,1,0],"params":{"solver":"gd"}}`, `known parameters: lambda (> 0`},
	} {
		_, err := fitSoftmaxJSON(t, tc.body)
		if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want a bad request containing %q", tc.name, err, tc.want)
		}
	}
}

func TestSoftmaxLimits(t *testing.T) {
	if _, err := newSoftmaxCost(MaxN, MaxD, 10, 0).plan(MaxN, MaxD, 10); !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), "send fewer rows or features") {
		t.Errorf("largest shape: %v; want refused", err)
	}
	if _, err := newSoftmaxCost(MaxN, 2, 10, MaxPredict).plan(MaxN, 2, 10); err != nil {
		t.Errorf("10 classes of 2-D points at the row limit: %v", err)
	}
}

func TestSoftmaxDeterministic(t *testing.T) {
	x, y := smThreeClasses(3, 60)
	b := lrBody(t, "softmax-regression", x, y, `{}`, x, true)
	a1, _ := fitSoftmaxJSON(t, b)
	a2, _ := fitSoftmaxJSON(t, b)
	j1, _ := json.Marshal(a1)
	j2, _ := json.Marshal(a2)
	if string(j1) != string(j2) || len(a1.Trace) != a1.Iterations+1 {
		t.Errorf("runs differ, or a trace of %d for %d iterations", len(a1.Trace), a1.Iterations)
	}
}
