// Package logistic declares the demos of the logistic-regression lesson on the demo kit.
package logistic

import "github.com/margin-edu/margin/internal/demo"

// Specs are the demos of the logistic-regression lesson, in page order.
func Specs() []demo.Spec {
	return []demo.Spec{LogisticSpec(), SoftmaxSpec()}
}
