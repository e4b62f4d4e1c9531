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

// shedOnce is a server that answers the first htmx request whose query
// has key with 503 and Retry-After: 1, as admission control sheds load,
// and records when the requests with key came after it.
type shedOnce struct {
	app http.Handler
	key string

	mu        sync.Mutex
	refusedAt time.Time
	after     []time.Time
}

func (s *shedOnce) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get(hxRequest) != "" && r.URL.Query().Has(s.key) {
		s.mu.Lock()
		first := s.refusedAt.IsZero()
		if first {
			s.refusedAt = time.Now()
		} else {
			s.after = append(s.after, time.Now())
		}
		s.mu.Unlock()
		if first {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "Margin is busy", http.StatusServiceUnavailable)
			return
		}
	}
	s.app.ServeHTTP(w, r)
}

// waited checks that the first request after the refusal came at least
// the second Retry-After asked for later.
func (s *shedOnce) waited(t *testing.T, what string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.after) == 0 {
		t.Fatalf("%s: nothing asked for after the refusal", what)
	}
	if wait := s.after[0].Sub(s.refusedAt); wait < 900*time.Millisecond {
		t.Errorf("%s: asked again %v after a 503 with Retry-After: 1", what, wait)
	}
}

const busyNote = `/busy/.test(document.querySelector('[data-testid="demo-error"]').textContent)`

// TestBrowserPlayWaitsWhenBusy plays the perceptron against a server that
// sheds the first step asked for. The demo keeps step 0 and says it
// waits, asks for nothing for the second Retry-After gives, then plays on.
func TestBrowserPlayWaitsWhenBusy(t *testing.T) {
	shed := &shedOnce{app: NewServer(slog.New(slog.NewTextHandler(io.Discard, nil)), testCourse(t)), key: "step"}
	ctx, base := newBrowserOn(t, shed)
	openPage(t, ctx, base, "/present/perceptron?speed=100")
	press(t, ctx, " ")
	if err := poll(ctx, busyNote); err != nil {
		t.Fatalf("no note that the server is busy: %v", err)
	}
	if k := stepCounter(t, ctx); k != 0 {
		t.Errorf("after the 503 the demo shows step %d, want 0 (the state it had)", k)
	}
	if err := poll(ctx, `+document.querySelector('[data-testid="step"]').textContent >= 2`); err != nil {
		t.Fatalf("play did not go on after the wait: %v", err)
	}
	press(t, ctx, " ")
	shed.waited(t, "play")
}

// TestBrowserSliderWaitsWhenBusy moves the soft margin's C slider against
// a server that sheds the first request for it: the slider and its box
// keep the value moved to, the note says the demo waits, and a second
// later the value is sent again and lands.
func TestBrowserSliderWaitsWhenBusy(t *testing.T) {
	shed := &shedOnce{app: NewServer(slog.New(slog.NewTextHandler(io.Discard, nil)), testCourse(t)), key: "C"}
	ctx, base := newBrowserOn(t, shed)
	openPage(t, ctx, base, "/present/svm-soft")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](slideLog("C", `"2"`))); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, busyNote+` && document.querySelector('input[name="C"]').value === "100"`); err != nil {
		t.Fatalf("after a 503 for the slider: no note, or the slider lost its value: %v", err)
	}
	if err := poll(ctx, `location.search === "?C=100" && document.querySelector('input[name="C"]').value === "100"`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Fatalf("the slider's value did not land after the wait: location %q", loc)
	}
	shed.waited(t, "the C slider")
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
