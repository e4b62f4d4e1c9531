package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/margin-edu/margin/internal/course"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/topics/perceptron"
)

// syncBuffer is a bytes.Buffer safe to write from the server goroutine
// and read from the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRunServesAndShutsDown starts the real server on a free port, checks
// /healthz and the request log, then cancels: run must return nil.
func TestRunServesAndShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0"}, func(string) string { return "" }, &out, io.Discard)
	}()
	re := regexp.MustCompile(`url=(http://\S+)`)
	var base string
	for deadline := time.Now().Add(5 * time.Second); base == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		t.Fatalf("server did not log its address: %q", out.String())
	}
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("healthz = %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run returned %v after shutdown, want nil", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("run did not return after cancel")
	}
	if !regexp.MustCompile(`uri=/healthz status=200`).MatchString(out.String()) {
		t.Errorf("request not logged: %q", out.String())
	}
}

func TestRunFlags(t *testing.T) {
	if err := run(context.Background(), []string{"-nope"}, func(string) string { return "" }, io.Discard, io.Discard); err == nil {
		t.Error("unknown flag accepted")
	}
	// PORT is used when -addr is not given; a taken or bad port fails fast.
	err := run(context.Background(), nil, func(k string) string {
		if k == "PORT" {
			return "not-a-port"
		}
		return ""
	}, io.Discard, io.Discard)
	if err == nil {
		t.Error("PORT=not-a-port accepted")
	}
}

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
	course, err := course.With(perceptron.PerceptronSpec(), countingSpec(&calls))
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
	course, err := course.With(perceptron.PerceptronSpec(), broken)
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
