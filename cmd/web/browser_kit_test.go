package main

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The demo kit's behaviour in a browser, the same for every demo: where a
// click leaves the page, which demo the keys drive, what a refused value
// shows, and where a link to a demo lands.

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

// pressUnused presses keys that no demo may act on, and waits until the
// page has had each (the key log holds it), which app.js left alone. A
// step that does not come has no event to wait for; that the key was
// handled without being taken is the positive sign instead, and app.js
// asks for a step while it handles the key, so a step would show as a
// request in flight (see still).
func pressUnused(t *testing.T, ctx context.Context, what string, keys ...string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(marginKeys.length = 0, true)`)); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		press(t, ctx, k)
	}
	if err := poll(ctx, `marginKeys.length >= `+strconv.Itoa(len(keys))); err != nil {
		t.Fatalf("%s: the page did not get the keys: %v", what, err)
	}
	taken, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`marginKeys.filter(k => k.taken).map(k => k.key)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(taken) > 0 {
		t.Errorf("%s: the page took the keys %q", what, taken)
	}
}

// still checks, once htmx is idle (no step asked for or landing), that
// each demo's step counter reads what it did. The caller waits first for
// a sign that what should not step was handled: pressUnused, or a step of
// another demo.
func still(t *testing.T, ctx context.Context, what string, want map[string]int) {
	t.Helper()
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	for id, k := range want {
		if got, err := demoStep(ctx, id); err != nil || got != k {
			t.Errorf("%s: demo %s is at step %d (%v), want %d", what, id, got, err, k)
		}
	}
}

