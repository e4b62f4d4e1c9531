package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// A server short of room: play, sliders and the timeline honour a 503's
// Retry-After and keep the state shown.

// TestBrowserPlayWaitsWhenBusy plays the perceptron against a server that
// sheds the first step asked for with 503 and Retry-After: 1. The demo
// keeps step 0 and says it waits, asks for nothing for that second, then
// plays on.
func TestBrowserPlayWaitsWhenBusy(t *testing.T) {
	var mu sync.Mutex
	var refusedAt time.Time
	var asked []time.Time // the step requests after the refusal
	app := NewServer(slog.New(slog.NewTextHandler(io.Discard, nil)), testCourse(t))
	busy := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(hxRequest) != "" && r.URL.Query().Has("step") {
			mu.Lock()
			first := refusedAt.IsZero()
			if first {
				refusedAt = time.Now()
			} else {
				asked = append(asked, time.Now())
			}
			mu.Unlock()
			if first {
				w.Header().Set("Retry-After", "1")
				http.Error(w, "Margin is busy", http.StatusServiceUnavailable)
				return
			}
		}
		app.ServeHTTP(w, r)
	})
	ctx, base := newBrowserOn(t, busy)
	openPage(t, ctx, base, "/present/perceptron?speed=100")
	press(t, ctx, " ")
	if err := poll(ctx, `/busy/.test(document.querySelector('[data-testid="demo-error"]').textContent)`); err != nil {
		t.Fatalf("no note that the server is busy: %v", err)
	}
	if k := stepCounter(t, ctx); k != 0 {
		t.Errorf("after the 503 the demo shows step %d, want 0 (the state it had)", k)
	}
	if err := poll(ctx, `+document.querySelector('[data-testid="step"]').textContent >= 2`); err != nil {
		t.Fatalf("play did not go on after the wait: %v", err)
	}
	press(t, ctx, " ")
	mu.Lock()
	defer mu.Unlock()
	if len(asked) == 0 {
		t.Fatal("no step asked for after the refusal")
	}
	if wait := asked[0].Sub(refusedAt); wait < 900*time.Millisecond {
		t.Errorf("the next step was asked for %v after a 503 with Retry-After: 1", wait)
	}
}

// newBrowserOn is newBrowser with the server's handler given.
func newBrowserOn(t *testing.T, h http.Handler) (context.Context, string) {
	t.Helper()
	exe := chromiumPath(t)
	t.Parallel()
	bctx, err := startChromium(exe)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	tab, cancelTab := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	focused := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	})
	if err := chromedp.Do(tab, focused); err != nil {
		cancelTab()
		t.Fatal(err)
	}
	ctx, cancelT := context.WithTimeout(tab, 60*time.Second)
	t.Cleanup(func() { cancelT(); cancelTab() })
	return ctx, srv.URL
}
