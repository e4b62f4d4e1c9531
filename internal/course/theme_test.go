package course

import (
	"bytes"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/goldentest"
	"github.com/margin-edu/margin/internal/render"
)

// TestThemeGoldens draws one demo (svm-soft, mid-run, with its α bars and
// history) in each theme other than the light one its examples' goldens
// cover, and in the hall type, and compares each with
// testdata/themes/<demo>_<look>_<figure>_golden.svg (go test -update
// rewrites them): the look's canvas is one for every figure, so one demo
// shows what it does to regions, lines, points, bars, text and halos.
func TestThemeGoldens(t *testing.T) {
	course := demotest.MustCourse(t, Default)
	var d *demo.Demo
	for _, x := range course.Demos {
		if x.ID == "svm-soft" {
			d = x
		}
	}
	for _, c := range []struct {
		look, query string
		hall        bool
	}{
		{"dark", "step=40&theme=dark", false},
		{"print", "step=40&theme=print", false},
		{"hall", "step=40", true},
	} {
		r, err := demotest.Execute(d, demotest.MustParse(t, d, c.query))
		if err != nil {
			t.Fatal(err)
		}
		for _, fig := range []string{demo.PlotFigure, "alpha", demo.HistoryFigure} {
			var b bytes.Buffer
			if ok, err := r.DrawFigure(&render.Target{W: &b, Hall: c.hall}, fig); !ok || err != nil {
				t.Fatalf("%s %s: %v, %v", c.look, fig, ok, err)
			}
			goldentest.Check(t, "themes/"+d.ID+"_"+c.look+"_"+fig, b.Bytes())
		}
	}
}
