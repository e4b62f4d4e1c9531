package main

import (
	"context"
	"math"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The keyboard in a browser: → and ← step the demo in view (and only a
// stepping one), and a form's inputs keep the keys they need.

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
// view (the SGD demo, not the SVM demo above it), never a static
// one, none when no stepping demo is in view, and the one last used while
// at least half of it is in view. The page outlines it.
func TestBrowserKeysDriveDemoInView(t *testing.T) {
	ctx, base := newBrowser(t)
	openPage(t, ctx, base, "/lessons/soft-margin-svm")
	// At the top of the page the first demo is beside the opening (issue
	// 20 §5): it is the one the keys drive.
	if got := currentDemo(t, ctx); got != "demo-svm-soft" {
		t.Errorf("top of the page: %q outlined, want demo-svm-soft, beside the opening", got)
	}

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
		// The demos' sections grow and shrink with the lesson's prose and
		// the panel's boxes: size the window from them, for the SVM's
		// section whole and three quarters of Pegasos's.
		h := int64(math.Ceil(g[2] - g[0] + 0.75*(g[3]-g[2])))
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1400, h)); err != nil {
			t.Fatal(err)
		}
		openPage(t, ctx, base, "/lessons/kernels")
		scrollDemoTo(t, ctx, "kernel-svm", 0)
		if g, err = chromedp.Run(ctx, chromedp.Evaluate[[]float64](geometry)); err != nil {
			t.Fatal(err)
		}
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
