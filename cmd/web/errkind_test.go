package main

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/topics/perceptron"
	"github.com/margin-edu/margin/internal/topics/regression"
)

// errorKindServer serves the perceptron, the bias-variance demo and a toy
// demo whose Compute fails as a bug would, logging into the buffer.
func errorKindServer(t *testing.T) (http.Handler, *bytes.Buffer) {
	t.Helper()
	bug := demotest.RegressionSpec("linear-regression")
	bug.ID = "toy-bug"
	bug.Compute = func(context.Context, demo.Input) (demo.Result, error) {
		return demo.Result{}, errors.New("toy: forced bug")
	}
	course, err := demo.NewCourse(perceptron.PerceptronSpec(), regression.BiasVarianceSpec(), bug)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	return NewServer(slog.New(slog.NewTextHandler(&log, nil)), course), &log
}

// TestComputeErrorKinds: a demo's errors reach the client by kind: a
// refused value is a 400 naming its key, valid input that cannot be
// computed a 422 saying what to change, a bug a 500 with a fixed message
// and its stack in the log; none of them is blamed on "data:".
func TestComputeErrorKinds(t *testing.T) {
	h, log := errorKindServer(t)
	for _, tc := range []struct {
		url    string
		status int
		want   string
	}{
		{"/plots/perceptron.svg?del=400", 400, "del: point 400 does not exist; the"},
		{"/lessons/perceptron?del=0,1,2,3", 400, "del: no points left"},
		{"/plots/bias-variance.svg?add=0,0~0.5,1~1,0&data=custom", 422, "bias and variance need the true curve: choose a built-in data set, not custom"},
		{"/lessons/linear-regression?add=0,0~0.5,1~1,0&data=custom", 422, "choose a built-in data set"},
		{"/plots/toy-bug.svg", 500, msgInternal},
	} {
		log.Reset()
		rec := get(t, h, tc.url)
		body := rec.Body.String()
		if rec.Code != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("GET %s = %d %.200q, want %d with %q", tc.url, rec.Code, body, tc.status, tc.want)
		}
		if strings.Contains(body, "data:") {
			t.Errorf("GET %s blames the data: %.200q", tc.url, body)
		}
		if strings.HasPrefix(tc.url, "/lessons/") {
			sec := parse(t, rec).Find(`section[data-testid="error"]`)
			if href, _ := sec.Find(`a[data-testid="error-index"]`).Attr("href"); href != "/" || sec.Find(`a[href^="/lessons/"]`).Length() != 0 {
				t.Errorf("GET %s: the error page links to %q and %d lessons, want the course index only", tc.url, href, sec.Find(`a[href^="/lessons/"]`).Length())
			}
		}
		logged := log.String()
		if tc.status == 500 {
			for _, s := range []string{"level=ERROR", "toy: forced bug", "demo toy-bug", "stack=", "ExecuteFigure"} {
				if !strings.Contains(logged, s) {
					t.Errorf("GET %s: the log lacks %q: %.300s", tc.url, s, logged)
				}
			}
			if strings.Contains(body, "forced bug") {
				t.Errorf("GET %s shows the bug to the client: %.200q", tc.url, body)
			}
		} else if strings.Contains(logged, "level=ERROR") {
			t.Errorf("GET %s (%d) is logged as an error: %.300s", tc.url, tc.status, logged)
		}
	}
}

// TestClientGoneIsNoError: a request whose client has left stops the
// demo's work and is logged as stopped, not as a failure.
func TestClientGoneIsNoError(t *testing.T) {
	h, log := errorKindServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodGet, "/plots/perceptron.svg?step=3", nil).WithContext(ctx)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code == http.StatusOK || rec.Code == http.StatusInternalServerError {
		t.Errorf("a request whose client left = %d", rec.Code)
	}
	if strings.Contains(log.String(), "level=ERROR") {
		t.Errorf("a client that left is logged as an error: %.300s", log.String())
	}
}

// TestNavListsCourse: the navigation bar lists the lessons of the course
// served, each with a page of its own, in order, on the index, a lesson
// page (marked current) and the error page alike: a course without the
// perceptron links to no perceptron.
func TestNavListsCourse(t *testing.T) {
	course, err := demo.NewCourse(regression.BiasVarianceSpec(), demotest.ObjectiveSpec("gradient-descent"))
	if err != nil {
		t.Fatal(err)
	}
	h := NewServer(discardLogger(), course)
	want := []string{"/lessons/linear-regression Linear and ridge regression", "/lessons/gradient-descent Gradient descent"}
	for _, tc := range []struct{ url, current string }{
		{"/", ""},
		{"/lessons/gradient-descent", "/lessons/gradient-descent"},
		{"/lessons/no-such-lesson", ""}, // a 404
		{"/lessons/linear-regression?fits=0", ""},
	} {
		doc := parse(t, get(t, h, tc.url))
		var got []string
		current := ""
		doc.Find("header.site nav a").Each(func(i int, a *goquery.Selection) {
			href, _ := a.Attr("href")
			if i > 0 {
				got = append(got, href+" "+a.Text())
			}
			if v, _ := a.Attr("aria-current"); v == "page" {
				current = href
			}
		})
		if strings.Join(got, "|") != strings.Join(want, "|") || current != tc.current {
			t.Errorf("GET %s: nav %q (current %q), want %q (current %q)", tc.url, got, current, want, tc.current)
		}
	}
}
