package components

import (
	"strconv"

	"github.com/margin-edu/margin/internal/demo"
)

// scrubDone reports whether the run shown has ended, so that the
// scrubber's right end is its last step.
func scrubDone(d *demo.DemoView) bool { return d.Links.Next == "" }

// scrubMax is the scrubber's right end: the last step of a run that has
// ended, else the first of 50, 100, 200, 500, 1000, … at least twice the
// step shown (at most MaxStep), so a drag reaches well past it. A drag
// past the end of the run shows its last state, and the slider then ends
// there.
func scrubMax(d *demo.DemoView) int {
	if scrubDone(d) {
		return d.Step
	}
	want := max(2*d.Step, 50)
	for p := 10; ; p *= 10 {
		for _, m := range []int{5, 10, 20} {
			if h := m * p; h >= want || h >= d.MaxStep {
				return min(h, d.MaxStep)
			}
		}
	}
}

// scrubEnd labels the scrubber's right end: the last step, or the horizon
// and a plus while the run goes on.
func scrubEnd(d *demo.DemoView) string {
	if scrubDone(d) {
		return strconv.Itoa(d.Step) + " (end)"
	}
	return strconv.Itoa(scrubMax(d)) + "+"
}

func boolAttr(b bool) string { return strconv.FormatBool(b) }
