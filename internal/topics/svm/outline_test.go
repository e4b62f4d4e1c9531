package svm

import (
	"testing"

	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestLessonOutline: the lesson's sections in page order, each after the
// demo it follows, and the links to other lessons its prose promises.
func TestLessonOutline(t *testing.T) {
	for _, l := range []demotest.Lesson{
		{Slug: "hard-margin-svm", Sections: []demotest.Section{
			{"max-margin", 0}, {"distance", 0}, {"qp", 0}, {"dual", 0}, {"kkt", 0}, {"smo", 0},
			{"try-it", 1}, {"worked-example", 1}, {"not-separable", 1}, {"check-yourself", 1},
		}, Links: []string{`href="/lessons/soft-margin-svm"`, `href="/lessons/perceptron"`}},
		{Slug: "soft-margin-svm", Sections: []demotest.Section{
			{"slack", 0}, {"hinge", 0}, {"role-of-c", 0}, {"soft-dual", 0}, {"three-kinds", 0}, {"worked-example", 0},
			{"try-soft", 1}, {"calibration", 1}, {"sgd", 1}, {"subgradient", 1},
			{"try-sgd", 2}, {"check-yourself", 2},
		}, Links: []string{`href="/lessons/hard-margin-svm"`}},
		{Slug: "kernels", Sections: []demotest.Section{
			{"beyond-lines", 0}, {"quadratic", 0}, {"lifting", 0},
			{"try-lift", 1}, {"mercer", 1},
			{"try-gram", 2}, {"kernel-svms", 2}, {"representer", 2}, {"gamma", 2},
			{"try-kernel-svm", 3}, {"kernel-sgd", 3},
			{"try-kernels", 4}, {"check-yourself", 4},
		}, Links: []string{`href="/lessons/hard-margin-svm"`, `href="/lessons/soft-margin-svm"`}},
	} {
		demotest.CheckLesson(t, Topic().Prose, l)
	}
}
