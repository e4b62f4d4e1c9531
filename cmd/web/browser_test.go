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
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

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

// TestBrowserKeyboardStepping opens the perceptron demo, presses → three
// times and checks that the step counter reads 3, the plot changed, and
// the address bar holds the permalink of step 3.
func TestBrowserKeyboardStepping(t *testing.T) {
	ctx, base := newBrowser(t)
	plot := chromedp.OuterHTML(chromedp.CSS(`[data-testid="plot"] svg`))
	step := chromedp.Text(chromedp.CSS(`[data-testid="step"]`))
	if err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/lessons/perceptron"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="plot"] svg`)),
	); err != nil {
		t.Fatal(err)
	}
	// Keys go to app.js, which must have loaded, with htmx, before the
	// first press; else a press would follow the link as a plain page load.
	if err := poll(ctx, `document.readyState === "complete" && !!window.htmx`); err != nil {
		t.Fatalf("htmx did not load: %v", err)
	}
	// The keys drive a demo in view: scroll to it, as a reader does.
	scrollDemoTo(t, ctx, "perceptron", 0)
	// Mark the document: a full page load would lose the mark, an htmx
	// swap keeps it.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.marginMark = true`)); err != nil {
		t.Fatal(err)
	}
	before, err := chromedp.Run(ctx, plot)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 3; k++ {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
		if err := waitText(ctx, `[data-testid="step"]`, strconv.Itoa(k)); err != nil {
			t.Fatalf("after → number %d: %v", k, err)
		}
	}
	got, err := chromedp.Run(ctx, step)
	if err != nil || got != "3" {
		t.Fatalf("step counter = %q, %v; want 3", got, err)
	}
	if mark, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.marginMark === true`)); err != nil || !mark {
		t.Errorf("stepping reloaded the whole page (mark %v, %v); it should swap only the demo", mark, err)
	}
	after, err := chromedp.Run(ctx, plot)
	if err != nil {
		t.Fatal(err)
	}
	if before == after {
		t.Error("the plot did not change after three steps")
	}
	if err := poll(ctx, `location.pathname + location.search === "/lessons/perceptron?step=3"`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("location = %q, want the permalink of step 3", loc)
	}
	// ← steps back.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	if err := waitText(ctx, `[data-testid="step"]`, "2"); err != nil {
		t.Errorf("after ←: %v", err)
	}
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

// TestBrowserClickPlayBack covers the rest of the demo's script: a click
// on empty plot adds a point of the chosen class, a click on a point
// removes it, space plays and pauses, and the browser's back button walks
// back through the steps.
func TestBrowserClickPlayBack(t *testing.T) {
	ctx := openFastPerceptron(t)
	// Click where the data area's frame says (x₁, x₂) = (1.25, 0.5) is:
	// empty space, so a +1 point is added there.
	if err := clickData(ctx, 1.25, 0.5); err != nil {
		t.Fatal(err)
	}
	// Clicks land on whole pixels, so allow a pixel's worth of rounding.
	if err := poll(ctx, `(() => { const m = location.search.match(/add=([-\d.]+),([-\d.]+),1(&|$)/);
		return !!m && Math.abs(m[1] - 1.25) < 0.02 && Math.abs(m[2] - 0.5) < 0.02; })()`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Fatalf("click did not add a point at (1.25, 0.5): %v; location %s", err, loc)
	}
	// The view now spans the new point too; click the point where it is
	// drawn now, and it is removed again.
	if err := clickData(ctx, 1.25, 0.5); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `!location.search.includes("add=")`); err != nil {
		t.Fatalf("click on the new point did not remove it: %v", err)
	}
	// Space plays at 40 ms a step; space again pauses.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(" ")); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `+document.querySelector('[data-testid="step"]').textContent >= 4`); err != nil {
		t.Fatalf("play did not advance: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(" ")); err != nil {
		t.Fatal(err)
	}
	// app.js shows the pause on the Play button at once; a step already
	// asked for may still land, so wait until htmx is idle.
	paused := mustBePaused(t, ctx, "space")
	// Back walks to the previous step's state.
	if err := chromedp.Do(ctx, chromedp.NavigateBack()); err != nil {
		t.Fatal(err)
	}
	if err := waitText(ctx, `[data-testid="step"]`, strconv.Itoa(paused-1)); err != nil {
		t.Errorf("back from step %d: %v", paused, err)
	}
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

// TestBrowserSVMDemos steps each SVM demo in the presenter view with the
// keyboard, and moves the soft margin's C slider, which must land on the
// permalink of C = 100.
func TestBrowserSVMDemos(t *testing.T) {
	ctx, base := newBrowser(t)
	stepPresenters(t, ctx, base, "svm-hard", "svm-soft", "svm-sgd")
	openPresenter(t, ctx, base, "svm-soft")
	move := slideLog("C", `"2"`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](move)); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `location.search === "?C=100" && document.querySelector('input[name="C"]').value === "100"`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("after moving the C slider to 10²: location %q, want ?C=100", loc)
	}
}

// TestBrowserKernelDemos steps the kernel SVM and the kernelized SGD with
// the keyboard, and moves the kernel SVM's γ slider.
func TestBrowserKernelDemos(t *testing.T) {
	ctx, base := newBrowser(t)
	stepPresenters(t, ctx, base, "kernel-svm", "kernel-pegasos")
	openPresenter(t, ctx, base, "kernel-svm")
	move := slideLog("gamma", `"1"`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](move)); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `location.search === "?gamma=10" && document.querySelector('[data-testid="plot"] svg').textContent.includes("γ = 10")`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("after moving the γ slider to 10¹: location %q, want ?gamma=10 and a figure of γ = 10", loc)
	}
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

// TestBrowserMousePauseAtFastSpeed: Pause clicked with the mouse while a
// demo plays at 40 ms a step stops it, even when a step swaps the button
// between the press and the release.
func TestBrowserMousePauseAtFastSpeed(t *testing.T) {
	ctx := openFastPerceptron(t)
	// A reader clicks where the button is; the node under the pointer may
	// be a newer one than the one measured.
	play := chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		at, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
			const r = document.querySelector('#panel-perceptron [data-testid="play"]').getBoundingClientRect();
			return [r.left + r.width / 2, r.top + r.height / 2]; })()`))
		if err != nil {
			return err
		}
		return chromedp.Do(ctx, chromedp.MouseClickXY(at[0], at[1]))
	})
	if err := chromedp.Do(ctx, play); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `+document.querySelector('[data-testid="step"]').textContent >= 4`); err != nil {
		t.Fatalf("a click on Play did not play: %v", err)
	}
	// The slow hand: press Pause, let a step swap the button out from
	// under the pointer, then release.
	at, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
		const r = document.querySelector('#panel-perceptron [data-testid="play"]').getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2, +document.querySelector('[data-testid="step"]').textContent]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	press := chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, at[0], at[1], chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1))
	release := chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, at[0], at[1], chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1))
	if err := chromedp.Do(ctx, press); err != nil {
		t.Fatal(err)
	}
	// A step still asked for lands after the press: the button is new.
	if err := poll(ctx, `!!document.querySelector('[data-testid="step"]') && +document.querySelector('[data-testid="step"]').textContent > `+strconv.Itoa(int(at[2]))); err != nil {
		t.Fatalf("no step landed after the press: %v", err)
	}
	if err := chromedp.Do(ctx, release); err != nil {
		t.Fatal(err)
	}
	mustBePaused(t, ctx, "a click on Pause")
}

