// Package svm declares the demos of the hard-margin, soft-margin and kernel
// lessons on the demo kit: kernel SVM and kernel Pegasos are the SVM solvers
// with a kernel, so the kernel lesson shares this topic.
package svm

import (
	"embed"

	"github.com/margin-edu/margin/internal/demo"
)

// Specs are the demos of the hard-margin, soft-margin and kernel lessons, in page order.
func Specs() []demo.Spec {
	return []demo.Spec{SVMSpec(true), SVMSpec(false), SGDSpec(), KernelMapSpec(), KernelGramSpec(), KernelSVMSpec(), KernelPegasosSpec()}
}

// topicCourse is a course of this topic's demos alone.
func topicCourse() (*demo.Course, error) { return demo.NewCourse(Topic()) }

// prose holds the lessons' prose: each <slug>.src.html and the <slug>.html
// tools/katex/render.mjs typesets from it.
//
//go:embed prose/*.html
var prose embed.FS

// Topic is this topic for a course: its lessons, their prose and its demos.
func Topic() demo.Topic {
	return demo.Topic{Lessons: []demo.Lesson{
		{Slug: "hard-margin-svm", Title: "Hard-margin SVM", Notes: "§1.5",
			Summary: "The maximum-margin separator, its dual and support vectors."},
		{Slug: "soft-margin-svm", Title: "Soft-margin SVM", Notes: "§1.6",
			Summary: "Slack variables, the hinge loss and choosing C."},
		{Slug: "kernels", Title: "Kernels", Notes: "§1.7",
			Summary: "Feature maps, reproducing kernels, polynomial and Gaussian kernels."},
	}, Prose: demo.ProseDir(prose), Demos: Specs()}
}
