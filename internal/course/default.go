// Package course is Margin's course: the kit's catalogue with every
// topic's demos, one line per topic.
package course

import (
	"slices"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/topics/gd"
	"github.com/margin-edu/margin/internal/topics/knn"
	"github.com/margin-edu/margin/internal/topics/logistic"
	"github.com/margin-edu/margin/internal/topics/perceptron"
	"github.com/margin-edu/margin/internal/topics/regression"
	"github.com/margin-edu/margin/internal/topics/svm"
)

// Default is Margin's course with all of its demos, in the notes' order.
func Default() (*demo.Course, error) {
	return demo.NewCourse(slices.Concat(
		perceptron.Specs(),
		svm.Specs(),
		regression.Specs(),
		logistic.Specs(),
		knn.Specs(),
		gd.Specs(),
	)...)
}
