package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The browser tests' harness: one Chromium per test binary, a tab and a
// server per test, and waits on conditions in the page, not on fixed
// sleeps. The tests are in browser_{click,keys,demos}_test.go.

// chromiumPath finds Debian's chromium. Without it the browser test is
// skipped on a developer machine, but under CI it must run.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("CI is set but chromium is not installed; .ci/run installs it with apt-get")
	}
	t.Skip("chromium not installed; install it (apt-get install chromium) to run the browser test")
	return ""
}

// The browser tests share one Chromium per test binary: starting it is
// most of a short test's time. It starts on the first test that asks and
// stops in TestMain, after the last test.
var chromium struct {
	once   sync.Once
	ctx    context.Context // the browser's first tab; tests open their own
	cancel func()          // stops the browser and its allocator
	err    error
}

// startChromium starts the shared browser at exe, once.
func startChromium(exe string) (context.Context, error) {
	chromium.once.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(exe),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.WindowSize(1400, 1000),
		)
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, cancelB := chromedp.NewContext(actx)
		chromium.ctx = bctx
		chromium.cancel = func() { cancelB(); cancelA() }
		// The first Run starts the browser and binds its life to bctx, so it
		// runs without a timeout; each test times its own tab.
		if err := chromedp.Do(bctx); err != nil {
			chromium.err = fmt.Errorf("starting %s: %w", exe, err)
		}
	})
	return chromium.ctx, chromium.err
}

// stopChromium stops the shared browser, if a test started it.
func stopChromium() {
	if chromium.cancel != nil {
		chromium.cancel()
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	stopChromium()
	os.Exit(code)
}

// newBrowser gives the test a tab of the shared browser in a browser
// context of its own (cookies, storage and cache start empty and go with
// the test), and a server of its own; both close when the test ends.
// Tests that share nothing else can overlap, so newBrowser marks the test
// parallel: one test's page loads while another waits on its page. The
// tab emulates a focused page, as the only window on a screen is, since
// several tabs are open at once.
func newBrowser(t *testing.T) (context.Context, string) {
	t.Helper()
	exe := chromiumPath(t)
	t.Parallel()
	bctx, err := startChromium(exe)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(NewServer(slog.New(slog.NewTextHandler(io.Discard, nil)), testCourse(t)))
	t.Cleanup(srv.Close)
	tab, cancelTab := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	focused := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	})
	if err := chromedp.Do(tab, focused); err != nil { // opens the tab
		cancelTab()
		t.Fatal(err)
	}
	ctx, cancelT := context.WithTimeout(tab, 60*time.Second)
	t.Cleanup(func() { cancelT(); cancelTab() })
	return ctx, srv.URL
}

// waitText polls until the element's text is want.
func waitText(ctx context.Context, sel, want string) error {
	return poll(ctx, `(() => { const e = document.querySelector(`+"`"+sel+"`"+`); return !!e && e.textContent.trim() === "`+want+`"; })()`)
}

// poll evaluates a JavaScript condition every 20 ms until it is true, for
// at most 10 s. (chromedp.Poll loses its execution context after an htmx
// history push; a fresh Evaluate each time does not.)
func poll(ctx context.Context, cond string) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond))
		if err == nil && ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out waiting for %s (last error %v)", cond, err)
		}
		time.Sleep(20 * time.Millisecond) // the polling interval
	}
}

// htmxIdle is true when htmx has no request in flight and no swap or
// settle under way. (htmx marks the element that asked, the body for
// app.js's htmx.ajax, with htmx-request from before it sends until the
// response is in, then the target with htmx-swapping and htmx-settling.)
const htmxIdle = `!document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling")`

