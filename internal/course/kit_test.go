package course_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/course"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/topics/perceptron"
)

// toyCourse puts a second demo, one without points, on the perceptron's
// lesson, and a regression demo on a lesson of its own.
func toyCourse(t *testing.T) *demo.Course {
	t.Helper()
	c, err := course.With(perceptron.PerceptronSpec(), demotest.ObjectiveSpec("perceptron"), demotest.RegressionSpec("linear-regression"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func parse(t *testing.T, d *demo.Demo, raw string) (demo.State, demo.Problems) {
	t.Helper()
	q, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	return d.Parse(q)
}

// TestKitWithoutPoints: a demo with no data has no data keys, a click
// (op=add) sets its start point, and it still gets history and panels.
func TestKitWithoutPoints(t *testing.T) {
	c := toyCourse(t)
	d := c.Demo("toy-gd")
	if d == nil || d.HasPoints() {
		t.Fatal("toy-gd missing or with points")
	}
	if _, probs := parse(t, d, "add=1,2,1"); probs["add"] == "" {
		t.Error("a demo without points accepted add")
	}
	if _, probs := parse(t, d, "data=or"); probs["data"] == "" {
		t.Error("a demo without points accepted data")
	}
	// The second demo of a page says so in its URLs.
	s, probs := parse(t, d, "demo=toy-gd&t=0.2&step=3")
	if len(probs) > 0 || s.Encode(demo.ForPage) != "demo=toy-gd&step=3&t=0.2" {
		t.Errorf("Encode = %q, %v", s.Encode(demo.ForPage), probs)
	}
	if s.Encode(demo.ForPlot) != "step=3&t=0.2" {
		t.Errorf("plot URLs carry the page's demo key: %q", s.Encode(demo.ForPlot))
	}
	q, _ := url.ParseQuery("demo=toy-gd&op=add&px=-1.23456&py=0.5&step=7")
	e, rest, ok, probs := d.SplitEdit(q)
	if !ok || len(probs) > 0 {
		t.Fatalf("SplitEdit = %v, %v", ok, probs)
	}
	s, _ = d.Parse(rest)
	s, err := s.Apply(e)
	if err != nil || s.Encode(demo.ForPage) != "demo=toy-gd&x0=-1.235&y0=0.5" {
		t.Errorf("a click sets the start: %q, %v", s.Encode(demo.ForPage), err)
	}
	run, err := demotest.Execute(d, s.AtStep(demo.StepToEnd))
	if err != nil || !run.Done || run.History == nil {
		t.Fatalf("Execute = %+v, %v", run, err)
	}
	v, err := demo.NewView(run, d.LessonPath())
	if err != nil {
		t.Fatal(err)
	}
	if v.Click != "start" || v.Points || v.Links.CSV != "" || len(v.Panels) != 1 || v.History == "" {
		t.Errorf("view: click %q, points %v, csv %q, %d panels, history %d bytes", v.Click, v.Points, v.Links.CSV, len(v.Panels), len(v.History))
	}
	if !strings.HasPrefix(v.Panels[0].URL, "/plots/toy-gd-iterate.svg?") {
		t.Errorf("panel URL = %q", v.Panels[0].URL)
	}
	for _, f := range v.Forms {
		for _, h := range f.Hidden {
			if h.Key == "add" || h.Key == "data" {
				t.Errorf("form %s carries %s", f.Legend, h.Key)
			}
		}
	}
}

// TestKitRealLabels: regression data take real labels in URLs and CSV.
func TestKitRealLabels(t *testing.T) {
	d := toyCourse(t).Demo("toy-mean")
	s, probs := parse(t, d, "add=1,2,-3.25")
	if len(probs) > 0 || len(s.Add) != 1 || s.Add[0].Y != -3.25 {
		t.Fatalf("add real label: %+v %v", s.Add, probs)
	}
	if _, probs := parse(t, d, "add=1,2,1e7"); probs["add"] == "" {
		t.Error("a label beyond ±1e6 was accepted")
	}
	pts, err := d.ParseCSV(strings.NewReader("x1,x2,y\n0,0,0.25\n1,1,-7.5\n"))
	if err != nil || len(pts) != 2 || pts[1].Y != -7.5 {
		t.Errorf("ParseCSV = %v, %v", pts, err)
	}
	run, err := demotest.Execute(d, s)
	if err != nil {
		t.Fatal(err)
	}
	v, err := demo.NewView(run, d.PresentPath())
	if err != nil || !v.Real || len(v.Classes) != 0 || v.History != "" {
		t.Errorf("view: real %v, classes %v, history %q, %v", v.Real, v.Classes, v.History, err)
	}
}

// TestCourseChecks: a spec with a kit key, a duplicate key, or an unknown
// lesson is refused when the course is built.
func TestCourseChecks(t *testing.T) {
	bad := demotest.ObjectiveSpec("perceptron")
	bad.Params = append(bad.Params, demo.Param{Key: "step", Kind: demo.KindInt, Max: 1, Default: "0"})
	if _, err := course.With(bad); err == nil {
		t.Error("a demo declaring step was accepted")
	}
	dup := demotest.ObjectiveSpec("perceptron")
	dup.Params = append(dup.Params, dup.Params[0])
	if _, err := course.With(dup); err == nil {
		t.Error("a demo declaring a key twice was accepted")
	}
	if _, err := course.With(demotest.ObjectiveSpec("astrology")); err == nil {
		t.Error("a demo on an unknown lesson was accepted")
	}
	badDefault := demotest.ObjectiveSpec("perceptron")
	badDefault.Params[2].Default = "9"
	if _, err := course.With(badDefault); err == nil {
		t.Error("a default outside its range was accepted")
	}
}

// TestKitDiverging: a run that diverges stops with a status and draws
// every figure, never NaN and never an error page.
func TestKitDiverging(t *testing.T) {
	d := toyCourse(t).Demo("toy-gd")
	s, probs := parse(t, d, "demo=toy-gd&t=2&step=end")
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	run, err := demotest.Execute(d, s)
	if err != nil || !run.Done || run.Panel().Status != "diverged" {
		t.Fatalf("Execute = %+v, %v", run, err)
	}
	for _, name := range []string{demo.PlotFigure, "history", "iterate"} {
		var b strings.Builder
		if ok, err := run.WriteFigure(&b, name, false); !ok || err != nil || strings.Contains(b.String(), "NaN") {
			t.Errorf("figure %q: ok %v, %v, NaN %v", name, ok, err, strings.Contains(b.String(), "NaN"))
		}
	}
	if _, err := demo.NewView(run, d.LessonPath()); err != nil {
		t.Error(err)
	}
}
