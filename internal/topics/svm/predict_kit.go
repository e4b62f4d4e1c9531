package svm

import (
	"math"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// The questions of predict mode (issue 20 §1) share these few pieces:
// sign answers and the name of a point as the plot labels it.

// signChoices are the answers to "what sign will f(q) have": the class
// each sign predicts (sgn(0) = −1, the course's rule) is in the label.
func signChoices() []demo.Option {
	return []demo.Option{
		{Value: "pos", Label: "f(q) > 0: class +1"},
		{Value: "zero", Label: "f(q) = 0 exactly: class −1 (sgn(0) = −1)"},
		{Value: "neg", Label: "f(q) < 0: class −1"},
	}
}

// signOf is the value of the sign choice v falls under.
func signOf(v float64) string {
	switch {
	case v > 0:
		return "pos"
	case v < 0:
		return "neg"
	}
	return "zero"
}

// relation writes how v compares with 0 for an explanation: "> 0".
func relation(v float64) string {
	switch {
	case v > 0:
		return "> 0"
	case v < 0:
		return "< 0"
	}
	return "= 0"
}

// pointAt names point i with its coordinates, as the plot labels it:
// "x₇ = (0.5, −1.2)".
func pointAt(i int, x []float64) string {
	return render.PointName(i) + " = " + textfmt.Vec(x)
}

// markOf marks point x (two coordinates) with label.
func markOf(label string, x []float64) demo.Mark {
	return demo.Mark{Label: label, X1: x[0], X2: x[1]}
}

// nearestBoundary is the index of the point whose score |f| is the
// smallest (the first on ties): the one a step is likeliest to move across
// the boundary, chosen from the state shown alone, so that choosing it
// says nothing about the answer.
func nearestBoundary(x [][]float64, f func([]float64) float64) (int, float64) {
	best, fb := 0, f(x[0])
	for i := 1; i < len(x); i++ {
		if v := f(x[i]); math.Abs(v) < math.Abs(fb) {
			best, fb = i, v
		}
	}
	return best, fb
}
