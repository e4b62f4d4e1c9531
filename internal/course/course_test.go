package course_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/course"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/topics/perceptron"
)

// TestCourseRouteCollisions: a course whose URLs would shadow each other,
// or whose panel takes a name the kit keeps, is refused when it is built.
func TestCourseRouteCollisions(t *testing.T) {
	named := func(id string, panels ...string) demo.Spec {
		s := demotest.ObjectiveSpec("perceptron")
		s.ID, s.Panels = id, panels
		return s
	}
	for _, c := range []struct {
		name  string
		specs []demo.Spec
		want  string // in the error
	}{
		{"panel shadows a demo", []demo.Spec{named("kernel", "svm"), named("kernel-svm")}, "/plots/kernel-svm.svg"},
		{"demo shadows a panel", []demo.Spec{named("kernel-svm"), named("kernel", "svm")}, "/plots/kernel-svm.svg"},
		{"panel shadows a history", []demo.Spec{named("a", "b-history"), named("a-b")}, "/plots/a-b-history.svg"},
		{"panel named history", []demo.Spec{named("toy", "history")}, `"history"`},
		{"panel named plot", []demo.Spec{named("toy", demo.PlotFigure)}, `"plot"`},
		{"empty panel name", []demo.Spec{named("toy", "")}, `""`},
		{"one panel twice", []demo.Spec{named("toy", "iterate", "iterate")}, "/plots/toy-iterate.svg"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := course.With(c.specs...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("NewCourse = %v, want an error naming %s", err, c.want)
			}
		})
	}
	if _, err := course.With(named("kernel", "svm"), named("kernel-map")); err != nil {
		t.Errorf("distinct URLs refused: %v", err)
	}
}

// TestCourseBuild: Build computes every demo's default view once, which
// DefaultView then returns to every caller, and names a demo whose default
// state fails.
func TestCourseBuild(t *testing.T) {
	c, err := course.With(perceptron.PerceptronSpec(), demotest.ObjectiveSpec("perceptron"))
	if err != nil {
		t.Fatal(err)
	}
	unbuilt, err := c.DefaultView(t.Context(), c.Demo("toy-gd"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Build(t.Context()); err != nil {
		t.Fatal(err)
	}
	v1, err1 := c.DefaultView(t.Context(), c.Demo("toy-gd"))
	v2, err2 := c.DefaultView(t.Context(), c.Demo("toy-gd"))
	if err1 != nil || err2 != nil || v1 != v2 {
		t.Errorf("DefaultView after Build: %p, %p (%v, %v); want one shared view", v1, v2, err1, err2)
	}
	if v1.Plot != unbuilt.Plot || v1.ID != "toy-gd" {
		t.Errorf("the built default view differs from one computed on demand")
	}
	if p, err := c.Prose("perceptron"); err != nil || len(p.Parts) < 2 || len(p.TOC) == 0 {
		t.Errorf("Prose(perceptron) = %d parts, %d sections, %v", len(p.Parts), len(p.TOC), err)
	}

	broken := demotest.ObjectiveSpec("perceptron")
	broken.Compute = func(context.Context, demo.Input) (demo.Result, error) {
		return demo.Result{}, errors.New("division by zero")
	}
	c, err = course.With(broken)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Build(t.Context()); err == nil || !strings.Contains(err.Error(), "toy-gd") || !strings.Contains(err.Error(), "division by zero") {
		t.Errorf("Build of a broken demo = %v, want an error naming toy-gd and its cause", err)
	}
}
