package demo

import "math"

// The course's one prediction rule, which every classifier demo counts
// its errors by and states in small print beside them. It is scikit-
// learn's: a score of exactly 0 predicts −1 (decision_function(x) > 0),
// and a tie between classes goes to the lowest label.

// SignRule is the rule for two classes and a score f(x).
const SignRule = "A prediction is sgn(f(x)) with sgn(0) = −1: f(x) > 0 predicts +1 and f(x) ≤ 0 predicts −1, " +
	"as scikit-learn's decision_function(x) > 0 does, so while f = 0 every point is predicted −1. " +
	"The training error is the fraction of points predicted wrong."

// ArgmaxRule is signRule for several classes.
const ArgmaxRule = "A prediction is the class with the largest score; a tie goes to the lowest class, " +
	"so while every score is 0 every point is predicted class 0. The training error is the fraction of points predicted wrong."

// RuleNote states the rule in the small print of a panel.
func RuleNote(rule string) Note { return Note{TestID: "prediction-rule", Fine: rule} }

// Predict is the class a score predicts by the rule: +1 when f > 0, else
// −1 (sgn(0) = −1).
func Predict(f float64) int {
	if f > 0 {
		return 1
	}
	return -1
}

// ErrorRate is the fraction of the points (x, y) whose prediction
// predict(f(x)) is not y: 0 = right for y = −1 and wrong for y = +1.
func ErrorRate(f func([]float64) float64, x [][]float64, y []int) float64 {
	wrong := 0
	for i, row := range x {
		if Predict(f(row)) != y[i] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(x))
}

func Fraction(v []bool) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	n := 0
	for _, t := range v {
		if t {
			n++
		}
	}
	return float64(n) / float64(len(v))
}
