package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// A student on a phone: every lesson of the course at 390×844 (a phone's
// screen, with its viewport meta honoured and touch), none scrolling
// sideways, every plot's type readable, the Step button right under the
// plot.

// phoneWidth and phoneHeight are the screen the tests hold a phone to.
const phoneWidth, phoneHeight = 390, 844

// minTextPx is the smallest type a plot may show at phone size.
const minTextPx = 11

// phoneFacts measures a page at phone size: how wide the document is,
// the smallest tick label in each demo's plot (its font size in user
// units times the scale the SVG is shown at, and the height of its box on
// screen), and the gap from each plot's bottom to its Step button.
const phoneFacts = `(() => {
	const out = {width: document.documentElement.scrollWidth, wide: [], plots: []};
	for (const el of document.querySelectorAll("main *")) {
		const r = el.getBoundingClientRect();
		if (r.right > innerWidth + 1 && !el.closest(".katex-display, .panel-table, .lesson-table"))
			out.wide.push(el.tagName.toLowerCase() + "." + el.className + " " + Math.round(r.right));
	}
	for (const fig of document.querySelectorAll('[data-testid="plot"]')) {
		const svg = fig.querySelector("svg"), vb = svg.viewBox.baseVal;
		const scale = svg.getBoundingClientRect().width / vb.width;
		// The data frame on screen: a number outside it is a tick label (one
		// inside labels a contour or a point).
		const f = JSON.parse(fig.dataset.frame).frame, m = svg.getScreenCTM(), q = svg.createSVGPoint();
		q.x = f.Left; q.y = f.Top; const a = q.matrixTransform(m);
		q.x = f.Left + f.Width; q.y = f.Top + f.Height; const b = q.matrixTransform(m);
		let font = 1e9, box = 1e9, text = "";
		for (const t of svg.querySelectorAll("text")) {
			if (!/^[−-]?\d+(\.\d+)?$/.test(t.textContent.trim())) continue;
			const r = t.getBoundingClientRect(), x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
			if (x > a.x && x < b.x && y > a.y && y < b.y) continue;
			const px = parseFloat(getComputedStyle(t).fontSize) * scale;
			if (px < font) { font = px; text = t.textContent; box = t.getBoundingClientRect().height; }
		}
		const panel = fig.closest(".demo-panel"), step = panel.querySelector('[data-testid="next"]');
		const gap = step ? step.getBoundingClientRect().top - fig.getBoundingClientRect().bottom : null;
		out.plots.push({id: panel.id, font, box, text, gap, right: fig.getBoundingClientRect().right});
	}
	return out;
})()`

// typeOwed excuses a plot whose chart type, not the page, keeps its ticks
// under 11 px at 390 px, by how much. None does: the Curves charts (the
// curse of dimensionality) had 11 pt ticks, 10.7 px on the phone, and now
// have the 12 pt of the other plots.
var typeOwed = map[string]float64{}

type phonePlot struct {
	ID    string   `json:"id"`
	Font  float64  `json:"font"`
	Box   float64  `json:"box"`
	Text  string   `json:"text"`
	Gap   *float64 `json:"gap"`
	Right float64  `json:"right"`
}

type phonePage struct {
	Width float64     `json:"width"`
	Wide  []string    `json:"wide"`
	Plots []phonePlot `json:"plots"`
}

// TestBrowserPhone opens every lesson of the course that has a page at
// 390×844 and checks that nothing is wider than the screen, that every
// plot's tick labels are at least 11 px, and that the Step button sits
// right under the plot (within 48 px: the click caption may be between).
func TestBrowserPhone(t *testing.T) {
	ctx, base := newBrowser(t)
	phone := chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateMobile, chromedp.EmulateTouch)
	if err := chromedp.Do(ctx, phone); err != nil {
		t.Fatal(err)
	}
	lessons := 0
	for _, l := range testCourse(t).Lessons {
		if len(l.Demos) == 0 {
			continue
		}
		lessons++
		path := "/lessons/" + l.Slug
		openPage(t, ctx, base, path)
		p, err := chromedp.Run(ctx, chromedp.Evaluate[phonePage](phoneFacts))
		if err != nil {
			t.Fatal(err)
		}
		if p.Width > phoneWidth {
			t.Errorf("%s: the page is %.0f px wide on a %d px screen; too wide: %v", path, p.Width, phoneWidth, p.Wide)
		}
		if len(p.Plots) != len(l.Demos) {
			t.Errorf("%s: %d plots, want one for each of its %d demos", path, len(p.Plots), len(l.Demos))
		}
		for _, f := range p.Plots {
			if f.Font < minTextPx-typeOwed[f.ID] {
				t.Errorf("%s %s: the plot's tick label %q is %.1f px (its box %.1f px high), want ≥ %d", path, f.ID, f.Text, f.Font, f.Box, minTextPx)
			}
			if f.Right > phoneWidth {
				t.Errorf("%s %s: the plot ends at %.0f px, past the screen", path, f.ID, f.Right)
			}
			if f.Gap != nil && (*f.Gap < 0 || *f.Gap > 48) {
				t.Errorf("%s %s: the Step button is %.0f px below the plot, want it right under (0–48 px)", path, f.ID, *f.Gap)
			}
		}
	}
	if lessons < 2 {
		t.Fatalf("only %d lessons with demos in the course", lessons)
	}
}

