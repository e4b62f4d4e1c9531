package render

import (
	"regexp"
	"strings"
	"testing"
)

// TestHaloOnce: a haloed label is one <text> element with a white stroke
// under its fill, not nine copies a screen reader would read nine times,
// and no halo marker reaches the SVG.
func TestHaloOnce(t *testing.T) {
	s := svmSVG(t, softScene(), Options{})
	if strings.Contains(s, haloMark) || strings.Contains(s, "&#xE000;") || strings.Contains(s, haloEnd) {
		t.Fatal("a halo marker reached the SVG")
	}
	texts := regexp.MustCompile(`(?s)<text [^>]*>([^<]*)</text>`).FindAllStringSubmatch(s, -1)
	seen := map[string]int{}
	for _, m := range texts {
		seen[m[1]]++
	}
	// "w" is also the legend's entry for the arrow.
	for label, want := range map[string]int{"w": 2, "2/‖w‖ = 1.79": 1} {
		if seen[label] != want {
			t.Errorf("label %q is written %d times, want %d", label, seen[label], want)
		}
	}
	halo := regexp.MustCompile(`stroke:#FFFFFF;stroke-width:[0-9.]+px;stroke-linejoin:round;paint-order:stroke">w</text>`)
	if !halo.MatchString(s) {
		t.Error(`the label "w" has no white stroke halo`)
	}
}

// TestWithHalos folds a marked copy into the next label with its text,
// escapes included, and drops a copy whose label is missing.
func TestWithHalos(t *testing.T) {
	in := "<text x=\"1\" style=\"font-size:10px;fill:#FFFFFF\">" + haloMark + "2.00" + haloEnd + "a &amp; b</text>\n" +
		"<g>\n<text x=\"2\" style=\"font-size:10px;fill:#0072B2\">a &amp; b</text>\n</g>\n" +
		"<text x=\"3\" style=\"fill:#FFFFFF\">" + haloMark + "1" + haloEnd + "gone</text>\n"
	want := "<g>\n<text x=\"2\" style=\"font-size:10px;fill:#0072B2;stroke:#FFFFFF;stroke-width:2.00px;stroke-linejoin:round;paint-order:stroke\">a &amp; b</text>\n</g>\n"
	if got := string(withHalos([]byte(in))); got != want {
		t.Errorf("withHalos =\n%s\nwant\n%s", got, want)
	}
}
