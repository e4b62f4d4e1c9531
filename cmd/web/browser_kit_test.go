package main

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The demo kit's layout in a browser, the same for every demo: where a
// click leaves the page, what a refused value shows, where a link to a
// demo lands, and that tables and counters fit the screen.

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
