// Package knn declares the demos of the nearest-neighbour and Bayes lesson on the demo kit.
package knn

import (
	"embed"

	"github.com/margin-edu/margin/internal/demo"
)

// Specs are the demos of the nearest-neighbour and Bayes lesson, in page order.
func Specs() []demo.Spec {
	return []demo.Spec{BayesSpec(), KNNSpec(), CurseSpec()}
}

// prose holds the lessons' prose: each <slug>.src.html and the <slug>.html
// tools/katex/render.mjs typesets from it.
//
//go:embed prose/*.html
var prose embed.FS

// Topic is this topic for a course: its lessons, their prose and its demos.
func Topic() demo.Topic {
	return demo.Topic{Lessons: []demo.Lesson{
		{Slug: "knn-bayes", Title: "Nearest neighbours and the Bayes classifier", Notes: "CIS 5200",
			Summary: "Risk and the 0/1 loss, the Bayes classifier and its error, k nearest neighbours, the curse of dimensionality."},
	}, Prose: demo.ProseDir(prose), Demos: Specs()}
}
