package course

import (
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestStoppedStepEveryDemo: every stepping demo's default run, and the
// runs issue 27 found labelled a step late, show the step they stop at
// wherever the kit writes a step, when a page asks for five steps more
// (demotest.StoppedStep).
func TestStoppedStepEveryDemo(t *testing.T) {
	c := demotest.MustCourse(t, Default)
	type run struct{ id, q string }
	runs := []run{
		{"gd", "t=0.21"},                      // diverges: the cap stops it
		{"gd", "objective=double-well&t=0.2"}, // stops early
		{"gd", "method=newton&objective=logistic"},
		{"ls-gd", "eta=1.05"},
		{"svm-hard", "data=or"},
	}
	for _, l := range c.Lessons {
		for _, d := range c.LessonDemos(l.Slug) {
			if !d.Static {
				runs = append(runs, run{d.ID, ""})
			}
		}
	}
	for _, x := range runs {
		d := c.Demo(x.id)
		if d == nil {
			t.Errorf("no demo %s", x.id)
			continue
		}
		r, err := demotest.Execute(d, demotest.MustParse(t, d, x.q+"&step=end"))
		if err != nil {
			t.Fatalf("%s?%s: %v", x.id, x.q, err)
		}
		if !r.Done || r.State.Step >= demo.MaxStep {
			t.Logf("%s?%s does not stop before step %d", x.id, x.q, demo.MaxStep)
			continue
		}
		demotest.StoppedStep(t, d, x.q, r.State.Step)
	}
}
