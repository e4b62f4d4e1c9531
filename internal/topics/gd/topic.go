// Package gd declares the demos of the gradient-descent lesson on the demo kit.
package gd

import "github.com/margin-edu/margin/internal/demo"

// Specs are the demos of the gradient-descent lesson, in page order.
func Specs() []demo.Spec {
	return []demo.Spec{GDSpec(), LossGallerySpec()}
}
