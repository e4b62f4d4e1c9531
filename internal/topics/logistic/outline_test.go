package logistic

import (
	"testing"

	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestLessonOutline: the lesson's sections in page order, each after the
// demo it follows, and the links to other lessons its prose promises.
func TestLessonOutline(t *testing.T) {
	for _, l := range []demotest.Lesson{
		{Slug: "logistic-regression", Sections: []demotest.Section{
			{"confidence", 0}, {"sigmoid", 0}, {"mle", 0}, {"labels", 0}, {"fitting", 0}, {"separable", 0},
			{"softmax", 1},
			{"check-yourself", 2},
		}, Links: []string{`href="/lessons/linear-regression#mle"`, `href="/lessons/perceptron#multiclass"`}},
	} {
		demotest.CheckLesson(t, Topic().Prose, l)
	}
}
