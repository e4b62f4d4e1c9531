// Package perceptron declares the demos of the perceptron lesson on the demo kit.
package perceptron

import "github.com/margin-edu/margin/internal/demo"

// Specs are the demos of the perceptron lesson, in page order.
func Specs() []demo.Spec {
	return []demo.Spec{PerceptronSpec()}
}
