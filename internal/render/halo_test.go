package render

import (
	"testing"
)

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
