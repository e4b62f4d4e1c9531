package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/fit/budget"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/course"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/fit"
	"github.com/margin-edu/margin/internal/topics/perceptron"
	"github.com/margin-edu/margin/internal/topics/regression"
)

// testProblems stands for the lessons' query problems: one entry per bad
// key.
type testProblems []string

func (p testProblems) List() []string { return p }
func (p testProblems) Error() string  { return strings.Join(p, "; ") }

func TestErrMapping(t *testing.T) {
	probs := testProblems{`eta: "-2" is not a number greater than 0 up to 100`, `n: "x" is not a whole number from 4 to 500`}
	opErr := &net.OpError{Op: "read", Net: "tcp",
		Source: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080},
		Addr:   &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 51234}, Err: os.ErrDeadlineExceeded}
	tests := []struct {
		name  string
		err   error
		want  int
		lines []string // the error page's messages, in order
		log   string   // the level it is logged at, if at all
		api   string   // the API's message, if not the lines joined
	}{
		{"problems", probs, 400, probs, "", ""},
		{"wrapped problems", bad(fmt.Errorf("upload: %w", probs)), 400, probs, "", ""},
		{"one message with ;", bad(errors.New("the form could not be read; send CSV in the csv field")), 400,
			[]string{"the form could not be read; send CSV in the csv field"}, "", ""},
		{"fit bad request", fmt.Errorf("x: %w", fit.ErrBadRequest), 400, []string{"x: bad request"}, "", ""},
		{"unprocessable", fmt.Errorf("%w: the kernel matrix is singular", fit.ErrUnprocessable), 422,
			[]string{fit.ErrUnprocessable.Error() + ": the kernel matrix is singular"}, "", ""},
		{"canceled", fmt.Errorf("render: %w", context.Canceled), 503, []string{msgStopped}, "INFO", ""},
		{"budget spent", fmt.Errorf("svm: %w", budget.ErrSpent), 503, []string{"svm: fit: the request's CPU budget is spent; send fewer rows or features, or rescale x to numbers near 1, and try again"}, "INFO", ""},
		{"deadline", fmt.Errorf("fit: %w", context.DeadlineExceeded), 503, []string{msgStopped}, "INFO", ""},
		{"read timeout", bad(fmt.Errorf("reading the body: %w", opErr)), 408, []string{msgSlowBody}, "", ""},
		{"too large", fmt.Errorf("form: %w", &http.MaxBytesError{Limit: maxUpload}), 413,
			[]string{"the upload is larger than 1 MiB; send at most 500 points"}, "", "the request body is larger than 1 MiB"},
		{"too long", uriTooLong{"query", maxQuery}, 414,
			[]string{"the URL's query is longer than 32 KiB, the most Margin reads; shorten it"}, "", ""},
		{"http error", echo.NewHTTPError(404, "there is no lesson svm"), 404, []string{"there is no lesson svm"}, "", ""},
		{"anything else", errors.New("render: boom; at 127.0.0.1:80"), 500, []string{msgInternal}, "ERROR", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logger, logs := logBuffer()
			e := newMWEcho(logger, func(e *echo.Echo) {
				fail := func(c echo.Context) error { return tt.err }
				e.GET("/page", fail)
				e.GET("/api/v1/x", fail)
				e.GET("/plots/x.svg", fail)
			})

			rec := mwRequest(t, e, http.MethodGet, "/page", nil)
			doc, err := goquery.NewDocumentFromReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			doc.Find(`[data-testid="error-message"]`).Each(func(_ int, s *goquery.Selection) { lines = append(lines, s.Text()) })
			if rec.Code != tt.want || strings.Join(lines, "\n") != strings.Join(tt.lines, "\n") {
				t.Errorf("page = %d %q, want %d %q", rec.Code, lines, tt.want, tt.lines)
			}
			if n := doc.Find(`[data-testid="error"] li`).Length(); len(tt.lines) == 1 && n != 0 {
				t.Errorf("one message shown as %d bullets", n)
			}

			rec = mwRequest(t, e, http.MethodGet, "/api/v1/x", nil)
			var body struct{ Error string }
			api := strings.Join(tt.lines, "; ")
			if tt.api != "" {
				api = tt.api
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != tt.want || body.Error != api {
				t.Errorf("api = %d %q (%v), want %d {error: %q}", rec.Code, rec.Body, err, tt.want, api)
			}

			rec = mwRequest(t, e, http.MethodGet, "/plots/x.svg", nil)
			if want := strings.Join(tt.lines, "\n") + "\n"; rec.Code != tt.want || rec.Body.String() != want {
				t.Errorf("plot = %d %q, want %d %q", rec.Code, rec.Body, tt.want, want)
			}
			if rec.Header().Get("Cache-Control") != "" {
				t.Errorf("an error is cacheable: %q", rec.Header().Get("Cache-Control"))
			}

			if tt.log != "ERROR" && strings.Contains(logs.String(), "level=ERROR") {
				t.Errorf("a %d is logged as an error:\n%s", tt.want, logs)
			}
			for _, level := range []string{"INFO", "ERROR"} {
				logged := strings.Contains(logs.String(), "level="+level+" msg=\"request ")
				if logged != (level == tt.log) {
					t.Errorf("logged at %s: %v, want %v:\n%s", level, logged, !logged, logs)
				}
			}
		})
	}
}

