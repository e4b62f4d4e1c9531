package main

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserPasteCSV: three rows typed into the data tools' text box and
// "Use these points" show exactly those points. The browser sends the
// file field it has no file for along, which made every paste a 400 and
// lost what was pasted; a refused paste is now said beside the form,
// which keeps the text.
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

	// A line the demo cannot read is refused beside the form, which keeps
	// what was pasted, and the demo keeps its points.
	const typo = "0,0,1\n1,2,3,4"
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#panel-perceptron [data-testid="data-tools"] summary`)),
		chromedp.SendKeys(chromedp.CSS(form+` textarea[name="csv"]`), "0,0,1\n1,2,3,4"),
		chromedp.Click(chromedp.CSS(form+` button[type="submit"]`)),
	); err != nil {
		t.Fatal(err)
	}
	box := form + ` [data-testid="csv-error"]`
	if err := poll(ctx, `(() => { const b = document.querySelector('`+box+`');
		return !!b && b.textContent.includes("x1,x2,label") && b.getBoundingClientRect().height > 0; })()`); err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('`+box+`') || {}).textContent || "(no box)"`))
		t.Fatalf("a bad line: the CSV form says %q, want the server's message beside it", text)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.querySelector('`+form+` textarea[name="csv"]').value, location.pathname + location.search]`))
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != typo || got[1] != want {
		t.Errorf("after the refusal the text box holds %q at %s, want %q at %s", got[0], got[1], typo, want)
	}
}
