package main

import (
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// Read and run side by side (issue 20 §5), in a window 1400×1000: each
// lesson's demo stays in view beside the prose it goes with, a "try this"
// link loads its state into the demo without moving the reader, and a
// slider applies while it is dragged.

// readrunWidth and readrunHeight are the wide screen the tests read at.
const readrunWidth, readrunHeight = 1400, 1000

// stretchFacts scrolls the lesson through each of its stretches (a demo
// and its prose, web/templates/lessons/readrun.go) and reports, for each:
// where the first demo's plot starts on the page; the stretch's height;
// and, with the window scrolled to the middle of the stretch and to its
// top, where its own demo is in the window and how much of the previous
// demo still shows.
const stretchFacts = `(() => {
	scrollTo(0, 0);
	const out = {firstPlot: document.querySelector('[data-testid="plot"]').getBoundingClientRect().top + scrollY, stretches: []};
	const runs = [...document.querySelectorAll('[data-testid="readrun"]')];
	const at = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; };
	runs.forEach((run, i) => {
		const demo = run.querySelector(":scope > .demo"), prev = i > 0 ? runs[i-1].querySelector(":scope > .demo") : null;
		const top = run.getBoundingClientRect().top + scrollY, height = run.offsetHeight;
		const s = {id: demo.id, height};
		scrollTo(0, top + (height - innerHeight) / 2);
		s.mid = at(demo);
		scrollTo(0, top);
		s.top = at(demo);
		s.prevBottom = prev ? at(prev).bottom : -1;
		out.stretches.push(s);
	});
	scrollTo(0, 0);
	return out;
})()`

type rect struct {
	Top    float64 `json:"top"`
	Bottom float64 `json:"bottom"`
}

type stretchPage struct {
	FirstPlot float64       `json:"firstPlot"`
	Stretches []stretchFact `json:"stretches"`
}

type stretchFact struct {
	ID         string  `json:"id"`
	Height     float64 `json:"height"`
	Mid        rect    `json:"mid"`
	Top        rect    `json:"top"`
	PrevBottom float64 `json:"prevBottom"`
}

// TestBrowserReadRunPinned: in every lesson the first demo is at the top of
// the page, and scrolling the prose keeps the stretch's demo in the window
// (wholly, its top pinned near the window's), the previous demo gone.
func TestBrowserReadRunPinned(t *testing.T) {
	ctx, base := newBrowser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(readrunWidth, readrunHeight)); err != nil {
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
		f, err := chromedp.Run(ctx, chromedp.Evaluate[stretchPage](stretchFacts))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: the first plot starts %.0f px down the page", path, f.FirstPlot)
		if f.FirstPlot > 300 {
			t.Errorf("%s: the first demo's plot starts %.0f px down the page, want it at the top (≤ 300 px)", path, f.FirstPlot)
		}
		if len(f.Stretches) != len(l.Demos) {
			t.Fatalf("%s: %d stretches, want one for each of its %d demos", path, len(f.Stretches), len(l.Demos))
		}
		for i, s := range f.Stretches {
			if want := "demo-" + l.Demos[i]; s.ID != want {
				t.Errorf("%s: stretch %d holds %s, want %s", path, i, s.ID, want)
			}
			// At the top of its stretch the demo is at the top of the
			// window; the one before has gone.
			if s.Top.Top < 0 || s.Top.Top > 40 || s.Top.Bottom > readrunHeight+1 {
				t.Errorf("%s: at the top of its stretch, %s spans %.0f–%.0f px in the window, want it whole at the top", path, s.ID, s.Top.Top, s.Top.Bottom)
			}
			if s.PrevBottom > 1 {
				t.Errorf("%s: at the top of %s's stretch, the previous demo still shows (down to %.0f px)", path, s.ID, s.PrevBottom)
			}
			// Halfway down a stretch taller than the window, the demo is
			// pinned: still whole and at the top.
			if s.Height > 2*readrunHeight && (s.Mid.Top < 0 || s.Mid.Top > 20 || s.Mid.Bottom > readrunHeight+1) {
				t.Errorf("%s: halfway down its %.0f px stretch, %s spans %.0f–%.0f px in the window, want it pinned at the top", path, s.Height, s.ID, s.Mid.Top, s.Mid.Bottom)
			}
		}
	}
	if lessons < 2 {
		t.Fatalf("only %d lessons with demos", lessons)
	}
}

