package main

import (
	"context"
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// Each topic's demos in a browser: stepping with the keys, clicks on the
// plot, Play and Pause, and the sliders and boxes of their forms.

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

// TestBrowserGDDemos steps gradient descent with the keyboard and clicks
// its contour plot, which moves the start x⁽⁰⁾ there; the static kNN
// demo's k box redraws the regions.
func TestBrowserGDDemos(t *testing.T) {
	ctx, base := newBrowser(t)
	stepPresenters(t, ctx, base, "gd")

	openPresenter(t, ctx, base, "gd")
	xy, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](plotPoint(-3, 3)))
	if err != nil || len(xy) != 2 {
		t.Fatalf("mapping (−3, 3) to the screen: %v %v", xy, err)
	}
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
		t.Fatal(err)
	}
	// A click is as exact as a screen pixel: within 0.02 of the point.
	if err := poll(ctx, `(() => { const q = new URLSearchParams(location.search);
		return Math.abs(Number(q.get("x0")) + 3) < 0.02 && Math.abs(Number(q.get("y0")) - 3) < 0.02; })()`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("after a click at (−3, 3): location %q, want x0=-3&y0=3", loc)
	}

	openPresenter(t, ctx, base, "knn")
	set := `(() => { const k = document.querySelector('input[name="k"]'); k.value = "1";
		k.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](set)); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `location.search === "?k=1" && document.querySelector('[data-testid="plot"] svg').textContent.includes("k = 1")`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("after setting k = 1: location %q", loc)
	}
}

// TestBrowserRegressionDemos steps the stepping demos of the regression
// lessons with the keyboard, adds an observation by clicking the
// interpolation plot, and moves a ridge λ slider to 10⁻² and back to its
// leftmost stop, which means λ = 0.
func TestBrowserRegressionDemos(t *testing.T) {
	ctx, base := newBrowser(t)
	stepPresenters(t, ctx, base, "ls-gd", "logistic", "softmax")

	// A click at the data point (0.5, 1.5) of the interpolation plot adds
	// that observation: the frame maps it to the screen as app.js maps
	// screen to data.
	openPresenter(t, ctx, base, "interpolation")
	xy, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](plotPoint(0.5, 1.5)))
	if err != nil || len(xy) != 2 {
		t.Fatalf("mapping (0.5, 1.5) to the screen: %v %v", xy, err)
	}
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `/[?&]add=0\.(49\d|5|50\d)(,|%2C)1\.(49\d|5|50\d)/.test(location.search) &&
		document.querySelector('[data-testid="plot"] svg').textContent.includes("11 points")`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("after a click at (0.5, 1.5): location %q, want add=0.5,1.5 and 11 points", loc)
	}

	// The ridge λ slider: 10⁻² puts lambda=0.01 in the URL; its leftmost
	// stop puts 0 in the box, the default, so the URL drops lambda.
	openPresenter(t, ctx, base, "interpolation")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](slideLog("lambda", `"-2"`))); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `location.search === "?lambda=0.01" && document.querySelector('[data-testid="plot"] svg').textContent.includes("λ = 0.01")`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("after moving λ to 10⁻²: location %q, want ?lambda=0.01", loc)
	}
	// The swapped-in form must be settled (htmx wires its triggers then)
	// before the next move, as a user's second drag always is.
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](slideLog("lambda", `s.min`))); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `location.search === "" && document.querySelector('input[name="lambda"]').value === "0"`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("after moving λ to its leftmost stop: location %q, want no lambda (0, the default)", loc)
	}
}
