package gd

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"

	"github.com/margin-edu/margin/internal/algos/gd"
	"github.com/margin-edu/margin/internal/algos/symeig"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// stepSets are the three ways the "where does it land" question spreads
// its candidates along the step x⁽ᵏ⁺¹⁾ − x⁽ᵏ⁾ the run takes: the true
// iterate is the multiple 1, and which set a state uses is seeded by the
// state, so it is the nearest, middle or farthest candidate alike.
var stepSets = [3][3]float64{{0.25, 0.5, 1}, {0.5, 1, 2}, {1, 2, 4}}

// predictGD asks about the iteration after in.Step (issue 20 §1): will f
// go down, or, on every other step, where will x⁽ᵏ⁺¹⁾ land among three
// marked points a, b, c on the line of the step, lettered by their
// distance from x⁽ᵏ⁾.
func predictGD(ctx context.Context, in demo.Input) (*demo.Question, error) {
	st := in.State
	obj, m, s0, err := setupGD(st)
	if err != nil {
		return nil, err
	}
	s, k, _, err := keptGD(ctx, in.Cache, st, m, s0, in.Step)
	if err != nil || k < in.Step || s.Status.Done() {
		return nil, err
	}
	next := m.Step(s)
	if refused(next) {
		// keptGD shows the state before a refused step as done.
		return nil, fmt.Errorf("gd: step %d refused after state %d that is not done", k+1, k)
	}
	cond := 1.0
	if isNewton(st) {
		if cond = hessCond(obj, s.X); cond > newtonCondMax {
			return demo.NoQuestion("the Hessian here is singular to working precision, so rounding, not Newton's rule, decides the step"), nil
		}
	}
	h := seedOf(st, in.Step)
	at := fmt.Sprintf("x⁽%s⁾ = %s, f = %s", textfmt.Sup(k), vec2(s.X), textfmt.Sig(s.F))
	if h%2 == 1 {
		if set := stepSets[(h/2)%3]; marksApart(obj.view, s.X, next.X, set) {
			return whereQuestion(s, next, k, at, set), nil
		}
	}
	if d, tol := math.Abs(next.F-s.F), roundMargin(obj, s, next, cond); d <= tol {
		return demo.NoQuestion(fmt.Sprintf("f changes by %s at this step, within the %s that rounding f and the iterate can move it, so rounding, not the rule, would decide",
			textfmt.Sig(d), textfmt.Sig(tol))), nil
	}
	down := next.F < s.F
	rel := "≥"
	if down {
		rel = "<"
	}
	why := fmt.Sprintf("x⁽%s⁾ = %s, and f(x⁽%s⁾) = %s %s f(x⁽%s⁾) = %s.",
		textfmt.Sup(k+1), vec2(next.X), textfmt.Sup(k+1), textfmt.Sig(next.F), rel, textfmt.Sup(k), textfmt.Sig(s.F))
	return &demo.Question{
		Prompt:  fmt.Sprintf("Iteration %d starts at %s. Will f go down?", k+1, at),
		Choices: demo.YesNo(), Right: demo.YesOrNo(down), Why: why,
	}, nil
}

// newtonCondMax is the condition number of ∇²f past which Newton's
// step is left to rounding: gd's solve drops eigenvalues below 10⁻¹² of
// the largest.
const newtonCondMax = 1e12

// hessCond is λ_max/λ_min of ∇²f(x) in size (+Inf when singular).
func hessCond(obj *objective, x []float64) float64 {
	vals, _, ok := symeig.Decompose(obj.f.Hessian(x), false)
	if !ok {
		return math.Inf(1)
	}
	lo, hi := math.Inf(1), 0.0
	for _, v := range vals {
		lo, hi = min(lo, math.Abs(v)), max(hi, math.Abs(v))
	}
	return hi / lo
}

// roundMargin is how far rounding can move f(x⁽ᵏ⁺¹⁾) − f(x⁽ᵏ⁾) from its
// exact value, with margin to spare (64 times the estimate): the
// rounding of each f (objective.roundScale), and that of the new iterate,
// whose coordinates are rounded to within ε(|xᵢ| + cond·|Δxᵢ|) (cond:
// the Hessian's condition number, for Newton's solve), moving f by
// ∂ᵢf times that.
func roundMargin(obj *objective, s, next gd.State, cond float64) float64 {
	const eps = 0x1p-52
	e := obj.roundScale(s.X) + obj.roundScale(next.X)
	for i := range next.X {
		e += math.Abs(next.Grad[i]) * (math.Abs(next.X[i]) + cond*math.Abs(next.X[i]-s.X[i]))
	}
	return 64 * eps * e
}

// marksApart reports whether the candidates x + c·(x⁺ − x), c in set,
// lie in the plot's view at least a twentieth of its width apart, so their
// marks stand apart; else the step asks whether f goes down.
func marksApart(v render.View, x, next []float64, set [3]float64) bool {
	d := math.Hypot(next[0]-x[0], next[1]-x[1])
	if (set[1]-set[0])*d < 0.05*(v.XMax-v.XMin) {
		return false
	}
	for _, c := range set {
		p1, p2 := x[0]+c*(next[0]-x[0]), x[1]+c*(next[1]-x[1])
		if p1 < v.XMin || p1 > v.XMax || p2 < v.YMin || p2 > v.YMax {
			return false
		}
	}
	return true
}

// whereQuestion asks where x⁽ᵏ⁺¹⁾ lands among x⁽ᵏ⁾ + c·(x⁽ᵏ⁺¹⁾ − x⁽ᵏ⁾)
// for the three multiples c of set.
func whereQuestion(s, next gd.State, k int, at string, set [3]float64) *demo.Question {
	d := [2]float64{next.X[0] - s.X[0], next.X[1] - s.X[1]}
	pts := make([][2]float64, 3)
	right := 0
	for i, c := range set {
		pts[i] = [2]float64{s.X[0] + c*d[0], s.X[1] + c*d[1]}
		if c == 1 {
			pts[i] = [2]float64{next.X[0], next.X[1]}
			right = i
		}
	}
	letters := demo.Letters(3, func(i, j int) int { return int(math.Copysign(1, set[i]-set[j])) })
	q := &demo.Question{
		Prompt: fmt.Sprintf("Iteration %d starts at %s. Where does x⁽%s⁾ land: a, b or c?", k+1, at, textfmt.Sup(k+1)),
		Right:  letters[right],
		Why: fmt.Sprintf("x⁽%s⁾ = %s; the other marks are the steps %s and %s times as long.",
			textfmt.Sup(k+1), vec2(next.X), textfmt.Num(set[(right+1)%3]), textfmt.Num(set[(right+2)%3])),
	}
	for i := range 3 {
		q.Choices = append(q.Choices, demo.Option{Value: letters[i], Label: letters[i] + ": " + vec2(pts[i][:])})
		q.Marks = append(q.Marks, demo.Mark{Label: letters[i], X1: pts[i][0], X2: pts[i][1]})
	}
	return q
}

// seedOf hashes the state's data and step: which question a step asks.
func seedOf(st demo.State, k int) uint32 {
	h := fnv.New32a()
	h.Write([]byte(st.Encode(demo.ForData)))
	return h.Sum32() + uint32(k)*2654435761
}

func vec2(x []float64) string { return "(" + textfmt.Sig(x[0]) + ", " + textfmt.Sig(x[1]) + ")" }
