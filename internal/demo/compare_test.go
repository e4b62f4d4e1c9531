package demo

import (
	"context"
	"errors"
	"io"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/render"
)

// A toy stepping demo for comparisons: a run of `len` steps (an
// algorithm parameter), a `kind` whose `g` applies only to kind b, and a
// data parameter n. Its panel counts the step, and kind b adds a counter
// kind a lacks.
var (
	cmpLen  = Int{Key: "len", Label: "length", Doc: "steps in the run", Group: GroupAlgo, Default: 5, Min: 1, Max: 100}
	cmpKind = Choice{Key: "kind", Label: "kind", Doc: "kind", Group: GroupAlgo, Default: "a", Options: []Option{{"a", ""}, {"b", ""}}}
	cmpG    = Float{Key: "g", Label: "g", Doc: "g", Group: GroupAlgo, Default: 1, Min: 0, Max: 10, Step: "any",
		When: func(s State) bool { return cmpKind.Is(s, "b") }}
	cmpN = Int{Key: "n", Label: "n", Doc: "points", Group: GroupData, Default: 3, Min: 1, Max: 9}
)

func cmpDemo(t *testing.T) *Demo {
	t.Helper()
	d, err := NewDemo(Spec{ID: "toy", Title: "Toy", Lesson: "toy", Params: Params(cmpLen, cmpKind, cmpG, cmpN),
		Compute: func(_ context.Context, in Input) (Result, error) {
			end := cmpLen.Get(in.State)
			k := min(in.Step, end)
			draw := func(w io.Writer, _ bool, _ render.Options) (render.Frame, error) {
				_, err := io.WriteString(w, `<svg xmlns="http://www.w3.org/2000/svg"/>`)
				return render.Frame{}, err
			}
			return Result{Step: k, Done: k == end, Plot: draw, Panel: func() Panel {
				p := Panel{Counters: []Counter{{Label: "step", Value: strconv.Itoa(k), TestID: "step"}}, Status: "running"}
				if cmpKind.Is(in.State, "b") {
					p.Counters = append(p.Counters, Counter{Label: "g used", Value: strconv.FormatFloat(cmpG.Get(in.State), 'g', -1, 64)})
				}
				return p
			}}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestParseCompare(t *testing.T) {
	d := cmpDemo(t)
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"b.len=5", ""},                      // equal to run a's: dropped
		{"len=7&b.len=5", "b.len=5&len=7"},   // run b keeps its own
		{"b.g=2&b.kind=b", "b.g=2&b.kind=b"}, // together, whatever the order
		{"b.g=2", ""},                        // g does not apply in run b
		{"kind=b&g=3&b.kind=a", "b.kind=a&g=3&kind=b"}, // run b's g stops applying
		{"step=3&n=4&b.len=9", "b.len=9&n=4&step=3"},   // data and step shared
		{"speed=100&b.len=2&step=end", "b.len=2&speed=100&step=end"},
	} {
		q, _ := url.ParseQuery(c.in)
		p, probs := d.ParseCompare(q)
		if len(probs) > 0 {
			t.Errorf("ParseCompare(%q): %v", c.in, probs)
			continue
		}
		if got := p.Query(); got != c.want {
			t.Errorf("ParseCompare(%q).Query() = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, key, want string }{
		{"b.n=4", "b.n", "run b takes only algorithm parameters: b.g, b.kind, b.len"},
		{"b.w=300", "b.w", "only algorithm"},
		{"b.step=3", "b.step", "only algorithm"},
		{"b.nosuch=1", "b.nosuch", "only algorithm"},
		{"b.len=0", "b.len", "not a whole number from 1 to 100"},
		{"b.len=2&b.len=3", "b.len", "more than once"},
		{"b.kind=c", "b.kind", "not one of a, b"},
		{"len=x&b.len=2", "len", "not a whole number"},
		{"op=add&px=1&py=1&pl=1", "op", "point edits belong on the demo page"},
	} {
		q, _ := url.ParseQuery(c.in)
		_, probs := d.ParseCompare(q)
		if !strings.Contains(probs[c.key], c.want) {
			t.Errorf("ParseCompare(%q)[%s] = %q, want %q (all: %v)", c.in, c.key, probs[c.key], c.want, probs)
		}
	}
}

// TestExecuteCompare: a run that ends first holds its last state, the
// step shown is at most the later end, and the table aligns the runs'
// counters, with "—" where a run has none.
func TestExecuteCompare(t *testing.T) {
	d := cmpDemo(t)
	for _, c := range []struct {
		q           string
		step, a, b  int
		done, heldA bool
		next        bool
	}{
		{"b.len=9&step=3", 3, 3, 3, false, false, true},
		{"b.len=9&step=7", 7, 5, 7, false, true, true},
		{"b.len=9&step=end", 9, 5, 9, true, true, false},
		{"b.len=9&step=50", 9, 5, 9, true, true, false},
		{"len=2&b.len=1&step=end", 2, 2, 1, true, false, false},
	} {
		q, _ := url.ParseQuery(c.q)
		p, probs := d.ParseCompare(q)
		if len(probs) > 0 {
			t.Fatal(probs)
		}
		cmp, err := d.ExecuteCompare(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if cmp.Step != c.step || cmp.A.State.Step != c.a || cmp.B.State.Step != c.b || cmp.Done != c.done || cmp.Held(cmp.A) != c.heldA {
			t.Errorf("%s: step %d (a %d, b %d), done %v, a held %v; want %d (%d, %d), %v, %v", c.q,
				cmp.Step, cmp.A.State.Step, cmp.B.State.Step, cmp.Done, cmp.Held(cmp.A), c.step, c.a, c.b, c.done, c.heldA)
		}
		v, err := CompareViewOn(cmp, d.ComparePath())
		if err != nil {
			t.Fatal(err)
		}
		if (v.Controls.Links.Next != "") != c.next {
			t.Errorf("%s: Next %q, want a link: %v", c.q, v.Controls.Links.Next, c.next)
		}
		if c.heldA && !strings.Contains(v.A.Held, "stopped at step "+strconv.Itoa(c.a)) {
			t.Errorf("%s: run a says %q", c.q, v.A.Held)
		}
	}
	q, _ := url.ParseQuery("b.kind=b&b.g=2&step=2")
	p, _ := d.ParseCompare(q)
	cmp, err := d.ExecuteCompare(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	v, err := CompareViewOn(cmp, d.PresentComparePath())
	if err != nil {
		t.Fatal(err)
	}
	// Run a lacks g: its row is not two values of one quantity, so not
	// marked as differing.
	want := []CompareRow{{"step", "step", "2", "2", false, "a-step", "b-step"}, {"g used", "g-used", Missing, "2", false, "a-g-used", "b-g-used"},
		{"status", "status", "running", "running", false, "a-status", "b-status"}}
	if len(v.Table.Rows) != len(want) {
		t.Fatalf("rows %v, want %v", v.Table.Rows, want)
	}
	for i, r := range v.Table.Rows {
		if r != want[i] {
			t.Errorf("row %d = %v, want %v", i, r, want[i])
		}
	}
	if v.Table.HeadA != "a: kind = a" || v.Table.HeadB != "b: kind = b, g = 2" || !v.Present {
		t.Errorf("heads %q, %q (present %v)", v.Table.HeadA, v.Table.HeadB, v.Present)
	}
	if !strings.HasPrefix(v.Controls.Links.Next, d.PresentComparePath()+"?b.g=2&b.kind=b&step=3") {
		t.Errorf("Next = %q, off the presenter view", v.Controls.Links.Next)
	}
}

// TestCompareWork: a demo that declares its StepWork shows a comparison
// only as far as CompareWork pays for both runs: a step past that is
// refused naming step and the last step allowed, step=end stops there
// (and says the comparison is done), and no run is computed past it.
func TestCompareWork(t *testing.T) {
	d := cmpDemo(t)
	compute, furthest := d.Compute, 0
	d.Compute = func(ctx context.Context, in Input) (Result, error) {
		furthest = max(furthest, in.Step)
		return compute(ctx, in)
	}
	// Run a's steps cost CompareWork/8, run b's (kind b) CompareWork/24:
	// both together pay for 6 steps.
	d.StepWork = func(s State, _ int) int64 {
		if cmpKind.Is(s, "b") {
			return CompareWork / 24
		}
		return CompareWork / 8
	}
	for _, c := range []struct {
		q          string
		step       int
		done, next bool
		refused    string // in the error naming step, when refused
	}{
		{q: "b.kind=b&b.len=9&step=5", step: 5, next: true},
		{q: "b.kind=b&b.len=9&step=6", step: 6, done: true},
		{q: "b.kind=b&b.len=9&step=end", step: 6, done: true},
		{q: "b.kind=b&b.len=9&step=7", refused: "show step 6 or less"},
		{q: "b.len=9&step=5", refused: "show step 4 or less"}, // two runs of kind a: 4 steps
		{q: "len=2&b.kind=b&b.len=3&step=end", step: 3, done: true},
	} {
		furthest = 0
		q, _ := url.ParseQuery(c.q)
		p, probs := d.ParseCompare(q)
		if len(probs) > 0 {
			t.Fatal(probs)
		}
		cmp, err := d.ExecuteCompare(context.Background(), p)
		if c.refused != "" {
			var in *InputError
			if !errors.As(err, &in) || in.Key != KeyStep || !strings.Contains(err.Error(), c.refused) {
				t.Errorf("%s: err = %v, want a refusal of step saying %q", c.q, err, c.refused)
			}
			if furthest > 0 {
				t.Errorf("%s: refused, yet a run was computed to step %d", c.q, furthest)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if limit := d.CompareMaxStep(p, 0); furthest > limit {
			t.Errorf("%s: a run computed to step %d, past the comparison's last step %d", c.q, furthest, limit)
		}
		if cmp.Step != c.step || cmp.Done != c.done {
			t.Errorf("%s: step %d, done %v; want %d, %v", c.q, cmp.Step, cmp.Done, c.step, c.done)
		}
		v, err := CompareViewOn(cmp, d.ComparePath())
		if err != nil {
			t.Fatal(err)
		}
		// Run a (of 5 steps) ends at step 5; run b at the last step shown
		// would go on, and says so.
		if wantB := cmp.Step == cmp.MaxStep && !cmp.B.Done; strings.Contains(v.B.Held, "shows at most 6 steps") != wantB || strings.Contains(v.A.Held, "at most") {
			t.Errorf("%s: run a says %q, run b %q; want run b to say it goes on: %v", c.q, v.A.Held, v.B.Held, wantB)
		}
		if (v.Controls.Links.Next != "") != c.next || v.Controls.MaxStep != cmp.MaxStep {
			t.Errorf("%s: Next %q (want a link: %v), controls' MaxStep %d, want %d", c.q, v.Controls.Links.Next, c.next, v.Controls.MaxStep, cmp.MaxStep)
		}
	}
}
