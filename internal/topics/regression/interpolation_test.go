package regression

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/margin-edu/margin/internal/algos/dataset"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// vandermondeMSE fits a degree-p polynomial with an intercept by an
// independent route, gonum's QR least squares on the Vandermonde matrix
// [1 x … xᵖ], and returns its training MSE.
func vandermondeMSE(t *testing.T, xs, ys []float64, p int) float64 {
	t.Helper()
	c := vandermondeCoef(t, xs, ys, p)
	var s float64
	for i, x := range xs {
		var f float64
		for j := p; j >= 0; j-- {
			f = f*x + c[j]
		}
		s += (f - ys[i]) * (f - ys[i])
	}
	return s / float64(len(xs))
}

// vandermondeCoef is the least-squares polynomial of degree p by gonum's
// QR on [1 x … xᵖ]: its coefficients c₀ (the intercept), c₁, …, cₚ.
func vandermondeCoef(t *testing.T, xs, ys []float64, p int) []float64 {
	t.Helper()
	n := len(xs)
	a := mat.NewDense(n, p+1, nil)
	for i, x := range xs {
		for j := 0; j <= p; j++ {
			a.Set(i, j, math.Pow(x, float64(j)))
		}
	}
	var qr mat.QR
	qr.Factorize(a)
	var c mat.Dense
	if err := qr.SolveTo(&c, false, mat.NewDense(n, 1, append([]float64(nil), ys...))); err != nil {
		t.Fatal(err)
	}
	out := make([]float64, p+1)
	for j := range out {
		out[j] = c.At(j, 0)
	}
	return out
}

// TestInterpolationDemo: the training MSE the demo prints is the one an
// independent least-squares solve gives; at degree n − 1 the polynomial
// passes through every point (Thm 1.3.2) and the panel says so, and the
// held-out error is then far above the training error.
func TestInterpolationDemo(t *testing.T) {
	r := demotest.Run(t, InterpolationSpec(), "degree=3")
	_, xs, ys := graphXY(r.Points)
	if got, want := demotest.ParseSig(t, demotest.Counter(r.Panel(), "train-mse")), vandermondeMSE(t, xs, ys, 3); math.Abs(got-want) > 1e-3*want {
		t.Errorf("degree 3: training MSE printed %v, QR gives %v", got, want)
	}
	if demotest.Note(r.Panel(), "interpolates") != nil {
		t.Error("degree 3 of 10 points claims to interpolate")
	}
	r = demotest.Run(t, InterpolationSpec(), "degree=9")
	p := r.Panel()
	if n := demotest.Note(p, "interpolates"); n == nil {
		t.Fatal("degree 9 on 10 points: no interpolation note")
	}
	train, test := demotest.ParseSig(t, demotest.Counter(p, "train-mse")), demotest.ParseSig(t, demotest.Counter(p, "test-mse"))
	if train > 1e-12 || test < 100*train || test < 0.1 {
		t.Errorf("degree 9 on 10 points: training MSE %v, held-out %v; want ≈ 0 and large", train, test)
	}
}

// TestInterpolationSweep: the degree chart's training error never rises
// with the degree (nested least-squares models) and reaches round-off at
// n − 1.
func TestInterpolationSweep(t *testing.T) {
	r := demotest.Run(t, InterpolationSpec(), "n=8")
	_, xs, ys := graphXY(r.Points)
	hx, hy, _ := heldOutCurve(demotest.MustParse(t, mustDemo(t, InterpolationSpec()), "n=8"))
	c, err := degreeSweep(t.Context(), nil, xs, ys, hx, hy, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	tr := c.Series[0].Y
	for p := 1; p < len(tr); p++ {
		if tr[p] > tr[p-1]*(1+1e-6)+1e-12 {
			t.Errorf("training MSE rises from degree %d (%v) to %d (%v)", p-1, tr[p-1], p, tr[p])
		}
	}
	if tr[7] != mseFloor {
		t.Errorf("degree 7 on 8 points: training MSE %v, want the floor %v", tr[7], mseFloor)
	}
}

// TestHeldOutBeyondFifty: the held-out sample is twice the training size,
// so above n = 50 it exceeds the demo's own limit on n; it must still be
// drawn (it once went missing there, because it was built through
// State.With, which refuses a size the demo does not allow).
func TestHeldOutBeyondFifty(t *testing.T) {
	for _, n := range []int{50, 51, 100} {
		r := demotest.Run(t, InterpolationSpec(), "n="+strconv.Itoa(n))
		xs, _, ok := heldOutCurve(r.State)
		if want := min(2*n, dataset.MaxN); !ok || len(xs) != want {
			t.Errorf("n = %d: held-out sample of %d points (ok %v), want %d", n, len(xs), ok, want)
		}
	}
}

// TestInterpolationRepeatedX: Thm 1.3.2 needs distinct inputs. The note
// says the polynomial passes through every point only when it does, and
// counts the distinct x; where two points share an x with different y it
// says no function passes through them and quotes the least possible
// training MSE, the spread of y within each x, computed here apart
// (issue 27 §3: ?add=0,1~0,2~1,3&data=custom&degree=2 claimed an
// interpolation with a training MSE of 0.1667).
func TestInterpolationRepeatedX(t *testing.T) {
	for _, add := range []string{"0,1~0,2~1,3", "0,1~0,1~1,3~2,0", "0,1~0,2~0,4~1,3~2,2", "-1,0~0,1~1,3~2,2"} {
		for p := 0; p <= 4; p++ {
			q := "add=" + add + "&data=custom&degree=" + strconv.Itoa(p)
			r := demotest.Run(t, InterpolationSpec(), q)
			_, xs, ys := graphXY(r.Points)
			groups := map[float64][]float64{}
			for i, x := range xs {
				groups[x] = append(groups[x], ys[i])
			}
			spread, clash := 0.0, false
			for _, g := range groups {
				var mean float64
				for _, y := range g {
					mean += y / float64(len(g))
				}
				for _, y := range g {
					spread += (y - mean) * (y - mean) / float64(len(xs))
					clash = clash || y != g[0]
				}
			}
			pn := r.Panel()
			inter, rep := demotest.Note(pn, "interpolates"), demotest.Note(pn, "repeated-x")
			enough := p+1 >= len(groups)
			if (inter != nil) != (enough && !clash) || (rep != nil) != (enough && clash) {
				t.Errorf("%s: %d distinct x, clash %v: notes %v", q, len(groups), clash, pn.Notes)
			}
			train := demotest.ParseSig(t, demotest.Counter(pn, "train-mse"))
			if enough && math.Abs(train-spread) > 1e-3*spread+1e-9 {
				t.Errorf("%s: training MSE %v; the least possible, the spread within each x, is %v", q, train, spread)
			}
			if rep != nil && (!strings.Contains(rep.Text, "training MSE "+demotest.Counter(pn, "train-mse")) ||
				!strings.Contains(rep.Text, strconv.Itoa(len(groups))+" distinct x") || strings.Contains(rep.Text, "passes through every")) {
				t.Errorf("%s: note %q", q, rep.Text)
			}
		}
	}
}
