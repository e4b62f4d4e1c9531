package gd

import (
	"testing"

	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestLessonOutline: the lesson's sections in page order, each after the
// demo it follows, and the links to other lessons its prose promises.
func TestLessonOutline(t *testing.T) {
	for _, l := range []demotest.Lesson{
		{Slug: "gradient-descent", Sections: []demotest.Section{
			{"problem", 0}, {"definition", 0}, {"step-size", 0}, {"rate", 0},
			{"schedules", 0}, {"sgd", 0}, {"newton", 0}, {"nonconvex", 0},
			{"losses", 1},
			{"check-yourself", 2},
		}, Links: []string{`href="/lessons/logistic-regression"`, `href="/lessons/knn-bayes"`,
			`href="/lessons/soft-margin-svm#sgd"`, `href="/lessons/linear-regression#gradient-descent"`}},
	} {
		demotest.CheckLesson(t, Topic().Prose, l)
	}
}
