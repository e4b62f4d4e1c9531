package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp/kb"
)

// Pages in a browser: each topic's demos driven by their keys, sliders,
// boxes and plot clicks; what a refused value shows; where a link to a
// demo lands; and that tables and counters fit the screen.

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

// TestBrowserRefusedValue types η = 0, which the server refuses: its
// message shows beside the form as an alert, in the symbol η (the server
// says eta), and the demo keeps its last good state (plot, address, and
// the box's value).
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
			return !!a && a.textContent.includes('η: "0" is not a number greater than 0') && a.getBoundingClientRect().height > 0; })()`); err != nil {
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

// TestScreens writes screenshots of the pages a reviewer should look at
// to out/screens (make screens sets MARGIN_SCREENS=1). It checks nothing:
// it is for eyes.
func TestScreens(t *testing.T) {
	ctx, base, dir := screensBrowser(t)
	shots := []struct{ name, url, scrollTo string }{
		{"index", "/", ""},
		{"lesson-top", "/lessons/perceptron", ""},
		{"lesson-demo-step0", "/lessons/perceptron", "#demo-perceptron"},
		{"lesson-demo-step1", "/lessons/perceptron?step=1", "#demo-perceptron"},
		{"lesson-demo-step5", "/lessons/perceptron?step=5", "#demo-perceptron"},
		{"lesson-demo-converged", "/lessons/perceptron?step=24", "#demo-perceptron"},
		{"lesson-convergence", "/lessons/perceptron", "#convergence"},
		{"present-separable", "/present/perceptron?data=separable&n=60&step=31", ""},
		{"present-averaged", "/present/perceptron?data=noisy&n=80&variant=averaged&step=200", ""},
		{"present-margin", "/present/perceptron?data=separable&n=40&variant=margin&gamma=2&step=40", ""},
		{"present-blobs-ovo", "/present/perceptron?data=blobs&n=60&multi=ovo&step=50", ""},
		{"present-xor", "/present/perceptron?data=xor&step=4", ""},
	}
	for _, s := range shots {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+s.url)); err != nil {
			t.Fatal(err)
		}
		if s.scrollTo != "" {
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("`+s.scrollTo+`").scrollIntoView(), true`)); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(300 * time.Millisecond)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, s.name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// screensBrowser skips a screenshot test unless MARGIN_SCREENS is set (make
// screens), and returns the shared browser, the server's base URL and the
// folder the screenshots go to, out/screens.
func screensBrowser(t *testing.T) (context.Context, string, string) {
	t.Helper()
	if os.Getenv("MARGIN_SCREENS") == "" {
		t.Skip("set MARGIN_SCREENS=1 (make screens) to write screenshots")
	}
	ctx, base := newBrowser(t)
	dir := filepath.Join("..", "..", "out", "screens")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return ctx, base, dir
}