// frames waits until the page has drawn n frames in a row without the
// window scrolling. app.js sees a scroll on the next frame and marks the
// current demo in an animation frame queued from the scroll event, which
// runs in that same frame, so two still frames after a scroll mean the
// mark is up to date. (It needs the page's scripts; a page without them
// has nothing to wait for.)
func frames(ctx context.Context, n int) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	js := fmt.Sprintf(`new Promise(done => {
		let x = scrollX, y = scrollY, still = 0;
		const tick = () => {
			if (scrollX === x && scrollY === y) still++; else { still = 0; x = scrollX; y = scrollY; }
			if (still >= %d) done(true); else requestAnimationFrame(tick);
		};
		requestAnimationFrame(tick);
	})`, n)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise)); err != nil {
		return fmt.Errorf("waiting for %d still frames: %w", n, err)
	}
	return nil
}

// stepCounter reads the demo's step counter, waiting out a swap.
func stepCounter(t *testing.T, ctx context.Context) int {
	t.Helper()
	if err := poll(ctx, `/^\d+$/.test((document.querySelector('[data-testid="step"]') || {}).textContent || "")`); err != nil {
		t.Fatalf("no step counter: %v", err)
	}
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`+document.querySelector('[data-testid="step"]').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// clickData clicks the demo plot at data coordinates (x1, x2), mapped to
// the screen through the frame the page publishes.
func clickData(ctx context.Context, x1, x2 float64) error {
	js := fmt.Sprintf(`(() => {
		const fig = document.querySelector('[data-testid="plot"]');
		fig.scrollIntoView();
		const f = JSON.parse(fig.dataset.frame).frame, svg = fig.querySelector("svg");
		const p = svg.createSVGPoint();
		p.x = f.Left + (%g - f.View.XMin) / (f.View.XMax - f.View.XMin) * f.Width;
		p.y = f.Top + (f.View.YMax - %g) / (f.View.YMax - f.View.YMin) * f.Height;
		const s = p.matrixTransform(svg.getScreenCTM());
		return [s.x, s.y];
	})()`, x1, x2)
	xy, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](js))
	if err != nil {
		return err
	}
	return chromedp.Do(ctx, chromedp.MouseClickXY(xy[0], xy[1]))
}

// openPresenter loads demo id's presenter view and waits for app.js and
// htmx, without which a key press would follow a link as a page load.
func openPresenter(t *testing.T, ctx context.Context, base, id string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/present/"+id)); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `document.readyState === "complete" && !!window.htmx`); err != nil {
		t.Fatalf("%s: htmx did not load: %v", id, err)
	}
}

// stepPresenters presses → three times in each demo's presenter view and
// checks the step counter after each press and the permalink of step 3.
func stepPresenters(t *testing.T, ctx context.Context, base string, ids ...string) {
	t.Helper()
	for _, id := range ids {
		openPresenter(t, ctx, base, id)
		for k := 1; k <= 3; k++ {
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
				t.Fatal(err)
			}
			if err := waitText(ctx, `[data-testid="step"]`, strconv.Itoa(k)); err != nil {
				t.Fatalf("%s: after → number %d: %v", id, k, err)
			}
		}
		if err := poll(ctx, `location.pathname + location.search === "/present/`+id+`?step=3"`); err != nil {
			loc, _ := chromedp.Run(ctx, chromedp.Location())
			t.Errorf("%s: location = %q, want the permalink of step 3", id, loc)
		}
	}
}

// slideLog is a script that moves the log slider of key to the position
// to (a JavaScript expression; s is the slider) as a user's drag does.
func slideLog(key, to string) string {
	return `(() => { const s = document.querySelector('input[data-log-for="` + key + `"]'); s.value = ` + to + `;
		s.dispatchEvent(new Event("input", {bubbles: true})); s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`
}

// settled waits until htmx has no request in flight and has finished
// swapping and settling, then for two frames without a scroll, in which
// app.js's afterSettle work (the demo put back in place, the current demo
// marked) is done and htmx has wired the new panel's forms: a change
// event sent earlier would reach a form htmx has not wired yet.
func settled(ctx context.Context) error {
	if err := poll(ctx, htmxIdle); err != nil {
		return err
	}
	if err := frames(ctx, 2); err != nil {
		return err
	}
	return poll(ctx, htmxIdle)
}

// openPage loads path and waits for app.js and htmx. It logs the keys
// the page gets (see pressUnused).
func openPage(t *testing.T, ctx context.Context, base, path string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+path)); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `document.readyState === "complete" && !!window.htmx`); err != nil {
		t.Fatalf("%s: htmx did not load: %v", path, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](keyLog)); err != nil {
		t.Fatal(err)
	}
}

// keyLog records each keydown that reaches the window, and whether a
// handler took it (app.js takes a key it acts on with preventDefault).
// A window listener runs after app.js's listener on the document.
const keyLog = `(() => { window.marginKeys = [];
	window.addEventListener("keydown", e => marginKeys.push({key: e.key, taken: e.defaultPrevented}));
	return true; })()`

// demoTop is the top of demo id's section in the window, in CSS pixels.
func demoTop(t *testing.T, ctx context.Context, id string) float64 {
	t.Helper()
	top, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.getElementById("demo-`+id+`").getBoundingClientRect().top`))
	if err != nil {
		t.Fatal(err)
	}
	return top
}

