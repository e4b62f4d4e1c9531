// Package regression declares the demos of the linear-regression lesson on the demo kit.
package regression

import (
	"embed"

	"github.com/margin-edu/margin/internal/demo"
)

// Specs are the demos of the linear-regression lesson, in page order.
func Specs() []demo.Spec {
	return []demo.Spec{InterpolationSpec(), RidgeSpec(), RegLossesSpec(), LSGDSpec(), BiasVarianceSpec(), LassoSpec()}
}

// prose holds the lessons' prose: each <slug>.src.html and the <slug>.html
// tools/katex/render.mjs typesets from it.
//
//go:embed prose/*.html
var prose embed.FS

// Topic is this topic for a course: its lessons, their prose and its demos.
func Topic() demo.Topic {
	return demo.Topic{Lessons: []demo.Lesson{
		{Slug: "linear-regression", Title: "Linear and ridge regression", Notes: "§1.3; short notes §4; DS 503 regression",
			Summary: "Least squares, exact interpolation, ridge (Def. 1.3.4) and its stability, losses for regression, bias and variance."},
	}, Prose: demo.ProseDir(prose), Demos: Specs()}
}
