// Package gd declares the demos of the gradient-descent lesson on the demo kit.
package gd

import (
	"embed"

	"github.com/margin-edu/margin/internal/demo"
)

// Specs are the demos of the gradient-descent lesson, in page order.
func Specs() []demo.Spec {
	return []demo.Spec{GDSpec(), LossGallerySpec()}
}

// prose holds the lessons' prose: each <slug>.src.html and the <slug>.html
// tools/katex/render.mjs typesets from it.
//
//go:embed prose/*.html
var prose embed.FS

// Topic is this topic for a course: its lessons, their prose and its demos.
func Topic() demo.Topic {
	return demo.Topic{Lessons: []demo.Lesson{
		{Slug: "gradient-descent", Title: "Gradient descent", Notes: "§1.8; CIS 5200",
			Summary: "Step sizes and L, the convergence rate of Thm 1.8.5, schedules, SGD, Newton's method, a saddle, and a gallery of losses."},
	}, Prose: demo.ProseDir(prose), Demos: Specs()}
}
