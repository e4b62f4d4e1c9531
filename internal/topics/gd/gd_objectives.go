package gd

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/margin-edu/margin/internal/algos/gd"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// The gd demo's objectives, the values of its objective parameter.
const (
	objQuadratic  = "quadratic"
	objLeastSq    = "least-squares"
	objLogistic   = "logistic"
	objDoubleWell = "double-well"
)

// gdRows is the size of both fixed data sets, so one batch control
// serves both; gdLogisticLambda is the logistic loss's small penalty,
// which makes its minimiser exist whatever the data.
const (
	gdRows           = 8
	gdLogisticLambda = 0.05
)

// The least-squares set: eight points near the line y = 1.5x − 1, so
// (w*, b*) sits away from the origin and the valley is tilted (κ ≈ 4).
var (
	gdLSX = []float64{-1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5}
	gdLSY = []float64{-2.3, -1.9, -0.8, -0.4, 0.75, 1.1, 2.2, 2.45}
)

// The logistic set: eight labelled points on a line whose classes
// overlap, so the loss has a minimiser even without its penalty.
var (
	gdLogX = []float64{-2, -1.5, -1, -0.3, 0.2, 0.8, 1.4, 2}
	gdLogY = []float64{-1, -1, 1, -1, 1, -1, 1, 1}
)

// objective is one of the demo's functions with what the plot and the
// panel say about it.
type objective struct {
	f      gd.Func
	kind   string // objQuadratic, objLeastSq, objLogistic or objDoubleWell
	name   string // the figure's second line
	convex bool
	// constHess: ∇²f is the same at every point (a quadratic), so L is
	// its curvature everywhere, not only a bound.
	constHess bool
	hasL      bool
	L         float64
	hasMin    bool
	xstar     []float64
	fstar     float64
	view      render.View
	xl, yl    string // axis names
	marks     [][2]float64
	labels    []string // of marks
	levels    []float64
}

// gdView is the fixed box every objective but the double well is drawn
// over; the double well's interesting part is smaller.
var (
	gdView   = render.View{XMin: -5, XMax: 5, YMin: -5, YMax: 5}
	wellView = render.View{XMin: -2.5, XMax: 2.5, YMin: -2.5, YMax: 2.5}
)

// newObjective builds the objective s names.
func newObjective(s demo.State) (*objective, error) {
	switch objChoice.Get(s) {
	case objLeastSq:
		return dataObjective(s, false)
	case objLogistic:
		return dataObjective(s, true)
	case objDoubleWell:
		return wellObjective(), nil
	}
	kap, deg := kappa.Get(s), theta.Get(s)
	q, err := gd.NewQuadratic2D(kap, deg*math.Pi/180)
	if err != nil {
		return nil, demo.Problems{kappa.Key: err.Error()}
	}
	o := &objective{f: q, kind: objQuadratic, convex: true, constHess: true, hasL: true, L: q.L(), view: gdView, xl: "x₁", yl: "x₂",
		name: fmt.Sprintf("quadratic ½xᵀAx, eigenvalues 1 and κ = %s, θ = %s°", textfmt.Sig(kap), textfmt.Sig(deg))}
	return o.finish(q)
}

// dataObjective is the least-squares or logistic loss of its fixed set,
// a function of the line's (w, b).
func dataObjective(s demo.State, logistic bool) (*objective, error) {
	xs, ys := gdLSX, gdLSY
	if logistic {
		xs, ys = gdLogX, gdLogY
	}
	x := make([][]float64, len(xs))
	for i, v := range xs {
		x[i] = []float64{v}
	}
	o := &objective{kind: objLeastSq, convex: true, constHess: !logistic, hasL: true, view: gdView, xl: "w", yl: "b"}
	if logistic {
		o.kind = objLogistic
	}
	var f interface {
		gd.Func
		gd.Minimiser
		L() float64
	}
	var err error
	if logistic {
		f, err = gd.NewLogistic(x, ys, gdLogisticLambda)
		o.name = fmt.Sprintf("logistic loss of %d points over (w, b), λ = %g", len(xs), gdLogisticLambda)
	} else {
		f, err = gd.NewLeastSquares(x, ys, 0)
		o.name = fmt.Sprintf("least-squares loss of %d points over (w, b)", len(xs))
	}
	if err != nil {
		return nil, demo.UncomputableIf(err, gd.ErrNotFinite)
	}
	o.f, o.L = f, f.L()
	return o.finish(f)
}

