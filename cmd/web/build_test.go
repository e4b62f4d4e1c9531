package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/topics/perceptron"
)

// countingSpec is the toy objective demo with its Compute calls counted.
func countingSpec(calls *atomic.Int32) demo.Spec {
	s := demotest.ObjectiveSpec("perceptron")
	compute := s.Compute
	s.Compute = func(ctx context.Context, in demo.Input) (demo.Result, error) {
		calls.Add(1)
		return compute(ctx, in)
	}
	return s
}

// TestNewServerBuildsNothing: NewServer runs no demo; the course, built
// once by checkCourse, serves a lesson page's other demos from the
// default views it made, so a request computes only the demo it asks for.
func TestNewServerBuildsNothing(t *testing.T) {
	var calls atomic.Int32
	course, err := demo.NewCourse(perceptron.PerceptronSpec(), countingSpec(&calls))
	if err != nil {
		t.Fatal(err)
	}
	h := NewServer(discardLogger(), course)
	if n := calls.Load(); n != 0 {
		t.Errorf("NewServer ran the toy demo %d times, want 0", n)
	}
	if err := checkCourse(t.Context(), course, 1<<20); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("checkCourse ran the toy demo %d times, want once, in its default state", n)
	}
	if course.Cache.Budget() != 1<<20 {
		t.Errorf("cache budget = %d, want the 1 MiB asked for", course.Cache.Budget())
	}
	for range 3 {
		rec := get(t, h, "/lessons/perceptron?step=2")
		if rec.Code != http.StatusOK || parse(t, rec).Find(`#panel-toy-gd`).Length() != 1 {
			t.Fatalf("lesson page = %d, or without the toy demo", rec.Code)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("three pages showing the toy demo at its default ran it %d times in all, want the 1 of the build", n)
	}
}

// TestBrokenLessonStopsStart: a demo whose default state fails stops the
// server before it serves, with a message naming the demo and the cause.
func TestBrokenLessonStopsStart(t *testing.T) {
	broken := demotest.ObjectiveSpec("perceptron")
	broken.Compute = func(context.Context, demo.Input) (demo.Result, error) {
		return demo.Result{}, errors.New("the table of losses is empty")
	}
	course, err := demo.NewCourse(perceptron.PerceptronSpec(), broken)
	if err != nil {
		t.Fatal(err)
	}
	err = checkCourse(t.Context(), course, demo.DefaultCacheBytes)
	for _, want := range []string{"a lesson is broken", "toy-gd", "the table of losses is empty"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("checkCourse = %v, want it to say %q", err, want)
		}
	}
	if err := run(t.Context(), []string{"-cache", "0"}, func(string) string { return "" }, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "-cache") {
		t.Errorf("run -cache 0 = %v, want an error naming -cache", err)
	}
}
