package course

import (
	"net/url"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

func TestEdits(t *testing.T) {
	d := perceptronDemo(t)
	s := demotest.MustParse(t, d, "data=or&step=9")
	s2, err := s.Apply(demo.Edit{Op: "add", Point: demo.Point{0.12345, -1, -1}})
	if err != nil || s2.Encode(demo.ForPage) != "add=0.123,-1,-1" {
		t.Errorf("add = %q, %v", s2.Encode(demo.ForPage), err)
	}
	if s.Step != 9 || len(s.Add) != 0 {
		t.Errorf("Apply modified its receiver")
	}
	// Points are OR's 0..3 then the added one at 4. Remove 1, then the
	// new point 1 (originally 2), then the added point.
	steps := []struct {
		remove int
		want   string
	}{{1, "add=0.123,-1,-1&del=1"}, {1, "add=0.123,-1,-1&del=1,2"}, {2, "del=1,2"}, {0, "del=0,1,2"}}
	for _, st := range steps {
		if s2, err = s2.Apply(demo.Edit{Op: "remove", Index: st.remove}); err != nil || s2.Encode(demo.ForPage) != st.want {
			t.Fatalf("remove %d = %q, %v; want %q", st.remove, s2.Encode(demo.ForPage), err, st.want)
		}
	}
	if _, err := s2.Apply(demo.Edit{Op: "remove", Index: 0}); err == nil {
		t.Error("removing the last point succeeded")
	}
}

func TestSplitEdit(t *testing.T) {
	d := perceptronDemo(t)
	tests := []struct {
		in       string
		ok       bool
		probKey  string
		wantEdit demo.Edit
	}{
		{"eta=2", false, "", demo.Edit{}},
		{"op=add&px=1&py=2&pl=-1&eta=2", true, "", demo.Edit{Op: "add", Point: demo.Point{1, 2, -1}}},
		{"op=remove&pi=3", true, "", demo.Edit{Op: "remove", Index: 3}},
		{"op=add&px=1&py=2", true, "op", demo.Edit{}},
		{"op=add&px=1&py=2&pl=12", true, "pl", demo.Edit{}},
		{"op=add&px=nan&py=2&pl=1", true, "px", demo.Edit{}},
		{"op=flip", true, "op", demo.Edit{}},
		{"px=1", false, "px", demo.Edit{}},
	}
	for _, tt := range tests {
		q, _ := url.ParseQuery(tt.in)
		e, rest, ok, probs := d.SplitEdit(q)
		if ok != tt.ok || (tt.probKey == "") != (len(probs) == 0) || (tt.probKey != "" && probs[tt.probKey] == "") {
			t.Errorf("SplitEdit(%q) = ok %v, problems %v; want ok %v, a problem with %q", tt.in, ok, probs, tt.ok, tt.probKey)
			continue
		}
		if tt.probKey == "" && tt.ok && e != tt.wantEdit {
			t.Errorf("SplitEdit(%q) = %+v, want %+v", tt.in, e, tt.wantEdit)
		}
		for k := range rest {
			if k == "op" || k == "px" || k == "pl" {
				t.Errorf("SplitEdit(%q) leaves %s in the state", tt.in, k)
			}
		}
	}
}

func TestCSV(t *testing.T) {
	d := perceptronDemo(t)
	pts := []demo.Point{{0, 0, -1}, {1.25, -3, 1}, {1e-3, 200, 1}}
	var b strings.Builder
	if err := d.WriteCSV(&b, pts); err != nil {
		t.Fatal(err)
	}
	got, err := d.ParseCSV(strings.NewReader(b.String()))
	if err != nil || !reflect.DeepEqual(got, pts) {
		t.Errorf("round trip = %v, %v; want %v\n%s", got, err, pts, b.String())
	}
	bad := []struct{ in, want string }{
		{"", "no points"},
		{"x1,x2,label\n", "no points"},
		{"0,0,1\n1,2\n", "line 2"},
		{"0,0,1\n1,NaN,1\n", "line 2"},
		{"0,0,1\n1,1,12\n", "label"},
		// A numeric first line that fails is a bad point, not a header.
		{"1,1,10\n0,0,1\n1,1,-1\n", "line 1"},
		{"1,2\n0,0,1\n", "line 1"},
		// Only a line with no number in it is a header (issue 18 §1.7).
		{"1,2,abc\n0,0,1\n", "line 1"},
		{"1e999,2,1\n0,0,1\n", "line 1"},
		{"=cmd|' /C calc'!A0,1,1\n0,0,1\n", "line 1"},
		{"x1,x2,label\x00\n0,0,1\n", "line 1"},
		{"0,0,1\n1,\x001,1\n", "line 2"},
		{"x1,x2,label\n0,0,1\n\n\n1,1,x\n", "line 5"},
	}
	// Excel's "CSV UTF-8" starts with a byte-order mark: no point is lost.
	for _, in := range []string{"\uFEFF0.5,1,1\n0,0,-1\n", "\uFEFFx1,x2,label\n0.5,1,1\n0,0,-1\n"} {
		if got, err := d.ParseCSV(strings.NewReader(in)); err != nil || len(got) != 2 || got[0] != (demo.Point{X1: 0.5, X2: 1, Y: 1}) {
			t.Errorf("ParseCSV(%q) = %v, %v; want 2 points from 0.5,1,1", in, got, err)
		}
	}
	for _, tt := range bad {
		if _, err := d.ParseCSV(strings.NewReader(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseCSV(%q) = %v, want an error mentioning %q", tt.in, err, tt.want)
		}
	}
}

// TestUploadSamples reads the shared CSV samples in testdata/upload.
func TestUploadSamples(t *testing.T) {
	d := perceptronDemo(t)
	tests := []struct {
		file string
		n    int    // points, when it parses
		want string // error text, when it does not
	}{
		{"good.csv", 5, ""},
		{"noheader.csv", -1, ""},
		{"blank_lines.csv", -1, ""},
		{"classes.csv", -1, ""},
		{"bad_first_line.csv", 0, "line 1"},
		{"bad_label.csv", 0, "label"},
		{"nan.csv", 0, "not a number"},
		{"too_many.csv", 0, "at most 500"},
		{"excel_bom.csv", 2, ""},
		{"formula.csv", 0, "line 1"},
		{"nul.csv", 0, "line 2"},
	}
	for _, tt := range tests {
		f, err := os.Open("../../testdata/upload/" + tt.file)
		if err != nil {
			t.Fatal(err)
		}
		pts, err := d.ParseCSV(f)
		f.Close()
		switch {
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one mentioning %q", tt.file, err, tt.want)
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.file, err)
		case tt.want == "" && tt.n >= 0 && len(pts) != tt.n:
			t.Errorf("%s: %d points, want %d", tt.file, len(pts), tt.n)
		}
	}
}

// TestNotesDataSets: the built-in truth tables are the notes' data sets
// kept in testdata (OR is Example 1.1.3; XOR is Example 1.2.10).
func TestNotesDataSets(t *testing.T) {
	d := perceptronDemo(t)
	for _, name := range []string{"or", "and", "xor"} {
		f, err := os.Open("../../testdata/" + name + ".csv")
		if err != nil {
			t.Fatal(err)
		}
		want, err := d.ParseCSV(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, err := demotest.MustParse(t, d, "data="+name).Points()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("data=%s = %v, %v; testdata/%s.csv has %v", name, got, err, name, want)
		}
	}
}

// TestSplitEditStrict: an empty op, a repeated key or a label that is not
// a whole number is a problem, never a silent default.
func TestSplitEditStrict(t *testing.T) {
	d := perceptronDemo(t)
	for _, in := range []string{"op=&px=1&py=1&pl=1", "op=add&op=add&px=1&py=1&pl=1", "op=add&px=1&py=1&pl=1.0", "op=remove&pi=1&pi=2"} {
		q, _ := url.ParseQuery(in)
		if _, _, ok, probs := d.SplitEdit(q); !ok || len(probs) == 0 {
			t.Errorf("SplitEdit(%q) = ok %v, problems %v; want a problem", in, ok, probs)
		}
	}
}
