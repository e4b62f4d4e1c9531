package main

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserCompareSteps drives two runs side by side with their one set
// of controls: a click on Step advances both runs and the address bar,
// → steps both again, a change to run b's C starts both over with the
// new b.C in the URL, the timeline moves both, and in the presenter view
// → steps both too.
func TestBrowserCompareSteps(t *testing.T) {
	ctx, base := newBrowser(t)
	openPage(t, ctx, base, "/compare/svm-soft?b.C=10")
	both := func(k int) {
		t.Helper()
		cond := `[...document.querySelectorAll('[data-testid^="run-"]')].map(e => e.dataset.step).join() === "` + strconv.Itoa(k) + `,` + strconv.Itoa(k) + `"`
		if err := poll(ctx, cond); err != nil {
			t.Fatalf("both runs at step %d: %v", k, err)
		}
		if err := settled(ctx); err != nil {
			t.Fatal(err)
		}
	}
	address := func(want string) {
		t.Helper()
		if err := poll(ctx, `location.pathname + location.search === "`+want+`"`); err != nil {
			got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + location.search`))
			t.Fatalf("address %q, want %q", got, want)
		}
	}

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`[data-testid="compare-panel"] a[data-testid="next"]`))); err != nil {
		t.Fatal(err)
	}
	both(1)
	address("/compare/svm-soft?b.C=10&step=1")
	if err := waitText(ctx, `[data-testid="a-step"]`, "1"); err != nil {
		t.Errorf("the table's step for run a: %v", err)
	}

	press(t, ctx, kb.ArrowRight)
	both(2)
	address("/compare/svm-soft?b.C=10&step=2")

	// Run b's form: C = 3 starts both runs again at step 0.
	set := `(() => { const i = document.querySelector('form.b-form input[name="b.C"]');
		i.value = "3"; i.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](set)); err != nil {
		t.Fatal(err)
	}
	address("/compare/svm-soft?b.C=3")
	both(0)
	if err := waitText(ctx, `[data-testid="head-b"]`, "b: C = 3"); err != nil {
		t.Error(err)
	}

	// The timeline: a drag to step 6 shows both runs there.
	drag := `(() => { const r = document.querySelector('[data-testid="compare-panel"] input[data-testid="scrub"]');
		r.value = "6"; r.dispatchEvent(new Event("input", {bubbles: true}));
		r.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](drag)); err != nil {
		t.Fatal(err)
	}
	both(6)
	address("/compare/svm-soft?b.C=3&step=6")

	openPage(t, ctx, base, "/present/compare/svm-soft?b.C=10")
	press(t, ctx, kb.ArrowRight)
	both(1)
	// The presenter view asks for the plots at the size they show in this
	// 1400 px window (w, h: app.js's fitPlots), for both runs at once.
	if err := poll(ctx, `/^\/present\/compare\/svm-soft\?b\.C=10&(h=\d+&)?step=1(&w=\d+)?$/.test(location.pathname + location.search)`); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + location.search`))
		t.Fatalf("presenter view: address %q after →", got)
	}
}
