package components

import (
	"strconv"

	"github.com/margin-edu/margin/internal/demo"
)

// Asking reports whether the demo shows a question about its next step,
// in place of its Step button, Play, Run to end and timeline: none of
// them may pass an unanswered question.
func Asking(d *demo.DemoView) bool { return d.Predict != nil && d.Predict.Ask != nil }

// predicting reports whether predict mode is on, question or not.
func predicting(d *demo.DemoView) bool { return d.Predict != nil && d.Predict.On }

// num writes a coordinate of the marks' overlay.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// toggleLabel is what the toggle offers.
func toggleLabel(d *demo.DemoView) string {
	if d.Predict.On {
		return "Stop predicting"
	}
	return "Predict the next step"
}

// predictState names what the predict block shows, for the script
// (app.js) and tests: "off", "question" or "done".
func predictState(d *demo.DemoView) string {
	switch {
	case !predicting(d):
		return "off"
	case Asking(d):
		return "question"
	case d.Predict.None != "":
		return "none"
	}
	return "done"
}
