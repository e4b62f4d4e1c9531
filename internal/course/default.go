// Package course is Margin's course: one line per topic, each bringing
// its lessons, their prose and its demos.
package course

import (
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/topics/gd"
	"github.com/margin-edu/margin/internal/topics/knn"
	"github.com/margin-edu/margin/internal/topics/logistic"
	"github.com/margin-edu/margin/internal/topics/perceptron"
	"github.com/margin-edu/margin/internal/topics/regression"
	"github.com/margin-edu/margin/internal/topics/svm"
)

// topics are the course's topics in the order of the notes.
func topics() []demo.Topic {
	return []demo.Topic{
		perceptron.Topic(),
		regression.Topic(),
		logistic.Topic(),
		svm.Topic(),
		gd.Topic(),
		knn.Topic(),
	}
}

// Default is Margin's course with all of its demos.
func Default() (*demo.Course, error) { return demo.NewCourse(topics()...) }

// With is the course's lessons and prose with specs as its only demos:
// a test's course, such as a toy demo on a real lesson.
func With(specs ...demo.Spec) (*demo.Course, error) {
	ts := topics()
	for i := range ts {
		ts[i].Demos = nil
	}
	return demo.NewCourse(append(ts, demo.Topic{Demos: specs})...)
}
