package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/margin-edu/margin/web/static"
)

// otherSite serves one page, from another origin than base (localhost
// rather than 127.0.0.1, so another site too), that frames base's paths
// in iframes with the ids given, as a course platform or a reveal.js deck
// would. It has a focusable paragraph, #outside, and logs the keys it
// gets in window.outsideKeys.
func otherSite(t *testing.T, base string, frames map[string]string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><title>Slides elsewhere</title><body style="margin:0">`)
	b.WriteString(`<p id="outside" tabindex="0">A slide on another site</p>`)
	for id, path := range frames {
		fmt.Fprintf(&b, `<iframe id="%s" src="%s%s" width="800" height="450" style="border:0;display:block"></iframe>`, id, base, path)
	}
	b.WriteString(`</body></html>`)
	page := b.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(srv.Close)
	return strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
}

// frameTarget waits for the cross-site iframe whose URL starts with
// prefix and attaches to it (Chromium runs it in a process of its own).
func frameTarget(t *testing.T, ctx context.Context, prefix string) context.Context {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, info := range infos {
			if info.Type == "iframe" && strings.HasPrefix(info.URL, prefix) {
				fctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(info.TargetID))
				t.Cleanup(cancel)
				return fctx
			}
		}
		if time.Now().After(deadline) {
			var urls []string
			for _, info := range infos {
				urls = append(urls, string(info.Type)+" "+info.URL)
			}
			t.Fatalf("no iframe at %s; targets: %v", prefix, urls)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestBrowserEmbed frames the embed view and a lesson page from another
// site: the embed loads and steps with → only while it has the focus; the
// lesson page is refused (frame-ancestors 'self').
func TestBrowserEmbed(t *testing.T) {
	ctx, base := newBrowser(t)
	other := otherSite(t, base, map[string]string{"embed": "/embed/perceptron", "lesson": "/lessons/perceptron"})
	if err := chromedp.Do(ctx, chromedp.Navigate(other)); err != nil {
		t.Fatal(err)
	}
	fctx := frameTarget(t, ctx, base+"/embed/perceptron")
	if err := poll(fctx, `document.readyState === "complete" && !!window.htmx && !!document.querySelector('[data-testid="plot"] svg')`); err != nil {
		t.Fatalf("the embed did not load in the other site's iframe: %v", err)
	}
	// The lesson page in the other iframe is refused: Chromium shows its
	// error page there instead.
	lctx := frameTarget(t, ctx, base+"/lessons/perceptron")
	if err := poll(lctx, `location.protocol === "chrome-error:" && !document.querySelector('[data-testid="lesson"]')`); err != nil {
		got, _ := chromedp.Run(lctx, chromedp.Evaluate[string](`location.href + ": " + document.body.innerText.slice(0, 100)`))
		t.Errorf("the lesson page was not refused in the other site's iframe (%s): %v", got, err)
	}

	// The keys: with the focus on the other site's page, → is the page's,
	// and the embed does not step.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { window.outsideKeys = [];
		window.addEventListener("keydown", e => outsideKeys.push(e.key));
		document.getElementById("outside").focus(); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, kb.ArrowRight)
	if err := poll(ctx, `outsideKeys.includes("ArrowRight")`); err != nil {
		t.Fatalf("the other site's page did not get →: %v", err)
	}
	if err := frames(fctx, 2); err != nil {
		t.Fatal(err)
	}
	if n := stepCounter(t, fctx); n != 0 {
		t.Errorf("the embed stepped to %d on a key pressed outside it", n)
	}
	// A click in the embed gives it the focus: → steps it, and the other
	// site's page does not see the key.
	xy, err := chromedp.Run(fctx, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector(".counters").getBoundingClientRect();
		return [r.left + 4, r.top + 4]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.getElementById("embed").getBoundingClientRect(); return [r.left, r.top]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(fr[0]+xy[0], fr[1]+xy[1])); err != nil {
		t.Fatal(err)
	}
	if err := poll(fctx, `document.hasFocus()`); err != nil {
		t.Fatalf("a click in the embed did not give it the focus: %v", err)
	}
	histBefore, err := chromedp.Run(ctx, chromedp.Evaluate[int](`history.length`))
	if err != nil {
		t.Fatal(err)
	}
	press(t, ctx, kb.ArrowRight)
	if err := waitText(fctx, `[data-testid="step"]`, "1"); err != nil {
		t.Errorf("→ in the focused embed: %v", err)
	}
	if err := poll(fctx, `location.pathname + location.search === "/embed/perceptron?step=1"`); err != nil {
		t.Errorf("the embed's URL did not stay under /embed/: %v", err)
	}
	// The step replaced the iframe's address: the host page's back button
	// leaves the slide rather than stepping back.
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`history.length`)); n != histBefore {
		t.Errorf("a step in the embed added %d entries to the host page's history, want none", n-histBefore)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`outsideKeys.length`)); n != 1 {
		t.Errorf("the other site's page got %d keys, want only the one pressed outside the embed", n)
	}

	// A deck opened from a file (reveal.js on a laptop) may frame it too.
	file := filepath.Join(t.TempDir(), "deck.html")
	page := `<!doctype html><title>deck</title><iframe src="` + base + `/embed/svm-soft" width="800" height="450"></iframe>`
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	if err := poll(frameTarget(t, ctx, base+"/embed/svm-soft"), `!!document.querySelector('[data-testid="plot"] svg')`); err != nil {
		t.Errorf("the embed did not load in a file:// page's iframe: %v", err)
	}
}

// appFollowsNav reports whether app.js follows the rel=next and rel=prev
// links with n and p (the presenter keys); until it does, the deck test
// clicks the links instead.
func appFollowsNav(t *testing.T) bool {
	t.Helper()
	b, err := static.FS.ReadFile("app.js")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(b), "data-nav")
}

// TestBrowserDeck walks a lecture deck: stepping inside an entry replaces
// that entry in the URL (no history entry), n and p (or the rel links)
// move at (a history entry each) and keep each entry's state, and "add
// this state" appends the state shown.
func TestBrowserDeck(t *testing.T) {
	ctx, base := newBrowser(t)
	a, b, c := "/present/perceptron", "/present/svm-soft", "/present/gd?step=2"
	openPage(t, ctx, base, deckOf("1", a, b, c))
	keys := appFollowsNav(t)
	move := func(rel string) {
		t.Helper()
		if keys {
			press(t, ctx, rel[:1])
			return
		}
		if err := clickAt(ctx, `a[rel="`+rel+`"]`); err != nil {
			t.Fatal(err)
		}
	}
	at := func(want string) {
		t.Helper()
		js := `location.pathname + location.search === "` + want + `"`
		if err := poll(ctx, js); err != nil {
			loc, _ := chromedp.Run(ctx, chromedp.Location())
			t.Fatalf("location = %s, want %s", loc, want)
		}
		if err := poll(ctx, `document.readyState === "complete" && !!window.htmx`); err != nil {
			t.Fatal(err)
		}
	}
	hist := func() int {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`history.length`))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	h0 := hist()

	// Two steps in entry 1, by key and by the Step button: the entry
	// changes in place.
	press(t, ctx, kb.ArrowRight)
	if err := waitText(ctx, `[data-testid="step"]`, "1"); err != nil {
		t.Fatal(err)
	}
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	if err := clickAt(ctx, `[data-testid="next"]`); err != nil {
		t.Fatal(err)
	}
	a2 := "/present/perceptron?step=2"
	at(deckOf("1", a2, b, c))
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	if n := hist(); n != h0 {
		t.Errorf("stepping inside an entry added %d history entries, want none", n-h0)
	}
	if href, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('a[rel="next"]').getAttribute("href")`)); href != deckOf("2", a2, b, c) {
		t.Errorf("after the steps rel=next = %s, want %s", href, deckOf("2", a2, b, c))
	}

	// n: entry 2, which keeps entry 1's state; a step there replaces it.
	move("next")
	at(deckOf("2", a2, b, c))
	press(t, ctx, kb.ArrowRight)
	b1 := "/present/svm-soft?step=1"
	at(deckOf("2", a2, b1, c))
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	if n := hist(); n != h0+1 {
		t.Errorf("history grew by %d after n and a step, want 1", n-h0)
	}

	// p: back to entry 1 at the step it was left at.
	move("prev")
	at(deckOf("1", a2, b1, c))
	if n := stepCounter(t, ctx); n != 2 {
		t.Errorf("entry 1 shows step %d after p, want 2", n)
	}
	if n := hist(); n != h0+2 {
		t.Errorf("history grew by %d after n, p and steps, want 2", n-h0)
	}

	// The browser's back button: entry 2 as it was left.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`history.back(), true`)); err != nil {
		t.Fatal(err)
	}
	at(deckOf("2", a2, b1, c))
	if n := stepCounter(t, ctx); n != 1 {
		t.Errorf("back shows entry 2 at step %d, want 1", n)
	}

	// "add this state" appends the state shown and goes to it.
	if err := clickAt(ctx, `[data-testid="deck-add"]`); err != nil {
		t.Fatal(err)
	}
	at(deckOf("4", a2, b1, c, b1))
}