// finish adds the minimiser, its mark and the contour levels.
func (o *objective) finish(m gd.Minimiser) (*objective, error) {
	x, f, err := m.Minimiser()
	if err != nil {
		return nil, demo.UncomputableIf(err, gd.ErrNoMinimiser, gd.ErrNotFinite)
	}
	o.hasMin, o.xstar, o.fstar = true, x, f
	o.marks, o.labels = [][2]float64{{x[0], x[1]}}, []string{"x*"}
	o.levels = contourValues(o.f, o.view, f)
	return o, nil
}

// wellObjective is the double well with its two minima and saddle marked.
func wellObjective() *objective {
	w := gd.DoubleWell{}
	x, f, _ := w.Minimiser() // closed form: (1, 0), f = 0
	o := &objective{f: w, kind: objDoubleWell, view: wellView, xl: "x₁", yl: "x₂", hasMin: true, xstar: x, fstar: f,
		name: "double well (x₁² − 1)² + x₂²"}
	for _, p := range w.StationaryPoints() {
		o.marks = append(o.marks, [2]float64{p.X[0], p.X[1]})
		o.labels = append(o.labels, map[gd.Kind]string{gd.Minimum: "min", gd.Saddle: "saddle"}[p.Kind])
	}
	// f = 1 is the figure-eight through the saddle, the watershed.
	// Levels close to it are dropped, so it reads as one line.
	o.levels = slices.DeleteFunc(contourValues(w, o.view, f), func(v float64) bool { return v > 0.8 && v < 1.25 })
	i, _ := slices.BinarySearch(o.levels, 1)
	o.levels = slices.Insert(o.levels, i, 1)
	return o
}

// contourValues picks eight levels f* + (top − f*)·(i/8)², i = 1…8, top
// the median of f over the view: on a quadratic the rings are then
// evenly spaced on the page, and on any function half the view lies
// inside the last one. Each is rounded to two significant digits, so the
// legend reads well.
func contourValues(f gd.Func, v render.View, fstar float64) []float64 {
	const n = 41
	vals := make([]float64, 0, n*n)
	for i := range n {
		for j := range n {
			x := []float64{v.XMin + (v.XMax-v.XMin)*float64(i)/(n-1), v.YMin + (v.YMax-v.YMin)*float64(j)/(n-1)}
			vals = append(vals, f.Value(x))
		}
	}
	slices.Sort(vals)
	top := vals[len(vals)/2]
	var out []float64
	for i := 1; i <= 8; i++ {
		q := float64(i) / 8
		lv, _ := strconv.ParseFloat(strconv.FormatFloat(fstar+(top-fstar)*q*q, 'g', 2, 64), 64)
		if lv > fstar && (len(out) == 0 || lv > out[len(out)-1]) {
			out = append(out, lv)
		}
	}
	return out
}

// gap returns f − f*, never negative (rounding can put f a hair under f*).
func (o *objective) gap(f float64) float64 { return max(f-o.fstar, 0) }

// dist2 returns ‖x − x*‖².
func (o *objective) dist2(x []float64) float64 {
	d := 0.0
	for i := range x {
		d += (x[i] - o.xstar[i]) * (x[i] - o.xstar[i])
	}
	return d
}

// roundScale is f at x with every term f's evaluation rounds taken in
// size: the float64 value of f(x) is within a few ε·roundScale(x) of the
// exact one (ε = 2⁻⁵²). A residual r = wxᵢ + b − yᵢ is rounded to within
// about ε(|wxᵢ| + |b| + |yᵢ|), which moves r² by twice |r| times that;
// a logistic margin likewise, which moves softplus by at most as much;
// (x₁² − 1)² likewise by 2|x₁² − 1|(x₁² + 1).
func (o *objective) roundScale(x []float64) float64 {
	switch o.kind {
	case objQuadratic:
		a := o.f.(*gd.Quadratic).A
		s := 0.0
		for i := range a {
			for j := range a[i] {
				s += math.Abs(a[i][j]*x[i]*x[j]) / 2
			}
		}
		return s
	case objLeastSq:
		s := 0.0
		for i, xi := range gdLSX {
			r := x[0]*xi + x[1] - gdLSY[i]
			s += r*r + 2*math.Abs(r)*(math.Abs(x[0]*xi)+math.Abs(x[1])+math.Abs(gdLSY[i]))
		}
		return s / gdRows
	case objLogistic:
		s := 0.0
		for i, xi := range gdLogX {
			m := gdLogY[i] * (x[0]*xi + x[1])
			s += math.Log1p(math.Exp(-math.Abs(m))) + max(-m, 0) + 2*(math.Abs(x[0]*xi)+math.Abs(x[1]))
		}
		return s/gdRows + gdLogisticLambda/2*x[0]*x[0]
	}
	u := x[0]*x[0] - 1
	return u*u + 2*math.Abs(u)*(x[0]*x[0]+1) + x[1]*x[1]
}
