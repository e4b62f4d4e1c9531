// Package rendertest is what the tests of render and its subpackages
// share: drawing a DataFigure to SVG bytes, and the -look flag that also
// writes figures as PNG for a person to look at.
package rendertest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/margin-edu/margin/internal/render"
)

// Look is the -look flag: a directory to also write figures to, as PNG,
// to look at.
var Look = flag.String("look", "", "also write the figures as PNG to this directory, to look at")

// SVG draws f at opt as SVG, or ends the test.
func SVG(t testing.TB, f render.DataFigure, opt render.Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := f.WriteSVG(&b, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// WriteLook writes f as PNG at the sizes it must read at (thumbnail,
// slide, default, projector) to the -look directory, when one is given.
func WriteLook(t *testing.T, name string, f render.DataFigure) {
	t.Helper()
	if *Look == "" {
		return
	}
	if err := os.MkdirAll(*Look, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []render.Options{{Width: 300, Height: 300}, {Width: 400, Height: 400}, {}, {Width: 1200, Height: 1200}, {Width: 1000, Height: 600}} {
		var b bytes.Buffer
		if err := f.WritePNG(&b, opt); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(*Look, fmt.Sprintf("datafig_%s_%dx%d.png", name, opt.Width, opt.Height))
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
