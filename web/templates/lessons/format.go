// Package lessons holds the templates of the lesson pages.
package lessons

import (
	"strconv"

	"github.com/margin-edu/margin/internal/demo"
)

func itoa(i int) string { return strconv.Itoa(i) }

// demosAfter returns the demos the table of contents lists after section
// i: the demo of each prose part that ends with it (the last section
// lists the rest), so each "Live demo" entry sits where the demo is.
func demosAfter(toc []demo.Section, i int, demos []*demo.DemoView) []*demo.DemoView {
	from, to := toc[i].Part, len(demos)
	if i+1 < len(toc) {
		to = toc[i+1].Part
	}
	from, to = min(from, len(demos)), min(to, len(demos))
	if to <= from {
		return nil
	}
	return demos[from:to]
}
