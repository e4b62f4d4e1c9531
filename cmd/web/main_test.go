package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"
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
