package lessons

import (
	"os"
	"strings"
	"testing"
)

// TestREADMETables: the README's table of each demo's URL keys is what
// ParamTable generates from the declarations. On failure, paste the
// printed table between the markers.
func TestREADMETables(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	course, err := DefaultCourse()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range course.Demos {
		begin, end := "<!-- params:"+d.ID+" -->\n", "<!-- /params:"+d.ID+" -->"
		i, j := strings.Index(readme, begin), strings.Index(readme, end)
		if i < 0 || j < i {
			t.Errorf("README has no %q … %q section", begin, end)
			continue
		}
		if got, want := readme[i+len(begin):j], d.ParamTable(); got != want {
			t.Errorf("README's %s table is out of date; it should read:\n%s", d.ID, want)
		}
	}
}
