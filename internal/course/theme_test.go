package course

import (
	"bytes"
	"regexp"
	"strconv"
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

// TestHallType: in the hall type (the presenter view's) the main plot
// and the history of a demo with contours (gd) and one with a legend of
// many marks (svm-soft) have tick labels of at least 20 px when the
// figure is shown 650 px wide (13.85 pt in the 600 px figure's units), no
// stroke under 2 px there (1.5 units), and no pale grey stroke (the
// contours are dark enough for a washed-out projector).
func TestHallType(t *testing.T) {
	course := demotest.MustCourse(t, Default)
	fontRE := regexp.MustCompile(`font-size:([0-9.]+)px`)
	strokeRE := regexp.MustCompile(`stroke-width:([0-9.]+)`)
	greyRE := regexp.MustCompile(`stroke:#([0-9A-F]{2})([0-9A-F]{2})([0-9A-F]{2})`)
	const shown = 650.0 / 600
	for _, d := range course.Demos {
		if d.ID != "gd" && d.ID != "svm-soft" {
			continue
		}
		r, err := demotest.Execute(d, demotest.MustParse(t, d, "step=5"))
		if err != nil {
			t.Fatal(err)
		}
		for _, fig := range []string{demo.PlotFigure, demo.HistoryFigure} {
			var b bytes.Buffer
			if _, err := r.DrawFigure(&render.Target{W: &b, Hall: true}, fig); err != nil {
				t.Fatal(err)
			}
			svg := b.String()
			sizes := map[float64]int{}
			for _, m := range fontRE.FindAllStringSubmatch(svg, -1) {
				v, _ := strconv.ParseFloat(m[1], 64)
				sizes[v]++
			}
			tick, most := 0.0, 0
			for v, n := range sizes {
				if n > most {
					tick, most = v, n
				}
			}
			if px := tick * 4 / 3 * shown; px < 20 {
				t.Errorf("%s %s: tick labels %.1f pt, %.1f px at 650 px, want ≥ 20 px", d.ID, fig, tick, px)
			}
			for _, m := range strokeRE.FindAllStringSubmatch(svg, -1) {
				if v, _ := strconv.ParseFloat(m[1], 64); v > 0 && v*4/3*shown < 2 {
					t.Errorf("%s %s: a stroke %s units wide, %.2f px at 650 px, want ≥ 2 px", d.ID, fig, m[1], v*4/3*shown)
				}
			}
			for _, m := range greyRE.FindAllStringSubmatch(svg, -1) {
				if m[1] == m[2] && m[2] == m[3] && m[1] > "73" && m[1] != "FF" {
					t.Errorf("%s %s: a grey stroke #%s%s%s lighter than 45 %%", d.ID, fig, m[1], m[2], m[3])
				}
			}
		}
	}
}