func TestErrNotFoundClipsPath(t *testing.T) {
	logger, _ := logBuffer()
	e := newMWEcho(logger, func(*echo.Echo) {})
	rec := mwRequest(t, e, http.MethodGet, "/lessons/"+strings.Repeat("x", 500), nil)
	if rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), strings.Repeat("x", 61)) ||
		!strings.Contains(rec.Body.String(), "/lessons/xxx") {
		t.Errorf("404 = %d %.300q, want the path clipped to 60 characters", rec.Code, rec.Body)
	}
}

func TestErrClip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"short", "short"},
		{strings.Repeat("a", 60), strings.Repeat("a", 60)},
		{strings.Repeat("a", 61), strings.Repeat("a", 59) + "…"},
		{strings.Repeat("é", 70), strings.Repeat("é", 59) + "…"},
	}
	for _, tt := range tests {
		if got := clip(tt.in); got != tt.want {
			t.Errorf("clip(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// errorKindServer serves the perceptron, the bias-variance demo and a toy
// demo whose Compute fails as a bug would, logging into the buffer.
func errorKindServer(t *testing.T) (http.Handler, *bytes.Buffer) {
	t.Helper()
	bug := demotest.RegressionSpec("linear-regression")
	bug.ID = "toy-bug"
	bug.Compute = func(context.Context, demo.Input) (demo.Result, error) {
		return demo.Result{}, errors.New("toy: forced bug")
	}
	course, err := course.With(perceptron.PerceptronSpec(), regression.BiasVarianceSpec(), bug)
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

// TestLimits: oversized input gets a clear 4xx naming the limit.
func TestLimits(t *testing.T) {
	h := newTestServer(t)
	long := "/lessons/perceptron?add=" + strings.Repeat("123456.789,-123456.789,1~", 2000) + "0,0,1"
	if rec := get(t, h, long); rec.Code != http.StatusRequestURITooLong || !strings.Contains(rec.Body.String(), "KiB") {
		t.Errorf("long query = %d %.100s", rec.Code, rec.Body)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("csv", strings.Repeat("1,1,1\n", 400000))
	mw.Close()
	rec := do(t, h, http.MethodPost, "/demos/perceptron/data", &buf, map[string]string{"Content-Type": mw.FormDataContentType()})
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "MiB") {
		t.Errorf("big upload = %d %.200s", rec.Code, rec.Body)
	}
	rec = get(t, h, "/lessons/perceptron?eta="+strings.Repeat("7", 20000))
	if rec.Code != http.StatusBadRequest || rec.Body.Len() > 20000 {
		t.Errorf("a long bad value = %d with %d bytes; the message must not echo it whole", rec.Code, rec.Body.Len())
	}
}

// TestErrAmplification: the worst queries that fit in 32 KiB answer a few
// KiB, HTML, plain or JSON (issue 18 §1.8: 6,500 empty keys gave 1.15 MB).
func TestErrAmplification(t *testing.T) {
	h := newTestServer(t)
	ks := make([]string, 6500)
	for i := range ks {
		ks[i] = "z" + strconv.FormatInt(int64(i), 36)
	}
	many := strings.Join(ks, "&")
	keys := strings.Repeat("k", 32000) + "=1"
	for _, path := range []string{"/lessons/perceptron?", "/plots/perceptron.svg?", "/present/perceptron?"} {
		for _, q := range []string{many, keys, strings.Repeat("é", 16000)} {
			rec := get(t, h, path+q)
			if rec.Code != http.StatusBadRequest || rec.Body.Len() > 8<<10 || strings.Contains(rec.Body.String(), strings.Repeat("k", 61)) {
				t.Errorf("%s<%d bytes> = %d with %d bytes, want a 400 under 8 KiB", path, len(q), rec.Code, rec.Body.Len())
			}
			t.Logf("%s<%d bytes> = %d with %d bytes", path, len(q), rec.Code, rec.Body.Len())
		}
	}
	if got := bounded(make([]string, 6500)); len(got) != maxLines+1 || got[maxLines] != "and 6490 more problems" {
		t.Errorf("bounded(6500 lines) = %d lines ending %q", len(got), got[len(got)-1])
	}
}
