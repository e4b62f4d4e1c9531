//go:build screens

package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestScreens writes screenshots of the pages a reviewer should look at
// to out/screens (make screens). It checks nothing: it is for eyes.
func TestScreens(t *testing.T) {
	ctx, base := newBrowser(t)
	dir := filepath.Join("..", "..", "out", "screens")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	shots := []struct{ name, url, scrollTo string }{
		{"index", "/", ""},
		{"lesson-top", "/lessons/perceptron", ""},
		{"lesson-demo-step0", "/lessons/perceptron", "#demo-perceptron"},
		{"lesson-demo-step1", "/lessons/perceptron?step=1", "#demo-perceptron"},
		{"lesson-demo-step5", "/lessons/perceptron?step=5", "#demo-perceptron"},
		{"lesson-demo-converged", "/lessons/perceptron?step=24", "#demo-perceptron"},
		{"lesson-convergence", "/lessons/perceptron", "#convergence"},
		{"present-separable", "/present/perceptron?data=separable&n=60&step=31", ""},
		{"present-averaged", "/present/perceptron?data=noisy&n=80&variant=averaged&step=200", ""},
		{"present-margin", "/present/perceptron?data=separable&n=40&variant=margin&gamma=2&step=40", ""},
		{"present-blobs-ovo", "/present/perceptron?data=blobs&n=60&multi=ovo&step=50", ""},
		{"present-xor", "/present/perceptron?data=xor&step=4", ""},
	}
	for _, s := range shots {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+s.url)); err != nil {
			t.Fatal(err)
		}
		if s.scrollTo != "" {
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector("`+s.scrollTo+`").scrollIntoView(), true`)); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(300 * time.Millisecond)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, s.name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
