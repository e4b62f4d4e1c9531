package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// consoleErrors collects what a tab reports as an error from now on: a
// console.error call (htmx logs its error events so, such as
// htmx:historyCacheError), an uncaught exception, and the browser's own
// error log entries (a failed load, a blocked script).
func consoleErrors(t *testing.T, ctx context.Context) func() []string {
	t.Helper()
	var (
		mu   sync.Mutex
		errs []string
	)
	add := func(s string) { mu.Lock(); errs = append(errs, s); mu.Unlock() }
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type != runtime.ConsoleAPICalledTypeError {
				return
			}
			var parts []string
			for _, a := range ev.Args {
				if a.Description != "" {
					parts = append(parts, a.Description)
				} else {
					parts = append(parts, strings.Trim(string(a.Value), `"`))
				}
			}
			add("console.error: " + strings.Join(parts, " "))
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			add(fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber, msg))
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				add("log: " + ev.Entry.Text + " " + ev.Entry.URL)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), errs...) }
}

// TestBrowserHistoryEveryLesson steps the first stepping demo of every
// lesson (knn-bayes has none: it is only loaded) three times with its Step link, then goes Back twice and Forward
// once: the step shown and the state the panel holds are the URL's each
// time, and nothing reaches the console as an error. The kernels and
// linear-regression pages (1.4 MB) overflowed htmx's history snapshot in
// sessionStorage (htmx:historyCacheError on every step); history is kept
// in the URL now, and Back loads the URL's state.
func TestBrowserHistoryEveryLesson(t *testing.T) {
	var paths []string
	for _, l := range testCourse(t).Catalog.Lessons {
		if l.Anchor == "" && len(l.Demos) > 0 {
			paths = append(paths, l.URL())
		}
	}
	if len(paths) < 8 {
		t.Fatalf("%d lesson pages, want every lesson's: %v", len(paths), paths)
	}
	for _, path := range paths {
		t.Run(strings.TrimPrefix(path, "/lessons/"), func(t *testing.T) {
			ctx, base := newBrowser(t)
			errs := consoleErrors(t, ctx)
			if err := chromedp.Do(ctx, chromedp.Navigate(base+path)); err != nil {
				t.Fatal(err)
			}
			if err := poll(ctx, `document.readyState === "complete" && !!window.htmx`); err != nil {
				t.Fatal(err)
			}
			id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const a = document.querySelector('.demo-panel a[data-action="next"]');
				return a ? a.closest(".demo-panel").id : ""; })()`))
			if err != nil {
				t.Fatal(err)
			}
			if id == "" {
				// No demo of the lesson steps (knn-bayes): the page itself
				// must still load without an error.
				if err := settled(ctx); err != nil {
					t.Fatal(err)
				}
				for _, e := range errs() {
					t.Errorf("console: %.300s", e)
				}
				return
			}
			// shows is true when the panel shows step k, the URL is at step
			// k, and the panel's permalink is the URL.
			shows := func(k int) string {
				return fmt.Sprintf(`(() => { const p = document.getElementById(%q), s = p && p.querySelector('[data-testid="step"]');
					const at = new URLSearchParams(location.search).get("step") || "0";
					return document.readyState === "complete" && !!s && s.textContent.trim() === "%d" && at === "%d" &&
						new URL(p.dataset.self, location.href).search === location.search; })()`, id, k, k)
			}
			state := `(() => { const p = document.getElementById("` + id + `"), s = p && p.querySelector('[data-testid="step"]');
				return location.pathname + location.search + " shows step " + (s ? s.textContent.trim() : "none") + ", panel at " + (p ? p.dataset.self : "none"); })()`
			at := func(what string, k int) {
				t.Helper()
				if err := poll(ctx, shows(k)); err != nil {
					got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](state))
					t.Fatalf("%s: want step %d in the panel and the URL; %s", what, k, got)
				}
				if err := settled(ctx); err != nil {
					t.Fatal(err)
				}
			}
			for k := 1; k <= 3; k++ {
				step := `#` + id + ` a[data-action="next"]`
				if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('`+step+`').scrollIntoView({block: "center"}), true`)); err != nil {
					t.Fatal(err)
				}
				if err := frames(ctx, 2); err != nil {
					t.Fatal(err)
				}
				if err := clickAt(ctx, step); err != nil {
					t.Fatal(err)
				}
				at(fmt.Sprintf("Step %d", k), k)
			}
			for _, mv := range []struct {
				js, what string
				want     int
			}{
				{"history.back()", "Back from step 3", 2},
				{"history.back()", "Back from step 2", 1},
				{"history.forward()", "Forward from step 1", 2},
			} {
				if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](mv.js+`, true`)); err != nil {
					t.Fatal(err)
				}
				at(mv.what, mv.want)
			}
			for _, e := range errs() {
				t.Errorf("console: %.300s", e)
			}
		})
	}
}
