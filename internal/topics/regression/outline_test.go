package regression

import (
	"testing"

	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestLessonOutline: the lesson's sections in page order, each after the
// demo it follows, and the links to other lessons its prose promises.
func TestLessonOutline(t *testing.T) {
	for _, l := range []demotest.Lesson{
		{Slug: "linear-regression", Sections: []demotest.Section{
			{"regression-problem", 0},
			{"least-squares", 1}, {"instability", 1}, {"ridge", 1},
			{"losses", 2},
			{"gradient-descent", 3},
			{"mle", 4}, {"bias-variance", 4},
			{"lasso", 5},
			{"check-yourself", 6},
		}, Links: []string{`href="/lessons/gradient-descent"`, `href="/lessons/logistic-regression"`}},
	} {
		demotest.CheckLesson(t, Topic().Prose, l)
	}
}
