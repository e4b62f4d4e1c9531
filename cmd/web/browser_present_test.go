package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The presenter view on a projector: the plot fills the screen's height,
// the step controls and the step written out stay beside it, and the keys
// a clicker and an instructor use drive it.

// presentAt loads path at a w×h screen and waits until the plot is drawn
// at least as large as it shows (app.js asks for it at the size shown when
// the screen shows it smaller than drawn).
func presentAt(t *testing.T, ctx context.Context, base, path string, w, h int64) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h)); err != nil {
		t.Fatal(err)
	}
	openPage(t, ctx, base, path)
	// Only the presenter view redraws its plot at the size shown; a
	// lesson page lays its plot out at demo.LessonPlotPx.
	if !strings.HasPrefix(path, "/present/") {
		if err := settled(ctx); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := poll(ctx, drawnAtLeastShown); err != nil {
		t.Fatalf("%s at %d×%d: the plot was not redrawn at its size: %v", path, w, h, err)
	}
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
}

// drawnAtLeastShown is a condition: the plot is drawn (w) no smaller than
// it shows, so its type does not shrink.
const drawnAtLeastShown = `(() => { const f = document.querySelector("figure.plot"), p = document.querySelector(".demo-panel");
	const w = Number(new URL(p.dataset.self, location.href).searchParams.get("w") || 600);
	return w <= f.getBoundingClientRect().width + 10; })()`

// screenFit is what TestBrowserPresenterFillsScreen measures, in CSS pixels.
type screenFit struct {
	Share       float64 // the plot's area over the screen's
	Plot        float64 // the plot's side
	Ticks       float64 // the largest tick label's height, as drawn
	Bottom      float64 // the lowest bottom of the title, Step link, scrubber and step explanation
	Right       float64 // the rightmost edge of any of those
	Wide        float64 // the page's width
	ScrollY     float64
	HistorySeen bool // the history chart is wholly on the screen
}

const measure = `(() => {
	const r = s => document.querySelector(s).getBoundingClientRect();
	const p = r("figure.plot"), seen = ["h1", '[data-testid="next"]', '[data-testid="scrub"]', '[data-testid="update"]'].map(r);
	const hist = document.querySelector("figure.history").getBoundingClientRect();
	let ticks = 0;
	document.querySelectorAll("figure.plot svg text").forEach(t => { ticks = Math.max(ticks, t.getBoundingClientRect().height); });
	return {Share: p.width * p.height / (innerWidth * innerHeight), Plot: p.width, Ticks: ticks,
		Bottom: Math.max(...seen.map(b => b.bottom)), Right: Math.max(...seen.map(b => b.right)),
		Wide: document.documentElement.scrollWidth, ScrollY: scrollY,
		HistorySeen: hist.height > 0 && hist.top >= 0 && hist.bottom <= innerHeight};
})()`

// TestBrowserPresenterFillsScreen measures the presenter view as a
// projector shows it full screen, at 1280×720 and 1920×1080: the plot
// covers at least 45 % of the screen, the title, the Step control, the
// timeline and the step's explanation are on the screen beside it without
// scrolling, nothing sticks out sideways, the plot's type is drawn no
// smaller than 14 px, h brings the history chart wholly onto the screen
// when it is not, and a second h hides it. On a screen that shows the plot
// smaller than drawn, the plot is asked for at the size shown.
func TestBrowserPresenterFillsScreen(t *testing.T) {
	ctx, base := newBrowser(t)
	for _, vp := range [][2]int64{{1280, 720}, {1920, 1080}} {
		w, h := vp[0], vp[1]
		presentAt(t, ctx, base, "/present/svm-soft?step=20", w, h)
		m, err := chromedp.Run(ctx, chromedp.Evaluate[screenFit](measure))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d×%d: plot %.0f px, %.1f %% of the screen; controls and explanation end at y = %.0f", w, h, m.Plot, 100*m.Share, m.Bottom)
		if m.Share < 0.45 {
			t.Errorf("%d×%d: the plot (%.0f px) covers %.1f %% of the screen, want at least 45 %%", w, h, m.Plot, 100*m.Share)
		}
		if m.Bottom > float64(h) || m.Right > float64(w) {
			t.Errorf("%d×%d: the title, controls or explanation reach (%.0f, %.0f), off the screen", w, h, m.Right, m.Bottom)
		}
		if m.Wide > float64(w) {
			t.Errorf("%d×%d: the page is %.0f px wide", w, h, m.Wide)
		}
		if m.Ticks < 14 {
			t.Errorf("%d×%d: the plot's largest text is %.1f px high", w, h, m.Ticks)
		}
		if !m.HistorySeen {
			press(t, ctx, "h")
			if err := poll(ctx, `(() => { const r = document.querySelector("figure.history").getBoundingClientRect(); return r.height > 0 && r.bottom <= innerHeight; })()`); err != nil {
				t.Errorf("%d×%d: h did not bring the history chart onto the screen: %v", w, h, err)
			}
			press(t, ctx, "h")
			if err := poll(ctx, `getComputedStyle(document.querySelector("figure.history")).display === "none"`); err != nil {
				t.Errorf("%d×%d: a second h did not hide the history chart: %v", w, h, err)
			}
		}
	}
	// A screen that shows the plot smaller than drawn: app.js asks for it
	// at the size shown (presentAt waits for that), so its type keeps its
	// size.
	presentAt(t, ctx, base, "/present/svm-soft?step=20", 1024, 480)
	if w, err := chromedp.Run(ctx, chromedp.Evaluate[string](`new URL(document.querySelector(".demo-panel").dataset.self, location.href).searchParams.get("w")`)); err != nil || w == "" {
		t.Errorf("at 1024×480 the plot was not asked for at its size (w = %q, %v)", w, err)
	}
}

