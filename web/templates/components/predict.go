package components

import (
	"fmt"
	"strconv"

	"github.com/margin-edu/margin/internal/demo"
)

// Asking reports whether the demo shows a question about its next step,
// in place of its Step button, Play, Run to end and timeline: none of
// them may pass an unanswered question.
func Asking(d *demo.DemoView) bool { return d.Predict != nil && d.Predict.Ask != nil }

// predicting reports whether predict mode is on, question or not.
func predicting(d *demo.DemoView) bool { return d.Predict != nil && d.Predict.On }

// markR is the radius of a question's marks in the plot's viewBox units:
// about the size of the plot's own markers, larger on a larger plot.
func markR(a *demo.Ask) string {
	var w float64
	if _, err := fmtSscan(a.ViewBox, &w); err != nil || w <= 0 {
		w = 400
	}
	return num(max(6, w/55))
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// toggleLabel is what the toggle offers.
func toggleLabel(d *demo.DemoView) string {
	if d.Predict.On {
		return "Stop predicting"
	}
	return "Predict the next step"
}

// fmtSscan reads the viewBox's width ("0 0 W H").
func fmtSscan(viewBox string, w *float64) (int, error) {
	var x, y, h float64
	return fmt.Sscan(viewBox, &x, &y, w, &h)
}

// predictState names what the predict block shows, for the script
// (predict.js) and tests: "off", "question" or "done".
func predictState(d *demo.DemoView) string {
	switch {
	case !predicting(d):
		return "off"
	case Asking(d):
		return "question"
	}
	return "done"
}
