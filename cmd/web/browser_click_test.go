package main

import (
	"context"
	"math"
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// Clicks in a browser: a click on Step or Play leaves the demo where it
// was, Play and Pause answer the mouse even at 40 ms a step, and a click
// on the plot adds or removes a point. The slowest test comes first, so
// that it starts first: the browser tests run two at a time.

// TestBrowserClickKeepsDemoInPlace clicks Step (a real mouse click, which
// focuses the link) and Play on demos scrolled to the top of the window:
// the panel is swapped under the pointer, and the demo must stay where it
// was. Scroll anchoring on the focused link used to move the page by the
// panel's height, leaving the demo a screen above the window.
func TestBrowserClickKeepsDemoInPlace(t *testing.T) {
	ctx, base := newBrowser(t)
	for _, c := range []struct {
		path, id string
		clicks   int
	}{
		{"/lessons/logistic-regression", "logistic", 2},
		{"/lessons/perceptron", "perceptron", 3},
		{"/lessons/soft-margin-svm", "svm-soft", 2},
		{"/lessons/soft-margin-svm", "svm-sgd", 2},
		{"/lessons/kernels", "kernel-pegasos", 2},
		{"/present/svm-hard", "svm-hard", 2},
		{"/present/gd", "gd", 2},
	} {
		openPage(t, ctx, base, c.path)
		scrollDemoTo(t, ctx, c.id, 0)
		before := demoTop(t, ctx, c.id)
		for k := 1; k <= c.clicks; k++ {
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#panel-`+c.id+` a[data-testid="next"]`))); err != nil {
				t.Fatal(err)
			}
			if err := waitStep(ctx, c.id, k); err != nil {
				t.Fatalf("%s %s: after click %d: %v", c.path, c.id, k, err)
			}
			if err := settled(ctx); err != nil {
				t.Fatal(err)
			}
			if after := demoTop(t, ctx, c.id); math.Abs(after-before) > 3 {
				t.Errorf("%s: click %d on Step moved demo %s from %.0f px to %.0f px", c.path, k, c.id, before, after)
			}
		}
		// Play steps by itself; Pause stops it. The demo stays put.
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#panel-`+c.id+` [data-testid="play"]`))); err != nil {
			t.Fatal(err)
		}
		if err := poll(ctx, `+document.querySelector('#panel-`+c.id+` [data-testid="step"]').textContent >= `+strconv.Itoa(c.clicks+2)); err != nil {
			t.Fatalf("%s: play did not advance: %v", c.id, err)
		}
		// The button is swapped with every step: click where it is.
		if err := clickAt(ctx, `#panel-`+c.id+` [data-testid="play"]`); err != nil {
			t.Fatal(err)
		}
		if err := settled(ctx); err != nil {
			t.Fatal(err)
		}
		if after := demoTop(t, ctx, c.id); math.Abs(after-before) > 3 {
			t.Errorf("%s: playing moved demo %s from %.0f px to %.0f px", c.path, c.id, before, after)
		}
	}
}

// TestBrowserClickPlayBack covers the rest of the demo's script: a click
// on empty plot adds a point of the chosen class, a click on a point
// removes it, space plays and pauses, and the browser's back button walks
// back through the steps.
func TestBrowserClickPlayBack(t *testing.T) {
	ctx := openFastPerceptron(t, "")
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

// TestBrowserMousePauseAtFastSpeed: Pause clicked with the mouse while a
// demo plays at 40 ms a step stops it, even when a step swaps the button
// between the press and the release.
func TestBrowserMousePauseAtFastSpeed(t *testing.T) {
	// The noisy data's run goes on to the step limit: the default run
	// ends at step 24, 1 s of play, which a loaded machine could see
	// end before the press, so that no step lands after it.
	ctx := openFastPerceptron(t, "data=noisy&")
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

// openFastPerceptron opens the perceptron lesson in the state q (a query
// ending in "&", or "") playing at 40 ms a step, with the demo scrolled to
// the top of the window.
func openFastPerceptron(t *testing.T, q string) context.Context {
	t.Helper()
	ctx, base := newBrowser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/lessons/perceptron?"+q+"speed=40")); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `document.readyState === "complete" && !!window.htmx`); err != nil {
		t.Fatal(err)
	}
	scrollDemoTo(t, ctx, "perceptron", 0)
	return ctx
}
