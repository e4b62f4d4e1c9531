// Package perceptron declares the demos of the perceptron lesson on the demo kit.
package perceptron

import (
	"embed"

	"github.com/margin-edu/margin/internal/demo"
)

// Specs are the demos of the perceptron lesson, in page order.
func Specs() []demo.Spec {
	return []demo.Spec{PerceptronSpec()}
}

// prose holds the lessons' prose: each <slug>.src.html and the <slug>.html
// tools/katex/render.mjs typesets from it.
//
//go:embed prose/*.html
var prose embed.FS

// Topic is this topic for a course: its lessons, their prose and its demos.
func Topic() demo.Topic {
	return demo.Topic{Lessons: []demo.Lesson{
		{Slug: "datasets", Title: "Datasets and linear classifiers", Notes: "§1.1, §1.2 (Def. 1.1.1–1.2.5)",
			Summary: "Features, labels, the OR and spam examples; affine functions, sgn and half-spaces.",
			Ready:   true, Anchor: "/lessons/perceptron#datasets"},
		{Slug: "perceptron", Title: "The perceptron", Notes: "§1.2; CIS 5200, DS 503 lecture 10",
			Summary: "Algorithm 1 step by step, the C²/γ² mistake bound, XOR and cycling, averaged and margin perceptrons, multiclass.",
			Ready:   true},
	}, Prose: demo.ProseDir(prose), Demos: Specs()}
}
