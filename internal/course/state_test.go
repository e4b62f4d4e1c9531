package course

import (
	"bufio"
	"context"
	"errors"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/topics/perceptron"
)

func perceptronDemo(t testing.TB) *demo.Demo {
	t.Helper()
	d, err := demo.NewDemo(perceptron.PerceptronSpec())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestQueryRoundTrip: encoding a parsed query and parsing it again gives
// the same state, and the encoding is canonical (defaults and keys that do
// not apply left out, keys sorted, numbers in one spelling), so one state
// has one URL.
func TestQueryRoundTrip(t *testing.T) {
	d := perceptronDemo(t)
	tests := []struct{ in, want string }{
		{"", ""},
		{"step=0&data=or&eta=1", ""},
		{"step=7&eta=0.5&data=xor", "data=xor&eta=0.5&step=7"},
		{"data=separable&n=80&sep=0.3&seed=9&order=random", "data=separable&n=80&order=random&seed=9&sep=0.3"},
		{"variant=margin&gamma=0.25", "gamma=0.25&variant=margin"},
		{"variant=classic&gamma=0.25", ""},   // γ means nothing without the margin variant
		{"n=40&data=or", ""},                 // n means nothing for a fixed set
		{"seed=007", "seed=7"},               // one spelling of a number
		{"eta=0.50", "eta=0.5"},              //
		{"eta=5e-324", "eta=5e-324"},         // shortest round-trip form, not 326 digits
		{"add=1e-300,0,1", "add=1e-300,0,1"}, //
		{"add=1.5,-2,1~0,0,-1&del=2,0", "add=1.5,-2,1~0,0,-1&del=0,2"},
		{"data=blobs&multi=ovo&class=2", "class=2&data=blobs&multi=ovo"},
		{"step=end", "step=end"},
		{"order=random&seed=5", "order=random&seed=5"},         // the order seed follows the data seed
		{"order=random&seed=5&aseed=5", "order=random&seed=5"}, //
		{"order=random&aseed=9", "aseed=9&order=random"},       // … unless set apart
		{"aseed=9", ""}, // no random order, no order seed
		{"stop=epochs&variant=averaged", "stop=epochs&variant=averaged"},
	}
	for _, tt := range tests {
		s := demotest.MustParse(t, d, tt.in)
		if got := s.Encode(demo.ForPage); got != tt.want {
			t.Errorf("Encode(Parse(%q)) = %q, want %q", tt.in, got, tt.want)
		}
		again := demotest.MustParse(t, d, s.Encode(demo.ForPage))
		if !slices.EqualFunc(d.Params(), d.Params(), func(p, _ demo.Param) bool { return again.Value(p.Key) == s.Value(p.Key) }) || again.Step != s.Step || !reflect.DeepEqual(again.Add, s.Add) {
			t.Errorf("%q does not round-trip: %+v vs %+v", tt.in, again, s)
		}
	}
}

func TestScopes(t *testing.T) {
	d := perceptronDemo(t)
	s := demotest.MustParse(t, d, "class=-1&data=noisy&eta=2&speed=100&step=3&theme=dark&w=400")
	for _, tt := range []struct {
		scope demo.Scope
		want  string
	}{
		{demo.ForPage, "class=-1&data=noisy&eta=2&speed=100&step=3&theme=dark&w=400"},
		{demo.ForPlot, "data=noisy&eta=2&step=3&theme=dark&w=400"},
		{demo.ForData, "data=noisy"},
		{demo.ForRun, "data=noisy&eta=2"},
	} {
		if got := s.Encode(tt.scope); got != tt.want {
			t.Errorf("Encode(%d) = %q, want %q", tt.scope, got, tt.want)
		}
	}
}

func TestQueryProblems(t *testing.T) {
	d := perceptronDemo(t)
	tests := []struct{ in, key, want string }{
		{"step=-1", "step", "0 to 20000"},
		{"eta=-2", "eta", "greater than 0"},
		{"eta=1e9", "eta", "up to 100"},
		{"eta=0", "eta", "greater than 0"},
		{"gamma=nan", "gamma", "number"},
		{"data=mnist", "data", "or, and, xor"},
		{"order=backwards", "order", "cyclic, random"},
		{"w=100000", "w", "200 to 2000"},
		{"wat=1", "wat", "unknown parameter"},
		{"eta=1&eta=2", "eta", "more than once"},
		{"add=1,2,3,4", "add", "4 fields"},
		{"add=x,2,1", "add", "x1"},
		{"add=1,2,10", "add", "label"},
		{"add=" + strings.Repeat("1,1,1~", demo.MaxPoints) + "1,1,1", "add", "at most 500"},
		{"del=-1", "del", "point index"},
		{"del=2,0,2", "del", "twice"},
		{"demo=perceptron", "demo", "does not name"},
		{"seed=" + strings.Repeat("9", 100000), "seed", "…"},
	}
	for _, tt := range tests {
		v, _ := url.ParseQuery(tt.in)
		_, probs := d.Parse(v)
		if !strings.Contains(probs[tt.key], tt.want) {
			t.Errorf("Parse(%.40q)[%s] = %q, want it to mention %q", tt.in, tt.key, probs[tt.key], tt.want)
		}
		if len(probs[tt.key]) > 300 {
			t.Errorf("Parse(%.40q)[%s] is %d bytes; a message quotes at most ~60 characters of a value", tt.in, tt.key, len(probs[tt.key]))
		}
	}
}

// TestFormsKeepPoints: no control loses the learner's points. The data
// form carries added points along (its own keys and del are left to the
// form); the algorithm form carries everything else.
func TestFormsKeepPoints(t *testing.T) {
	d := perceptronDemo(t)
	s := demotest.MustParse(t, d, "add=1,2,1~3,4,-1&data=custom&eta=2&step=5")
	for _, f := range d.Forms(s) {
		got := map[string]string{}
		for _, h := range f.Hidden {
			got[h.Key] = h.Value
		}
		if got["add"] != "1,2,1~3,4,-1" {
			t.Errorf("%s form drops the added points: hidden %v", f.Legend, got)
		}
		if _, has := got["step"]; has {
			t.Errorf("%s form keeps the step; a change starts again at step 0", f.Legend)
		}
		for _, c := range f.Controls {
			if _, dup := got[c.Key]; dup {
				t.Errorf("%s form sends %s twice", f.Legend, c.Key)
			}
		}
	}
}

// TestFormAttributesFromParams: the form's limits are the parser's.
func TestFormAttributesFromParams(t *testing.T) {
	d := perceptronDemo(t)
	s := demotest.MustParse(t, d, "data=separable")
	found := map[string]demo.Control{}
	for _, f := range d.Forms(s) {
		for _, c := range f.Controls {
			found[c.Key] = c
		}
	}
	for key, want := range map[string][2]string{"n": {"4", "500"}, "sep": {"0", "2"}, "epochs": {"1", "1000"}, "eta": {"", "100"}} {
		c, ok := found[key]
		if !ok || c.Min != want[0] || c.Max != want[1] {
			t.Errorf("control %s = %+v, want min %q max %q", key, c, want[0], want[1])
		}
	}
	if _, ok := found["gamma"]; ok {
		t.Error("γ has a control although the variant is classic")
	}
}

// FuzzParse: no query of any demo, however odd, panics or computes to an
// internal error (a 500); a valid one round-trips. The seeds are the shared corpus in the repository's
// testdata (a line "svm-soft:C=0.01" seeds that demo, a line without a
// demo's ID seeds every demo) and every demo's declared examples. Run with
// make fuzz.
func FuzzParse(f *testing.F) {
	course, err := Default()
	if err != nil {
		f.Fatal(err)
	}
	demos := course.Demos
	for k, d := range demos {
		for _, ex := range d.Examples {
			f.Add(uint8(k), ex.Query)
		}
	}
	for _, s := range fuzzSeeds(f) {
		for k, d := range demos {
			if q, ok := strings.CutPrefix(s, d.ID+":"); ok {
				f.Add(uint8(k), q)
				break
			} else if !strings.Contains(s, ":") || strings.Index(s, ":") > strings.Index(s+"=", "=") {
				f.Add(uint8(k), s)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, raw string) {
		d := demos[int(which)%len(demos)]
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		s, probs := d.Parse(v)
		if len(probs) > 0 {
			return
		}
		if _, err := d.ExecuteFigure(context.Background(), s, ""); err != nil {
			// A state that parses may be refused (a key, a combination
			// that cannot be computed) but is never a bug: no 500.
			var internal *demo.InternalError
			if errors.As(err, &internal) {
				t.Errorf("%s %q: an internal error on a parsed state: %v", d.ID, raw, err)
			}
			return
		}
		again, probs := d.Parse(s.Values(demo.ForPage))
		if len(probs) > 0 || again.Encode(demo.ForPage) != s.Encode(demo.ForPage) {
			t.Errorf("%s %q: canonical form %q does not parse back (%v)", d.ID, raw, s.Encode(demo.ForPage), probs)
		}
	})
}

func fuzzSeeds(t testing.TB) []string {
	t.Helper()
	f, err := os.Open("../../testdata/fuzz/queries.txt")
	if err != nil {
		t.Fatalf("fuzz seeds: %v", err)
	}
	defer f.Close()
	var seeds []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		seeds = append(seeds, sc.Text())
	}
	return seeds
}
