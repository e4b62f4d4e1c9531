// Package logistic declares the demos of the logistic-regression lesson on the demo kit.
package logistic

import (
	"embed"

	"github.com/margin-edu/margin/internal/demo"
)

// Specs are the demos of the logistic-regression lesson, in page order.
func Specs() []demo.Spec {
	return []demo.Spec{LogisticSpec(), SoftmaxSpec()}
}

// prose holds the lessons' prose: each <slug>.src.html and the <slug>.html
// tools/katex/render.mjs typesets from it.
//
//go:embed prose/*.html
var prose embed.FS

// Topic is this topic for a course: its lessons, their prose and its demos.
func Topic() demo.Topic {
	return demo.Topic{Lessons: []demo.Lesson{
		{Slug: "logistic-regression", Title: "Logistic regression", Notes: "§1.4; short notes §3; CIS 5200",
			Summary: "Maximum likelihood, the sigmoid, gradient descent and Newton's method, separable data, softmax."},
	}, Prose: demo.ProseDir(prose), Demos: Specs()}
}
