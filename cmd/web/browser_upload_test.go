package main

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserPasteCSV: three rows typed into the data tools' text box and
// "Use these points" show exactly those points. The browser sends the
// file field it has no file for along, which made every paste a 400.
func TestBrowserPasteCSV(t *testing.T) {
	ctx, base := newBrowser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/lessons/perceptron")); err != nil {
		t.Fatal(err)
	}
	if err := poll(ctx, `document.readyState === "complete" && !!window.htmx`); err != nil {
		t.Fatal(err)
	}
	form := `#panel-perceptron form.csv-form`
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#panel-perceptron [data-testid="data-tools"] summary`)),
		chromedp.SendKeys(chromedp.CSS(form+` textarea[name="csv"]`), "x1,x2,label\n0.5,1,1\n-1,2,-1\n2,-0.5,1"),
		chromedp.Click(chromedp.CSS(form+` button[type="submit"]`)),
	); err != nil {
		t.Fatal(err)
	}
	const want = "/lessons/perceptron?add=0.5,1,1~-1,2,-1~2,-0.5,1&data=custom"
	if err := poll(ctx, `location.pathname + location.search === "`+want+`" && document.readyState === "complete"`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText.slice(0, 300)`))
		t.Fatalf("after the paste the page is %s (%q), want %s", loc, text, want)
	}
	// The plot holds exactly the three points, where they were typed.
	pts, err := chromedp.Run(ctx, chromedp.Evaluate[[][]float64](`JSON.parse(document.querySelector('#panel-perceptron figure.plot').dataset.frame).points`))
	if err != nil {
		t.Fatal(err)
	}
	wantPts := [][]float64{{0.5, 1}, {-1, 2}, {2, -0.5}}
	if len(pts) != len(wantPts) {
		t.Fatalf("the plot has points %v, want %v", pts, wantPts)
	}
	for i, p := range wantPts {
		if len(pts[i]) < 2 || pts[i][0] != p[0] || pts[i][1] != p[1] {
			t.Errorf("point %d is %v, want %v", i+1, pts[i], p)
		}
	}
}
