package main

import (
	"testing"

	"github.com/chromedp/chromedp"
)

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
