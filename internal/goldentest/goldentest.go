// Package goldentest compares a test's output with a golden file in the
// package's testdata directory, for the figures of render and of the
// lessons' demos: the same input must draw the same bytes, so a change
// to a plot shows up as a diff to review like code.
package goldentest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update is the -update flag of every test binary that imports the
// package: rewrite the goldens instead of comparing (make golden).
var update = flag.Bool("update", false, "rewrite the golden SVG files in testdata")

// Check compares got byte for byte with testdata/<name>_golden.svg. With
// -update it rewrites the golden instead; on a mismatch it writes got to
// testdata/<name>.actual.svg (gitignored) and fails with its path.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	golden := filepath.Join("testdata", name+"_golden.svg")
	actual := filepath.Join("testdata", name+".actual.svg")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(actual)
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		if err := os.WriteFile(actual, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Fatalf("%s differs from %s; got written to %s (go test -update accepts it)", name, golden, actual)
	}
	os.Remove(actual)
}

// CheckTextAlternative wants exactly one <title> and one <desc>, first
// inside the root <svg> element, where assistive technology looks.
func CheckTextAlternative(t testing.TB, svg string) {
	t.Helper()
	i := strings.Index(svg, "<svg")
	if i < 0 {
		t.Fatalf("no <svg> element in %.40q", svg)
	}
	j := strings.Index(svg[i:], ">") + i + 1
	rest := strings.TrimLeft(svg[j:], "\n")
	if !strings.HasPrefix(rest, "<title>") {
		t.Fatalf("no <title> right after <svg ...>; it is followed by %.40q", rest)
	}
	if !strings.Contains(rest, "</title>\n<desc>") || !strings.Contains(rest, "</desc>") {
		t.Errorf("no <desc> right after </title>")
	}
	if strings.Count(svg, "<title>") != 1 || strings.Count(svg, "<desc>") != 1 {
		t.Errorf("want exactly one <title> and one <desc>")
	}
	if strings.Contains(svg, "<title></title>") || strings.Contains(svg, "<desc></desc>") {
		t.Errorf("empty <title> or <desc>")
	}
}
