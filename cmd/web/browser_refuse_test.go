package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserRefusalsShown: a value refused by the browser's own check
// (η = 500 + Enter, above the input's max; htmx runs the check without
// the browser's bubble, so it was refused in silence) and one refused by
// the server (η = 0, which the input allows since it cannot say "greater
// than 0") are both said beside the form, in the reader's symbol η and
// with η's range, on the lesson page, the presenter view and the embed;
// the form goes back to the η the demo runs.
func TestBrowserRefusalsShown(t *testing.T) {
	ctx, base := newBrowser(t)
	const (
		input = `#panel-perceptron input[name="eta"]`
		box   = `#panel-perceptron form.param-form [data-testid="form-error"]`
		rng   = "a number greater than 0 up to 100"
	)
	// shown is the alert's text once it is on the screen with text that
	// has want, else "".
	shown := `(want) => { const b = document.querySelector('` + box + `');
		if (!b || !b.textContent.includes(want)) return "";
		const r = b.getBoundingClientRect();
		return r.height > 0 && getComputedStyle(b).display !== "none" ? b.textContent : ""; }`
	for _, page := range []string{"/lessons/perceptron", "/present/perceptron", "/embed/perceptron"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+page)); err != nil {
			t.Fatal(err)
		}
		if err := poll(ctx, `document.readyState === "complete" && !!window.htmx`); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			typed, who string
		}{
			{"500", "the browser"},
			{"0", "the server"},
		} {
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const i = document.querySelector('`+input+`');
				i.scrollIntoView({block: "center"}); i.focus(); i.select(); return true; })()`)); err != nil {
				t.Fatalf("%s: %v", page, err)
			}
			if err := chromedp.Do(ctx, chromedp.SendKeys(input, tt.typed), chromedp.KeyEvent(kb.Enter)); err != nil {
				t.Fatal(err)
			}
			want := `η: "` + tt.typed + `" is not ` + rng
			if err := poll(ctx, `!!(`+shown+`)(`+"`"+want+"`"+`)`); err != nil {
				text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('`+box+`') || {}).textContent || "(no alert)"`))
				t.Errorf("%s: η = %s refused by %s: the form says %q, want %q on the screen", page, tt.typed, tt.who, text, want)
				continue
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.querySelector('`+box+`').textContent,
				document.querySelector('`+input+`').value, location.pathname + location.search]`))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(got[0], "eta") {
				t.Errorf("%s: the message %q names the URL key, not η", page, got[0])
			}
			if got[1] != "1" || got[2] != page {
				t.Errorf("%s: after η = %s was refused the field shows %q at %s, want the η = 1 the demo runs, at %s", page, tt.typed, got[1], got[2], page)
			}
		}
	}
}