// mustBePaused waits until the demo shows it is paused (the Play button,
// then htmx idle, since a step already asked for may still land) and
// returns its step. That no step comes then has no event to wait for: it
// counts the requests htmx starts over three ticks of the demo's own
// speed, in which a clock still playing would ask for two steps or more.
func mustBePaused(t *testing.T, ctx context.Context, how string) int {
	t.Helper()
	if err := poll(ctx, `document.querySelector('[data-testid="play"]').getAttribute("aria-pressed") === "false"`); err != nil {
		t.Fatalf("%s did not pause: %v", how, err)
	}
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	paused := stepCounter(t, ctx)
	started, err := chromedp.Run(ctx, chromedp.Evaluate[int](`new Promise(done => {
		let n = 0; const count = () => n++;
		document.addEventListener("htmx:beforeRequest", count);
		setTimeout(() => { document.removeEventListener("htmx:beforeRequest", count); done(n); },
			3 * Number(document.querySelector('select[data-role="speed"]').value));
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	if again := stepCounter(t, ctx); started != 0 || again != paused {
		t.Errorf("still playing after %s paused: %d requests in three ticks, step %d then %d", how, started, paused, again)
	}
	return paused
}

// openFastPerceptron opens the perceptron lesson playing at 40 ms a step,
// with the demo scrolled to the top of the window.
func openFastPerceptron(t *testing.T) context.Context {
	t.Helper()
	ctx, base := newBrowser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/lessons/perceptron?speed=40")); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `document.readyState === "complete" && !!window.htmx`); err != nil {
		t.Fatal(err)
	}
	scrollDemoTo(t, ctx, "perceptron", 0)
	return ctx
}

// TestBrowserCountersFit: no counter value is cut off on a 1280×720
// projector or a 390 px phone, however long the number (J = 1.13·10⁻⁴,
// a confidence of 1 − 10⁻²⁰).
func TestBrowserCountersFit(t *testing.T) {
	ctx, base := newBrowser(t)
	for _, vp := range [][2]int64{{1280, 720}, {390, 844}} {
		for _, u := range []string{"/present/logistic?data=separable&step=20000", "/present/svm-soft?C=1000&step=20000",
			"/lessons/logistic-regression?data=separable&step=20000", "/present/gd?method=newton&objective=logistic&step=10"} {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(vp[0], vp[1]), chromedp.Navigate(base+u)); err != nil {
				t.Fatal(err)
			}
			if err := poll(ctx, `document.readyState === "complete"`); err != nil {
				t.Fatal(err)
			}
			cut, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".counters dd")]
				.filter(d => d.scrollWidth > d.clientWidth + 1).map(d => d.textContent)`))
			if err != nil {
				t.Fatal(err)
			}
			if len(cut) > 0 {
				t.Errorf("%s at %d×%d: counters cut off: %q", u, vp[0], vp[1], cut)
			}
		}
	}
}
