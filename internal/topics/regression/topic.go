// Package regression declares the demos of the linear-regression lesson on the demo kit.
package regression

import "github.com/margin-edu/margin/internal/demo"

// Specs are the demos of the linear-regression lesson, in page order.
func Specs() []demo.Spec {
	return []demo.Spec{InterpolationSpec(), RidgeSpec(), RegLossesSpec(), LSGDSpec(), BiasVarianceSpec(), LassoSpec()}
}