// scrollDemoTo scrolls the window so demo id's section starts y pixels
// below the top of the window, as a reader scrolls to it.
func scrollDemoTo(t *testing.T, ctx context.Context, id string, y float64) {
	t.Helper()
	js := fmt.Sprintf(`(() => { const r = document.getElementById("demo-%s").getBoundingClientRect();
		window.scrollTo(0, window.scrollY + r.top - %g); return true; })()`, id, y)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err != nil {
		t.Fatal(err)
	}
	// Wait for app.js to see the scroll.
	if err := frames(ctx, 2); err != nil {
		t.Fatal(err)
	}
}

// demoStep reads demo id's step counter, once a swap has settled.
func demoStep(ctx context.Context, id string) (int, error) {
	sel := `#panel-` + id + ` [data-testid="step"]`
	if err := poll(ctx, `/^\d+$/.test((document.querySelector('`+sel+`') || {}).textContent || "")`); err != nil {
		return 0, err
	}
	return chromedp.Run(ctx, chromedp.Evaluate[int](`+document.querySelector('`+sel+`').textContent`))
}

// waitStep waits until demo id's step counter reads k.
func waitStep(ctx context.Context, id string, k int) error {
	return waitText(ctx, `#panel-`+id+` [data-testid="step"]`, strconv.Itoa(k))
}

// clickAt clicks the middle of the element sel finds, as a mouse would:
// for an element that a swap may replace between finding and clicking it.
func clickAt(ctx context.Context, sel string) error {
	xy, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector('`+sel+`').getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2]; })()`))
	if err != nil {
		return err
	}
	return chromedp.Do(ctx, chromedp.MouseClickXY(xy[0], xy[1]))
}

// press sends one key to the page, as a reader types it.
func press(t *testing.T, ctx context.Context, key string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
		t.Fatal(err)
	}
}

// plotPoint is a script that maps the data point (x, y) of the page's
// first plot to screen coordinates through the frame the server sent, as
// app.js maps clicks the other way.
func plotPoint(x, y float64) string {
	return `(() => { const fig = document.querySelector('figure.plot'); const svg = fig.querySelector('svg');
		const f = JSON.parse(fig.dataset.frame).frame, v = f.View, m = svg.getScreenCTM();
		const p = svg.createSVGPoint();
		p.x = f.Left + (` + ftoa(x) + ` - v.XMin) / (v.XMax - v.XMin) * f.Width;
		p.y = f.Top + (v.YMax - ` + ftoa(y) + `) / (v.YMax - v.YMin) * f.Height;
		const s = p.matrixTransform(m); return [s.x, s.y]; })()`
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