// TestPhoneScreens writes docs/screens/phone-*.png, a few lessons at
// 390×844 for eyes (MARGIN_SCREENS=1, as make screens sets).
func TestPhoneScreens(t *testing.T) {
	if os.Getenv("MARGIN_SCREENS") == "" {
		t.Skip("set MARGIN_SCREENS=1 (make screens) to write screenshots")
	}
	ctx, base := newBrowser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "docs", "screens")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct{ name, path, at string }{
		{"phone-svm-soft", "/lessons/soft-margin-svm?C=1&step=12", "#demo-svm-soft"},
		{"phone-regression-losses", "/lessons/linear-regression", "#demo-reg-losses"},
		{"phone-perceptron-prose", "/lessons/perceptron", "#convergence"},
	} {
		openPage(t, ctx, base, s.path)
		js := fmt.Sprintf(`document.querySelector(%q).scrollIntoView(), true`, s.at)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err != nil {
			t.Fatal(err)
		}
		if err := frames(ctx, 3); err != nil {
			t.Fatal(err)
		}
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, s.name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// tabFacts lists, for the page's first demo that steps, the controls Tab
// reaches in order (no element sets a positive tabindex, so Tab follows
// the document), and the page's live regions.
const tabFacts = `(() => {
	const positive = [...document.querySelectorAll("[tabindex]")].filter(e => e.tabIndex > 0).length;
	const panel = [...document.querySelectorAll(".demo-panel")].find(p => p.querySelector('[data-testid="next"]'));
	const order = [...panel.querySelectorAll('a[href], button, input, select, textarea, summary')]
		.filter(e => !e.disabled && e.offsetParent !== null && e.type !== "hidden")
		.map(e => e.dataset.testid || e.dataset.action || e.name || e.tagName.toLowerCase());
	const live = [...document.querySelectorAll("[aria-live]")].map(e => (e.dataset.testid || e.className) + ":" + e.getAttribute("aria-live"));
	return {positive, panel: panel.id, order, live, demos: document.querySelectorAll(".demo-panel").length};
})()`

type tabPage struct {
	Positive int      `json:"positive"`
	Panel    string   `json:"panel"`
	Order    []string `json:"order"`
	Live     []string `json:"live"`
	Demos    int      `json:"demos"`
}

// TestBrowserTabOrder: on a lesson page Tab reaches a demo's step
// controls before its class picker and its downloads, a Tab onto Step
// shows a focus outline, and each demo has one live region, the step's
// explanation, polite.
func TestBrowserTabOrder(t *testing.T) {
	ctx, base := newBrowser(t)
	openPage(t, ctx, base, "/lessons/soft-margin-svm")
	p, err := chromedp.Run(ctx, chromedp.Evaluate[tabPage](tabFacts))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tab order in %s: %v", p.Panel, p.Order)
	if p.Positive > 0 {
		t.Errorf("%d elements set a positive tabindex", p.Positive)
	}
	at := map[string]int{}
	for i, k := range p.Order {
		if _, ok := at[k]; !ok {
			at[k] = i
		}
	}
	for _, pair := range [][2]string{{"next", "click-class-svm-soft"}, {"next", "download-svg"}, {"play", "download-png"}, {"click-class-svm-soft", "download-svg"}} {
		a, okA := at[pair[0]]
		b, okB := at[pair[1]]
		if !okA || !okB || a > b {
			t.Errorf("%s: Tab reaches %s (at %d, %v) after %s (at %d, %v); order %v", p.Panel, pair[0], a, okA, pair[1], b, okB, p.Order)
		}
	}
	if len(p.Live) != p.Demos {
		t.Errorf("live regions %v, want one for each of %d demos", p.Live, p.Demos)
	}
	for _, l := range p.Live {
		if l != "explain:polite" {
			t.Errorf("live region %q, want only the step explanations (explain:polite)", l)
		}
	}
	// Tab from Play lands on Step, which shows the focus outline.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('#`+p.Panel+` [data-testid="play"]').focus(), true`)); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, "\t")
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.activeElement.dataset.testid || "", getComputedStyle(document.activeElement).outlineStyle]`))
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != "next" || got[1] == "none" {
		t.Errorf("after Tab from Play: focus on %q with outline %q, want Step with an outline", got[0], got[1])
	}
}
