package knn

import (
	"testing"

	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestLessonOutline: the lesson's sections in page order, each after the
// demo it follows, and the links to other lessons its prose promises.
func TestLessonOutline(t *testing.T) {
	for _, l := range []demotest.Lesson{
		{Slug: "knn-bayes", Sections: []demotest.Section{
			{"risk", 0}, {"bayes", 0},
			{"knn", 1},
			{"curse", 2},
			{"check-yourself", 3},
		}, Links: []string{`href="/lessons/logistic-regression#sigmoid"`, `href="/lessons/gradient-descent#losses"`,
			`href="/lessons/linear-regression#regression-problem"`}},
	} {
		demotest.CheckLesson(t, Topic().Prose, l)
	}
}
