// Package knn declares the demos of the nearest-neighbour and Bayes lesson on the demo kit.
package knn

import "github.com/margin-edu/margin/internal/demo"

// Specs are the demos of the nearest-neighbour and Bayes lesson, in page order.
func Specs() []demo.Spec {
	return []demo.Spec{BayesSpec(), KNNSpec(), CurseSpec()}
}