// currentDemo is the id of the section the page outlines as the demo the
// keys drive, "" when none is, after the script has seen the last scroll
// or focus (both mark the demo in the next frame).
func currentDemo(t *testing.T, ctx context.Context) string {
	t.Helper()
	if err := frames(ctx, 2); err != nil {
		t.Fatal(err)
	}
	id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const s = document.querySelectorAll(".demo.current");
		if (s.length > 1) return "several";
		if (!s.length) return "";
		return getComputedStyle(s[0]).outlineStyle === "solid" ? s[0].id : "unoutlined " + s[0].id; })()`))
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestBrowserKeysDriveDemoInView checks which demo → steps: the one in
// view (the SGD demo, not the SVM demo 13,000 px above it), never a static
// one, none when no stepping demo is in view, and the one last used while
// at least half of it is in view. The page outlines it.
func TestBrowserKeysDriveDemoInView(t *testing.T) {
	ctx, base := newBrowser(t)
	openPage(t, ctx, base, "/lessons/soft-margin-svm")
	// At the top of the page no demo is in view: → does nothing.
	if got := currentDemo(t, ctx); got != "" {
		t.Errorf("top of the page: %q outlined, want none", got)
	}
	pressUnused(t, ctx, "→ at the top of the page", kb.ArrowRight)
	still(t, ctx, "→ at the top of the page", map[string]int{"svm-soft": 0, "svm-sgd": 0})

	scrollDemoTo(t, ctx, "svm-sgd", 0)
	if got := currentDemo(t, ctx); got != "demo-svm-sgd" {
		t.Errorf("scrolled to the SGD demo: %q outlined, want demo-svm-sgd", got)
	}
	press(t, ctx, kb.ArrowRight)
	if err := waitStep(ctx, "svm-sgd", 1); err != nil {
		t.Fatalf("→ at the SGD demo: %v", err)
	}
	still(t, ctx, "→ at the SGD demo", map[string]int{"svm-soft": 0})
	if err := poll(ctx, `location.search === "?demo=svm-sgd&step=1" && location.hash === "#demo-svm-sgd"`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("address bar %q, want the SGD demo's step 1 with its anchor", loc)
	}

	scrollDemoTo(t, ctx, "svm-soft", 100)
	if got := currentDemo(t, ctx); got != "demo-svm-soft" {
		t.Errorf("scrolled back to the SVM demo: %q outlined", got)
	}
	press(t, ctx, kb.ArrowRight)
	press(t, ctx, kb.ArrowRight)
	if err := waitStep(ctx, "svm-soft", 2); err != nil {
		t.Fatalf("→ → at the SVM demo: %v", err)
	}
	still(t, ctx, "→ at the SVM demo", map[string]int{"svm-sgd": 1})

	// Kernels: two static demos come first. With only a static demo in
	// view the keys do nothing; the kernel SVM steps once it shows.
	openPage(t, ctx, base, "/lessons/kernels")
	scrollDemoTo(t, ctx, "kernel-gram", 0)
	if got := currentDemo(t, ctx); got != "" {
		t.Errorf("at the static Gram demo: %q outlined, want none", got)
	}
	pressUnused(t, ctx, "→ at a static demo", kb.ArrowRight)
	still(t, ctx, "→ at a static demo", map[string]int{"kernel-svm": 0})
	scrollDemoTo(t, ctx, "kernel-svm", 500)
	if got := currentDemo(t, ctx); got != "demo-kernel-svm" {
		t.Errorf("kernel SVM half in view: %q outlined", got)
	}
	press(t, ctx, kb.ArrowRight)
	if err := waitStep(ctx, "kernel-svm", 1); err != nil {
		t.Fatalf("→ with the kernel SVM in view: %v", err)
	}

	// In a window tall enough for two demos, the one last used keeps the
	// keys while at least half of it shows, though the other shows more.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1400, 5000)); err != nil {
		t.Fatal(err)
	}
	openPage(t, ctx, base, "/lessons/kernels")
	scrollDemoTo(t, ctx, "kernel-svm", 0)
	geometry := `(() => { const a = document.getElementById("demo-kernel-svm").getBoundingClientRect(),
		b = document.getElementById("demo-kernel-pegasos").getBoundingClientRect(), h = innerHeight;
		return [a.top, a.bottom, b.top, b.bottom, h]; })()`
	g, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](geometry))
	if err != nil {
		t.Fatal(err)
	}
	if shown := (g[4] - g[2]) / (g[3] - g[2]); g[1] > g[4] || shown < 0.5 || shown >= 1 {
		t.Fatalf("layout changed (kernel SVM %v–%v, Pegasos %v–%v in a window of %v): the test needs the SVM whole and Pegasos more than half in view",
			g[0], g[1], g[2], g[3], g[4])
	}
	if got := currentDemo(t, ctx); got != "demo-kernel-svm" {
		t.Errorf("kernel SVM whole, Pegasos partly in view: %q outlined, want the kernel SVM (most in view)", got)
	}
	if err := clickAt(ctx, `#panel-kernel-pegasos [data-testid="status"]`); err != nil {
		t.Fatal(err)
	}
	if got := currentDemo(t, ctx); got != "demo-kernel-pegasos" {
		t.Errorf("after a click on Pegasos: %q outlined", got)
	}
	press(t, ctx, kb.ArrowRight)
	if err := waitStep(ctx, "kernel-pegasos", 1); err != nil {
		t.Fatalf("→ after using Pegasos: %v", err)
	}
	still(t, ctx, "→ after using Pegasos", map[string]int{"kernel-svm": 0})
	// Less than half of Pegasos in view: the keys go back to the most
	// visible demo.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const b = document.getElementById("demo-kernel-pegasos").getBoundingClientRect();
		window.scrollBy(0, b.top + b.height * 0.3 - innerHeight); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	if got := currentDemo(t, ctx); got != "demo-kernel-svm" {
		t.Errorf("Pegasos 30%% in view: %q outlined, want the kernel SVM", got)
	}
	press(t, ctx, kb.ArrowRight)
	if err := waitStep(ctx, "kernel-svm", 1); err != nil {
		t.Fatalf("→ with Pegasos mostly out of view: %v", err)
	}
	still(t, ctx, "→ with Pegasos mostly out of view", map[string]int{"kernel-pegasos": 1})
}