// TestBrowserPresenterKeys drives the presenter view as a clicker and an
// instructor do: PageDown and PageUp step without scrolling the page
// (taller than the screen: the forms are below), even with the speed
// select focused by a click; Esc leaves the select; + and − move the speed
// (which a step keeps); ? opens and closes the help; c hides the forms; b
// blanks the screen until the next key; n goes to the next demo, and so
// does PageDown at the end of the run.
func TestBrowserPresenterKeys(t *testing.T) {
	ctx, base := newBrowser(t)
	presentAt(t, ctx, base, "/present/perceptron", 1280, 720)
	scrollY := func() float64 {
		y, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`scrollY`))
		if err != nil {
			t.Fatal(err)
		}
		return y
	}
	if tall, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollHeight > innerHeight + 100`)); !tall {
		t.Fatal("the presenter page fits the screen: PageDown would not scroll it anyway, so the test shows nothing")
	}
	for k, key := range []string{kb.PageDown, kb.PageDown, kb.PageUp} {
		press(t, ctx, key)
		want := []int{1, 2, 1}[k]
		if err := waitStep(ctx, "perceptron", want); err != nil {
			t.Fatalf("after key %d (%q): %v", k+1, key, err)
		}
		if y := scrollY(); y != 0 {
			t.Errorf("key %d (%q) scrolled the page to %.0f", k+1, key, y)
		}
	}
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}

	// The speed select, clicked (and closed): → and PageDown still step.
	sel := `#panel-perceptron select[data-role="speed"]`
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, kb.Escape) // closes the select's list, if it opened
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('`+sel+`').focus(), true`)); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, kb.ArrowRight)
	if err := waitStep(ctx, "perceptron", 2); err != nil {
		t.Fatalf("→ with the speed select focused: %v", err)
	}
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, kb.PageDown)
	if err := waitStep(ctx, "perceptron", 3); err != nil {
		t.Fatalf("PageDown with the speed select focused: %v", err)
	}
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	if v, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+sel+`').value`)); v != "500" {
		t.Errorf("the keys changed the speed select to %q", v)
	}
	// Esc leaves it.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('`+sel+`').focus(), true`)); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, kb.Escape)
	if err := poll(ctx, `document.activeElement === document.body`); err != nil {
		t.Errorf("Esc did not leave the speed select: %v", err)
	}

	// + and − move the speed a stop, and a step keeps the speed chosen.
	press(t, ctx, "+")
	if err := poll(ctx, `document.querySelector('`+sel+`').value === "250"`); err != nil {
		t.Errorf("+ did not make the demo faster: %v", err)
	}
	press(t, ctx, kb.ArrowRight)
	if err := waitStep(ctx, "perceptron", 4); err != nil {
		t.Fatal(err)
	}
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	if v, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+sel+`').value`)); v != "250" {
		t.Errorf("after a step the speed select reads %q, want the 250 that + chose", v)
	}
	press(t, ctx, "-")
	if err := poll(ctx, `document.querySelector('`+sel+`').value === "500"`); err != nil {
		t.Errorf("− did not make the demo slower: %v", err)
	}

	// ? opens the help, which lists the keys; ? closes it.
	press(t, ctx, "?")
	if err := poll(ctx, `document.getElementById("keys-help").open && document.querySelectorAll("#keys-help kbd").length >= 15`); err != nil {
		t.Fatalf("? did not open the keys' help: %v", err)
	}
	press(t, ctx, "?")
	if err := poll(ctx, `!document.getElementById("keys-help").open`); err != nil {
		t.Errorf("? did not close the help: %v", err)
	}

	// c hides the forms, and brings them back.
	forms := `getComputedStyle(document.querySelector(".demo-forms")).display`
	press(t, ctx, "c")
	if err := poll(ctx, forms+` === "none"`); err != nil {
		t.Errorf("c did not hide the forms: %v", err)
	}
	press(t, ctx, "c")
	if err := poll(ctx, forms+` !== "none"`); err != nil {
		t.Errorf("a second c did not bring the forms back: %v", err)
	}

	// b blanks the screen; the next key only brings it back.
	press(t, ctx, "b")
	if err := poll(ctx, `document.body.classList.contains("blank")`); err != nil {
		t.Errorf("b did not blank the screen: %v", err)
	}
	press(t, ctx, kb.ArrowRight)
	if err := poll(ctx, `!document.body.classList.contains("blank")`); err != nil {
		t.Errorf("a key did not bring the screen back: %v", err)
	}
	still(t, ctx, "→ on a blank screen", map[string]int{"perceptron": 4})

	// At the end of the run, PageDown goes on to the next demo.
	next, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('a[rel="next"][data-nav="next"]').pathname`))
	if err != nil || next == "" || next == "/present/perceptron" {
		t.Fatalf("the presenter view links no next demo (%q, %v)", next, err)
	}
	press(t, ctx, "n")
	if err := poll(ctx, `location.pathname === "`+next+`"`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("n: location %q, want %s", loc, next)
	}
	openPage(t, ctx, base, "/present/perceptron?step=end")
	press(t, ctx, kb.PageDown)
	if err := poll(ctx, `location.pathname === "`+next+`"`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("PageDown at the end of the run: location %q, want %s", loc, next)
	}
}

// TestBrowserScrubber drags the timeline: the step and the address follow
// while it moves, the address is replaced, not pushed, until the release,
// and the whole drag is one history entry; back returns to the step before.
func TestBrowserScrubber(t *testing.T) {
	ctx, base := newBrowser(t)
	presentAt(t, ctx, base, "/present/perceptron?step=2", 1280, 720)
	length := func() int {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`history.length`))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := length()
	slide := func(k int, release bool) {
		t.Helper()
		ev := `s.dispatchEvent(new Event("input", {bubbles: true}))`
		if release {
			ev += `; s.dispatchEvent(new Event("change", {bubbles: true}))`
		}
		js := fmt.Sprintf(`(() => { const s = document.querySelector('[data-testid="scrub"]'); s.value = %d; %s; return true; })()`, k, ev)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []int{5, 9} {
		slide(k, false)
		if err := poll(ctx, stepInURL(k)+` && document.querySelector('[data-testid="step"]').textContent.trim() === "`+strconv.Itoa(k)+`"`); err != nil {
			loc, _ := chromedp.Run(ctx, chromedp.Location())
			t.Fatalf("dragging to %d: location %q, want the step and the address to follow: %v", k, loc, err)
		}
	}
	slide(7, true)
	if err := poll(ctx, stepInURL(7)+` && document.querySelector('[data-testid="scrub"]').value === "7" && `+htmxIdle); err != nil {
		t.Fatalf("released at 7: %v", err)
	}
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	if got := length(); got != before+1 {
		t.Errorf("a drag added %d history entries, want 1", got-before)
	}
	if err := stepIs(ctx, 7); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.NavigateBack()); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, stepInURL(2)); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("back after a drag: location %q, want ?step=2", loc)
	}
	if err := stepIs(ctx, 2); err != nil {
		t.Error(err)
	}
}

// stepInURL is a condition: the address bar's step is k.
func stepInURL(k int) string {
	return `new URLSearchParams(location.search).get("step") === "` + strconv.Itoa(k) + `"`
}

// stepIs waits until the page's step counter reads k.
func stepIs(ctx context.Context, k int) error {
	return waitText(ctx, `[data-testid="step"]`, strconv.Itoa(k))
}

// TestPresentScreens writes screenshots of presenter views at a
// projector's sizes to out/screens (with MARGIN_SCREENS=1, as make screens
// sets). It checks nothing: it is for eyes.
func TestPresentScreens(t *testing.T) {
	ctx, base, dir := screensBrowser(t)
	for _, vp := range [][2]int64{{1280, 720}, {1920, 1080}} {
		for name, u := range map[string]string{
			"perceptron": "/present/perceptron?data=separable&n=60&step=12",
			"svm-soft":   "/present/svm-soft?step=20",
			"gd":         "/present/gd?step=8",
		} {
			presentAt(t, ctx, base, u, vp[0], vp[1])
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("present-%s-%dx%d.png", name, vp[0], vp[1])), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The timeline on a lesson page, and the presenter view on a phone.
	for name, u := range map[string]string{"lesson-timeline-1280x900": "/lessons/perceptron?step=5", "present-phone-390x844": "/present/perceptron?step=5"} {
		w, h := int64(1280), int64(900)
		if strings.HasSuffix(name, "390x844") {
			w, h = 390, 844
		}
		presentAt(t, ctx, base, u, w, h)
		if strings.HasPrefix(name, "lesson") {
			scrollDemoTo(t, ctx, "perceptron", 0)
		}
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
