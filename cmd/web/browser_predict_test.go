package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/margin-edu/margin/internal/demo"
)

// Predict, then reveal in a browser: a click on the right choice and on a
// wrong one, the score after a reload, and the presenter's Enter.

// choose clicks the choice whose value is v and waits for the reveal.
func choose(t *testing.T, ctx context.Context, v, verdict string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`[data-testid="predict-choice"][value="`+v+`"]`))); err != nil {
		t.Fatal(err)
	}
	if err := waitText(ctx, `[data-testid="predict-verdict"]`, verdict); err != nil {
		t.Fatalf("after choosing %s: %v", v, err)
	}
}

// pathIs waits until the address bar holds want (path and query).
func pathIs(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	if err := poll(ctx, `location.pathname + location.search === "`+want+`"`); err != nil {
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		t.Fatalf("location = %q, want %q", loc, want)
	}
}

// wrongOf is a choice of q that is not right.
func wrongOf(q *demo.Question) string {
	for _, c := range q.Choices {
		if c.Value != q.Right {
			return c.Value
		}
	}
	return ""
}

// TestBrowserPredict answers right by a click, then wrong, reloads (the
// score stays), and in the presenter view reveals with Enter, unscored.
func TestBrowserPredict(t *testing.T) {
	ctx, base := newBrowser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1400, 1000)); err != nil {
		t.Fatal(err)
	}
	d := testCourse(t).Demo("perceptron")
	on := d.Default().WithPredicting(demo.Predicting{On: true})
	openPage(t, ctx, base, on.AtStep(2).URL(d.LessonPath())+d.Anchor())
	q := question(t, d, on.AtStep(2))
	choose(t, ctx, q.Right, "Right")
	pathIs(t, ctx, "/lessons/perceptron?last=right&predict=1&score=1-1&step=3")

	q = question(t, d, on.AtStep(3))
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	choose(t, ctx, wrongOf(q), "Not quite")
	pathIs(t, ctx, "/lessons/perceptron?last=wrong&predict=1&score=1-2&step=4")

	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	if err := waitText(ctx, `[data-testid="predict-score"]`, "1 of 2 right"); err != nil {
		t.Fatalf("after a reload: %v", err)
	}
	if err := waitText(ctx, `[data-testid="predict-verdict"]`, "Not quite"); err != nil {
		t.Fatalf("after a reload: %v", err)
	}

	openPage(t, ctx, base, on.AtStep(1).URL(d.PresentPath()))
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	if err := waitText(ctx, `[data-testid="predict-verdict"]`, "Revealed"); err != nil {
		t.Fatalf("after Enter: %v", err)
	}
	pathIs(t, ctx, "/present/perceptron?last=shown&predict=1&step=2")
	if err := settled(ctx); err != nil {
		t.Fatal(err)
	}
	// → reveals too, and never passes the question silently.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	pathIs(t, ctx, "/present/perceptron?last=shown&predict=1&step=3")
}

// TestPredictScreens writes docs/screens/predict-*.png: a question on a
// lesson page at 1400×1000 and a reveal in the presenter view at
// 1920×1080 (MARGIN_SCREENS=1, as make screens sets).
func TestPredictScreens(t *testing.T) {
	if os.Getenv("MARGIN_SCREENS") == "" {
		t.Skip("set MARGIN_SCREENS=1 (make screens) to write screenshots")
	}
	ctx, base := newBrowser(t)
	dir := filepath.Join("..", "..", "docs", "screens")
	for _, s := range []struct {
		name, path, at string
		w, h           int64
	}{
		{"predict-lesson-gd", "/lessons/gradient-descent?predict=1&score=2-3&step=2&t=0.19", "#demo-gd", 1400, 1000},
		{"predict-present-perceptron", "/present/perceptron?data=separable&last=wrong&predict=1&score=3-5&step=6", "", 1920, 1080},
	} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(s.w, s.h)); err != nil {
			t.Fatal(err)
		}
		openPage(t, ctx, base, s.path)
		if s.at != "" {
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("`+s.at+`").scrollIntoView(), true`)); err != nil {
				t.Fatal(err)
			}
		}
		if err := settled(ctx); err != nil {
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