// TestBrowserInputsKeepTheirKeys checks that a number box keeps → and ←
// (they move its caret) until Esc leaves it or Enter applies it, and that
// a select that merely has focus does not take them.
func TestBrowserInputsKeepTheirKeys(t *testing.T) {
	ctx, base := newBrowser(t)
	openPage(t, ctx, base, "/present/perceptron")
	eta := `#panel-perceptron input[type="number"][name="eta"]`
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(eta))); err != nil {
		t.Fatal(err)
	}
	pressUnused(t, ctx, "keys in the η box", kb.ArrowRight, kb.ArrowLeft, "r")
	still(t, ctx, "keys in the η box", map[string]int{"perceptron": 0})
	press(t, ctx, kb.Escape)
	if focused, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.activeElement === document.querySelector('`+eta+`')`)); focused {
		t.Error("Esc left the focus in the η box")
	}
	press(t, ctx, kb.ArrowRight)
	if err := waitStep(ctx, "perceptron", 1); err != nil {
		t.Fatalf("→ after Esc: %v", err)
	}

	// The speed select, focused as a click leaves it: → steps, and the
	// select keeps its value.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.querySelector('#panel-perceptron select[data-role="speed"]').focus(); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, kb.ArrowRight)
	if err := waitStep(ctx, "perceptron", 2); err != nil {
		t.Fatalf("→ with the speed select focused: %v", err)
	}
	if v, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#panel-perceptron select[data-role="speed"]').value`)); v != "500" {
		t.Errorf("→ changed the speed select to %q", v)
	}
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}

	// Enter applies a typed value; then the keys step again.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(eta))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.querySelector('`+eta+`').select(); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, "2")
	press(t, ctx, kb.Enter)
	if err := poll(ctx, `location.search === "?eta=2" && document.querySelector('`+eta+`').value === "2"`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Fatalf("Enter in the η box: location %q, want ?eta=2", loc)
	}
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, kb.ArrowRight)
	if err := waitStep(ctx, "perceptron", 1); err != nil {
		t.Fatalf("→ after Enter: %v", err)
	}
}

// TestBrowserRefusedValue types η = 0, which the server refuses: its
// message shows beside the form as an alert, and the demo keeps its last
// good state (plot, address, and the box's value).
func TestBrowserRefusedValue(t *testing.T) {
	ctx, base := newBrowser(t)
	for _, page := range []string{"/present/perceptron?eta=0.5", "/lessons/perceptron?eta=0.5"} {
		openPage(t, ctx, base, page)
		scrollDemoTo(t, ctx, "perceptron", 0)
		eta := `#panel-perceptron input[type="number"][name="eta"]`
		title := `document.querySelector('#panel-perceptron [data-testid="plot"] svg title').textContent`
		before, err := chromedp.Run(ctx, chromedp.Evaluate[string](title))
		if err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(eta))); err != nil {
			t.Fatalf("%s: clicking the η box: %v", page, err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.querySelector('`+eta+`').select(); return true; })()`)); err != nil {
			t.Fatal(err)
		}
		press(t, ctx, "0")
		press(t, ctx, kb.Tab) // leaving the box applies it
		alert := `#panel-perceptron form.param-form [role="alert"]`
		if err := poll(ctx, `(() => { const a = document.querySelector('`+alert+`');
			return !!a && a.textContent.includes('eta: "0" is not a number greater than 0') && a.getBoundingClientRect().height > 0; })()`); err != nil {
			msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('#panel-perceptron [role="alert"]:not(:empty)') || {}).textContent || "no message"`))
			t.Fatalf("%s: η = 0: no visible alert with the server's message beside the form (%q)", page, msg)
		}
		after, _ := chromedp.Run(ctx, chromedp.Evaluate[string](title))
		if after != before {
			t.Errorf("%s: the plot changed after a refused value: %q, was %q", page, after, before)
		}
		if v, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+eta+`').value`)); v != "0.5" {
			t.Errorf("%s: η box reads %q after the refusal, want the value of the state shown, 0.5", page, v)
		}
		if loc, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + location.search`)); loc != strings.Split(page, "#")[0] {
			t.Errorf("%s: address %q after the refusal", page, loc)
		}
		// A good value clears the message.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const e = document.querySelector('`+eta+`'); e.value = "2";
			e.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)); err != nil {
			t.Fatal(err)
		}
		if err := poll(ctx, `location.search === "?eta=2" && !document.querySelector('#panel-perceptron [role="alert"]:not(:empty)')`); err != nil {
			t.Errorf("%s: η = 2 after the refusal: %v", page, err)
		}
	}
}

// TestBrowserLinksLandOnDemo follows links to the SGD demo, the second
// demo of its page: a copied link, and, without JavaScript, a step link
// and "Run to end" (which the server redirects). Each puts the demo at
// the top of the window.
func TestBrowserLinksLandOnDemo(t *testing.T) {
	ctx, base := newBrowser(t)
	openPage(t, ctx, base, "/lessons/soft-margin-svm?demo=svm-sgd&step=3")
	link, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#panel-svm-sgd [data-action="copy-link"]').dataset.href`))
	if err != nil {
		t.Fatal(err)
	}
	inView := func(what string) {
		t.Helper()
		// Without scripts there are no frames to count: wait for the
		// loaded page to have the demo at the top.
		if err := poll(ctx, `document.readyState === "complete" &&
			(t => t >= 0 && t <= 60)(document.getElementById("demo-svm-sgd").getBoundingClientRect().top)`); err != nil {
			loc, _ := chromedp.Run(ctx, chromedp.Location())
			t.Errorf("%s (%s): the SGD demo starts %.0f px into the window, want at its top", what, loc, demoTop(t, ctx, "svm-sgd"))
		}
	}
	openPage(t, ctx, base, link)
	inView("copied link " + link)

	noJS := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	})
	if err := chromedp.Do(ctx, noJS, chromedp.Navigate(base+"/lessons/soft-margin-svm?demo=svm-sgd&step=3")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ action, want string }{
		{"next", "step=4"},
		{"end", "step=2000"},
	} {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#panel-svm-sgd a[data-action="`+c.action+`"]`))); err != nil {
			t.Fatal(err)
		}
		if err := poll(ctx, `location.search.includes("`+c.want+`") && location.hash === "#demo-svm-sgd"`); err != nil {
			loc, _ := chromedp.Run(ctx, chromedp.Location())
			t.Fatalf("without JavaScript, %s: location %q, want %s and the demo's anchor", c.action, loc, c.want)
		}
		inView("without JavaScript, " + c.action)
	}
	// The algorithm form without JavaScript: its Apply button submits to
	// the form's action, and the page lands on the demo.
	seed := `#panel-svm-sgd form.param-form input[type="number"][name="aseed"]`
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(seed)),
		chromedp.KeyEvent(kb.End),
		chromedp.KeyEvent("7"),
		chromedp.Click(chromedp.CSS(`#panel-svm-sgd form.param-form button[type="submit"]`)),
	); err != nil {
		t.Fatalf("without JavaScript, applying the form: %v", err)
	}
	if err := poll(ctx, `location.search.includes("aseed=17") && location.hash === "#demo-svm-sgd"`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Fatalf("without JavaScript, Apply: location %q, want aseed=17 and the demo's anchor", loc)
	}
	inView("without JavaScript, Apply")
}

