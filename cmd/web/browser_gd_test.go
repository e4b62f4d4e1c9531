package main

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

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

// plotPoint is a script that maps the data point (x, y) of the page's
// first plot to screen coordinates through the frame the server sent, as
// app.js maps clicks the other way.
func plotPoint(x, y float64) string {
	return `(() => { const fig = document.querySelector('figure.plot'); const svg = fig.querySelector('svg');
		const f = JSON.parse(fig.dataset.frame).frame, v = f.View, m = svg.getScreenCTM();
		const p = svg.createSVGPoint();
		p.x = f.Left + (` + ftoa(x) + ` - v.XMin) / (v.XMax - v.XMin) * f.Width;
		p.y = f.Top + (v.YMax - ` + ftoa(y) + `) / (v.YMax - v.YMin) * f.Height;
		const s = p.matrixTransform(m); return [s.x, s.y]; })()`
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
