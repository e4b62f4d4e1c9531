// Package knn declares the demos of the nearest-neighbour and Bayes lesson on the demo kit.
package knn

import (
	"embed"
	"io/fs"

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
	sub, err := fs.Sub(prose, "prose")
	if err != nil {
		panic(err) // "prose" is a fixed, valid path
	}
	return demo.Topic{Lessons: []demo.Lesson{
		{Slug: "knn-bayes", Title: "Nearest neighbours and the Bayes classifier", Notes: "CIS 5200",
			Summary: "Risk and the 0/1 loss, the Bayes classifier and its error, k nearest neighbours, the curse of dimensionality."},
	}, Prose: sub, Demos: Specs()}
}
