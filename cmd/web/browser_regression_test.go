package main

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserRegressionDemos steps the stepping demos of the regression
// lessons with the keyboard, adds an observation by clicking the
// interpolation plot, and moves a ridge λ slider to 10⁻² and back to its
// leftmost stop, which means λ = 0.
func TestBrowserRegressionDemos(t *testing.T) {
	ctx, base := newBrowser(t)
	for _, id := range []string{"ls-gd", "logistic", "softmax"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/present/"+id)); err != nil {
			t.Fatal(err)
		}
		if err := poll(ctx, `document.readyState === "complete" && !!window.htmx`); err != nil {
			t.Fatalf("%s: htmx did not load: %v", id, err)
		}
		for k := 1; k <= 3; k++ {
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
				t.Fatal(err)
			}
			if err := waitText(ctx, `[data-testid="step"]`, strconv.Itoa(k)); err != nil {
				t.Fatalf("%s: after → number %d: %v", id, k, err)
			}
		}
		if err := poll(ctx, `location.pathname + location.search === "/present/`+id+`?step=3"`); err != nil {
			loc, _ := chromedp.Run(ctx, chromedp.Location())
			t.Errorf("%s: location = %q, want the permalink of step 3", id, loc)
		}
	}

	// A click at the data point (0.5, 1.5) of the interpolation plot adds
	// that observation: the frame maps it to the screen as app.js maps
	// screen to data.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/present/interpolation")); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `document.readyState === "complete" && !!window.htmx`); err != nil {
		t.Fatal(err)
	}
	where := `(() => { const fig = document.querySelector('figure.plot'); const svg = fig.querySelector('svg');
		const f = JSON.parse(fig.dataset.frame).frame, v = f.View, m = svg.getScreenCTM();
		const p = svg.createSVGPoint();
		p.x = f.Left + (0.5 - v.XMin) / (v.XMax - v.XMin) * f.Width;
		p.y = f.Top + (v.YMax - 1.5) / (v.YMax - v.YMin) * f.Height;
		const s = p.matrixTransform(m); return [s.x, s.y]; })()`
	xy, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](where))
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
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/present/interpolation")); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `document.readyState === "complete" && !!window.htmx`); err != nil {
		t.Fatal(err)
	}
	slide := func(to string) string {
		return `(() => { const s = document.querySelector('input[data-log-for="lambda"]'); s.value = ` + to + `;
			s.dispatchEvent(new Event("input", {bubbles: true})); s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](slide(`"-2"`))); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `location.search === "?lambda=0.01" && document.querySelector('[data-testid="plot"] svg').textContent.includes("λ = 0.01")`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("after moving λ to 10⁻²: location %q, want ?lambda=0.01", loc)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](slide(`s.min`))); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `location.search === "" && document.querySelector('input[name="lambda"]').value === "0"`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Errorf("after moving λ to its leftmost stop: location %q, want no lambda (0, the default)", loc)
	}
}
