package lessons

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func mustParse(t *testing.T, raw string) PerceptronQuery {
	t.Helper()
	v, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatal(err)
	}
	q, probs := ParsePerceptron(v)
	if len(probs) > 0 {
		t.Fatalf("ParsePerceptron(%q): %v", raw, probs)
	}
	return q
}

// TestQueryRoundTrip: encoding a parsed query and parsing it again gives
// the same state, and the encoding is canonical (defaults left out, keys
// sorted), so one state has one URL.
func TestQueryRoundTrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"step=0&data=or&eta=1", ""},
		{"step=7&eta=0.5&data=xor", "data=xor&eta=0.5&step=7"},
		{"data=separable&n=80&sep=0.3&seed=9&order=random", "data=separable&n=80&order=random&seed=9&sep=0.3"},
		{"variant=margin&gamma=0.25", "gamma=0.25&variant=margin"},
		{"variant=classic&gamma=0.25", ""}, // γ means nothing without the margin variant
		{"add=1.5,-2,1~0,0,-1&del=2,0", "add=1.5,-2,1~0,0,-1&del=2,0"},
		{"data=blobs&multi=ovo&class=2", "class=2&data=blobs&multi=ovo"},
		{"step=end", "step=end"},
	}
	for _, tt := range tests {
		q := mustParse(t, tt.in)
		if got := q.Encode(); got != tt.want {
			t.Errorf("Encode(Parse(%q)) = %q, want %q", tt.in, got, tt.want)
		}
		if again := mustParse(t, q.Encode()); !reflect.DeepEqual(again, q) {
			t.Errorf("%q does not round-trip: %+v vs %+v", tt.in, again, q)
		}
	}
}

func TestQueryProblems(t *testing.T) {
	tests := []struct{ in, key, want string }{
		{"step=-1", "step", "0 to 20000"},
		{"eta=-2", "eta", "greater than 0"},
		{"eta=1e9", "eta", "up to 100"},
		{"gamma=nan", "gamma", "number"},
		{"data=mnist", "data", "or, and, xor"},
		{"order=backwards", "order", "cyclic, random"},
		{"w=100000", "w", "200 to 2000"},
		{"wat=1", "wat", "unknown parameter"},
		{"add=1,2,3,4", "add", "4 fields"},
		{"add=x,2,1", "add", "x1"},
		{"add=" + strings.Repeat("1,1,1~", MaxPoints) + "1,1,1", "add", "at most 500"},
		{"del=-1", "del", "point index"},
	}
	for _, tt := range tests {
		v, _ := url.ParseQuery(tt.in)
		_, probs := ParsePerceptron(v)
		if !strings.Contains(probs[tt.key], tt.want) {
			t.Errorf("ParsePerceptron(%.40q)[%s] = %q, want it to mention %q", tt.in, tt.key, probs[tt.key], tt.want)
		}
	}
}

func TestEdits(t *testing.T) {
	q := mustParse(t, "data=or&step=9")
	q2, err := q.Apply(Edit{Op: "add", Point: Point{0.12345, -1, -1}})
	if err != nil || q2.Encode() != "add=0.123,-1,-1" {
		t.Errorf("add = %q, %v", q2.Encode(), err)
	}
	if q.Step != 9 || len(q.Add) != 0 {
		t.Errorf("Apply modified its receiver")
	}
	// Points are OR's 0..3 then the added one at 4. Remove 1, then the
	// new point 1 (originally 2), then the added point.
	steps := []struct {
		remove int
		want   string
	}{{1, "add=0.123,-1,-1&del=1"}, {1, "add=0.123,-1,-1&del=1,2"}, {2, "del=1,2"}, {0, "del=0,1,2"}}
	for _, s := range steps {
		if q2, err = q2.Apply(Edit{Op: "remove", Index: s.remove}); err != nil || q2.Encode() != s.want {
			t.Fatalf("remove %d = %q, %v; want %q", s.remove, q2.Encode(), err, s.want)
		}
	}
	if _, err := q2.Apply(Edit{Op: "remove", Index: 0}); err == nil {
		t.Error("removing the last point succeeded")
	}
}

func TestCSVRoundTrip(t *testing.T) {
	pts := []Point{{0, 0, -1}, {1.25, -3, 1}, {1e-3, 200, 1}}
	var b strings.Builder
	if err := WriteCSV(&b, pts); err != nil {
		t.Fatal(err)
	}
	got, err := ParseCSV(strings.NewReader(b.String()))
	if err != nil || !reflect.DeepEqual(got, pts) {
		t.Errorf("round trip = %v, %v; want %v\n%s", got, err, pts, b.String())
	}
	bad := []struct{ in, want string }{
		{"", "no points"},
		{"x1,x2,label\n", "no points"},
		{"1,2\n", "no points"},
		{"0,0,1\n1,2\n", "line 2"},
		{"0,0,1\n1,NaN,1\n", "line 2"},
		{"0,0,1\n1,1,12\n", "label"},
	}
	for _, tt := range bad {
		if _, err := ParseCSV(strings.NewReader(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseCSV(%q) = %v, want an error mentioning %q", tt.in, err, tt.want)
		}
	}
}

// FuzzParsePerceptron: no query, however odd, panics; a valid one
// round-trips. Run with make fuzz.
func FuzzParsePerceptron(f *testing.F) {
	for _, s := range []string{"", "step=3", "add=1,2,1~3,4,-1&del=0", "data=blobs&multi=ovo&step=end", "eta=1e-300"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, probs := ParsePerceptron(v)
		if len(probs) > 0 {
			return
		}
		if _, err := RunPerceptron(q); err != nil {
			return
		}
		again, probs := ParsePerceptron(q.Values())
		if len(probs) > 0 || again.Encode() != q.Encode() {
			t.Errorf("%q: canonical form %q does not parse back (%v)", raw, q.Encode(), probs)
		}
	})
}
