package perceptron

import (
	"testing"

	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestLessonOutline: the lesson's sections in page order, each after the
// demo it follows (the datasets section is the catalogue's "Datasets and
// linear classifiers" entry, an anchor on this page).
func TestLessonOutline(t *testing.T) {
	demotest.CheckLesson(t, Topic().Prose, demotest.Lesson{Slug: "perceptron", Sections: []demotest.Section{
		{"datasets", 0}, {"linear-classifiers", 0}, {"perceptron-algorithm", 0},
		{"worked-example", 1}, {"convergence", 1}, {"gradient-descent", 1}, {"not-separable", 1},
		{"variants", 1}, {"multiclass", 1}, {"check-yourself", 1},
	}})
}