// TestBrowserQRKey: q shows the presenter view's QR code, drawn, and q
// puts it away; in a text box q is typed.
func TestBrowserQRKey(t *testing.T) {
	ctx, base := newBrowser(t)
	openPresenter(t, ctx, base, "perceptron")
	shown := `(() => { const img = document.querySelector('[data-testid="qr"]'), r = img.getBoundingClientRect();
		return document.querySelector('[data-testid="qr-box"]').open && img.complete && img.naturalWidth > 0 &&
			r.top >= 0 && r.bottom <= innerHeight && r.height >= 0.4 * innerHeight; })()`
	press(t, ctx, "q")
	if err := poll(ctx, shown); err != nil {
		t.Fatalf("q did not show the QR code on screen: %v", err)
	}
	// The server runs on 127.0.0.1 without -public-url: the view says so.
	if err := poll(ctx, `(() => { const p = document.querySelector('[data-testid="qr-local"]'); return !!p && !p.hidden && p.offsetHeight > 0; })()`); err != nil {
		t.Errorf("on 127.0.0.1 the presenter view does not say to set -public-url: %v", err)
	}
	press(t, ctx, "q")
	if err := poll(ctx, `!document.querySelector('[data-testid="qr-box"]').open`); err != nil {
		t.Errorf("q again did not put the QR code away: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('input[type="number"]').focus(), true`)); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, "q")
	if open, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('[data-testid="qr-box"]').open`)); open {
		t.Errorf("q typed in a number box opened the QR code")
	}
}