// TestBrowserTablesWholeAndNarrowScreens checks that a demo's tables show
// every row they have (the loss table lost "squared", the curse table
// stopped at D = 50, in boxes 16rem high), and that on a phone 390 px
// wide no page is wider than the screen, the outline of the current demo
// included.
func TestBrowserTablesWholeAndNarrowScreens(t *testing.T) {
	ctx, base := newBrowser(t)
	clipped := `[...document.querySelectorAll(".panel-table")].filter(b => b.scrollHeight > b.clientHeight + 1).map(b => b.dataset.testid)`
	for _, c := range []struct{ path, last string }{
		{"/present/loss-gallery", "squared"},
		{"/present/curse", "1000"},
	} {
		openPage(t, ctx, base, c.path)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](clipped))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > 0 {
			t.Errorf("%s: tables %v scroll: not every row shows", c.path, got)
		}
		last, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const r = [...document.querySelectorAll(".panel-table tbody tr")].pop();
			return r ? r.cells[0].textContent.trim() : ""; })()`))
		if err != nil || !strings.HasPrefix(last, c.last) {
			t.Errorf("%s: last row starts %q (%v), want %q", c.path, last, err, c.last)
		}
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/lessons/perceptron#demo-perceptron", "/lessons/gradient-descent#demo-loss-gallery",
		"/lessons/knn-bayes#demo-curse", "/lessons/soft-margin-svm#demo-svm-sgd", "/lessons/logistic-regression", "/present/svm-soft"} {
		openPage(t, ctx, base, path)
		// The anchor's scroll and the outline it brings are in.
		if err := frames(ctx, 2); err != nil {
			t.Fatal(err)
		}
		w, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[document.documentElement.scrollWidth, document.documentElement.clientWidth]`))
		if err != nil {
			t.Fatal(err)
		}
		if w[0] > w[1] {
			t.Errorf("%s at 390 px: the page is %.0f px wide, the screen %.0f", path, w[0], w[1])
		}
	}
}
