package components

import (
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

func TestScrubMax(t *testing.T) {
	for _, tc := range []struct {
		step int
		done bool
		want int
		end  string
	}{
		{0, false, 50, "50+"},
		{20, false, 50, "50+"},
		{26, false, 100, "100+"},
		{60, false, 200, "200+"},
		{240, false, 500, "500+"},
		{9000, false, 20000, "20000+"},
		{20000, false, 20000, "20000+"},
		{37, true, 37, "37 (end)"},
		{0, true, 0, "0 (end)"},
	} {
		d := &demo.DemoView{Step: tc.step, MaxStep: 20000}
		if !tc.done {
			d.Links.Next = "/next"
		}
		if got := scrubMax(d); got != tc.want {
			t.Errorf("scrubMax(step %d, done %v) = %d, want %d", tc.step, tc.done, got, tc.want)
		}
		if got := scrubEnd(d); got != tc.end {
			t.Errorf("scrubEnd(step %d, done %v) = %q, want %q", tc.step, tc.done, got, tc.end)
		}
	}
}
