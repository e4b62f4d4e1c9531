package course

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/goldentest"
)

// TestDemoGoldens draws every figure of every example state a demo
// declares (Spec.Examples) and compares it byte for byte with
// testdata/<demo>_<example>_golden.svg (make golden rewrites them). The
// render package's goldens cover each plotter; these cover how a demo
// composes them: its view, title, legend and layers. A demo gets its
// goldens by declaring examples.
func TestDemoGoldens(t *testing.T) {
	course := demotest.MustCourse(t, Default)
	claimed := map[string]bool{}
	t.Cleanup(func() { orphanGoldens(t, claimed) })
	for _, d := range course.Demos {
		for _, ex := range d.Examples {
			name := d.ID + "_" + ex.Name
			claimed[name+"_golden.svg"] = true
			for _, panel := range d.Panels {
				claimed[name+"_"+strings.ReplaceAll(panel, "/", "-")+"_golden.svg"] = true
			}
			t.Run(name, func(t *testing.T) {
				r, err := demotest.Execute(d, demotest.MustParse(t, d, ex.Query))
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				if _, err := r.Plot(&b, false, r.PlotOptions()); err != nil {
					t.Fatal(err)
				}
				goldentest.Check(t, name, b.Bytes())
				for _, panel := range d.Panels {
					var p bytes.Buffer
					if _, err := r.WriteFigure(&p, panel, false); err != nil {
						t.Fatal(err)
					}
					goldentest.Check(t, name+"_"+strings.ReplaceAll(panel, "/", "-"), p.Bytes())
				}
			})
		}
	}
}

// orphanGoldens fails on a golden file no example draws any more: a
// renamed or dropped example leaves one behind.
func orphanGoldens(t *testing.T, claimed map[string]bool) {
	files, err := filepath.Glob(filepath.Join("testdata", "*_golden.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !claimed[filepath.Base(f)] {
			t.Errorf("%s belongs to no example of any demo; delete it or declare the example", f)
		}
	}
}