// TestBrowserTryThisInPlace clicks a "try this" link in the linear
// regression lesson's prose: the gradient-descent demo beside it shows the
// link's step, the address is the link's state (one history entry), the
// page did not reload and the reader did not move. Then it drags that
// demo's η slider: the plot follows before the release, and the drag
// leaves one history entry.
func TestBrowserTryThisInPlace(t *testing.T) {
	ctx, base := newBrowser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(readrunWidth, readrunHeight)); err != nil {
		t.Fatal(err)
	}
	openPage(t, ctx, base, "/lessons/linear-regression")
	state := "/lessons/linear-regression?demo=ls-gd&eta=0.5&step=66#demo-ls-gd"
	link := `.prose a[href="` + state + `"]`
	// The link in the middle of the window, as a reader comes to it.
	before, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const a = document.querySelector('`+link+`');
		window.scrollBy(0, a.getBoundingClientRect().top - innerHeight / 2); window.readrunMark = 1;
		return [scrollY, history.length]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if err := frames(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if err := clickAt(ctx, link); err != nil {
		t.Fatal(err)
	}
	if err := waitStep(ctx, "ls-gd", 66); err != nil {
		t.Fatalf("after the try-this link: %v", err)
	}
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](`[scrollY, history.length, location.pathname + location.search + location.hash, window.readrunMark === 1,
		(r => r.top >= 0 && r.bottom <= innerHeight)(document.querySelector('#demo-ls-gd [data-testid="plot"]').getBoundingClientRect())]`))
	if err != nil {
		t.Fatal(err)
	}
	if y := after[0].(float64); math.Abs(y-before[0]) > 3 {
		t.Errorf("the link moved the reader from scrollY %.0f to %.0f", before[0], y)
	}
	if n := after[1].(float64); n != before[1]+1 {
		t.Errorf("history grew from %.0f to %.0f entries, want one more", before[1], n)
	}
	if loc := after[2].(string); loc != state {
		t.Errorf("address %q, want the link's state", loc)
	}
	if !after[3].(bool) {
		t.Errorf("the page reloaded: the link should load its state in place")
	}
	if !after[4].(bool) {
		t.Errorf("the demo's plot is not wholly in the window beside the link")
	}

	// A slider's drag: the plot follows the hand; one history entry.
	slider := `#panel-ls-gd input[data-log-for="eta"]`
	js := `(() => { const s = document.querySelector('` + slider + `'); s.scrollIntoView({block: "nearest"});
		window.plotBefore = document.querySelector("#panel-ls-gd-plot").innerHTML;
		const r = s.getBoundingClientRect(), at = (s.value - s.min) / (s.max - s.min);
		return [r.left, r.width, r.top + r.height / 2, at, history.length]; })()`
	g, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](js))
	if err != nil {
		t.Fatal(err)
	}
	if err := frames(ctx, 2); err != nil {
		t.Fatal(err)
	}
	// The thumb's centre: a range input keeps its thumb inside the track,
	// about 8 px in at either end.
	left, width, y, at, hist := g[0], g[1], g[2], g[3], g[4]
	x := left + 8 + at*(width-16)
	held := func(p *input.DispatchMouseEventParams) {
		p.Button, p.Buttons, p.ClickCount = input.MouseButtonLeft, 1, 1
	}
	mouse := func(typ input.DispatchMouseEventType, x float64) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.MouseEvent(typ, x, y, held)); err != nil {
			t.Fatal(err)
		}
	}
	mouse(input.DispatchMouseEventTypeMousePressed, x)
	to := x
	plotChanged := `document.querySelector("#panel-ls-gd-plot").innerHTML !== window.plotBefore`
	for i := 1; i <= 8; i++ {
		to = x - float64(i)*6 // towards a smaller η
		mouse(input.DispatchMouseEventTypeMouseMoved, to)
		time.Sleep(40 * time.Millisecond)
	}
	if err := poll(ctx, plotChanged); err != nil {
		t.Errorf("the plot did not change while the slider was held: %v", err)
	}
	moved, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`history.length`))
	if err != nil {
		t.Fatal(err)
	}
	if moved > hist+1 {
		t.Errorf("during the drag history grew by %.0f entries, want at most one", moved-hist)
	}
	mouse(input.DispatchMouseEventTypeMouseReleased, to)
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	if err := frames(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	end, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](`[history.length, location.search, document.querySelector('#panel-ls-gd input[name="eta"]').value]`))
	if err != nil {
		t.Fatal(err)
	}
	if n := end[0].(float64); n != hist+1 {
		t.Errorf("the drag left %.0f new history entries, want exactly one", n-hist)
	}
	q, err := url.ParseQuery(end[1].(string)[min(1, len(end[1].(string))):])
	if err != nil {
		t.Fatal(err)
	}
	eta, err := strconv.ParseFloat(q.Get("eta"), 64)
	if err != nil || eta >= 0.5 || q.Get("demo") != "ls-gd" {
		t.Errorf("after the drag the address is %q, want the demo with η below the link's 0.5 (the form shows %v)", end[1], end[2])
	}
	if got := end[2].(string); got != q.Get("eta") {
		t.Errorf("the form shows η = %s, the address %s", got, q.Get("eta"))
	}
}

// TestReadRunScreens writes docs/screens/readrun-*.png, lessons read on
// wide screens with their demo beside the prose, for eyes
// (MARGIN_SCREENS=1, as make screens sets).
func TestReadRunScreens(t *testing.T) {
	if os.Getenv("MARGIN_SCREENS") == "" {
		t.Skip("set MARGIN_SCREENS=1 (make screens) to write screenshots")
	}
	ctx, base := newBrowser(t)
	dir := filepath.Join("..", "..", "docs", "screens")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		name, path, at string
		w, h           int64
	}{
		{"readrun-perceptron-1400x1000", "/lessons/perceptron?step=24", "#convergence", 1400, 1000},
		{"readrun-regression-1920x1080", "/lessons/linear-regression?demo=ridge&eps=0.01", "#losses", 1920, 1080},
		{"readrun-kernels-1400x1000", "/lessons/kernels?demo=kernel-svm&step=40", "#kernel-sgd", 1400, 1000},
	} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(s.w, s.h)); err != nil {
			t.Fatal(err)
		}
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
